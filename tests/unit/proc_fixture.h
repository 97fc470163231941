/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hand-built process every test_checks_proc_*.c judges: one healthy
 * process (rings, files, threads, a window, a watch) that each test bends
 * into the failing case it needs. Included by one test binary each.
 */
#ifndef URINGLINT_PROC_FIXTURE_H
#define URINGLINT_PROC_FIXTURE_H
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
static struct window_ring wrings[2];
static struct window_thread wthreads[8];
static struct plan plan;
static char table_path[] = "/srv/db/table.dat", log_path[] = "/var/log/db.log";
static struct thresholds th;	/* the defaults at each setup; a test may change one */

/* The second reading of ring fd 3: so much CPU and work, so many SQEs taken and CQEs posted. */
static inline void window_move(uint64_t total_us, uint64_t work_us, uint32_t taken, uint32_t posted)
{
	wrings[0].r[1].total_us = wrings[0].r[0].total_us + total_us;
	wrings[0].r[1].work_us = wrings[0].r[0].work_us + work_us;
	wrings[0].r[1].sq_taken = wrings[0].r[0].sq_taken + taken;
	wrings[0].r[1].cq_posted = wrings[0].r[0].cq_posted + posted;
}

/* An io-wq worker in the window and in the thread count, that ran run_ns in it. */
static inline void add_worker(pid_t tid, uint64_t run_ns)
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
static inline int setup(void **state)
{
	(void)state;
	memset(&hf, 0, sizeof(hf));
	memset(&pf, 0, sizeof(pf));
	thresholds_defaults(&th);
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

static inline const struct finding *run(const char *id, struct report *r)
{
	const struct check *c = check_find(id);
	struct check_ctx ctx = { .host = &hf, .plan = &plan, .proc = &pf, .report = r, .th = &th };

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

#endif
