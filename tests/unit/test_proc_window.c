// SPDX-License-Identifier: GPL-2.0-or-later
/* The audit's window: schedstat, and a thread's times between two readings. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "proc_window.h"
#include "testutil.h"

static void test_schedstat(void **state)
{
	uint64_t run = 1, wait = 1, slices = 1;

	(void)state;
	assert_int_equal(schedstat_parse("269650752 42907316 453\n", &run, &wait, &slices), 0);
	assert_true(run == 269650752ull && wait == 42907316ull && slices == 453);
	assert_int_equal(schedstat_parse("18446744073709551615 0 1\n", &run, &wait, &slices), 0);
	assert_true(run == UINT64_MAX && wait == 0);
	assert_int_equal(schedstat_parse("12 34\n", &run, &wait, &slices), -EBADMSG);
	assert_int_equal(schedstat_parse("", &run, &wait, &slices), -EBADMSG);
	assert_int_equal(schedstat_parse("x y z", &run, &wait, &slices), -EBADMSG);
}

static void test_thread_times(void **state)
{
	struct window_thread t = { .tid = 7, .both = true };
	uint64_t run, wait;

	(void)state;
	t.r[0] = (struct task_reading){ .cpu = 0, .has_sched = true, .run_ns = 100, .wait_ns = 10 };
	t.r[1] = (struct task_reading){ .cpu = 1, .has_sched = true, .run_ns = 350, .wait_ns = 15 };
	assert_true(window_thread_times(&t, &run, &wait));
	assert_true(run == 250 && wait == 5);
	/* Read once, or without schedstat, or backwards: unknown, never a number. */
	t.both = false;
	assert_false(window_thread_times(&t, &run, &wait));
	t.both = true;
	t.r[1].has_sched = false;
	assert_false(window_thread_times(&t, &run, &wait));
	t.r[1].has_sched = true;
	t.r[1].run_ns = 50;
	assert_false(window_thread_times(&t, &run, &wait));
}

/* io_uring's threads by the kernel's flag, not by the name a process may give them. */
static void test_thread_kind(void **state)
{
	(void)state;
	assert_int_equal(thread_kind_of(PF_IO_WORKER | 0x400040, "iou-wrk-42"), THREAD_IOU_WRK);
	assert_int_equal(thread_kind_of(PF_IO_WORKER, "iou-sqp-42"), THREAD_IOU_SQP);
	assert_int_equal(thread_kind_of(PF_IO_WORKER, "renamed"), THREAD_IOU_WRK);
	assert_int_equal(thread_kind_of(0x400100, "iou-wrk-42"), THREAD_PLAIN);
	assert_int_equal(thread_kind_of(0, "iou-sqp-42"), THREAD_PLAIN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schedstat),
		cmocka_unit_test(test_thread_times),
		cmocka_unit_test(test_thread_kind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
