// SPDX-License-Identifier: GPL-2.0-or-later
/* Process checks on hand-built facts, rings: gates, SQPOLL windows and placement, sharing, CQ overflow: each passes on one, fails on another. */
#include "proc_fixture.h"

static void test_gates(void **state)
{

	setup(state);
	pf.kernel_thread = true;
	expect_says("fd-o-direct", STATUS_SKIP, "kernel thread");
	pf.kernel_thread = false;
	fact_fail(&pf.fds_e, -EACCES, "cannot read 'proc/42/fd': Permission denied");
	expect_says("fd-o-direct", STATUS_SKIP, "Permission denied");
	memset(&pf.fds_e, 0, sizeof(pf.fds_e));
	pf.nrings = 0;
	expect_says("cq-overflow", STATUS_SKIP, "no io_uring fd");
	fact_fail(&pf.e, -ESRCH, "pid 42: no such process");
	expect("proc-rings", STATUS_SKIP);
}

static void test_rings(void **state)
{
	const struct finding *f;
	struct report r;

	setup(state);
	expect("proc-rings", STATUS_PASS);
	/* A ring whose lock stayed busy: unknown, and left out of the SQPOLL checks. */
	rings[1] = (struct proc_ring){ .fd = 4, .busy = true, .reads = 5 };
	pf.nrings = 2;
	expect_says("proc-rings", STATUS_SKIP, "lock busy");
	f = run("proc-rings", &r);
	assert_contains(f->message, "register/unregister");
	assert_null(finding_fix(f));
	report_free(&r);
	/* A fdinfo past any real one is an error of its own: no word of a busy lock. */
	rings[1] = (struct proc_ring){ .fd = 4 };
	fact_fail(&rings[1].e, -EFBIG, "cannot read 'proc/42/fdinfo/4': File too large");
	expect_says("proc-rings", STATUS_ERROR, "File too large");
	f = run("proc-rings", &r);
	assert_true(!finding_fix(f) || !strstr(finding_fix(f), "lock"));
	report_free(&r);
	pf.incomplete = true;
	expect("proc-rings", STATUS_ERROR);
}

static void test_busy_ratio(void **state)
{
	const struct finding *f;
	struct report r;

	setup(state);
	f = run("sqpoll-busy-ratio", &r);
	assert_int_equal(f->status, STATUS_PASS);
	assert_contains(f->message, "60.0% of its 250 ms of CPU in a 300 ms window");
	assert_contains(f->message, "apart from the process's active threads (CPU 0)");
	report_free(&r);

	/* Spinning on an empty ring: nothing taken, completed or in flight. */
	wrings[0].r[0].cq_posted = wrings[0].r[0].sq_taken;
	window_move(250000, 100, 0, 0);
	expect_says("sqpoll-busy-ratio", STATUS_WARN, "spins on an empty ring");

	/* No movement, but more SQEs taken than CQEs posted over the ring's life: not judged. */
	wrings[0].r[0].cq_posted = wrings[0].r[0].sq_taken - 16;
	window_move(250000, 100, 0, 0);
	expect_says("sqpoll-busy-ratio", STATUS_SKIP, "taken 16 more SQEs than they posted");
	/* Spinning while requests go through: waiting on the device, not idle. */
	window_move(250000, 100, 500, 500);
	expect_says("sqpoll-busy-ratio", STATUS_PASS, "took 500 and completed 500");
	wrings[0].r[0].cq_posted = wrings[0].r[0].sq_taken;

	/* Another ring of the process unread (lock busy): it may be this thread's. */
	window_move(250000, 100, 0, 0);
	rings[1] = (struct proc_ring){ .fd = 4, .busy = true, .reads = 100 };
	pf.nrings = 2;
	expect_says("sqpoll-busy-ratio", STATUS_SKIP, "may be its own was not read");
	pf.nrings = 1;

	/* 6.9 to 6.17: SqTotalTime grew far more than the thread ran (the whole process's). */
	window_move(900000, 100, 0, 0);
	expect_says("sqpoll-busy-ratio", STATUS_SKIP, "count the whole process's system time");

	/* Saturated. */
	window_move(250000, 249000, 1000, 1000);
	expect_says("sqpoll-busy-ratio", STATUS_WARN, "saturated");

	/* Too little CPU in the window to judge a ratio: skip, even at 0% work. */
	wrings[0].r[0].cq_posted = wrings[0].r[0].sq_taken;
	window_move(5000, 0, 0, 0);
	expect_says("sqpoll-busy-ratio", STATUS_SKIP, "under the 20 ms a ratio needs");

	/* The cumulative counters alone are never judged: since creation, start-up included. */
	window_move(250000, 100, 0, 0);
	rings[0].u.sq_work_time_us = 990000;
	expect_says("sqpoll-busy-ratio", STATUS_WARN, "empty ring");

	/* Positions unknown (before 5.17): idle or waiting cannot be told apart. */
	wrings[0].r[0].has_heads = wrings[0].r[1].has_heads = false;
	expect_says("sqpoll-busy-ratio", STATUS_SKIP, "took or completed requests is unknown");
	wrings[0].r[0].has_heads = wrings[0].r[1].has_heads = true;

	/* No window: a captured tree, or the ring vanished or went backwards between the reads. */
	fact_fail(&pf.window.e, -EOPNOTSUPP, "a captured tree holds one reading");
	expect_says("sqpoll-busy-ratio", STATUS_SKIP, "a captured tree holds one reading");
	pf.window.e.err = 0;
	fact_fail(&wrings[0].e, -ENOENT, "fd 3 was closed during the window");
	expect_says("sqpoll-busy-ratio", STATUS_SKIP, "fd 3 was closed during the window");
	wrings[0].e.err = 0;
	pf.window.nrings = 0;
	expect_says("sqpoll-busy-ratio", STATUS_SKIP, "not in the window");
	pf.window.nrings = 1;

	rings[0].u.has_sq_times = false;
	expect_says("sqpoll-busy-ratio", STATUS_SKIP, "6.9");
}

/* The collector's comparison of a ring's two readings. */
static void test_window_validate(void **state)
{
	setup(state);
	window_ring_validate(&wrings[0], 0);
	assert_int_equal(wrings[0].e.err, 0);
	wrings[0].r[1].total_us = wrings[0].r[0].total_us - 1;
	window_ring_validate(&wrings[0], 0);
	assert_int_equal(wrings[0].e.err, -ERANGE);
	assert_contains(wrings[0].e.why, "went backwards");

	setup(state);
	wrings[0].r[1].work_us = wrings[0].r[1].total_us + 1;
	window_ring_validate(&wrings[0], 0);
	assert_contains(wrings[0].e.why, "grew more than SqTotalTime");

	setup(state);
	window_ring_validate(&wrings[0], 77);
	assert_int_equal(wrings[0].e.err, -ESTALE);
	assert_contains(wrings[0].e.why, "another ring");

	setup(state);
	wrings[0].r[1].sq_thread = 44;
	window_ring_validate(&wrings[0], 0);
	assert_contains(wrings[0].e.why, "changed SQPOLL thread");
}

static void test_submitter_cpu(void **state)
{
	const struct finding *f;
	struct report r;

	setup(state);
	expect_says("sqpoll-submitter-cpu", STATUS_PASS, "no active thread of the process may run");

	/* Allowed CPUs overlap, but they were seen apart: two samples decide nothing. */
	snprintf(wthreads[0].cpus_allowed, sizeof(wthreads[0].cpus_allowed), "0-1");
	expect_says("sqpoll-submitter-cpu", STATUS_SKIP, "two samples cannot show");

	/* Seen on the SQPOLL thread's CPU at a reading: they take turns. */
	wthreads[0].r[1].cpu = 1;
	f = run("sqpoll-submitter-cpu", &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(f->message, "thread 42 (db), which ran 40 ms");
	assert_contains(f->message, "same CPU 1 at a reading");
	assert_contains(f->message, "waited 1 ms for a CPU");
	assert_contains(finding_fix(f), "IORING_SETUP_SQ_AFF");
	report_free(&r);
	/* And the busy ratio says under which placement it was measured. */
	expect_says("sqpoll-busy-ratio", STATUS_PASS, "shared with thread 42 (db)");

	/* A thread that barely ran is not a submitter. */
	wthreads[0].r[1].run_ns = wthreads[0].r[0].run_ns + 500000;
	expect_says("sqpoll-submitter-cpu", STATUS_SKIP, "submitting threads are not known");

	/* The SQPOLL thread read only once, or no window at all. */
	setup(state);
	wthreads[1].both = false;
	expect_says("sqpoll-submitter-cpu", STATUS_SKIP, "both ends");
	fact_fail(&pf.window.e, -EOPNOTSUPP, "a captured tree holds one reading");
	expect_says("sqpoll-submitter-cpu", STATUS_SKIP, "a captured tree holds one reading");
}

/*
 * Placement is a risk; it warns only where the window measured the loss (the
 * thread waiting for its CPU 10% of the window or more, or saturated), and
 * never fails by itself. The fixture's SQPOLL thread waited 1 ms of 300.
 */
static void test_placement(void **state)
{
	static struct irq_info irq;
	const struct finding *f;
	struct report r;

	setup(state);
	expect("sqpoll-cpu-placement", STATUS_PASS);
	snprintf(threads[1].cpus_allowed, sizeof(threads[1].cpus_allowed), "0-1");
	expect_says("sqpoll-cpu-placement", STATUS_INFO, "not pinned (allowed: 0-1)");
	expect_says("sqpoll-cpu-placement", STATUS_INFO, "waited 1.0 ms for a CPU (0.3%)");
	memset(&irq, 0, sizeof(irq));
	irq.line.irq = 50;
	snprintf(irq.line.name, sizeof(irq.line.name), "nvme0q2");
	irq.cls = IRQ_STORAGE;
	cpulist_parse("1", &irq.affinity);
	hf.cpu.irqs = &irq;
	hf.cpu.nirqs = 1;
	expect_says("sqpoll-cpu-placement", STATUS_INFO, "50 nvme0q2");
	/* Unpinned, it is said to be where it last ran, not to poll there. */
	expect_says("sqpoll-cpu-placement", STATUS_INFO, "not pinned (allowed: 0-1) and last ran on CPU 1");
	snprintf(threads[1].cpus_allowed, sizeof(threads[1].cpus_allowed), "1");
	expect_says("sqpoll-cpu-placement", STATUS_INFO, "polls on CPU 1, where storage");
	/* It waited 45 ms of the 300 ms window for its CPU: the loss is measured. */
	wthreads[1].r[1].wait_ns = 45000000;
	f = run("sqpoll-cpu-placement", &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(f->message, "waited 45.0 ms for a CPU (15.0%)");
	assert_contains(f->message, "costs it now");
	report_free(&r);
	/* Saturated, with little waiting: a loss too. */
	wthreads[1].r[1].wait_ns = 1000000;
	window_move(250000, 245000, 1000, 1010);
	expect_says("sqpoll-cpu-placement", STATUS_WARN, "did work in 98.0% of its CPU time");
	/* No window (a captured tree): the risk is said, its cost not measured, no warning. */
	fact_fail(&pf.window.e, -EOPNOTSUPP, "a captured tree holds one reading");
	expect_says("sqpoll-cpu-placement", STATUS_INFO, "not measured (a captured tree");
	/* fio's own setting is named. */
	snprintf(pf.comm, sizeof(pf.comm), "fio");
	f = run("sqpoll-cpu-placement", &r);
	assert_non_null(finding_fix(f));
	assert_contains(finding_fix(f), "sqthread_poll_cpu=N");
	report_free(&r);
}

static void test_shared(void **state)
{
	const struct finding *f;
	struct report r;

	setup(state);
	rings[1] = rings[0];
	rings[1].fd = 4;
	pf.nrings = 2;
	expect_says("sqpoll-shared", STATUS_PASS, "share one SQPOLL thread");
	rings[1].u.sq_thread = 44;
	threads[2] = (struct proc_thread){ .tid = 44, .comm = "iou-sqp-42", .state = 'S',
					   .kind = THREAD_IOU_SQP };
	pf.threads.n = 3;
	f = run("sqpoll-shared", &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(finding_fix(f), "ATTACH_WQ");
	report_free(&r);
}

static void test_sqpoll_unknown(void **state)
{
	const struct finding *f;
	struct report r;

	setup(state);
	/* The only ring says -1 while an iou-sqp thread exists: unknown, not "no SQPOLL". */
	rings[0].u.sq_thread = -1;
	f = run("sqpoll-shared", &r);
	assert_int_equal(f->status, STATUS_SKIP);
	assert_contains(f->message, "no ring's fdinfo names");
	assert_contains(f->message, "before 6.7");
	report_free(&r);
	f = run("proc-rings", &r);
	assert_int_equal(f->status, STATUS_SKIP);
	assert_contains(f->message, "SQPOLL unknown");
	assert_contains(f->message, "busy one holds");
	assert_null(f->fix);
	report_free(&r);
	/* Without an iou-sqp thread, -1 means no SQPOLL ring, and that is known. */
	pf.threads.n = 1;
	pf.threads.iou_sqp = 0;
	expect_says("sqpoll-busy-ratio", STATUS_SKIP, "no SQPOLL ring (known)");
	f = run("proc-rings", &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);
}

static void test_cq_overflow(void **state)
{
	const struct finding *f;
	struct report r;

	setup(state);
	expect("cq-overflow", STATUS_PASS);
	rings[0].u.cq_overflow = 16;
	f = run("cq-overflow", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_string_equal(f->subject, "pid 42 ring fd 3");
	report_free(&r);
	/* No overflow in the ring read, a second ring unreadable: not a pass. */
	rings[0].u.cq_overflow = 0;
	rings[1] = (struct proc_ring){ .fd = 4 };
	fact_fail(&rings[1].e, -EBADMSG, "cannot parse 'proc/42/fdinfo/4'");
	pf.nrings = 2;
	expect_says("cq-overflow", STATUS_SKIP, "1 ring could not be judged");
	pf.nrings = 1;
	rings[0].u.has_overflow_list = false;
	expect("cq-overflow", STATUS_SKIP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gates),
		cmocka_unit_test(test_rings),
		cmocka_unit_test(test_busy_ratio),
		cmocka_unit_test(test_window_validate),
		cmocka_unit_test(test_submitter_cpu),
		cmocka_unit_test(test_placement),
		cmocka_unit_test(test_shared),
		cmocka_unit_test(test_sqpoll_unknown),
		cmocka_unit_test(test_cq_overflow),
	};

	return cmocka_run_group_tests_name("checks_proc_rings", tests, NULL, NULL);
}
