// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The watch's causes on hand-built samples: what the io-wq worker did
 * between a punt and the request's first CQE (xfs_update_time, an
 * allocation, ...), the same-tick timestamp rule, and a kernel without the
 * cause events.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "uring_trace.h"
#include "uring_trace_fixture.h"

static void punted_write(uint64_t req, int fd)
{
	submit(req, 23, "WRITE", 0);
	file_get(req, fd);
	punt(req, 23, "WRITE");
}

/*
 * Causes seen in io-wq workers: an event on a worker between the punt and
 * the request's first CQE is its cause; one on the submitter itself, of
 * another process, or after the CQE is not; two on one request give it
 * one cause, the first in the write path's order (timestamp, allocation,
 * dirty throttling); the same event twice on a worker is its next request.
 */
static void test_observed_causes(void **state)
{
	const struct ut_file *f;

	(void)state;
	setup_trace();
	ut.have[UT_C_UPDATE_TIME] = ut.have[UT_C_IOMAP_ALLOC] = ut.have[UT_C_DIRTY] = true;
	/* Taken by worker 77, which stores the times: a timestamp punt. */
	punted_write(0x1000, 3);
	cause_on(UT_C_UPDATE_TIME, 0, 77);
	complete(0x1000, 4096, 10);
	/* An event on the worker after the CQE: no request of it. */
	punted_write(0x2000, 3);
	complete(0x2000, 4096, 10);
	cause_on(UT_C_UPDATE_TIME, 0, 77);
	/* On the submitting thread, or in another process: not the punt's. */
	punted_write(0x3000, 3);
	cause_on(UT_C_UPDATE_TIME, 0, 42);
	cause_on(UT_C_UPDATE_TIME, 99, 88);
	complete(0x3000, 4096, 10);
	/* Allocation, then the times, on one request: one cause, the times. */
	punted_write(0x4000, 3);
	cause_on(UT_C_IOMAP_ALLOC, 0, 77);
	cause_on(UT_C_DIRTY, 0, 77);
	cause_on(UT_C_UPDATE_TIME, 0, 77);
	complete(0x4000, 4096, 10);
	/* Two waiting; the worker's second timestamp is the next request's. */
	punted_write(0x5000, 3);
	punted_write(0x6000, 3);
	cause_on(UT_C_UPDATE_TIME, 0, 77);
	cause_on(UT_C_IOMAP_ALLOC, 0, 77);
	cause_on(UT_C_UPDATE_TIME, 0, 77);
	complete(0x5000, 4096, 10);
	complete(0x6000, 4096, 10);
	/* IOSQE_ASYNC: the application's punt, whatever its worker (78) did. */
	submit(0x7000, 23, "WRITE", UT_REQ_FORCE_ASYNC);
	punt(0x7000, 23, "WRITE");
	feed_tid = 78;
	file_get(0x7000, 3);
	feed_tid = 42;
	cause_on(UT_C_UPDATE_TIME, 0, 78);
	complete(0x7000, 4096, 10);
	/* A read's worker updating the atime: no write refused. */
	submit(0x8000, 22, "READ", 0);
	file_get(0x8000, 3);
	punt(0x8000, 22, "READ");
	cause_on(UT_C_UPDATE_TIME, 0, 77);
	complete(0x8000, 4096, 10);
	/* A punt still open at the cut: no cause counted. */
	punted_write(0x9000, 3);
	cause_on(UT_C_IOMAP_ALLOC, 0, 77);
	uring_trace_cut(&ut);

	f = file(3);
	assert_int_equal(f->write_punts, 8);
	assert_int_equal(f->observed[UT_CAUSE_TIMESTAMP], 4);
	assert_int_equal(f->observed[UT_CAUSE_ALLOC], 0);
	assert_int_equal(f->observed[UT_CAUSE_DIRTY], 0);
	assert_int_equal(f->nops, 2);
	assert_int_equal(f->ops[0].observed[UT_CAUSE_TIMESTAMP], 4);
	/*
	 * Thread 42 never showed io_uring_enter here: its event counts as a
	 * worker's but takes no request it submitted; with the one after the
	 * CQE and the other process's, 3 of the 9 found no punt.
	 */
	assert_int_equal(ut.cause_events[UT_CAUSE_TIMESTAMP], 9);
	assert_int_equal(ut.cause_events_unclaimed[UT_CAUSE_TIMESTAMP], 3);
	assert_int_equal(ut.cause_events[UT_CAUSE_ALLOC], 3);
	assert_string_equal(uring_trace_cause_name(UT_CAUSE_TIMESTAMP), "timestamp");
	assert_true(uring_trace_cause_watched(&ut, UT_CAUSE_ALLOC));
	uring_trace_free(&ut);
}

/*
 * Writes submitted in the tick before one worker stored the file's times
 * were refused for them too, and their own workers had nothing left to
 * store: counted as same-tick timestamp punts, apart from the observed
 * one. A write submitted after that update, or on another file, is not.
 */
static void test_same_tick(void **state)
{
	(void)state;
	setup_trace();
	ut.have[UT_C_UPDATE_TIME] = true;
	punted_write(0x1000, 3);
	punted_write(0x2000, 3);
	punted_write(0x3000, 3);
	punted_write(0x7000, 5);
	cause_on(UT_C_UPDATE_TIME, 0, 77);
	complete(0x1000, 4096, 10);
	complete(0x2000, 4096, 10);
	complete(0x3000, 4096, 10);
	complete(0x7000, 4096, 10);
	/* After the update, with no event of its own: cause unknown. */
	punted_write(0x4000, 3);
	complete(0x4000, 4096, 10);
	assert_int_equal(file(3)->observed[UT_CAUSE_TIMESTAMP], 1);
	assert_int_equal(file(3)->ts_same_tick, 2);
	assert_int_equal(file(3)->write_punts, 4);
	assert_int_equal(file(5)->ts_same_tick, 0);
	uring_trace_free(&ut);
}

/* The cause events missing from the kernel: nothing observed, nothing watched. */
static void test_causes_unwatched(void **state)
{
	(void)state;
	setup_trace();
	punted_write(0x1000, 3);
	complete(0x1000, 4096, 10);
	uring_trace_cut(&ut);
	assert_int_equal(file(3)->observed[UT_CAUSE_TIMESTAMP], 0);
	assert_false(uring_trace_cause_watched(&ut, UT_CAUSE_TIMESTAMP));
	uring_trace_free(&ut);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_observed_causes),
		cmocka_unit_test(test_same_tick),
		cmocka_unit_test(test_causes_unwatched),
	};

	return cmocka_run_group_tests_name("uring_trace_causes", tests, NULL, NULL);
}
