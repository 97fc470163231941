// SPDX-License-Identifier: GPL-2.0-or-later
/* Process checks on hand-built facts, threads: io-wq workers and punts, D state, memlock, the fallback from io_uring: each passes on one, fails on another. */
#include "proc_fixture.h"

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
	/* A worker the thread table counted that the window never listed is not known idle. */
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
	pf.threads.iou_wrk = 2;
	/*
	 * Watched: a worker that works for io_uring's own FSYNCs (qemu-nbd, healthy) is
	 * no punt of a fault; nor is one when nothing was punted while watched.
	 */
	wthreads[pf.window.nthreads - 1].r[1].run_ns += 2000000;
	expect_says("iowq-workers", STATUS_WARN, "1 worked and 0 started");
	pf.watch = &watch;
	watch.tracepoint = true;
	watch.seconds_watched = 3;
	watch.total = 120;
	watch.kernel_async_counted = true;
	watch.kernel_async_total = 120;
	expect_says("iowq-workers", STATUS_PASS, "all of opcodes io_uring always runs in io-wq");
	watch.kernel_async_total = 100;		/* 20 writes punted: a fault, as iowq-punts says */
	expect_says("iowq-workers", STATUS_WARN, "1 worked and 0 started");
	/* The same 20 among 100,000 requests submitted: under the rule, judged by iowq-punts. */
	watch.submit_counted = true;
	watch.submitted = 100000;
	watch.sampled_all = true;
	expect_says("iowq-workers", STATUS_INFO, "20 punted reads and writes of 100000 requests");
	/* Among 200: 10%, a fault by the rule, and the workers' warning stands. */
	watch.submitted = 200;
	expect_says("iowq-workers", STATUS_WARN, "1 worked and 0 started");
	watch.submit_counted = false;
	watch.submitted = 0;
	watch.sampled_all = false;
	watch.kernel_async_total = 120;
	watch.threads_unattached = 5;		/* not every thread seen: no pass from it */
	expect_says("iowq-workers", STATUS_WARN, "1 worked and 0 started");
	watch.threads_unattached = 0;
	watch.threads_late = 2;			/* threads whose first requests were missed */
	expect_says("iowq-workers", STATUS_WARN, "1 worked and 0 started");
	watch.threads_late = 0;
	/* No punt while watched proves nothing of the window before it: punts come in bursts. */
	watch.total = 0;
	watch.kernel_async_total = 0;
	expect_says("iowq-workers", STATUS_WARN, "1 worked and 0 started");
	watch.blind = true;
	expect_says("iowq-workers", STATUS_WARN, "1 worked and 0 started");
	watch.blind = false;
	watch.tracepoint = false;
	watch.kernel_async_counted = false;
	watch.seconds_watched = 0;
	pf.watch = NULL;
	wthreads[pf.window.nthreads - 1].r[1] = wthreads[pf.window.nthreads - 1].r[0];

	expect("iowq-punts", STATUS_SKIP);
	pf.watch = &watch;
	watch.seconds = 2;
	watch.tracepoint = true;
	expect("iowq-punts", STATUS_PASS);
	/* Threads that could not be watched may have punted: no pass. */
	watch.threads_watched = 93;
	watch.threads_unattached = 210;
	expect_says("iowq-punts", STATUS_SKIP, "210 threads could not be watched");
	watch.threads_unattached = 0;
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
	/* The share of the requests submitted, as file-punts takes it: 3000 of a million, advice. */
	watch.submit_counted = true;
	watch.sampled_all = true;
	watch.submitted = 1000000;
	expect_says("iowq-punts", STATUS_INFO, "0.30% of the 1000000 requests submitted, under the "
		    "punt tolerance");
	/* 1 of 48 (2.1%): what a rate at the tolerance shows 38% of the time. */
	watch.total = 1;
	watch.ops[0].n = 1;
	watch.submitted = 48;
	expect_says("iowq-punts", STATUS_INFO, "2.08% of the 48 requests submitted, over the punt "
		    "tolerance of 1% (punt-tolerance) by no more than chance");
	watch.total = 3000;
	watch.ops[0].n = 3000;
	watch.submitted = 100000;	/* 3% */
	expect_says("iowq-punts", STATUS_FAIL, "3.00% of the 100000 requests submitted");
	/* Sampled in windows: the windows' punts over the windows' submissions. */
	watch.sampled_all = false;
	watch.punts_sampled = 300;
	watch.submitted = 10000;
	expect_says("iowq-punts", STATUS_FAIL, "3.00% of the 10000 requests submitted in the "
		    "sampled windows");
	watch.punts_sampled = 0;
	watch.submit_counted = false;
	watch.submitted = 0;
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
	/* In D at the first reading, out of it at the next: a moment's wait, not counted. */
	threads[2].d_transient = true;
	expect_says("dstate-threads", STATUS_PASS, "1 seen in it for a moment");
	threads[2].d_transient = false;
	/* fsync: the device's cache flush. */
	threads[2].stack = (char *)"[<0>] submit_bio_wait+0x5d/0x90\n"
				   "[<0>] blkdev_issue_flush+0x2e/0x40\n[<0>] ext4_sync_file+0x1d3/0x380\n";
	f = run("dstate-threads", &r);
	assert_contains(f->message, "device cache flush (fsync)");
	report_free(&r);
	/*
	 * An O_DIRECT read waiting for its device, 180 ms under load: its own I/O, not
	 * stuck. Past DSTATE_IO_STUCK_MS it is; and a lock's wait warns however short.
	 */
	threads[2].stack = (char *)"[<0>] __iomap_dio_rw+0x4a1/0x8c0\n[<0>] iomap_dio_rw+0xe/0x40\n"
				   "[<0>] ext4_file_read_iter+0xd7/0x1a0\n[<0>] vfs_read+0x23b/0x340\n";
	snprintf(threads[2].wchan, sizeof(threads[2].wchan), "__iomap_dio_rw");
	threads[2].d_ms = 180;
	expect_says("dstate-threads", STATUS_PASS, "50 iou-wrk-42 in __iomap_dio_rw (its own I/O)");
	threads[2].d_ms = DSTATE_IO_STUCK_MS;
	expect_says("dstate-threads", STATUS_WARN, "on its own I/O for 3000 ms");
	/*
	 * The same 3 s on a device whose requests took 800 ms on average in the
	 * window (a throttled device): said to be maybe slow, and still a warning
	 * (a thread stuck on another device would look the same). 100 ms: stuck.
	 */
	pf.scene_taken = true;
	pf.scene.windowed = true;
	pf.scene.ndevs = 1;
	snprintf(pf.scene.devs[0].name, sizeof(pf.scene.devs[0].name), "loop7");
	pf.scene.devs[0].has_delta = true;
	pf.scene.devs[0].io.w_await = 800;
	expect_says("dstate-threads", STATUS_WARN, "slow or stuck: loop7's requests took 800 ms");
	pf.scene.devs[0].io.w_await = 100;
	f = run("dstate-threads", &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_null(strstr(f->message, "slow or stuck"));
	report_free(&r);
	memset(&pf.scene, 0, sizeof(pf.scene));
	pf.scene_taken = false;
	threads[2].d_ms = 180;
	/* The innermost wait decides: an inode lock taken above the direct I/O path. */
	threads[2].stack = (char *)"[<0>] rwsem_down_write_slowpath+0x2a2/0x6a0\n[<0>] down_write+0x5b/0x60\n"
				   "[<0>] ext4_dio_write_iter+0x9a/0x4f0\n[<0>] iomap_dio_rw+0xe/0x40\n";
	expect_says("dstate-threads", STATUS_WARN, "ext4 inode lock");
	/* fdatasync on ext4 waits for its transaction's commit: its own I/O, 22 ms here. */
	threads[2].stack = (char *)"[<0>] jbd2_log_wait_commit+0xb1/0x130\n"
				   "[<0>] ext4_sync_file+0x1f2/0x2f0\n[<0>] do_fsync+0x3b/0xa0\n";
	threads[2].d_ms = 22;
	expect_says("dstate-threads", STATUS_PASS, "seen in it for a moment");
	/* A handle waiting for room in the journal waits on the others: as a lock. */
	threads[2].stack = (char *)"[<0>] wait_transaction_locked+0x8a/0xd0\n"
				   "[<0>] add_transaction_credits+0xd9/0x2b0\n"
				   "[<0>] start_this_handle+0xf9/0x510\n[<0>] jbd2__journal_start+0xfb/0x200\n";
	expect_says("dstate-threads", STATUS_WARN, "ext4 journal");
	threads[2].d_ms = 180;
	/* Without a stack (not root), the wchan: a device tag is I/O, a mutex is not. */
	threads[2].stack = NULL;
	snprintf(threads[2].wchan, sizeof(threads[2].wchan), "blk_mq_get_tag");
	expect_says("dstate-threads", STATUS_PASS, "seen in it for a moment");
	snprintf(threads[2].wchan, sizeof(threads[2].wchan), "__mutex_lock.constprop.0");
	expect_says("dstate-threads", STATUS_WARN, "1 of 3 threads in D state");
	/* Not measured (a captured tree's one reading): stuck as it was read. */
	snprintf(threads[2].wchan, sizeof(threads[2].wchan), "blk_mq_get_tag");
	threads[2].d_ms = 0;
	expect_says("dstate-threads", STATUS_WARN, "out of device tags");
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
	/* A ring whose fdinfo has no positions (before 5.17): no proof of use either way. */
	expect_says("uring-fallback", STATUS_SKIP, "whether it took requests is unknown");
	/* Positions all 0: it never took a request since it was set up. */
	rings[0].u.has_ring_state = true;
	expect_says("uring-fallback", STATUS_SKIP, "it has taken no request since it was set up");
	rings[0].u.cached_sq_head = rings[0].u.sq_tail = 1000;
	rings[0].u.cached_cq_tail = rings[0].u.cq_head = 1000;
	expect_says("uring-fallback", STATUS_PASS, "on io_uring: 1 ring fd, 1 of which took requests");
	rings[0].u.has_ring_state = false;

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

	/*
	 * No ring at this reading, but the watch saw rings take requests (a
	 * process that sets rings up and tears them down): on io_uring.
	 */
	{
		static struct ut_ring seen[2];

		seen[0].reqs = 600;
		seen[1].reqs = 40;
		pf.watch = &watch;
		watch.tracepoint = true;
		watch.seconds = 1;
		watch.seconds_watched = 1.0;
		watch.sampled_all = true;
		watch.ut.rings = seen;
		watch.ut.nrings = 2;
		expect_says("uring-fallback", STATUS_PASS, "no ring fd at this reading, but 2 rings "
							   "took 640 requests in the 1.0 s watched");
		/* Rings seen that took nothing prove nothing. */
		seen[0].reqs = seen[1].reqs = 0;
		expect_says("uring-fallback", STATUS_WARN, "maps no io_uring library");
		watch.ut.rings = NULL;
		watch.ut.nrings = 0;
		pf.watch = NULL;
	}
}

/*
 * Watched, with plain positional reads and writes counted: a ring that took
 * only NOPs, or a handful of requests in its life and none while watched,
 * does no file I/O (a failure); one that took file requests is on io_uring
 * whatever goes by plain calls beside it (a database's log).
 */
static void test_fallback_plain_io(void **state)
{
	static struct ut_ring seen[1];
	static struct tp_field joined;

	(void)state;
	setup(state);
	rings[0].u.has_ring_state = true;
	rings[0].u.cached_sq_head = rings[0].u.sq_tail = 4;
	rings[0].u.cached_cq_tail = rings[0].u.cq_head = 4;
	pf.watch = &watch;
	watch.tracepoint = true;
	watch.seconds = 2;
	watch.seconds_watched = 2.0;
	watch.sampled_all = true;
	watch.plain_io_counted = true;
	watch.plain_io = 3600;
	watch.ut.rings = seen;
	watch.ut.nrings = 1;
	seen[0].reqs = seen[0].nofile_reqs = 4;
	/* Events that cannot join a request to its file cannot say it had none. */
	expect_says("uring-fallback", STATUS_PASS, "with 4 requests in the 2.0 s watched");
	watch.ut.have[UT_SUBMIT] = true;
	watch.ut.f_req[UT_FILE_GET] = &joined;
	expect_says("uring-fallback", STATUS_FAIL, "not on io_uring for its file I/O: its ring took "
						   "4 requests in the 2.0 s watched, none on a file "
						   "or socket");
	/* The same window in a ring of thousands of requests (multishot armed before): no claim. */
	rings[0].u.cached_sq_head = rings[0].u.sq_tail = 5000;
	expect_says("uring-fallback", STATUS_PASS, "with 4 requests in the 2.0 s watched");
	rings[0].u.cached_sq_head = rings[0].u.sq_tail = 4;
	/* Plain calls too few to judge by. */
	watch.plain_io = 3;
	expect_says("uring-fallback", STATUS_PASS, "with 4 requests in the 2.0 s watched");
	watch.plain_io = 3600;
	/* One request on a file: on io_uring. */
	seen[0].nofile_reqs = 3;
	expect_says("uring-fallback", STATUS_PASS, "with 4 requests in the 2.0 s watched");
	/* None watched, four in its life: tried and left. */
	seen[0].reqs = seen[0].nofile_reqs = 0;
	expect_says("uring-fallback", STATUS_FAIL, "took 4 requests in its life (CachedSqHead");
	/* Thousands in its life, quiet while watched: a database between flushes. */
	rings[0].u.cached_sq_head = rings[0].u.sq_tail = 5000;
	expect_says("uring-fallback", STATUS_PASS, "though none in the 2.0 s watched");
	/* Never a request in its life: the failure said as before. */
	rings[0].u.cached_sq_head = rings[0].u.sq_tail = 0;
	rings[0].u.cached_cq_tail = rings[0].u.cq_head = 0;
	expect_says("uring-fallback", STATUS_FAIL, "its 1 ring never took a request");
	watch.ut.rings = NULL;
	watch.ut.nrings = 0;
	watch.ut.have[UT_SUBMIT] = false;
	watch.ut.f_req[UT_FILE_GET] = NULL;
	watch.plain_io_counted = false;
	watch.plain_io = 0;
	watch.tracepoint = false;
	pf.watch = NULL;
	rings[0].u.has_ring_state = false;
}

static void test_fallback_not_judged(void **state)
{
	(void)state;
	no_ring();
	/* A forking server's parent: the child that holds the ring is named, decided, not skipped. */
	pf.ring_children[0] = 77;
	pf.nring_children = 1;
	expect_says("uring-fallback", STATUS_INFO, "holds no ring, but 1 of its descendants does (pid 77)");
	pf.nring_children = 0;
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
		cmocka_unit_test(test_workers_and_punts),
		cmocka_unit_test(test_dstate),
		cmocka_unit_test(test_memlock),
		cmocka_unit_test(test_memlock_rings),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_fallback_plain_io),
		cmocka_unit_test(test_fallback_not_judged),
	};

	return cmocka_run_group_tests_name("checks_proc_threads", tests, NULL, NULL);
}
