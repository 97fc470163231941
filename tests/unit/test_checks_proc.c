// SPDX-License-Identifier: GPL-2.0-or-later
/* Process checks on hand-built facts: each passes on one, fails on another. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>

#include "checks.h"
#include "testutil.h"

static struct host_facts hf;
static struct proc_facts pf;
static struct proc_ring rings[4];
static struct proc_file files[3];
static struct proc_thread threads[8];
static struct proc_mount mounts[1];
static struct proc_device devices[1];
static struct uring_user_buf bufs[2];
static struct punt_watch watch;
static struct ut_file ufiles[2];
static struct watch_file wfiles[2];
static struct tp_field req_field = { .name = "req", .offset = 16, .size = 8 };
static struct window_ring wrings[2];
static struct window_thread wthreads[8];
static struct plan plan;
static char table_path[] = "/srv/db/table.dat", log_path[] = "/var/log/db.log";

/* The second reading of ring fd 3: so much CPU and work, so many SQEs taken and CQEs posted. */
static void window_move(uint64_t total_us, uint64_t work_us, uint32_t taken, uint32_t posted)
{
	wrings[0].r[1].total_us = wrings[0].r[0].total_us + total_us;
	wrings[0].r[1].work_us = wrings[0].r[0].work_us + work_us;
	wrings[0].r[1].sq_taken = wrings[0].r[0].sq_taken + taken;
	wrings[0].r[1].cq_posted = wrings[0].r[0].cq_posted + posted;
}

/* An io-wq worker in the window and in the thread count, that ran run_ns in it. */
static void add_worker(pid_t tid, uint64_t run_ns)
{
	struct window_thread *t = &wthreads[pf.window.nthreads++];

	*t = (struct window_thread){ .tid = tid, .comm = "iou-wrk-42", .kind = THREAD_IOU_WRK,
				     .both = true };
	t->r[0] = (struct task_reading){ .cpu = 0, .has_sched = true, .run_ns = 5000000 };
	t->r[1] = t->r[0];
	t->r[1].run_ns += run_ns;
	pf.threads.iou_wrk++;
}

/*
 * pid 42 on a 2-CPU host: one SQPOLL ring (tid 43 on CPU 1, pinned, 60% busy)
 * with a registered O_DIRECT data file on ext4 and two aligned buffers; a
 * small log opened O_APPEND; threads: main and iou-sqp.
 */
static int setup(void **state)
{
	(void)state;
	memset(&hf, 0, sizeof(hf));
	memset(&pf, 0, sizeof(pf));
	memset(rings, 0, sizeof(rings));
	memset(files, 0, sizeof(files));
	memset(threads, 0, sizeof(threads));
	memset(&watch, 0, sizeof(watch));
	plan_defaults(&plan);
	hf.live = true;
	hf.cpus = 2;
	hf.page_size = 4096;
	kernel_version_parse("6.18.44", &hf.kernel.v);
	cpulist_parse("0-1", &hf.cpu.online);
	cpulist_parse("1", &hf.cpu.isolated);
	hf.cpu.nnodes = 1;
	cpulist_parse("0-1", &hf.cpu.nodes[0].cpus);

	pf.pid = 42;
	snprintf(pf.comm, sizeof(pf.comm), "db");
	pf.status.st.vm_pin_kb = 8;
	pf.limits.lim.memlock.soft = pf.limits.lim.memlock.hard = 8 << 20;
	pf.limits.lim.nproc.soft = 4096;

	rings[0].fd = 3;
	rings[0].u.has_sq_thread = true;
	rings[0].u.sq_thread = 43;
	rings[0].u.sq_thread_cpu = 1;
	rings[0].u.has_sq_times = true;
	rings[0].u.sq_total_time_us = 1000000;
	rings[0].u.sq_work_time_us = 600000;
	rings[0].u.has_overflow_list = true;
	rings[0].u.cq_entries = 64;
	rings[0].u.has_user_bufs = true;
	rings[0].u.user_bufs = 2;
	bufs[0] = (struct uring_user_buf){ 0, 0x7f0000000000ULL, 65536 };
	bufs[1] = (struct uring_user_buf){ 1, 0x7f0000010000ULL, 65536 };
	rings[0].u.bufs = bufs;
	rings[0].u.nbufs = 2;
	pf.rings = rings;
	pf.nrings = 1;

	mounts[0] = (struct proc_mount){ .id = 27, .major = 254, .minor = 0, .fstype = "ext4",
					 .source = (char *)"/dev/vda" };
	pf.mounts = mounts;
	pf.nmounts = 1;
	devices[0].major = 254;
	devices[0].blk.logical_block_size = 512;
	devices[0].blk.dma_alignment = 511;
	devices[0].blk.numa_node = -1;
	pf.devices.v = devices;
	pf.devices.n = 1;

	files[0] = (struct proc_file){ .fd = 5, .path = table_path, .type = PFILE_REGULAR,
				       .gen.flags = O_RDWR | O_DIRECT, .size_known = true,
				       .size = 1ull << 30, .mount = 0, .registered = true,
				       .extents = 4, .dio_mem_align = 512, .dio_offset_align = 512 };
	files[1] = (struct proc_file){ .fd = 6, .path = log_path, .type = PFILE_REGULAR,
				       .gen.flags = O_WRONLY | O_APPEND, .size_known = true,
				       .size = 4096, .mount = 0, .ext_err = -ECANCELED };
	pf.files = files;
	pf.nfiles = 2;
	pf.nfds = 4;

	threads[0] = (struct proc_thread){ .tid = 42, .comm = "db", .state = 'S' };
	threads[1] = (struct proc_thread){ .tid = 43, .comm = "iou-sqp-42", .state = 'S',
					   .kind = THREAD_IOU_SQP, .cpus_allowed = "1" };
	pf.threads.v = threads;
	pf.threads.n = 2;
	pf.threads.iou_sqp = 1;

	/*
	 * The window: 300 ms in which the SQPOLL thread ran 250 ms, 60% of it
	 * working, while 1000 requests went through; main ran 40 ms on CPU 0.
	 */
	memset(wrings, 0, sizeof(wrings));
	memset(wthreads, 0, sizeof(wthreads));
	pf.window.ms = 300;
	wrings[0].fd = 3;
	wrings[0].r[0] = (struct ring_reading){ .has_times = true, .total_us = 1000000,
						.work_us = 600000, .has_heads = true,
						.sq_taken = 4000, .cq_posted = 3990, .sq_thread = 43 };
	wrings[0].r[1] = wrings[0].r[0];
	window_move(250000, 150000, 1000, 1010);
	pf.window.rings = wrings;
	pf.window.nrings = 1;
	wthreads[0] = (struct window_thread){ .tid = 42, .comm = "db", .cpus_allowed = "0",
					      .both = true };
	wthreads[0].r[0] = (struct task_reading){ .cpu = 0, .has_sched = true, .run_ns = 1000000000 };
	wthreads[0].r[1] = (struct task_reading){ .cpu = 0, .has_sched = true, .run_ns = 1040000000 };
	wthreads[1] = (struct window_thread){ .tid = 43, .comm = "iou-sqp-42", .cpus_allowed = "1",
					      .kind = THREAD_IOU_SQP, .both = true };
	wthreads[1].r[0] = (struct task_reading){ .cpu = 1, .has_sched = true, .run_ns = 1000000000 };
	wthreads[1].r[1] = (struct task_reading){ .cpu = 1, .has_sched = true, .run_ns = 1250000000,
						  .wait_ns = 1000000 };
	pf.window.threads = wthreads;
	pf.window.nthreads = 2;
	return 0;
}

static const struct finding *run(const char *id, struct report *r)
{
	const struct check *c = check_find(id);
	struct check_ctx ctx = { .host = &hf, .plan = &plan, .proc = &pf, .report = r };

	assert_non_null(c);
	report_init(r, "audit");
	c->run(c, &ctx);
	assert_true(r->nfindings >= 1);
	return &r->findings[0];
}

#define expect(id, st)                                      \
	do {                                                \
		struct report r_;                           \
		const struct finding *f_ = run(id, &r_);    \
		assert_int_equal(f_->status, st);           \
		assert_int_equal(f_->pid, 42);              \
		report_free(&r_);                           \
	} while (0)

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

	setup(state);
	expect("proc-rings", STATUS_PASS);
	/* A ring whose lock stayed busy: unknown, and left out of the SQPOLL checks. */
	rings[1] = (struct proc_ring){ .fd = 4, .busy = true, .reads = 5 };
	pf.nrings = 2;
	expect_says("proc-rings", STATUS_WARN, "lock busy");
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

static void test_placement(void **state)
{
	static struct irq_info irq;

	setup(state);
	expect("sqpoll-cpu-placement", STATUS_PASS);
	snprintf(threads[1].cpus_allowed, sizeof(threads[1].cpus_allowed), "0-1");
	expect_says("sqpoll-cpu-placement", STATUS_WARN, "unpinned");
	memset(&irq, 0, sizeof(irq));
	irq.line.irq = 50;
	snprintf(irq.line.name, sizeof(irq.line.name), "nvme0q2");
	irq.cls = IRQ_STORAGE;
	cpulist_parse("1", &irq.affinity);
	hf.cpu.irqs = &irq;
	hf.cpu.nirqs = 1;
	expect_says("sqpoll-cpu-placement", STATUS_FAIL, "50 nvme0q2");
	/* Unpinned, it is said to be where it last ran, not to poll there. */
	expect_says("sqpoll-cpu-placement", STATUS_FAIL, "not pinned (allowed: 0-1) and last ran on CPU 1");
	snprintf(threads[1].cpus_allowed, sizeof(threads[1].cpus_allowed), "1");
	expect_says("sqpoll-cpu-placement", STATUS_FAIL, "polls on CPU 1, but storage");
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
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(f->message, "SQPOLL unknown");
	assert_contains(f->message, "busy one holds");
	assert_contains(f->fix, "while the SQPOLL ring is idle");
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

static void test_o_direct(void **state)
{
	const struct finding *f;
	struct report r;

	setup(state);
	expect("fd-o-direct", STATUS_PASS);
	files[0].gen.flags = O_RDWR;
	f = run("fd-o-direct", &r);
	assert_int_equal(f->status, STATUS_FAIL);	/* ext4 */
	assert_string_equal(f->subject, "pid 42 fd 5 /srv/db/table.dat");
	assert_contains(f->message, "on ext4");
	report_free(&r);
	snprintf(mounts[0].fstype, sizeof(mounts[0].fstype), "xfs");
	f = run("fd-o-direct", &r);
	assert_int_equal(f->status, STATUS_WARN);	/* XFS, no workers yet */
	report_free(&r);
	/* A worker left idle from an earlier punt says nothing about this file now. */
	add_worker(50, 0);
	expect("fd-o-direct", STATUS_WARN);
	add_worker(51, 2000000);
	expect_says("fd-o-direct", STATUS_FAIL, "io-wq workers run");
	/* Without a window (a captured tree), any worker counts. */
	fact_fail(&pf.window.e, -EOPNOTSUPP, "a captured tree holds one reading");
	pf.threads.iou_wrk = 1;
	expect("fd-o-direct", STATUS_FAIL);
	pf.window.e.err = 0;
	pf.threads.iou_wrk = 2;
	/*
	 * Neither registered nor watched: a large written file may or may not
	 * be io_uring's. It is listed as not judged, never passed or blamed.
	 */
	files[0].registered = false;
	expect_says("fd-o-direct", STATUS_SKIP, "not judged");
	expect_says("fd-o-direct", STATUS_SKIP, "run audit --watch");
	files[0].gen.flags = O_RDONLY;
	expect_says("fd-o-direct", STATUS_PASS, "no writable buffered file");
}

/* audit --watch saw io_uring requests on fd 5 (the table): reqs of them, punts punted. */
static void watch_file5(uint64_t reqs, uint64_t writes, uint64_t punts)
{
	memset(ufiles, 0, sizeof(ufiles));
	memset(wfiles, 0, sizeof(wfiles));
	ufiles[0] = (struct ut_file){ .fd = 5, .reqs = reqs, .writes = writes, .punts = punts,
				      .write_punts = punts < writes ? punts : writes };
	wfiles[0].first = (struct file_state){ .path = table_path, .regular = true, .flags = -1,
					       .size = 1ull << 30, .allocated = 1ull << 30,
					       .extents = 4, .cache_how = "cachestat" };
	wfiles[0].last = wfiles[0].first;
	watch.tracepoint = true;
	watch.seconds = watch.nper_second = 2;
	watch.seconds_watched = watch.seconds_sampled = 2.0;
	watch.sampled_all = true;
	watch.ut.files = ufiles;
	watch.ut.nfiles = 1;
	watch.ut.have[UT_SUBMIT] = true;
	watch.ut.f_req[UT_FILE_GET] = &req_field;
	watch.files = wfiles;
	watch.nfiles = 1;
	pf.watch = &watch;
}

static void test_o_direct_watched(void **state)
{
	setup(state);
	files[0].registered = false;
	files[0].gen.flags = O_RDWR;
	/* Buffered and punted while watched: blamed with its own share. */
	watch_file5(100, 100, 40);
	expect_says("fd-o-direct", STATUS_FAIL, "40 of the 100 io_uring requests");
	/* Buffered, written, nothing punted: a warning that says what was seen. */
	watch_file5(100, 100, 0);
	expect_says("fd-o-direct", STATUS_WARN, "none of the 100 io_uring requests");
	/* Only read, never punted: fine. */
	watch_file5(100, 0, 0);
	expect_says("fd-o-direct", STATUS_PASS, "O_DIRECT or only read");
	/*
	 * Registered, so the events name no file: the ring's account on its
	 * registered files is what the watch has.
	 */
	{
		static struct uring_user_file uuf = { 0, table_path };
		static struct ut_ring ur;

		files[0].registered = true;
		rings[0].u.files = &uuf;
		rings[0].u.nfiles = 1;
		watch_file5(0, 0, 0);
		watch.ut.nfiles = 0;
		ur = (struct ut_ring){ .ctx = 1, .fd = 3, .reqs = 100, .fixed_reqs = 100 };
		watch.ut.rings = &ur;
		watch.ut.nrings = 1;
		expect_says("fd-o-direct", STATUS_WARN, "none of the 100 requests on registered files");
		ur.fixed_punts = 40;
		expect_says("fd-o-direct", STATUS_FAIL, "40 of the 100 requests on registered files");
		watch.ut.rings = NULL;
		watch.ut.nrings = 0;
		rings[0].u.files = NULL;
		rings[0].u.nfiles = 0;
	}
	/*
	 * io_uring never touched the table while watched: a buffered file it
	 * did not write is not blamed, even when registered.
	 */
	files[0].registered = true;
	watch_file5(0, 0, 0);
	watch.ut.nfiles = 0;
	expect_says("fd-o-direct", STATUS_PASS, "files without io_uring requests were not judged");
	pf.watch = NULL;
}

static void test_file_punts(void **state)
{
	const struct finding *f;
	struct report r;

	setup(state);
	expect_says("file-punts", STATUS_SKIP, "not watched");
	watch_file5(1000, 1000, 0);
	expect_says("file-punts", STATUS_PASS, "1000 requests on 1 fds");
	/* Punts the join could not tie to a file: no pass. */
	watch.ut.punts_unattributed = 7;
	expect_says("file-punts", STATUS_WARN, "7 punts in 2.0 s could not be tied to a file");
	watch.ut.punts_unattributed = 0;
	/* Sampled in windows at a high rate: the counts say over what time. */
	watch.sampled_all = false;
	watch.seconds_sampled = 0.25;
	expect_says("file-punts", STATUS_PASS, "in 2.0 s (samples from 0.25 s of it)");
	/* Punts counted outside the windows, too few sampled to speak for them: no pass. */
	watch.total = 500;
	watch.punts_sampled = 10;
	expect_says("file-punts", STATUS_WARN, "only 10 sampled (in 0.25 s of it");
	/* The filtered counter shows every unsampled punt was an FSYNC or the like: a pass. */
	watch.kernel_async_counted = true;
	watch.kernel_async_total = 490;
	expect("file-punts", STATUS_PASS);
	watch.kernel_async_total = 489;
	expect("file-punts", STATUS_WARN);
	watch.kernel_async_counted = false;
	watch.kernel_async_total = 0;
	watch.total = watch.punts_sampled = 0;
	watch.sampled_all = true;
	/* A kernel whose file_get cannot be joined to its request: said, never passed. */
	watch.ut.f_req[UT_FILE_GET] = NULL;
	expect_says("file-punts", STATUS_SKIP, "do not join a request to its file");
	watch.ut.f_req[UT_FILE_GET] = &req_field;
	/* O_DIRECT punted writes into a sparse file: the holes are named, as likely. */
	watch_file5(1000, 1000, 440);
	wfiles[0].first.allocated = 4096;
	f = run("file-punts", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_string_equal(f->subject, "pid 42 fd 5 /srv/db/table.dat");
	assert_contains(f->message, "440 of 1000 io_uring requests on this file were punted");
	assert_contains(f->message, "(44%)");
	assert_contains(f->message, "writes into holes");
	assert_contains(finding_fix(f), "fallocate");
	report_free(&r);
	/* The file grew while watched: writes at its end. */
	wfiles[0].first.allocated = 1ull << 30;
	wfiles[0].last.size = 2ull << 30;
	expect_says("file-punts", STATUS_FAIL, "grew from 1 GiB to 2 GiB");
	/* Cached pages of an O_DIRECT file. */
	wfiles[0].last.size = 1ull << 30;
	wfiles[0].first.cached = 300;
	expect_says("file-punts", STATUS_FAIL, "up to 300 pages of the file were in the page cache");
	/* IOSQE_ASYNC from the application is certain and needs no other cause. */
	wfiles[0].first.cached = 0;
	ufiles[0].async_punts = 440;
	f = run("file-punts", &r);
	assert_contains(f->message, "440 had IOSQE_ASYNC set by the application");
	assert_null(strstr(f->message, "cause unknown"));
	report_free(&r);
	/* A process that drains: io_uring forces the requests behind a drain the same way. */
	watch.ut.drain_seen = true;
	expect_says("file-punts", STATUS_FAIL, "or IOSQE_IO_DRAIN");
	watch.ut.drain_seen = false;
	/* Buffered: certain from the flags. */
	ufiles[0].async_punts = 0;
	files[0].gen.flags = O_RDWR;
	expect_says("file-punts", STATUS_FAIL, "buffered writes (no O_DIRECT)");
	/* Nothing in the flags or the state explains it: said so. */
	files[0].gen.flags = O_RDWR | O_DIRECT;
	expect_says("file-punts", STATUS_FAIL, "cause unknown");
	/* Opened since the audit read the fd table: the watch's own look at its flags. */
	pf.nfiles = 0;
	wfiles[0].first.flags = O_RDWR;
	expect_says("file-punts", STATUS_FAIL, "buffered writes (no O_DIRECT)");
	pf.nfiles = 2;
	wfiles[0].first.flags = -1;
	/* FSYNC is always punted by io_uring itself: no fault, and said so. */
	watch_file5(1100, 1000, 100);
	ufiles[0].write_punts = 0;
	ufiles[0].kernel_async_reqs = ufiles[0].kernel_async_punts = 100;
	expect_says("file-punts", STATUS_PASS, "only requests of opcodes io_uring always runs");
	pf.watch = NULL;
}

static void test_append(void **state)
{

	setup(state);
	/* The log opened O_APPEND may or may not be io_uring's: not judged. */
	expect_says("fd-append", STATUS_SKIP, "/var/log/db.log");
	files[0].gen.flags |= O_APPEND;
	expect_says("fd-append", STATUS_FAIL, "O_APPEND | O_DIRECT");
	/* Watched: the log io_uring never wrote is not blamed; the table it wrote is. */
	files[0].gen.flags &= ~O_APPEND;
	watch_file5(100, 100, 0);
	expect_says("fd-append", STATUS_PASS, "no file io_uring wrote");
	files[0].gen.flags |= O_APPEND;
	watch_file5(100, 100, 100);
	expect_says("fd-append", STATUS_FAIL, "100 of 100 writes punted");
	pf.watch = NULL;
}

static void test_buf_alignment(void **state)
{

	setup(state);
	expect("fixed-buf-alignment", STATUS_PASS);
	bufs[1].addr += 100;
	bufs[1].len = 4000;
	expect_says("fixed-buf-alignment", STATUS_FAIL, "ring fd 3 buffer 1");
	/* Without O_DIRECT files nothing says what the alignment must be. */
	files[0].gen.flags = O_RDWR;
	expect("fixed-buf-alignment", STATUS_SKIP);
}

static void test_extents(void **state)
{
	const struct finding *f;
	struct report r;

	setup(state);
	f = run("file-extents", &r);
	assert_int_equal(f->status, STATUS_PASS);
	assert_string_equal(f->message, "1 data files io_uring uses: none fragmented, none with "
					"unwritten extents where they punt");
	report_free(&r);
	files[0].unwritten = 12;
	expect("file-extents", STATUS_PASS);	/* ext4 does not punt into them */
	snprintf(mounts[0].fstype, sizeof(mounts[0].fstype), "xfs");
	expect_says("file-extents", STATUS_WARN, "12 unwritten");
	files[0].unwritten = 0;
	files[0].extents = 5000;
	files[0].size = 100ull << 20;
	f = run("file-extents", &r);
	assert_contains(f->message, "fragmented");
	report_free(&r);
	/* Extents that could not be read are named with the error, never passed over. */
	files[0].ext_err = -EIO;
	f = run("file-extents", &r);
	assert_int_equal(f->status, STATUS_SKIP);
	assert_contains(f->message, "could not be read");
	assert_contains(f->message, strerror(EIO));
	report_free(&r);
	/* Not live (--root): the general reason. */
	files[0].ext_err = -EOPNOTSUPP;
	expect_says("file-extents", STATUS_SKIP, "FIEMAP needs the live system");
}

static void test_workers_and_punts(void **state)
{

	setup(state);
	expect_says("iowq-workers", STATUS_PASS, "no io-wq worker");
	/* Leftovers of an earlier punt, asleep through the window: said, not warned about. */
	add_worker(50, 0);
	add_worker(51, 0);
	expect_says("iowq-workers", STATUS_PASS, "asleep through the 300 ms window");
	/* The last worker's 5 s idle timeout: one wake-up of microseconds is not work. */
	wthreads[pf.window.nthreads - 1].r[1].run_ns += 8000;
	wthreads[pf.window.nthreads - 1].r[1].slices += 1;
	expect_says("iowq-workers", STATUS_PASS, "asleep through the 300 ms window");
	/* Woken twice, or a millisecond of CPU: punting now. */
	wthreads[pf.window.nthreads - 1].r[1].slices += 1;
	expect_says("iowq-workers", STATUS_WARN, "1 worked and 0 started");
	wthreads[pf.window.nthreads - 1].r[1].slices -= 1;
	wthreads[pf.window.nthreads - 1].r[1].run_ns += 1000000;
	expect_says("iowq-workers", STATUS_WARN, "1 worked and 0 started");
	wthreads[pf.window.nthreads - 1].r[1] = wthreads[pf.window.nthreads - 1].r[0];
	/* Blocked in D state on a punted request: no CPU, and the busiest of all. */
	wthreads[pf.window.nthreads - 1].r[1].state = 'D';
	expect_says("iowq-workers", STATUS_WARN, "1 blocked in D state");
	wthreads[pf.window.nthreads - 1].r[1].state = 'S';
	/* One that exited in the window hit its idle timeout: not work. */
	wthreads[pf.window.nthreads - 1].r[1].gone = true;
	wthreads[pf.window.nthreads - 1].both = false;
	expect_says("iowq-workers", STATUS_PASS, "asleep through");
	wthreads[pf.window.nthreads - 1].r[1].gone = false;
	wthreads[pf.window.nthreads - 1].both = true;
	/* A worker libproc2 counted that the window never listed is not known idle. */
	pf.threads.iou_wrk = 3;
	expect_says("iowq-workers", STATUS_WARN, "1 could not be read");
	pf.threads.iou_wrk = 2;
	/* A worker that started during the window is a punt seen now, even before it shows. */
	pf.window.new_workers = 1;
	expect_says("iowq-workers", STATUS_WARN, "0 worked and 1 started");
	pf.threads.iou_wrk = 0;
	expect_says("iowq-workers", STATUS_WARN, "0 worked and 1 started");
	pf.window.new_workers = 0;
	pf.threads.iou_wrk = 2;
	/* No window: one reading cannot tell whether workers still work. */
	fact_fail(&pf.window.e, -EOPNOTSUPP, "a captured tree holds one reading");
	expect_says("iowq-workers", STATUS_WARN, "one reading cannot tell");
	pf.window.e.err = 0;
	pf.threads.iou_wrk = 48;
	expect_says("iowq-workers", STATUS_FAIL, "48 io-wq workers");

	expect("iowq-punts", STATUS_SKIP);
	pf.watch = &watch;
	watch.seconds = 2;
	watch.tracepoint = true;
	expect("iowq-punts", STATUS_PASS);
	watch.total = 3000;
	watch.nops = 1;
	snprintf(watch.ops[0].op, sizeof(watch.ops[0].op), "WRITE");
	watch.ops[0].n = 3000;
	expect_says("iowq-punts", STATUS_FAIL, "WRITE 3000");
	/* The opcodes from windows of samples: the total stays exact, the gap is said. */
	watch.punts_sampled = 300;
	watch.seconds_watched = 2.0;
	watch.seconds_sampled = 0.2;
	expect_says("iowq-punts", STATUS_FAIL, "sampled in 0.20 s of 2.0 s");
	watch.punts_sampled = 0;
	/* Every punt an FSYNC, which io_uring always hands to io-wq: no fault. */
	snprintf(watch.ops[0].op, sizeof(watch.ops[0].op), "FSYNC");
	watch.sampled_all = true;
	watch.ut.punts_kernel_async = 3000;
	expect_says("iowq-punts", STATUS_PASS, "all of opcodes io_uring always runs there");
	/* In windows, the filtered counter says it for every punt, sampled or not. */
	watch.sampled_all = false;
	watch.ut.punts_kernel_async = 30;
	watch.kernel_async_counted = true;
	watch.kernel_async_total = 3000;
	expect_says("iowq-punts", STATUS_PASS, "all of opcodes io_uring always runs there");
	watch.kernel_async_total = 2990;
	expect_says("iowq-punts", STATUS_FAIL, "2990 of them of opcodes io_uring always runs there");
	watch.kernel_async_counted = false;
	watch.kernel_async_total = 0;
	/* Without the counter, the samples speak for the rest only when there are enough. */
	watch.punts_sampled = watch.ut.punts_kernel_async = 300;
	expect_says("iowq-punts", STATUS_PASS, "the 300 sampled in 0.20 s of it are all of opcodes");
	watch.punts_sampled = watch.ut.punts_kernel_async = 20;
	expect("iowq-punts", STATUS_FAIL);
	watch.punts_sampled = 0;
	watch.sampled_all = true;
	watch.ut.punts_kernel_async = 0;
	/* Fallback with workers running: no proof either way. */
	watch.tracepoint = false;
	watch.total = 0;
	expect("iowq-punts", STATUS_SKIP);
	pf.watch = NULL;
}

static void test_dstate(void **state)
{
	const struct finding *f;
	struct report r;
	int i;

	setup(state);
	expect("dstate-threads", STATUS_PASS);
	threads[2] = (struct proc_thread){ .tid = 50, .comm = "iou-wrk-42", .state = 'D',
					   .wchan = "xfs_ilock", .kind = THREAD_IOU_WRK };
	pf.threads.n = 3;
	f = run("dstate-threads", &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(f->message, "XFS inode lock");
	assert_contains(finding_fix(f), "O_DIRECT overwrites");
	report_free(&r);
	/* Extending O_DIRECT writes on ext4, as seen: the inode lock. */
	threads[2].stack = (char *)"[<0>] ext4_file_write_iter+0x60f/0x960\n"
				   "[<0>] io_write+0x130/0x400\n[<0>] io_issue_sqe+0x37/0x590\n";
	f = run("dstate-threads", &r);
	assert_contains(f->message, "ext4 inode lock");
	report_free(&r);
	/* fsync: the device's cache flush. */
	threads[2].stack = (char *)"[<0>] submit_bio_wait+0x5d/0x90\n"
				   "[<0>] blkdev_issue_flush+0x2e/0x40\n[<0>] ext4_sync_file+0x1d3/0x380\n";
	f = run("dstate-threads", &r);
	assert_contains(f->message, "device cache flush (fsync)");
	report_free(&r);
	threads[2].stack = NULL;
	for (i = 3; i < 8; i++)
		threads[i] = (struct proc_thread){ .tid = 50 + i, .comm = "iou-wrk-42", .state = 'D',
						   .wchan = "blk_mq_get_tag" };
	pf.threads.n = 8;
	expect_says("dstate-threads", STATUS_FAIL, "out of device tags");
}

static void test_memlock(void **state)
{

	setup(state);
	expect("proc-memlock", STATUS_PASS);
	pf.status.st.vm_pin_kb = 8000;
	expect_says("proc-memlock", STATUS_WARN, "ENOMEM");
	pf.status.st.cap_eff = 1ull << CAP_BIT_IPC_LOCK;
	expect("proc-memlock", STATUS_PASS);
}

/* On kernels that charge rings, the limit must hold one ring more; rings are not in VmPin. */
static void test_memlock_rings(void **state)
{

	setup(state);
	pf.status.st.vm_pin_kb = 0;
	pf.limits.lim.memlock.soft = 64 << 10;
	pf.nrings = 0;
	expect_says("proc-memlock", STATUS_WARN, "cannot hold one 4096-entry ring");
	expect_says("proc-memlock", STATUS_WARN, "charges 404 KiB");
	/* 5.12 to 6.13 charge rings to the memory cgroup: 64 KiB is room enough there. */
	kernel_version_parse("6.1.158", &hf.kernel.v);
	expect("proc-memlock", STATUS_PASS);
	/* A 256-entry ring of its own (28 KiB): one more fits 64 KiB, two more would not. */
	kernel_version_parse("6.18.44", &hf.kernel.v);
	pf.nrings = 1;
	rings[0].u.has_ring_state = true;
	rings[0].u.sq_entries = 256;
	rings[0].u.cq_entries = 512;
	expect("proc-memlock", STATUS_PASS);
	pf.status.st.vm_pin_kb = 16;
	expect_says("proc-memlock", STATUS_WARN, "one more 256-entry ring like its largest");
	expect_says("proc-memlock", STATUS_WARN, "28 KiB for its 1 ring");
}

/* No ring, liburing mapped and an AIO context: the report this check comes from. */
static void no_ring(void)
{
	setup(NULL);
	pf.nrings = 0;
	pf.status.st.vm_pin_kb = 0;
	pf.limits.lim.memlock.soft = pf.limits.lim.memlock.hard = 64 << 10;
	snprintf(pf.maps.runtime, sizeof(pf.maps.runtime),
		 "/usr/lib/x86_64-linux-gnu/liburing.so.2.3");
	pf.maps.aio_contexts = 1;
}

static void test_fallback(void **state)
{
	struct report r;
	const struct finding *f;

	(void)state;
	setup(state);
	expect_says("uring-fallback", STATUS_PASS, "on io_uring: 1 ring fd");

	no_ring();
	f = run("uring-fallback", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_int_equal(f->pid, 42);
	assert_contains(f->message, "not on io_uring: it maps /usr/lib/x86_64-linux-gnu/liburing.so.2.3");
	assert_contains(f->message, "Linux AIO instead (1 io_setup() context)");
	assert_contains(f->message, "Likely cause: RLIMIT_MEMLOCK is 64 KiB");
	assert_contains(f->message, "64 entries needs 8 KiB, 256 entries needs 28 KiB and 4096 "
				    "entries needs 404 KiB: rings of 4096 entries do not fit");
	assert_contains(finding_fix(f), "LimitMEMLOCK");
	assert_string_equal(json_object_get_string(json_object_object_get(f->evidence,
									  "likely_cause")),
			    "RLIMIT_MEMLOCK");
	report_free(&r);

	/* 6.1 does not charge rings to the limit: it is not blamed. */
	kernel_version_parse("6.1.158", &hf.kernel.v);
	f = run("uring-fallback", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "No cause seen here");
	assert_contains(f->message, "memory cgroup");
	assert_null(strstr(f->message, "Likely cause"));
	assert_contains(finding_fix(f), "strace");
	report_free(&r);

	/* A cause that stops every process is named first. */
	hf.uring_disabled.value = 2;
	expect_says("uring-fallback", STATUS_FAIL, "Likely cause: kernel.io_uring_disabled = 2");
	hf.uring_disabled.value = 0;
	pf.status.st.seccomp = 2;
	expect_says("uring-fallback", STATUS_FAIL, "Likely cause: a seccomp filter");
	pf.status.st.seccomp = 0;

	/* With CAP_IPC_LOCK nothing is charged. */
	kernel_version_parse("6.18.44", &hf.kernel.v);
	pf.status.st.cap_eff = 1ull << CAP_BIT_IPC_LOCK;
	expect_says("uring-fallback", STATUS_FAIL, "it has CAP_IPC_LOCK");
	pf.status.st.cap_eff = 0;
	pf.limits.lim.memlock.soft = 8 << 20;
	expect_says("uring-fallback", STATUS_FAIL, "each fits on its own");

	/* Only an AIO context, no io_uring library: a warning, since a static runtime shows nothing. */
	pf.maps.runtime[0] = '\0';
	expect_says("uring-fallback", STATUS_WARN, "maps no io_uring library");
}

static void test_fallback_not_judged(void **state)
{
	(void)state;
	no_ring();
	/* Ring memory mapped without an fd: io_uring_close_ring_fd(). */
	pf.maps.uring_maps = 2;
	expect_says("uring-fallback", STATUS_PASS, "fds were closed");
	/* Nothing of io_uring or AIO at all: nothing to judge. */
	memset(&pf.maps, 0, sizeof(pf.maps));
	expect_says("uring-fallback", STATUS_SKIP, "nothing shows it means to use io_uring");
	fact_fail(&pf.maps.e, -EACCES, "cannot read 'proc/42/maps': Permission denied");
	expect_says("uring-fallback", STATUS_SKIP, "Permission denied");
	fact_fail(&pf.maps.e, -EBADMSG, "cannot parse 'proc/42/maps': unexpected content");
	expect("uring-fallback", STATUS_ERROR);
	fact_fail(&pf.fds_e, -EACCES, "cannot read 'proc/42/fd': Permission denied");
	expect_says("uring-fallback", STATUS_SKIP, "proc/42/fd");
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
		cmocka_unit_test(test_o_direct),
		cmocka_unit_test(test_o_direct_watched),
		cmocka_unit_test(test_file_punts),
		cmocka_unit_test(test_append),
		cmocka_unit_test(test_buf_alignment),
		cmocka_unit_test(test_extents),
		cmocka_unit_test(test_workers_and_punts),
		cmocka_unit_test(test_dstate),
		cmocka_unit_test(test_memlock),
		cmocka_unit_test(test_memlock_rings),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_fallback_not_judged),
	};

	return cmocka_run_group_tests_name("checks_proc", tests, NULL, NULL);
}
