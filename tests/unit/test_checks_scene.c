// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The scene's numbers and checks: iostat -x's columns from recorded
 * diskstats changes, vmstat's CPU split from recorded tics, and each scene
 * check passing on one recorded scene and failing (or warning) on another.
 */
#include "proc_fixture.h"

static struct scene_cpu scpus[2];

/* A healthy scene: O_DIRECT fio at iodepth 32 on a loop device, 2 s (numbers as measured). */
static void scene_healthy(void)
{
	struct scene *s = &pf.scene;
	struct scene_dev *d = &s->devs[0];

	memset(s, 0, sizeof(*s));
	pf.scene_taken = true;
	s->windowed = true;
	s->seconds = 2.0;
	s->dirty_kb = 279340;
	s->dirty_thresh_kb = 4805524;
	snprintf(d->name, sizeof(d->name), "loop1");
	d->has_delta = true;
	d->d = (struct scene_disk_delta){ .wr_ios = 181942, .wr_sectors = 1455536,
					  .wr_ticks = 27291, .io_ticks = 1600, .rq_ticks = 26800 };
	scene_iostat(&d->d, s->seconds, &d->io);
	s->ndevs = 1;
	scpus[0] = (struct scene_cpu){ .id = 0, .us = 20, .sy = 75, .si = 3.5 };
	scpus[1] = (struct scene_cpu){ .id = 1, .us = 27, .sy = 64, .si = 9 };
	s->cpus = scpus;
	s->ncpus = 2;
	s->iowq_workers = 1;
	s->iowq_cpu = 0.02;
}

static void test_iostat_formulas(void **state)
{
	struct scene_disk_delta d = { .rd_ios = 100, .rd_sectors = 800, .rd_ticks = 50,
				      .wr_ios = 300, .wr_sectors = 4800, .wr_ticks = 900,
				      .io_ticks = 1900, .rq_ticks = 3000 };
	struct scene_iostat io;

	(void)state;
	scene_iostat(&d, 2.0, &io);
	assert_true(io.r_s == 50 && io.w_s == 150);
	assert_true(io.rkb_s == 200 && io.wkb_s == 1200);
	assert_true(io.r_await == 0.5 && io.w_await == 3);
	assert_true(io.aqu_sz == 1.5 && io.util == 95);
	assert_true(io.rareq_sz == 4 && io.wareq_sz == 8 && io.areq_sz == 7);
	/* io_ticks past the window (jiffy edges): capped as iostat caps it. */
	d.io_ticks = 2100;
	scene_iostat(&d, 2.0, &io);
	assert_true(io.util == 100);
	/* No I/O: awaits and sizes 0, never a division by zero. */
	d = (struct scene_disk_delta){ 0 };
	scene_iostat(&d, 2.0, &io);
	assert_true(io.r_await == 0 && io.areq_sz == 0 && io.util == 0);
}

/* The change of each counter in 64 bits: past 2^32 sectors (600 s at 3.6 GB/s) it stays exact. */
static void test_disk_sub(void **state)
{
	struct scene_disk_delta a = { .wr_sectors = 1000, .io_ticks = 50 }, b = a, d;

	(void)state;
	b.wr_sectors = a.wr_sectors + (1ull << 32) + 5;
	b.io_ticks = 600050;
	assert_true(scene_disk_sub(&a, &b, &d));
	assert_true(d.wr_sectors == (1ull << 32) + 5 && d.io_ticks == 600000 && d.rd_ios == 0);
	/* A device reset (loop detached and attached again): not measured, never a huge rate. */
	b.wr_ios = 0;
	a.wr_ios = 7;
	assert_false(scene_disk_sub(&a, &b, &d));
}

/* A window of no length, or shorter than the counters' grain, gives no rate. */
static void test_short_window(void **state)
{
	struct fact_err e = { 0 };
	struct scene_iostat io;
	struct scene_disk_delta d = { .wr_ios = 3, .io_ticks = 4 };

	(void)state;
	assert_false(scene_window_usable(0, &e));
	assert_non_null(strstr(e.why, "the window was 0.000 s, under 0.1 s"));
	e = (struct fact_err){ 0 };
	assert_false(scene_window_usable(0.004, &e));
	assert_true(scene_window_usable(0.1, &e) && scene_window_usable(2.0, &e));
	/* No division by zero: nothing rather than an infinity. */
	scene_iostat(&d, 0, &io);
	assert_true(io.w_s == 0 && io.util == 0);
}

/* Live: a scene ended as soon as begun says its rates were not measured, and why. */
static void test_scene_live_instant(void **state)
{
	struct sysroot sr;
	struct scene s;
	struct scene_target t = { .pid = getpid() };

	(void)state;
	assert_int_equal(sysroot_open(&sr, NULL), 0);
	scene_begin(&sr, &t, &s);
	if (!fact_ok(&s.e))
		skip();
	scene_end(&sr, &t, &s);
	assert_true(s.seconds < SCENE_MIN_SECONDS);
	assert_false(fact_ok(&s.cpus_e));
	assert_non_null(strstr(s.cpus_e.why, "under 0.1 s"));
	assert_false(fact_ok(&s.iowq_e));
	assert_false(fact_ok(&s.majflt_e));
	assert_true(fact_ok(&s.load_e) && fact_ok(&s.mem_e));
	scene_free(&s);
	sysroot_close(&sr);
}

static void test_cpu_pct(void **state)
{
	struct scene_tics t = { .user = 10, .nice = 10, .system = 20, .idle = 40, .iowait = 5,
				.irq = 5, .softirq = 5, .steal = 5 };
	struct scene_cpu c;

	(void)state;
	assert_true(scene_cpu_pct(&t, &c));
	assert_true(c.us == 20 && c.sy == 20 && c.id_pct == 40 && c.hi == 5 && c.si == 5 &&
		    c.st == 5 && c.wa == 5);
	/* A tic that went backwards (a CPU replugged) or none passed: nothing said. */
	t.idle = -1;
	assert_false(scene_cpu_pct(&t, &c));
	t = (struct scene_tics){ 0 };
	assert_false(scene_cpu_pct(&t, &c));
}

static void test_scene_device(void **state)
{
	struct scene_dev *d;

	setup(state);
	scene_healthy();
	d = &pf.scene.devs[0];
	expect_says("scene-device", STATUS_PASS, "busiest device loop1: %util 80");
	/* At its limit with no punt: the device is the bottleneck, advice. */
	pf.watch = &watch;
	watch.tracepoint = true;
	d->io.util = 99;
	expect_says("scene-device", STATUS_INFO, "the device is the bottleneck, not io_uring");
	/* Collapse: a full queue at 300 writes/s, punts, a worker in D. */
	d->io = (struct scene_iostat){ .w_s = 300, .wkb_s = 1200, .aqu_sz = 31, .util = 100,
				       .w_await = 100 };
	watch.total = 5000;
	threads[2] = (struct proc_thread){ .tid = 60, .comm = "iou-wrk-42", .state = 'D',
					   .kind = THREAD_IOU_WRK };
	pf.threads.n = 3;
	expect_says("scene-device", STATUS_FAIL, "queue is full (aqu-sz 31.0) at only 300");
	/* The same queue with no worker in D is not that collapse. */
	threads[2].state = 'S';
	expect_says("scene-device", STATUS_PASS, "busiest device loop1");
	/* Out of D at the threads' reading, but in it at readings of the window: the collapse. */
	pf.scene.iowq_samples = 30;
	pf.scene.iowq_d_samples = 11;
	pf.scene.iowq_d_max = 2;
	expect_says("scene-device", STATUS_FAIL, "while 2 io-wq workers wait in D");
	pf.scene.iowq_d_max = pf.scene.iowq_d_samples = 0;
	/*
	 * A frozen XFS (numbers as measured): a worker held in D in
	 * percpu_rwsem_wait, the loop device idle, its backing disk busy with
	 * others' I/O: not the device.
	 */
	scene_healthy();
	d = &pf.scene.devs[0];
	d->d = (struct scene_disk_delta){ 0 };
	scene_iostat(&d->d, pf.scene.seconds, &d->io);
	pf.scene.devs[1] = pf.scene.devs[0];
	snprintf(pf.scene.devs[1].name, sizeof(pf.scene.devs[1].name), "vda");
	pf.scene.devs[1].role = SCENE_DEV_BACKING;
	pf.scene.devs[1].io = (struct scene_iostat){ .w_s = 4773, .util = 8.2 };
	pf.scene.ndevs = 2;
	threads[2] = (struct proc_thread){ .tid = 60, .comm = "iou-wrk-42", .state = 'D',
					   .kind = THREAD_IOU_WRK, .wchan = "percpu_rwsem_wait" };
	pf.threads.n = 3;
	expect_says("scene-device", STATUS_WARN, "1 thread held in D (io-wq worker 60 iou-wrk-42, in "
		    "percpu_rwsem_wait) while loop1, the device under its files, was idle");
	/* Out of D again within 10 ms: a moment's wait, not held. */
	threads[2].d_transient = true;
	expect_says("scene-device", STATUS_PASS, "busiest device vda");
	/* Held, but the filesystem's device did its I/O: not this verdict. */
	threads[2].d_transient = false;
	d->io = (struct scene_iostat){ .w_s = 50, .util = 3 };
	expect_says("scene-device", STATUS_PASS, "busiest device vda");
	/* 1% util is not idle (the threshold), 0.9 is. */
	d->io = (struct scene_iostat){ .util = 1.0 };
	expect_says("scene-device", STATUS_PASS, "busiest device vda");
	d->io = (struct scene_iostat){ .util = 0.9 };
	expect_says("scene-device", STATUS_WARN, "was idle (%util 0.9");
	/* A block device it holds open itself is under its files as a filesystem's is. */
	d->role = SCENE_DEV_OPEN;
	expect_says("scene-device", STATUS_WARN, "was idle (%util 0.9");
	d->role = SCENE_DEV_DISK;
	expect_says("scene-device", STATUS_PASS, "busiest device vda");
	d->role = SCENE_DEV_FS;
	threads[2].state = 'S';
	pf.scene.ndevs = 1;
	pf.threads.n = 2;
	/* Gone in the window: not judged, and said why. */
	d->has_delta = false;
	fact_fail(&d->e, -ENODEV, "loop1 (7:1) was gone at the end of the window");
	expect_says("scene-device", STATUS_SKIP, "was gone at the end of the window");
	/* No window: no rate. */
	scene_healthy();
	pf.scene.windowed = false;
	expect_says("scene-device", STATUS_SKIP, "no window (--watch 0)");
	/* A captured tree: not measured, never zeros. */
	fact_fail(&pf.scene.e, -EOPNOTSUPP, "not measured: a captured tree has no window");
	expect_says("scene-device", STATUS_SKIP, "not measured");
}

static void test_scene_cpu(void **state)
{
	setup(state);
	scene_healthy();
	expect_says("scene-cpu", STATUS_PASS, "lost at most 9% to interrupts");
	scpus[1].hi = 4;
	scpus[1].si = 8;
	/* Interrupts, mostly its own completions: a cost to know of, never a warning. */
	expect_says("scene-cpu", STATUS_INFO, "cpu1, where the process's threads ran, spent 12%");
	scpus[1].hi = scpus[1].si = 0;
	scpus[0].st = 15;
	expect_says("scene-cpu", STATUS_WARN, "15% to steal");
	/* Offline at the end, the only CPU: skipped with the reason. */
	pf.scene.ncpus = 1;
	fact_fail(&scpus[0].e, -ENODEV, "cpu0 was offline at the end of the window");
	expect_says("scene-cpu", STATUS_SKIP, "cpu0 was offline");
	/* The CPUs not read at all: said why, not judged. */
	fact_fail(&pf.scene.cpus_e, -EIO, "libproc2 could not read /proc/stat");
	expect_says("scene-cpu", STATUS_SKIP, "could not read /proc/stat");
}

static void test_scene_writeback(void **state)
{
	setup(state);
	scene_healthy();
	expect_says("scene-writeback", STATUS_PASS, "below the dirty threshold");
	pf.scene.dirty_kb = pf.scene.dirty_thresh_kb + 1;
	expect_says("scene-writeback", STATUS_WARN, "at or above the dirty threshold");
	/* Needs no window: judged from one reading too. */
	pf.scene.windowed = false;
	expect_says("scene-writeback", STATUS_WARN, "at or above the dirty threshold");
	fact_fail(&pf.scene.mem_e, -EIO, "libproc2 could not read /proc/meminfo: Input/output error");
	expect_says("scene-writeback", STATUS_SKIP, "could not read /proc/meminfo");
}

static void test_scene_iowq(void **state)
{
	setup(state);
	scene_healthy();
	expect_says("scene-iowq", STATUS_PASS, "used 0.02 CPU");
	pf.scene.iowq_cpu = 0.8;
	pf.scene.iowq_workers = 12;
	expect_says("scene-iowq", STATUS_WARN, "12 io-wq workers burned 0.80 CPU");
	pf.scene.windowed = false;
	expect_says("scene-iowq", STATUS_SKIP, "no window");
	/* The workers' stat not read: said why, not judged. */
	pf.scene.windowed = true;
	fact_fail(&pf.scene.iowq_e, -ESRCH, "the process was gone at the end of the window");
	expect_says("scene-iowq", STATUS_SKIP, "was gone at the end of the window");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iostat_formulas),
		cmocka_unit_test(test_cpu_pct),
		cmocka_unit_test(test_disk_sub),
		cmocka_unit_test(test_short_window),
		cmocka_unit_test(test_scene_live_instant),
		cmocka_unit_test(test_scene_device),
		cmocka_unit_test(test_scene_cpu),
		cmocka_unit_test(test_scene_writeback),
		cmocka_unit_test(test_scene_iowq),
	};

	return cmocka_run_group_tests_name("checks_scene", tests, NULL, NULL);
}
