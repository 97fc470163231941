// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/PID/status and /proc/PID/limits, on captures from 6.18 and 6.1. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "procfs.h"
#include "testutil.h"

static void test_status_6_18(void **state)
{
	char *text = slurp(TESTDATA "/host-6.18/proc/self/status");
	struct proc_status st;

	(void)state;
	assert_int_equal(proc_status_parse(text, &st), 0);
	assert_int_equal(st.euid, 0);
	assert_int_equal(st.seccomp, 0);
	assert_int_equal(st.seccomp_filters, 0);
	assert_true(proc_status_has_cap(&st, CAP_BIT_IPC_LOCK));
	assert_true(proc_status_has_cap(&st, CAP_BIT_SYS_ADMIN));
	assert_true(st.threads >= 1);
	free(text);
}

static void test_status_6_1_guest(void **state)
{
	char *text = slurp(TESTDATA "/debian12-6.1-guest/proc/self/status");
	struct proc_status st;

	(void)state;
	assert_int_equal(proc_status_parse(text, &st), 0);
	assert_string_equal(st.name, "cap");
	assert_int_equal(st.tgid, 100);
	assert_int_equal(st.threads, 6);
	assert_int_equal(st.vm_pin_kb, 8);
	assert_string_equal(st.cpus_allowed_list, "0-1");
	assert_int_equal(st.ngroups, 0);
	free(text);
}

static void test_status_unprivileged(void **state)
{
	const char *text = "Name:\tsvc\nTgid:\t42\nUid:\t1000\t1001\t1001\t1001\n"
			   "Gid:\t100\t100\t100\t100\nGroups:\t4 27 998\nThreads:\t3\n"
			   "CapEff:\t0000000000000000\nSeccomp:\t2\nSeccomp_filters:\t1\n";
	struct proc_status st;

	(void)state;
	assert_int_equal(proc_status_parse(text, &st), 0);
	assert_int_equal(st.euid, 1001);	/* effective, the second field */
	assert_int_equal(st.seccomp, 2);
	assert_false(proc_status_has_cap(&st, CAP_BIT_SYS_ADMIN));
	assert_true(proc_status_in_group(&st, 998));
	assert_true(proc_status_in_group(&st, 100));	/* egid counts */
	assert_false(proc_status_in_group(&st, 5));
	assert_int_equal(st.ns_levels, 0);		/* no NSpid line (before 4.1) */
}

/* NSpid: its pid in each PID namespace from the reader's down; the last is its own. */
static void test_status_nspid(void **state)
{
	const char *base = "Name:\tsvc\nTgid:\t19405\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n"
			   "Groups:\t\nThreads:\t1\nCapEff:\t0\n";
	char text[512];
	struct proc_status st;

	(void)state;
	snprintf(text, sizeof(text), "%sNSpid:\t19405\n", base);
	assert_int_equal(proc_status_parse(text, &st), 0);
	assert_int_equal(st.ns_levels, 1);
	assert_int_equal(st.nspid, 19405);
	/* systemd-nspawn's payload, as the host reads it: pid 1 in its own namespace. */
	snprintf(text, sizeof(text), "%sNSpid:\t19405\t1\n", base);
	assert_int_equal(proc_status_parse(text, &st), 0);
	assert_int_equal(st.ns_levels, 2);
	assert_int_equal(st.nspid, 1);
	snprintf(text, sizeof(text), "%sNSpid:\t19405\t57\t3\n", base);
	assert_int_equal(proc_status_parse(text, &st), 0);
	assert_int_equal(st.ns_levels, 3);
	assert_int_equal(st.nspid, 3);
	/* Garbage is no namespace, never a pid 0, and costs the rest of the status nothing. */
	snprintf(text, sizeof(text), "%sNSpid:\t19405\tx\n", base);
	assert_int_equal(proc_status_parse(text, &st), 0);
	assert_int_equal(st.ns_levels, 0);
	assert_int_equal(st.tgid, 19405);
	snprintf(text, sizeof(text), "%sNSpid:\t19405\t0\n", base);
	assert_int_equal(proc_status_parse(text, &st), 0);
	assert_int_equal(st.ns_levels, 0);
	assert_int_equal(st.nspid, 0);
	snprintf(text, sizeof(text), "%sNSpid:\t\n", base);
	assert_int_equal(proc_status_parse(text, &st), 0);
	assert_int_equal(st.ns_levels, 0);
}

static void test_status_garbage(void **state)
{
	struct proc_status st;

	(void)state;
	assert_int_equal(proc_status_parse("", &st), -EBADMSG);
	assert_int_equal(proc_status_parse("Name:\tx\nTgid:\tabc\n", &st), -EBADMSG);
	/* Truncated after Uid: no Gid line. */
	assert_int_equal(proc_status_parse("Name:\tx\nTgid:\t1\nUid:\t0\t0\t0\t0\n", &st), -EBADMSG);
	assert_int_equal(proc_status_parse("Name:\tx\nTgid:\t1\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n"
					   "Groups:\t\nThreads:\t1\nCapEff:\tzz\n", &st), -EBADMSG);
	assert_int_equal(proc_status_parse("Name:\tx\nTgid:\t1\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n"
					   "Groups:\t\nThreads:\t1\nCapEff:\t0\nSeccomp:\t7\n", &st),
			 -EBADMSG);
	assert_int_equal(proc_status_parse("Name:\tx\nTgid:\t1\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n"
					   "Groups:\t1 x\nThreads:\t1\nCapEff:\t0\n", &st), -EBADMSG);
}

static void test_limits(void **state)
{
	char *text = slurp(TESTDATA "/old-5.10-memlock-64k/proc/self/limits");
	struct proc_limits lim;

	(void)state;
	assert_int_equal(proc_limits_parse(text, &lim), 0);
	assert_int_equal(lim.memlock.soft, 65536);
	assert_int_equal(lim.memlock.hard, 65536);
	free(text);

	text = slurp(TESTDATA "/debian12-6.1-guest/proc/self/limits");
	assert_int_equal(proc_limits_parse(text, &lim), 0);
	assert_int_equal(lim.memlock.soft, 8388608);
	assert_int_equal(lim.nproc.soft, 1834);
	assert_int_equal(lim.nofile.soft, 1024);
	assert_int_equal(lim.nofile.hard, 4096);
	free(text);

	assert_int_equal(proc_limits_parse("Max locked memory unlimited unlimited bytes\n"
					   "Max processes 10 20 processes\n"
					   "Max open files 1 2 files\n", &lim), 0);
	assert_true(lim.memlock.soft == LIMIT_INFINITY);
}

static void test_limits_garbage(void **state)
{
	struct proc_limits lim;

	(void)state;
	assert_int_equal(proc_limits_parse("", &lim), -EBADMSG);
	assert_int_equal(proc_limits_parse("Max locked memory lots lots bytes\n"
					   "Max processes 10 20 processes\n"
					   "Max open files 1 2 files\n", &lim), -EBADMSG);
	assert_int_equal(proc_limits_parse("Max locked memory -1 5 bytes\n"
					   "Max processes 10 20 processes\n"
					   "Max open files 1 2 files\n", &lim), -EBADMSG);
	/* Truncated: the memlock row lost its hard limit. */
	assert_int_equal(proc_limits_parse("Max processes 10 20 processes\n"
					   "Max open files 1 2 files\nMax locked memory 8", &lim),
			 -EBADMSG);
}

/* Captured on 6.18 from the pathology's no-ring and attached processes. */
static void test_maps(void **state)
{
	struct proc_maps m;
	char *text;

	(void)state;
	text = slurp("tests/fuzz/seeds/maps/no-ring-6.18");
	assert_int_equal(proc_maps_parse(text, &m), 0);
	assert_int_equal(m.mappings, 31);
	assert_int_equal(m.uring_maps, 0);
	assert_int_equal(m.aio_contexts, 1);
	assert_string_equal(m.runtime, "/usr/lib/x86_64-linux-gnu/liburing.so.2.3");
	proc_maps_free(&m);
	free(text);

	/* Four rings: eight mappings (the rings and the SQEs of each). */
	text = slurp("tests/fuzz/seeds/maps/attached-6.18");
	assert_int_equal(proc_maps_parse(text, &m), 0);
	assert_int_equal(m.uring_maps, 8);
	assert_int_equal(m.aio_contexts, 0);
	proc_maps_free(&m);
	free(text);

	/* liburing-ffi, a deleted file after an upgrade; a path with a blank. */
	assert_int_equal(proc_maps_parse("7f00-7f01 r-xp 00000000 fe:00 12 /opt/a b/liburing-ffi.so.2.5 "
					 "(deleted)\n7f02-7f03 rw-p 00000000 00:00 0\n", &m), 0);
	assert_string_equal(m.runtime, "/opt/a b/liburing-ffi.so.2.5 (deleted)");
	assert_int_equal(m.mappings, 2);
	assert_int_equal(m.nlibs, 1);
	assert_string_equal(m.libs[0], "liburing-ffi.so.2.5");
	proc_maps_free(&m);
	/* A file only named like the library, in a directory, does not count. */
	assert_int_equal(proc_maps_parse("7f00-7f01 r--p 0 fe:00 12 /srv/liburing.so.d/x\n", &m), 0);
	assert_string_equal(m.runtime, "");
	proc_maps_free(&m);
	assert_int_equal(proc_maps_parse("", &m), 0);
	assert_int_equal(m.mappings, 0);
}

static void test_maps_garbage(void **state)
{
	struct proc_maps m;

	(void)state;
	assert_int_equal(proc_maps_parse("banana\n", &m), -EBADMSG);
	assert_int_equal(proc_maps_parse("7f00-7f01 r--p 0 fe:00\n", &m), -EBADMSG);
	assert_int_equal(proc_maps_parse("zz 7f00-7f01 r--p 0 fe:00 1\n", &m), -EBADMSG);
	assert_int_equal(proc_maps_parse(" 7f00-7f01 r--p 0 fe:00 1 /x\n", &m), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_6_18),
		cmocka_unit_test(test_status_6_1_guest),
		cmocka_unit_test(test_status_unprivileged),
		cmocka_unit_test(test_status_nspid),
		cmocka_unit_test(test_status_garbage),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_limits_garbage),
		cmocka_unit_test(test_maps),
		cmocka_unit_test(test_maps_garbage),
	};

	return cmocka_run_group_tests_name("procfs", tests, NULL, NULL);
}
