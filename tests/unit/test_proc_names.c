// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names a process chooses, as the kernel frames them: the comm raw in
 * stat between the first '(' and the last ')', escaped in status, raw with
 * a newline in comm; registered file paths escaped in fdinfo (6.14+) or
 * raw (before).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "procfs.h"
#include "proc_tasks.h"
#include "sysroot.h"
#include "testutil.h"

/* What prctl(PR_SET_NAME, "\e[31mx\e[0m\n") leaves in the 16-byte comm. */
#define HOSTILE_COMM "\033[31mx\033[0m\n"

static void test_stat_hostile_comm(void **state)
{
	const char *stat = "4242 (" HOSTILE_COMM ") S 1 4242 4242 0 -1 4194560 106 0 0 0 0 0 0 0 "
			   "20 0 2 0 123 4096 10 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 "
			   "1 0 0 0 0 0\n";
	struct proc_thread t;
	unsigned long flags = 0;

	(void)state;
	assert_int_equal(proc_stat_parse(stat, &t, &flags), 0);
	assert_int_equal(t.tid, 4242);
	assert_string_equal(t.comm, HOSTILE_COMM);
	assert_int_equal(t.state, 'S');
	assert_int_equal(flags, 4194560);
	assert_int_equal(t.cpu, 1);
}

static void test_stat_parens(void **state)
{
	struct proc_thread t;

	(void)state;
	/* ") R (" inside the comm: only the last ')' ends it. */
	assert_int_equal(proc_stat_parse("7 (a) R (\n)) D 1 2 3\n", &t, NULL), 0);
	assert_string_equal(t.comm, "a) R (\n)");
	assert_int_equal(t.state, 'D');
	assert_int_equal(proc_stat_parse("7 () Z 1\n", &t, NULL), 0);
	assert_string_equal(t.comm, "");
	assert_int_equal(t.state, 'Z');
	/* Garbage still fails, never a pass. */
	assert_int_equal(proc_stat_parse("7 (x\n", &t, NULL), -EBADMSG);
	assert_int_equal(proc_stat_parse("(x) S 1\n", &t, NULL), -EBADMSG);
	assert_int_equal(proc_stat_parse("7 (x)S 1\n", &t, NULL), -EBADMSG);
	assert_int_equal(proc_stat_parse("7 (x) 1 1\n", &t, NULL), -EBADMSG);
	assert_int_equal(proc_stat_parse(") 7 (x\n", &t, NULL), -EBADMSG);
}

static void test_status_name(void **state)
{
	const char *rest = "Umask:\t0022\nState:\tS (sleeping)\nTgid:\t9\nPid:\t9\n"
			   "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nGroups:\t\nCapEff:\t0\nThreads:\t1\n";
	struct proc_status st;
	char *text;

	(void)state;
	/* proc_task_name() escapes only the newline and the backslash. */
	assert_true(asprintf(&text, "Name:\t\033[31mx\033[0m\\n\\\\ \t\n%s", rest) > 0);
	assert_int_equal(proc_status_parse(text, &st), 0);
	assert_string_equal(st.name, "\033[31mx\033[0m\n\\ \t");
	free(text);
	assert_true(asprintf(&text, "Name:\t\\x\\\n%s", rest) > 0);
	assert_int_equal(proc_status_parse(text, &st), 0);
	assert_string_equal(st.name, "\\x\\");
	free(text);
	assert_int_equal(proc_status_parse(rest, &st), -EBADMSG);
}

static void test_comm_file(void **state)
{
	char *dir = make_tmpdir(), name[64];
	struct sysroot sr;

	(void)state;
	write_file(dir, "proc/9/comm", " irqbalance\n\t\n");
	assert_int_equal(sysroot_open(&sr, dir), 0);
	assert_int_equal(sysroot_read_name(&sr, "proc/9/comm", name, sizeof(name)), 0);
	assert_string_equal(name, " irqbalance\n\t");
	assert_int_equal(sysroot_read_name(&sr, "proc/9/comm", name, 8), -EOVERFLOW);
	sysroot_close(&sr);
	rm_rf(dir);
}

static void test_fdinfo_paths(void **state)
{
	struct uring_fdinfo u;

	(void)state;
	/* 6.14+: seq_file_path() octal-escapes space, tab, newline, backslash. */
	assert_int_equal(uring_fdinfo_parse("UserFiles:\t2\n    0: /d/a\\040b\\012  PASS\\134\xff\n"
					    "    1: /d/x\\09\nUserBufs:\t0\n", &u), 0);
	assert_int_equal(u.nfiles, 2);
	assert_string_equal(u.files[0].path, "/d/a b\n  PASS\\\xff");
	assert_string_equal(u.files[1].path, "/d/x\\09");
	uring_fdinfo_free(&u);
	/* Before 6.14: the raw dentry name, a newline and all. */
	assert_int_equal(uring_fdinfo_parse("UserFiles:\t2\n    0: evil\n  PASS   fd-o-direct\n"
					    "\n    1: plain\nUserBufs:\t1\n    0: 0x1000/4096\n", &u), 0);
	assert_int_equal(u.nfiles, 2);
	assert_string_equal(u.files[0].path, "evil\n  PASS   fd-o-direct\n");
	assert_string_equal(u.files[1].path, "plain");
	assert_int_equal(u.user_file_lines, 2);
	assert_int_equal(u.nbufs, 1);
	uring_fdinfo_free(&u);
	/* Garbage before any file is still garbage. */
	assert_int_equal(uring_fdinfo_parse("UserFiles:\t1\n    x: nope\n", &u), -EBADMSG);
	uring_fdinfo_free(&u);
}

/* A mount point or source past its buffer says so, and matches no path. */
static void test_mountinfo_long(void **state)
{
	char mp[2001], src[601], *text, *path;
	const struct mount_entry *m;
	struct mount_entry *e;
	size_t n;

	(void)state;
	memset(mp, 'm', sizeof(mp) - 1);
	mp[0] = '/';
	mp[2000] = '\0';
	memset(src, 's', sizeof(src) - 1);
	src[600] = '\0';
	assert_true(asprintf(&text, "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n"
				    "2 1 0:5 / %s rw - tmpfs %s rw\n", mp, src) > 0);
	assert_int_equal(mountinfo_parse(text, &e, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(strlen(e[1].mount_point), sizeof(e[1].mount_point) - 1);
	assert_string_equal(e[1].mount_point + sizeof(e[1].mount_point) - 4, "...");
	assert_string_equal(e[1].source + sizeof(e[1].source) - 4, "...");
	assert_true(asprintf(&path, "%s/data", mp) > 0);
	m = mountinfo_find(e, n, path, false, 0, 0);
	assert_non_null(m);
	assert_string_equal(m->mount_point, "/");
	free(path);
	free(text);
	free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_hostile_comm),
		cmocka_unit_test(test_stat_parens),
		cmocka_unit_test(test_status_name),
		cmocka_unit_test(test_comm_file),
		cmocka_unit_test(test_fdinfo_paths),
		cmocka_unit_test(test_mountinfo_long),
	};

	return cmocka_run_group_tests_name("proc_names", tests, NULL, NULL);
}
