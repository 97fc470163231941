// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The thread-model checks on a hand-built ring map: each passes on a
 * healthy map and warns on the failing one it names.
 */
#include "proc_fixture.h"

#include <errno.h>

#include "watch.h"

static struct ut_ring urings[3];
static struct watch_ring_match matches[3];
static struct watch_fill fills[1];
static struct fill_reading readings[10];

/* One ring (fd 3), driven by tid 100 alone: 1000 READs, all completed fine. */
static void map_one_ring(void)
{
	memset(urings, 0, sizeof(urings));
	memset(fills, 0, sizeof(fills));
	urings[0] = (struct ut_ring){ .ctx = 0xc0ffee, .fd = 3, .created_fd = -1, .reqs = 1000,
				      .completions = 1000, .nops = 1, .nsubmitters = 1 };
	urings[0].ops[0] = (struct ut_ring_op){ .opcode = 22, .reqs = 1000, .completions = 1000 };
	urings[0].submitters[0] = (struct ut_submitter){ .tid = 100, .reqs = 1000, .cpus = 1 };
	matches[0] = (struct watch_ring_match){ 3, RING_MATCH_ENTER };
	memcpy(watch.ut.op_names[22], "READ", 5);
	memcpy(watch.ut.op_names[27], "RECV", 5);
	memcpy(watch.ut.op_names[11], "TIMEOUT", 8);
	watch.tracepoint = true;
	watch.seconds = 2;
	watch.seconds_watched = watch.seconds_sampled = 2.0;
	watch.sampled_all = true;
	watch.ut.rings = urings;
	watch.ut.nrings = 1;
	watch.matches = matches;
	pf.watch = &watch;
}

static void test_not_watched(void **state)
{
	setup(state);
	expect_says("ring-submitters", STATUS_SKIP, "not watched: the ring map");
	map_one_ring();
	watch.tracepoint = false;
	snprintf(watch.fallback_why, sizeof(watch.fallback_why), "tracepoints need root");
	expect_says("ring-completion-errors", STATUS_SKIP, "tracepoints need root");
	watch.tracepoint = true;
	urings[0].reqs = 0;
	expect_says("ring-iosqe-async", STATUS_SKIP, "no request was submitted");
}

static void test_submitters(void **state)
{
	setup(state);
	map_one_ring();
	expect_says("ring-submitters", STATUS_PASS, "each of the 1 ring with requests");
	/* A second thread with 40%: the ring is shared. */
	urings[0].nsubmitters = 2;
	urings[0].submitters[0].reqs = 600;
	urings[0].submitters[1] = (struct ut_submitter){ .tid = 101, .reqs = 400 };
	/* The application's way: advice (info), as no other ring shows a thread of its own. */
	expect_says("ring-submitters", STATUS_INFO, "2 threads submit to this ring (tid 100 60%, "
		    "tid 101 40%");
	/* Two more rings, each driven by one thread: a ring per thread, which this one breaks. */
	urings[1] = urings[2] = urings[0];
	urings[1].fd = 4;
	urings[2].fd = 5;
	urings[1].nsubmitters = urings[2].nsubmitters = 1;
	urings[1].submitters[0] = (struct ut_submitter){ .tid = 102, .reqs = 1000 };
	urings[2].submitters[0] = (struct ut_submitter){ .tid = 103, .reqs = 1000 };
	matches[1] = (struct watch_ring_match){ 4, RING_MATCH_ENTER };
	matches[2] = (struct watch_ring_match){ 5, RING_MATCH_ENTER };
	watch.ut.nrings = 3;
	expect_says("ring-submitters", STATUS_WARN, "this ring breaks that design");
	watch.ut.nrings = 1;
	/* The second is the SQPOLL thread: one submitter still. */
	urings[0].submitters[1].sq_thread = true;
	expect_says("ring-submitters", STATUS_PASS, "one submitting thread");
	/* A thread with a stray 1%: not a driver. */
	urings[0].submitters[1] = (struct ut_submitter){ .tid = 101, .reqs = 10 };
	urings[0].submitters[0].reqs = 990;
	expect_says("ring-submitters", STATUS_PASS, "one submitting thread");
	/* Sixteen threads with 4% each, and more past the table: shared, none with 5%. */
	for (unsigned int k = 0; k < UT_MAX_SUBMITTERS; k++)
		urings[0].submitters[k] = (struct ut_submitter){ .tid = 200 + (pid_t)k, .reqs = 40 };
	urings[0].nsubmitters = UT_MAX_SUBMITTERS;
	urings[0].submitters_other = 360;
	expect_says("ring-submitters", STATUS_INFO, "more than 17 threads submit to this ring "
		    "(none with 5%");
}

static void test_completion_errors(void **state)
{
	setup(state);
	map_one_ring();
	expect_says("ring-completion-errors", STATUS_PASS, "no error storm in 1000 completions");
	/* One ENOBUFS is never noise. */
	urings[0].errs[0] = (struct ut_ring_err){ 22, ENOBUFS, 1 };
	urings[0].nerrs = 1;
	expect_says("ring-completion-errors", STATUS_WARN, "1 of 1000 completions of READ failed "
		    "with ENOBUFS");
	/* EAGAIN below 1% is noise; at 1% a storm. */
	urings[0].errs[0] = (struct ut_ring_err){ 22, EAGAIN, 9 };
	expect_says("ring-completion-errors", STATUS_PASS, "no error storm");
	urings[0].errs[0].n = 10;
	expect_says("ring-completion-errors", STATUS_WARN, "failed with EAGAIN");
	/* An expired timeout is a timeout's answer, not a fault. */
	urings[0].ops[1] = (struct ut_ring_op){ .opcode = 11, .reqs = 50, .completions = 50 };
	urings[0].nops = 2;
	urings[0].errs[0] = (struct ut_ring_err){ 11, ETIME, 50 };
	expect_says("ring-completion-errors", STATUS_PASS, "expired timeouts aside");
}

static void test_iosqe_async(void **state)
{
	setup(state);
	map_one_ring();
	expect_says("ring-iosqe-async", STATUS_PASS, "none of the 1000 requests");
	urings[0].async_reqs = 250;
	expect_says("ring-iosqe-async", STATUS_WARN, "250 of 1000 requests");
}

static void test_cq_fill(void **state)
{
	unsigned int i;

	setup(state);
	map_one_ring();
	expect_says("ring-cq-fill", STATUS_SKIP, "queue fill");
	fills[0] = (struct watch_fill){ .fd = 3, .sq_entries = 64, .cq_entries = 128,
					.r = readings, .n = 10, .cap = 10 };
	for (i = 0; i < 10; i++)
		readings[i] = (struct fill_reading){ 0, 10 * i, 0 };
	watch.fills = fills;
	watch.nfills = 1;
	expect_says("ring-cq-fill", STATUS_PASS, "no completion queue of the 1 rings read");
	readings[7].cq = 120;	/* 94% of 128 */
	/* Nearly full, but no more owed than it holds (an iodepth of 8 on a CQ of 128): no risk. */
	for (i = 0; i < 10; i++)
		readings[i].inflight = 8;
	expect_says("ring-cq-fill", STATUS_PASS, "it cannot overflow as driven");
	readings[7].inflight = 20;	/* 120 waiting and 20 in flight: 140 owed */
	expect_says("ring-cq-fill", STATUS_WARN, "held up to 120 of 128 entries");
	readings[7].inflight = -3;	/* more completions than submissions: multishot */
	expect_says("ring-cq-fill", STATUS_WARN, "multishot");
}

static void test_setup_flags(void **state)
{
	setup(state);
	map_one_ring();
	expect_says("ring-setup-flags", STATUS_SKIP, "set up before the watch");
	urings[0].created = true;
	urings[0].created_fd = 3;
	urings[0].creator = 100;
	urings[0].setup_flags = 1u << 8;	/* COOP_TASKRUN */
	expect_says("ring-setup-flags", STATUS_INFO, "1 ring set up while watched with "
		    "COOP_TASKRUN, each submitted to only by the thread that set it up");
	/* Set up by another thread: SINGLE_ISSUER would bind it to that one (EEXIST). */
	urings[0].creator = 99;
	expect_says("ring-setup-flags", STATUS_PASS, "lacks");
	urings[0].creator = 100;
	/* Sampled in windows: a rare second submitter may be unseen; nothing advised. */
	watch.sampled_all = false;
	expect_says("ring-setup-flags", STATUS_PASS, "none is advised");
	watch.sampled_all = true;
	urings[0].setup_flags |= 1u << 12;	/* SINGLE_ISSUER */
	expect_says("ring-setup-flags", STATUS_PASS, "lacks SINGLE_ISSUER");
	/* Two threads: not a candidate, whatever its flags. */
	urings[0].setup_flags = 1u << 8;
	urings[0].nsubmitters = 2;
	urings[0].submitters[1] = (struct ut_submitter){ .tid = 101, .reqs = 400 };
	expect_says("ring-setup-flags", STATUS_PASS, "lacks");
}

static void test_thread_cpus(void **state)
{
	setup(state);
	map_one_ring();
	/* tid 100 is not among the threads read: started during the watch. */
	expect_says("ring-thread-cpus", STATUS_SKIP, "may run is unknown");
	threads[2] = (struct proc_thread){ .tid = 100, .comm = "worker", .state = 'S',
					   .cpus_allowed = "0" };
	pf.threads.n = 3;
	expect_says("ring-thread-cpus", STATUS_PASS, "1 ring-driving thread pinned, each to a CPU "
		    "of its own and none to a SQPOLL thread's (tid 100 on CPU 0");
	/* Free to run anywhere, and it moved. */
	snprintf(threads[2].cpus_allowed, sizeof(threads[2].cpus_allowed), "0-1");
	urings[0].submitters[0].cpus = 3;
	urings[0].submitters[0].migrations = 7;
	/* One thread, not pinned: how the application is written (info). */
	expect_says("ring-thread-cpus", STATUS_INFO, "thread worker submits 100% of ring fd 3's "
		    "requests and is not pinned (it may run on CPUs 0-1): its submissions came from "
		    "CPUs 0-1 and moved to another CPU 7 times");
	/* Free, but it never moved while sampled. */
	urings[0].submitters[0].cpus = 1;
	urings[0].submitters[0].migrations = 0;
	expect_says("ring-thread-cpus", STATUS_PASS, "1 ring-driving thread not pinned, but each "
		    "stayed on one CPU");
	/* Pinned to CPU 1, where the SQPOLL thread tid 43 is pinned to poll. */
	snprintf(threads[2].cpus_allowed, sizeof(threads[2].cpus_allowed), "1");
	expect_says("ring-thread-cpus", STATUS_WARN, "thread worker drives ring fd 3 pinned to CPU "
		    "1, where a SQPOLL thread");
	/* A second ring whose thread is pinned to the same CPU 0 as the first's. */
	snprintf(threads[2].cpus_allowed, sizeof(threads[2].cpus_allowed), "0");
	threads[3] = (struct proc_thread){ .tid = 101, .comm = "worker", .state = 'S',
					   .cpus_allowed = "0" };
	pf.threads.n = 4;
	urings[1] = urings[0];
	urings[1].fd = 4;
	urings[1].submitters[0].tid = 101;
	matches[1] = (struct watch_ring_match){ 4, RING_MATCH_ENTER };
	watch.ut.nrings = 2;
	expect_says("ring-thread-cpus", STATUS_WARN, "2 ring-driving threads are pinned to CPU 0 "
		    "alone: tid 100 (ring fd 3), tid 101 (ring fd 4)");
	/* Each on its own CPU: 1 is the SQPOLL thread's, so move that one away first. */
	rings[0].u.sq_thread = 0;
	snprintf(threads[3].cpus_allowed, sizeof(threads[3].cpus_allowed), "1");
	expect_says("ring-thread-cpus", STATUS_PASS, "2 ring-driving threads pinned");
	/* A third ring whose thread is not pinned and moves: it breaks the design the two show. */
	threads[4] = (struct proc_thread){ .tid = 102, .comm = "stray", .state = 'S',
					   .cpus_allowed = "0-1" };
	pf.threads.n = 5;
	urings[2] = urings[0];
	urings[2].fd = 5;
	urings[2].submitters[0] = (struct ut_submitter){ .tid = 102, .reqs = 1000, .cpus = 3,
							 .migrations = 9 };
	matches[2] = (struct watch_ring_match){ 5, RING_MATCH_ENTER };
	watch.ut.nrings = 3;
	expect_says("ring-thread-cpus", STATUS_WARN, "and this one breaks that design");
	watch.ut.nrings = 2;
	/* Only SQPOLL submits: nothing to judge. */
	urings[0].submitters[0].sq_thread = true;
	urings[1].submitters[0].sq_thread = true;
	expect_says("ring-thread-cpus", STATUS_SKIP, "no thread other than a SQPOLL thread");
}

static void test_taskrun(void **state)
{
	static struct ut_thread tthreads[1];

	setup(state);
	map_one_ring();
	watch.ut.have[UT_TW_RUN] = watch.ut.have[UT_EXIT] = true;
	expect_says("ring-taskrun", STATUS_SKIP, "the setup flags of the 1 ring are unknown");
	urings[0].created = true;
	urings[0].creator = 100;
	/* 4000 batches in 2 s on a ring without COOP_TASKRUN, 3990 of them outside io_uring_enter. */
	tthreads[0] = (struct ut_thread){ .tid = 100, .fd = 3, .enters = 10, .tw_runs = 4000,
					  .tw_items = 4100, .tw_outside = 3990 };
	watch.ut.threads = tthreads;
	watch.ut.nthreads = 1;
	expect_says("ring-taskrun", STATUS_INFO, "no COOP_TASKRUN: its thread tid 100 ran io_uring's "
		    "completion work 1995 times a second outside io_uring_enter (3990 of 4000 "
		    "batches, 4100 items, 10 io_uring_enter calls");
	/* The same batches run while it waited in one io_uring_enter: no interruption. */
	tthreads[0].enters = 1;
	tthreads[0].tw_outside = 0;
	expect_says("ring-taskrun", STATUS_PASS, "1 lacks COOP_TASKRUN and DEFER_TASKRUN, and no "
		    "thread of those");
	tthreads[0].tw_outside = 3990;
	urings[0].setup_flags = 1u << 8;	/* COOP_TASKRUN */
	expect_says("ring-taskrun", STATUS_PASS, "0 lack COOP_TASKRUN");
	urings[0].setup_flags = 1u << 1;	/* SQPOLL: its own notify method */
	expect_says("ring-taskrun", STATUS_PASS, "0 lack COOP_TASKRUN");
	urings[0].setup_flags = 0;
	watch.ut.have[UT_EXIT] = false;
	expect_says("ring-taskrun", STATUS_SKIP, "no syscalls:sys_exit_io_uring_enter tracepoint");
	watch.ut.have[UT_TW_RUN] = false;
	expect_says("ring-taskrun", STATUS_SKIP, "no io_uring_task_work_run tracepoint");
}

static void test_latency_tail(void **state)
{
	struct ut_ring_op *op;

	setup(state);
	map_one_ring();
	op = &urings[0].ops[0];
	op->latency_n = 999;
	op->latency[uring_trace_lat_bucket(40000)] = 999;
	expect_says("ring-latency-tail", STATUS_SKIP, "no opcode of any ring had 1000 requests");
	/* 990 near 40 us, 10 near 5 ms: bucket edges 41 us and 5.2 ms, 128 times apart. */
	op->latency_n = 1000;
	op->latency[uring_trace_lat_bucket(40000)] = 990;
	op->latency[uring_trace_lat_bucket(5000000)] = 10;
	expect_says("ring-latency-tail", STATUS_INFO, "READ: p99.9 5.2 ms over 1000 requests, 128 "
		    "times the median of 41 us (p99 41 us; bucket edges, high by 25% at most; from "
		    "the median up: <=66 us 990, <=8.4 ms 10;");
	/* The same tail under 1 ms: not an outlier worth a word. */
	op->latency[uring_trace_lat_bucket(5000000)] = 0;
	op->latency[uring_trace_lat_bucket(900000)] = 10;
	expect_says("ring-latency-tail", STATUS_PASS, "the p99.9 of each of 1 opcode stayed");
	/* Two requests still open as sampling stopped: they could be the slowest 1 in 1000. */
	op->latency_censored = 2;
	expect_says("ring-latency-tail", STATUS_SKIP, "the p99.9 of 1 opcode is unknown: 2 "
		    "requests were still open");
	op->latency_censored = 1;
	expect_says("ring-latency-tail", STATUS_PASS, "the p99.9 of each of 1 opcode stayed");
}

/* Each sampled ring tied to its fd, and how; none guessed. */
/* Socket requests: poll-armed passes; punted with IOSQE_ASYNC, or without, warns. */
static void test_net_punts(void **state)
{
	setup(state);
	map_one_ring();
	expect_says("net-punts", STATUS_SKIP, "no socket request");
	urings[0].nops = 2;
	urings[0].ops[1] = (struct ut_ring_op){ .opcode = 27, .reqs = 520, .polled = 480,
						.completions = 500, .latency_n = 500,
						.done_polled = 480 };
	watch.ut.have[UT_POLL_ARM] = true;
	expect_says("net-punts", STATUS_PASS, "500 socket requests seen to completion on 1 ring in "
		    "the 2.0 s watched: 480 armed on poll");
	/* 10 punted of 500: 2%, but fewer than 20. */
	urings[0].ops[1].done_punted = 10;
	expect_says("net-punts", STATUS_PASS, "10 punted to io-wq");
	/* Punts of requests not seen to completion do not count: their share is unknown. */
	urings[0].ops[1].punted = 500;
	expect_says("net-punts", STATUS_PASS, "10 punted to io-wq");
	urings[0].ops[1].done_punted = urings[0].ops[1].done_async = 500;
	urings[0].ops[1].done_async_punted = 500;
	urings[0].ops[1].done_polled = 0;
	expect_says("net-punts", STATUS_WARN, "500 of 500 socket requests seen to completion went "
		    "to io-wq workers (100%), 500 of them because the application set IOSQE_ASYNC");
	expect_says("net-punts", STATUS_WARN, "RECV 500 (500 punted, 0 armed on poll, 500 with "
		    "IOSQE_ASYNC)");
	urings[0].ops[1].done_async = urings[0].ops[1].done_async_punted = 0;
	expect_says("net-punts", STATUS_WARN, "without IOSQE_ASYNC: their file could not be "
		    "polled");
	/* Reads on a socket fd are not socket opcodes: file-punts' part. */
	urings[0].ops[1].opcode = 22;
	expect_says("net-punts", STATUS_SKIP, "no socket request");
	watch.ut.have[UT_POLL_ARM] = false;
}

/* Multishot runs: staying armed passes; ending every two CQEs with ENOBUFS warns. */
static void test_net_multishot(void **state)
{
	setup(state);
	map_one_ring();
	expect_says("net-multishot", STATUS_PASS, "no multishot request ended");
	urings[0].nops = 2;
	urings[0].ops[1] = (struct ut_ring_op){ .opcode = 27, .reqs = 2000, .ms_ended = 2000,
						.ms_ended_enobufs = 2000, .ms_cqes = 6000 };
	expect_says("net-multishot", STATUS_WARN, "multishot RECV ended 1000 times a second, 2000 "
		    "of 2000 times with ENOBUFS: its provided buffer ring ran dry after 3.0 "
		    "completions a run");
	/* Ends at the end of a stream: connections closing. */
	urings[0].ops[1].ms_ended_enobufs = 0;
	urings[0].ops[1].ms_ended_eof = 2000;
	expect_says("net-multishot", STATUS_PASS, "2000 multishot requests ended");
	/* Another error, often. */
	urings[0].ops[1].ms_ended_eof = 0;
	expect_says("net-multishot", STATUS_WARN, "ended 1000 times a second with an error");
	/* Long runs: 100 CQEs each. */
	urings[0].ops[1].ms_cqes = 200000;
	expect_says("net-multishot", STATUS_PASS, "after 100.0 completions a run");
}

static void test_ring_match(void **state)
{
	struct ut_ring r[5];
	struct punt_watch w;

	setup(state);
	memset(r, 0, sizeof(r));
	memset(&w, 0, sizeof(w));
	pf.nrings = 3;
	pf.rings[0].fd = 3;
	pf.rings[1].fd = 4;
	pf.rings[1].u = (struct uring_fdinfo){ .has_sq_thread = true, .sq_thread = 200 };
	pf.rings[2].fd = 6;
	pf.rings[2].u = (struct uring_fdinfo){ .has_sq_thread = true, .sq_thread = 300 };
	/* set up while watched as fd 5, closed since */
	r[0] = (struct ut_ring){ .ctx = 1, .fd = -1, .created = true, .created_fd = 5 };
	/* entered under fd 3 */
	r[1] = (struct ut_ring){ .ctx = 2, .fd = 3 };
	/* its SQPOLL thread is the one fd 4 names */
	r[2] = (struct ut_ring){ .ctx = 3, .fd = -1, .nsubmitters = 1 };
	r[2].submitters[0] = (struct ut_submitter){ .tid = 200, .sq_thread = true };
	/* entered under two fds: not known */
	r[3] = (struct ut_ring){ .ctx = 4, .fd = 6, .fd_ambiguous = true };
	/* an SQPOLL thread no fd names */
	r[4] = (struct ut_ring){ .ctx = 5, .fd = -1, .nsubmitters = 1 };
	r[4].submitters[0] = (struct ut_submitter){ .tid = 999, .sq_thread = true };
	w.ut.rings = r;
	w.ut.nrings = 5;
	assert_int_equal(ring_match(&pf, &w), 0);
	assert_int_equal(w.matches[0].fd, 5);
	assert_int_equal(w.matches[0].how, RING_MATCH_CREATE);
	assert_int_equal(w.matches[1].fd, 3);
	assert_int_equal(w.matches[1].how, RING_MATCH_ENTER);
	assert_int_equal(w.matches[2].fd, 4);
	assert_int_equal(w.matches[2].how, RING_MATCH_SQPOLL);
	assert_int_equal(w.matches[3].how, RING_MATCH_NONE);
	assert_int_equal(w.matches[4].fd, -1);
	/* Two rings entered under one fd (closed and reused): neither is sure. Three: none. */
	r[3] = (struct ut_ring){ .ctx = 4, .fd = 3 };
	r[4] = (struct ut_ring){ .ctx = 5, .fd = 3 };
	assert_int_equal(ring_match(&pf, &w), 0);
	assert_int_equal(w.matches[1].how, RING_MATCH_NONE);
	assert_int_equal(w.matches[3].how, RING_MATCH_NONE);
	assert_int_equal(w.matches[4].how, RING_MATCH_NONE);
	/* A ring seen set up on fd 3 keeps it; the one only entered there does not. */
	r[0] = (struct ut_ring){ .ctx = 1, .fd = -1, .created = true, .created_fd = 3 };
	r[3] = (struct ut_ring){ .ctx = 4, .fd = -1 };
	r[4] = (struct ut_ring){ .ctx = 5, .fd = -1 };
	assert_int_equal(ring_match(&pf, &w), 0);
	assert_int_equal(w.matches[0].fd, 3);
	assert_int_equal(w.matches[0].how, RING_MATCH_CREATE);
	assert_int_equal(w.matches[1].how, RING_MATCH_NONE);
	assert_string_equal(ring_match_name(RING_MATCH_SQPOLL), "sqpoll_thread");
	assert_null(ring_match_name(RING_MATCH_NONE));
	free(w.matches);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_watched),
		cmocka_unit_test(test_submitters),
		cmocka_unit_test(test_completion_errors),
		cmocka_unit_test(test_iosqe_async),
		cmocka_unit_test(test_cq_fill),
		cmocka_unit_test(test_setup_flags),
		cmocka_unit_test(test_thread_cpus),
		cmocka_unit_test(test_taskrun),
		cmocka_unit_test(test_latency_tail),
		cmocka_unit_test(test_ring_match),
		cmocka_unit_test(test_net_punts),
		cmocka_unit_test(test_net_multishot),
	};

	return cmocka_run_group_tests_name("checks_ringmap", tests, NULL, NULL);
}
