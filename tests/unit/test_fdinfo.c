// SPDX-License-Identifier: GPL-2.0-or-later
/* fdinfo of io_uring fds in every format from 5.10 to 6.18, busy rings, garbage. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "procfs.h"
#include "testutil.h"
#include "xalloc.h"

#define FD TESTDATA "/fdinfo/"

static void parse(const char *file, struct uring_fdinfo *u, int want)
{
	char *text = slurp(file);

	assert_int_equal(uring_fdinfo_parse(text, u), want);
	free(text);
}

static void test_6_18(void **state)
{
	struct fdinfo_generic g;
	struct uring_fdinfo u;
	char *text = slurp(FD "linux-6.18-sqpoll.txt");

	(void)state;
	assert_int_equal(fdinfo_parse_generic(text, &g), 0);
	assert_int_equal(g.flags, 02000002);
	assert_int_equal(g.mnt_id, 17);
	free(text);
	parse(FD "linux-6.18-sqpoll.txt", &u, 0);
	assert_true(u.has_ring_state);
	assert_int_equal(u.sq_entries, 32);
	assert_int_equal(u.cq_entries, 64);
	assert_int_equal(u.sq_thread, 31436);
	assert_int_equal(u.sq_thread_cpu, 1);
	assert_true(u.has_sq_times);
	/* 6.14+: full paths, the empty slot left out. */
	assert_int_equal(u.user_files, 3);
	assert_int_equal(u.nfiles, 2);
	assert_string_equal(u.files[0].path, "/srv/data/data.bin");
	assert_int_equal(u.files[1].index, 2);
	assert_int_equal(u.user_bufs, 2);
	assert_int_equal(u.nbufs, 2);
	assert_int_equal(u.bufs[1].addr, 0x36654000);
	assert_int_equal(u.bufs[1].len, 4096);
	assert_true(u.has_overflow_list);
	assert_int_equal(u.cq_overflow, 0);
	assert_true(u.has_napi);
	assert_false(uring_fdinfo_lock_skipped(&u, false));
	uring_fdinfo_free(&u);

	parse(FD "linux-6.18-plain.txt", &u, 0);
	assert_int_equal(u.sq_thread, -1);
	assert_int_equal(u.sq_head, 4);
	assert_int_equal(u.nfiles, 0);
	uring_fdinfo_free(&u);
}

static void test_6_1(void **state)
{
	struct uring_fdinfo u;

	(void)state;
	parse(FD "linux-6.1-sqpoll.txt", &u, 0);
	assert_int_equal(u.sq_thread, 101);
	assert_false(u.has_sq_times);	/* before 6.9 */
	assert_false(u.has_napi);
	/* Before 6.14: basenames, and "<none>" for the empty slot. */
	assert_int_equal(u.user_files, 3);
	assert_int_equal(u.user_file_lines, 3);
	assert_int_equal(u.nfiles, 2);
	assert_string_equal(u.files[0].path, "data.bin");
	assert_string_equal(u.files[1].path, "log.txt");
	assert_false(uring_fdinfo_lock_skipped(&u, true));
	uring_fdinfo_free(&u);
}

static void test_5_10_and_5_15(void **state)
{
	struct uring_fdinfo u;

	(void)state;
	parse(FD "linux-5.10-sqpoll.txt", &u, 0);
	assert_false(u.has_ring_state);	/* no SqMask before 5.17 */
	assert_false(u.has_overflow_list);
	assert_int_equal(u.sq_thread, 2211);
	assert_int_equal(u.sq_thread_cpu, 3);
	assert_int_equal(u.nfiles, 2);
	assert_int_equal(u.nbufs, 2);
	assert_int_equal(u.bufs[0].addr, 0x7f3a5c001000ULL);
	uring_fdinfo_free(&u);

	parse(FD "linux-5.15-plain.txt", &u, 0);
	assert_true(u.has_sq_thread);
	assert_int_equal(u.sq_thread, -1);
	assert_int_equal(u.user_files, 0);
	uring_fdinfo_free(&u);
}

static void test_6_8_overflow(void **state)
{
	struct uring_fdinfo u;

	(void)state;
	parse(FD "linux-6.8-overflow.txt", &u, 0);
	assert_int_equal(u.cq_entries, 8);
	assert_int_equal(u.cqes_pending, 8);
	assert_true(u.has_overflow_list);
	assert_int_equal(u.cq_overflow, 3);
	uring_fdinfo_free(&u);
}

static void test_6_13(void **state)
{
	struct uring_fdinfo u;

	(void)state;
	parse(FD "linux-6.13-sqpoll.txt", &u, 0);
	assert_int_equal(u.sq_total_time_us, 2400000);
	assert_int_equal(u.sq_work_time_us, 1800000);
	assert_int_equal(u.nfiles, 1);
	assert_int_equal(u.nbufs, 1);
	assert_int_equal(u.bufs[0].len, 65536);
	uring_fdinfo_free(&u);
}

/* A busy ring: 6.18 prints only the generic lines; 6.12 drops the slot lines. */
/*
 * NAPI registered with prefer_busy_poll and 50 us (captured on 6.18: a
 * registered listener's socket), the 6.12 block without the tracking
 * line, and values no kernel prints.
 */
static void test_napi(void **state)
{
	static const char ring[] = "SqMask:\t0x1f\nUserFiles:\t0\nUserBufs:\t0\nPollList:\n"
				   "CqOverflowList:\n";
	struct uring_fdinfo u;
	char text[512];

	(void)state;
	parse(FD "linux-6.18-napi.txt", &u, 0);
	assert_true(u.has_napi && u.napi_on);
	assert_string_equal(u.napi_tracking, "dynamic");
	assert_true(u.has_napi_dt && u.has_napi_prefer);
	assert_int_equal(u.napi_busy_poll_dt_ns, 50000);
	assert_true(u.napi_prefer_busy_poll);
	assert_int_equal(u.nfiles, 1);
	assert_string_equal(u.files[0].path, "socket:[200052]");
	uring_fdinfo_free(&u);

	snprintf(text, sizeof(text), "%sNAPI:\tenabled\nnapi_busy_poll_dt:\t0\n"
		 "napi_prefer_busy_poll:\tfalse\n", ring);
	assert_int_equal(uring_fdinfo_parse(text, &u), 0);
	assert_true(u.napi_on && u.has_napi_dt && u.has_napi_prefer);
	assert_int_equal(u.napi_busy_poll_dt_ns, 0);
	assert_false(u.napi_prefer_busy_poll);
	assert_string_equal(u.napi_tracking, "");
	uring_fdinfo_free(&u);

	snprintf(text, sizeof(text), "%sNAPI:\tdisabled\n", ring);
	assert_int_equal(uring_fdinfo_parse(text, &u), 0);
	assert_true(u.has_napi);
	assert_false(u.napi_on || u.has_napi_dt || u.has_napi_prefer);
	uring_fdinfo_free(&u);
	/* 6.13's word for a mode it does not know: kept, and not taken for enabled. */
	snprintf(text, sizeof(text), "%sNAPI:\tunknown mode (7)\n", ring);
	assert_int_equal(uring_fdinfo_parse(text, &u), 0);
	assert_false(u.napi_on);
	assert_string_equal(u.napi, "unknown mode (7)");
	uring_fdinfo_free(&u);

	snprintf(text, sizeof(text), "%sNAPI:\tenabled\nnapi_prefer_busy_poll:\tmaybe\n", ring);
	assert_int_equal(uring_fdinfo_parse(text, &u), -EBADMSG);
	uring_fdinfo_free(&u);
	snprintf(text, sizeof(text), "%sNAPI:\tenabled\nnapi_busy_poll_dt:\t-5\n", ring);
	assert_int_equal(uring_fdinfo_parse(text, &u), -EBADMSG);
	uring_fdinfo_free(&u);
	snprintf(text, sizeof(text), "%sNAPI:\tenabled\nnapi tracking:\tdynamicdynamicdynamic\n", ring);
	assert_int_equal(uring_fdinfo_parse(text, &u), -EBADMSG);
	uring_fdinfo_free(&u);
}

static void test_busy(void **state)
{
	struct uring_fdinfo u;

	(void)state;
	parse(FD "linux-6.18-busy.txt", &u, -ENODATA);
	uring_fdinfo_free(&u);
	parse(FD "linux-6.12-busy.txt", &u, 0);
	assert_int_equal(u.sq_thread, -1);
	assert_int_equal(u.sqes_pending, 1);
	assert_true(uring_fdinfo_lock_skipped(&u, true));
	/* UserBufs print every slot on every kernel: enough on its own. */
	assert_true(uring_fdinfo_lock_skipped(&u, false));
	uring_fdinfo_free(&u);
}

/*
 * The kernel's layout is read in place, anything else by the general pass:
 * each text, and the same text behind a line that defeats the first path
 * (so the general pass reads it), must say the same.
 */
static void test_generic_two_paths(void **state)
{
	static const char *const texts[] = {
		"pos:\t0\nflags:\t0100002\nmnt_id:\t25\nino:\t131\n",
		"pos:\t4096\nflags:\t02040002\nmnt_id:\t17\nino:\t18446744073709551615\n",
		"pos:\t0\nflags:\t037777777777\nmnt_id:\t4294967295\nino:\t1\nlock:\t1: FLOCK\n",
		"pos:\t0\nflags:\t040000000000\nmnt_id:\t1\nino:\t1\n",	/* flags past 32 bits */
		"pos:\t0\nflags:\t02\nmnt_id:\t4294967296\nino:\t1\n",	/* mnt_id too */
		"pos:\t18446744073709551616\nflags:\t02\nmnt_id:\t1\nino:\t1\n",
		"pos:\t-1\nflags:\t02\nmnt_id:\t1\nino:\t1\n",
		"pos:\t0\nflags:\t08\nmnt_id:\t1\nino:\t1\n",
		"pos:\t0\nflags:\t02\nmnt_id:\t1\n",			/* before 5.1: no ino */
		"pos:\t0\nflags:\t02\nmnt_id:\t1\nino:\t12x\n",
		"pos:\t0\nflags:\t02\nmnt_id:\t1\nino:\t1",		/* cut: no last newline */
		"pos: 0\nflags:\t02\nmnt_id:\t1\nino:\t1\n",
		"flags:\t02\npos:\t0\nmnt_id:\t1\nino:\t1\n",
		"pos:\t\nflags:\t02\nmnt_id:\t1\nino:\t1\n",
		"",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		struct fdinfo_generic a, b;
		char *slow = xasprintf("eventfd-count:\t0\n%s", texts[i]);
		int ra, rb;

		memset(&a, 0x55, sizeof(a));
		memset(&b, 0xaa, sizeof(b));
		ra = fdinfo_parse_generic(texts[i], &a);
		rb = fdinfo_parse_generic(slow, &b);
		assert_int_equal(ra, rb);
		if (!ra)
			assert_memory_equal(&a, &b, sizeof(a));
		free(slow);
	}
	/* And what each says: the first three read, the others refused or without ino. */
	{
		struct fdinfo_generic g;

		assert_int_equal(fdinfo_parse_generic(texts[1], &g), 0);
		assert_int_equal(g.pos, 4096);
		assert_int_equal(g.flags, 02040002);
		assert_true(g.ino == UINT64_MAX);
		assert_int_equal(fdinfo_parse_generic(texts[3], &g), -EBADMSG);
		assert_int_equal(fdinfo_parse_generic(texts[8], &g), 0);
		assert_int_equal(g.ino, 0);
	}
}

static void test_garbage(void **state)
{
	struct fdinfo_generic g;
	struct uring_fdinfo u;

	(void)state;
	assert_int_equal(fdinfo_parse_generic("pos:\t0\nflags:\t0999\nmnt_id:\t1\n", &g), -EBADMSG);
	assert_int_equal(fdinfo_parse_generic("pos:\t0\n", &g), -EBADMSG);
	assert_int_equal(uring_fdinfo_parse("SqMask:\t7\n", &u), -EBADMSG);	/* not 0x */
	uring_fdinfo_free(&u);
	assert_int_equal(uring_fdinfo_parse("SqThread:\tabc\n", &u), -EBADMSG);
	uring_fdinfo_free(&u);
	assert_int_equal(uring_fdinfo_parse("   0: orphan entry\n", &u), -EBADMSG);
	uring_fdinfo_free(&u);
	assert_int_equal(uring_fdinfo_parse("UserBufs:\t1\n    0: 0xzz/1\n", &u), -EBADMSG);
	uring_fdinfo_free(&u);
	assert_int_equal(uring_fdinfo_parse("UserFiles:\t1\n    x: nope\n", &u), -EBADMSG);
	uring_fdinfo_free(&u);
	assert_int_equal(uring_fdinfo_parse("no colon here\n", &u), -EBADMSG);
	uring_fdinfo_free(&u);
	/* Unknown keys of a later kernel are passed over. */
	assert_int_equal(uring_fdinfo_parse("SqThread:\t5\nFutureKey:\t1\n  entry\n", &u), 0);
	assert_int_equal(u.sq_thread, 5);
	uring_fdinfo_free(&u);
}

/* Before 6.14 a registered file's name is printed raw: its newline cannot forge a key. */
static void test_forged_key(void **state)
{
	static const char text[] =
		"SqThread:\t-1\n"
		"SqThreadCpu:\t-1\n"
		"UserFiles:\t2\n"
		"    0: a\n"
		"SqThread:\t4242\n"
		"SqTotalTime:\t1\n"
		"    1: b.dat\n"
		"UserBufs:\t0\n"
		"PollList:\n";
	struct uring_fdinfo u;

	(void)state;
	assert_int_equal(uring_fdinfo_parse(text, &u), 0);
	assert_int_equal(u.sq_thread, -1);
	assert_false(u.has_sq_times);
	assert_int_equal(u.nfiles, 2);
	assert_string_equal(u.files[0].path, "a\nSqThread:\t4242\nSqTotalTime:\t1");
	assert_string_equal(u.files[1].path, "b.dat");
	assert_true(u.has_user_bufs);
	uring_fdinfo_free(&u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_6_18),
		cmocka_unit_test(test_6_1),
		cmocka_unit_test(test_5_10_and_5_15),
		cmocka_unit_test(test_6_8_overflow),
		cmocka_unit_test(test_6_13),
		cmocka_unit_test(test_napi),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_generic_two_paths),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_forged_key),
	};

	return cmocka_run_group_tests_name("fdinfo", tests, NULL, NULL);
}
