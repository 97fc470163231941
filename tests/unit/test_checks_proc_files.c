// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Process checks on hand-built facts, files: O_DIRECT, punts per file,
 * appends, buffer alignment, extents: each passes on one, fails on another.
 * The applications' own settings are test_checks_proc_apps.c's.
 */
#include "proc_fixture.h"

/* What --watch saw of the files: two of them, and the request field it traced. */
static struct ut_file ufiles[2];
static struct watch_file wfiles[2];
static struct tp_field req_field = { .name = "req", .offset = 16, .size = 8 };

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
	/* A file whose fdinfo could not be read: not a pass over it. */
	pf.fdinfo_unread = 1;
	expect_says("fd-o-direct", STATUS_SKIP, "1 open file not judged: its fdinfo could not");
	pf.fdinfo_unread = 0;
}

/* A message longer than any buffer a check once formatted into is whole, its end kept. */
static void test_long_message(void **state)
{
	static char path[3200];
	struct report r;
	struct check_ctx ctx = { .host = &hf, .plan = &plan, .proc = &pf, .report = &r, .th = &th };
	const struct finding *f;

	setup(state);
	memset(path, 'd', sizeof(path) - 1);
	memcpy(path, "/srv/", 5);
	memcpy(path + sizeof(path) - 9, "/end.dat", 9);
	report_init(&r, "audit");
	f = proc_add(check_find("fd-o-direct"), &ctx, STATUS_SKIP, "pid 42", "not judged: %s", path);
	assert_int_equal(strlen(f->message), strlen("not judged: ") + strlen(path));
	assert_non_null(strstr(f->message, "/end.dat"));
	assert_int_equal(f->pid, 42);
	report_free(&r);
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
	expect_says("fd-o-direct", STATUS_PASS, "the 1 file open when the process was read that "
		    "io_uring made requests on in");
	expect_says("fd-o-direct", STATUS_PASS, "(0 O_DIRECT, 1 only read; their punts are file-punts'); files");
	/* The fd held another file when read: the one the watch saw was opened since. */
	{
		char *path = files[0].path;

		files[0].path = (char *)"/srv/db/other.dat";
		expect_says("fd-o-direct", STATUS_PASS, "(0 O_DIRECT, 0 only read; their punts are file-punts'); 1 "
			    "file opened since the process was read had io_uring requests too");
		files[0].path = path;
	}
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
	 * io_uring never touched the table while watched: a quiet window is no
	 * proof, so a registered buffered file keeps the verdict its flags give
	 * (ext4: every buffered write punted), and says the window was quiet.
	 */
	files[0].registered = true;
	watch_file5(0, 0, 0);
	watch.ut.nfiles = 0;
	expect_says("fd-o-direct", STATUS_FAIL, "registered with a ring (no io_uring request on it "
		    "while watched)) written without O_DIRECT on ext4");
	/* A buffered file nothing says is io_uring's, untouched while watched: not judged. */
	files[0].registered = false;
	expect_says("fd-o-direct", STATUS_PASS, "files without io_uring requests were not judged");
	pf.watch = NULL;
}

/*
 * The causes the punted writes' io-wq workers showed: observed ones named with
 * their count and rate, the rest inferred by rule; timestamp punts at a low rate
 * warn, at a high one fail; a filesystem that punts every write keeps its rule.
 */
static void test_file_punts_observed(void **state)
{
	const struct finding *f;
	struct json_object *causes, *c0;
	struct report r;

	setup(state);
	files[0].gen.flags = O_RDWR | O_DIRECT;
	/* The tracepoints not on this kernel: inferred, and said so. */
	watch_file5(300, 300, 280);
	expect_says("file-punts", STATUS_FAIL, "inferred (no cause tracepoint on this kernel): cause unknown");
	watch.ut.have[UT_C_UPDATE_TIME] = watch.ut.have[UT_C_IOMAP_ALLOC] = true;
	watch.ut.have[UT_C_DIRTY] = true;
	/* 280 of 280 stored the file's times: 140 a second, a warn. */
	ufiles[0].observed[UT_CAUSE_TIMESTAMP] = 280;
	f = run("file-punts", &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(f->message, "observed: timestamp update (xfs:xfs_update_time in the worker) 280 of 280 punted writes, 140 a second");
	assert_contains(f->message, "by timestamp updates (280 of the 280 punts) at 140 a second");
	assert_null(strstr(f->message, "inferred"));
	assert_contains(f->fix, "lazytime included");
	assert_true(json_object_object_get_ex(f->evidence, "causes", &causes));
	assert_int_equal(json_object_array_length(causes), 1);
	c0 = json_object_array_get_idx(causes, 0);
	assert_string_equal(json_object_get_string(json_object_object_get(c0, "cause")), "timestamp");
	assert_true(json_object_get_boolean(json_object_object_get(c0, "observed")));
	assert_int_equal(json_object_get_int64(json_object_object_get(c0, "punts")), 280);
	report_free(&r);
	/* Half of them: the other half inferred, with what was looked at, and a fail. */
	ufiles[0].observed[UT_CAUSE_TIMESTAMP] = 140;
	expect_says("file-punts", STATUS_FAIL, "inferred for the 140 punted writes whose worker "
		    "showed none of xfs:xfs_update_time, xfs:xfs_iomap_alloc, "
		    "writeback:balance_dirty_pages: cause unknown for 140 punted writes");
	/*
	 * The other half submitted in the tick before those updates: timestamp
	 * punts inferred from them, said apart, and the file warns again.
	 */
	ufiles[0].ts_same_tick = 140;
	f = run("file-punts", &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(f->message, "140 more submitted in the same clock tick before a worker "
			"stored the times");
	assert_null(strstr(f->message, "cause unknown"));
	assert_true(json_object_object_get_ex(f->evidence, "causes", &causes));
	assert_int_equal(json_object_array_length(causes), 2);
	c0 = json_object_array_get_idx(causes, 1);
	assert_false(json_object_get_boolean(json_object_object_get(c0, "observed")));
	assert_true(json_object_get_boolean(json_object_object_get(c0, "same_tick")));
	report_free(&r);
	ufiles[0].ts_same_tick = 0;
	/* Allocation first would be the second cause; one cause per write, counts as seen. */
	ufiles[0].observed[UT_CAUSE_ALLOC] = 140;
	expect_says("file-punts", STATUS_FAIL, "observed: block allocation (xfs:xfs_iomap_alloc in the worker) 140 of 280");
	ufiles[0].observed[UT_CAUSE_ALLOC] = 0;
	/* 4000 a second on one file: no longer one a tick, a fail. */
	watch_file5(10000, 10000, 8000);
	watch.ut.have[UT_C_UPDATE_TIME] = true;
	ufiles[0].observed[UT_CAUSE_TIMESTAMP] = 8000;
	expect_says("file-punts", STATUS_FAIL, "4000 a second on this file");
	/* Buffered on ext4, which punts every such write: the rule's cause, not the worker's. */
	files[0].gen.flags = O_RDWR;
	f = run("file-punts", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "buffered writes (no O_DIRECT)");
	assert_null(strstr(f->message, "observed:"));
	report_free(&r);
	memset(watch.ut.have, 0, sizeof(watch.ut.have));
	files[0].gen.flags = O_RDWR | O_DIRECT;
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
	/*
	 * Sampled all the time, a punt whose file never showed by the end (its
	 * worker attached late) is tied to no file either: no pass.
	 */
	watch.ut.cut_punts = 1;
	expect_says("file-punts", STATUS_WARN, "1 punts in 2.0 s could not be tied to a file");
	watch.ut.cut_punts = 0;
	/* Samples lost: they may hide punts, unless the exact count says there were none. */
	watch.lost = 42900;
	expect("file-punts", STATUS_PASS);
	watch.total = 3;
	expect_says("file-punts", STATUS_WARN, "of the 3 punts counted in 2.0 s, those in the 42900 "
					       "samples lost");
	watch.lost = watch.total = 0;
	/* Threads the watch could not attach to: not seen, so a skip, not a warn or a pass. */
	watch.threads_watched = 1818;
	watch.threads_unattached = 8184;
	expect_says("file-punts", STATUS_SKIP, "8184 of its threads could not be watched");
	watch.threads_unattached = 0;
	expect("file-punts", STATUS_PASS);
	/* Through the process's cgroup every thread is seen: the same facts pass. */
	watch.by_cgroup = true;
	watch.threads_watched = 10002;
	expect_says("file-punts", STATUS_PASS, "1000 requests on 1 fds");
	watch.by_cgroup = false;
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
	/*
	 * A sparse file that also grew: writes at its end and into holes are
	 * alternatives for the same 440 writes, each with their count, the
	 * second saying whose alternative it is, so the entries without
	 * alternative_to add up to the punts.
	 */
	watch_file5(1000, 1000, 440);
	wfiles[0].first.allocated = 4096;
	wfiles[0].last.size = wfiles[0].first.size + 4096;
	f = run("file-punts", &r);
	{
		struct json_object *causes, *e, *v;
		int64_t sum = 0;
		size_t i, n, alts = 0;

		assert_true(json_object_object_get_ex(f->evidence, "causes", &causes));
		n = json_object_array_length(causes);
		for (i = 0; i < n; i++) {
			e = json_object_array_get_idx(causes, i);
			assert_true(json_object_object_get_ex(e, "punts", &v));
			assert_int_equal(json_object_get_int64(v), 440);
			if (json_object_object_get_ex(e, "alternative_to", &v)) {
				assert_string_equal(json_object_get_string(v), "extending");
				alts++;
			} else {
				sum += 440;
			}
		}
		assert_true(n >= 2);
		assert_int_equal(alts, n - 1);
		assert_int_equal(sum, 440);
	}
	report_free(&r);
	/*
	 * 5 of 4619 (0.11%) with pages another reader left in the cache: under the
	 * punt tolerance, named with its cause as advice, not a failure.
	 */
	watch_file5(4619, 4619, 5);
	wfiles[0].first.allocated = 1ull << 30;
	wfiles[0].first.cached = 8;
	f = run("file-punts", &r);
	assert_int_equal(f->status, STATUS_INFO);
	assert_contains(f->message, "(0.11%)");
	assert_contains(f->message, "under the punt tolerance of 1%");
	assert_contains(f->message, "in the page cache");
	report_free(&r);
	/*
	 * The same share over a tolerance of 0.1%: 5 where 4.6 are tolerated is
	 * chance; over a tolerance of 0.01%, off the fast path.
	 */
	th.punt_tolerance = 0.001;
	expect_says("file-punts", STATUS_INFO, "by no more than chance");
	th.punt_tolerance = 0.0001;
	expect_says("file-punts", STATUS_FAIL, "(0.11%)");
	th.punt_tolerance = PUNT_TOLERANCE_DEFAULT;
	/* 1 of 48 (2.1%, a healthy MariaDB on O_DIRECT): no more than chance gives. */
	watch_file5(48, 48, 1);
	expect_says("file-punts", STATUS_INFO, "48 requests show 1 or more punts 38% of the time");
	watch_file5(48, 48, 3);
	expect_says("file-punts", STATUS_FAIL, "3 of 48 io_uring requests");
	/*
	 * 1 of 1 on a small file with pages left in its cache (MariaDB's stats tables
	 * after its install, CI): the process punted 2 of its 461 requests, under the
	 * tolerance, and the cause is not certain: named as iowq-punts names the whole.
	 */
	{
		uint32_t flags = files[0].gen.flags;

		watch_file5(1, 1, 1);
		wfiles[0].first.cached = 12;
		watch.submit_counted = true;
		watch.submitted = 461;
		watch.total = 2;
		expect_says("file-punts", STATUS_INFO, "the process's punts are not shown over the punt tolerance");
		watch.total = 10;	/* 2.2% of the process's requests: off the fast path */
		expect_says("file-punts", STATUS_FAIL, "in the page cache");
		watch.total = 2;
		files[0].gen.flags = O_RDWR;	/* buffered on ext4: certain, whatever the share */
		expect_says("file-punts", STATUS_FAIL, "buffered writes (no O_DIRECT)");
		files[0].gen.flags = flags;
		watch.submit_counted = false;
		watch.submitted = watch.total = 0;
	}
	wfiles[0].first.cached = 0;
	watch_file5(1000, 1000, 440);
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
	/* A socket's RECVs with IOSQE_ASYNC are net-punts' to judge, not a file's. */
	watch_file5(1000, 0, 1000);
	ufiles[0].async_punts = ufiles[0].socket_async_punts = 1000;
	ufiles[0].socket_reqs = ufiles[0].socket_punts = 1000;
	expect_says("file-punts", STATUS_PASS, "no request on any file was punted");
	/* A punted read on it still is. */
	ufiles[0].reqs = ufiles[0].punts = 1001;
	ufiles[0].reads = ufiles[0].read_punts = 1;
	expect_says("file-punts", STATUS_FAIL, "1 of 1 io_uring requests");
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
	expect("file-extents", STATUS_PASS);	/* ext4 from 6.3 takes aligned writes there */
	kernel_version_parse("6.1.0", &hf.kernel.v);
	expect_says("file-extents", STATUS_WARN, "ext4 before 6.3 punts every O_DIRECT write");
	kernel_version_parse("6.18.44", &hf.kernel.v);
	snprintf(mounts[0].fstype, sizeof(mounts[0].fstype), "xfs");
	expect_says("file-extents", STATUS_WARN, "12 unwritten (allocated, never written): XFS");
	/* A filesystem the table has no rule for: not claimed. */
	snprintf(mounts[0].fstype, sizeof(mounts[0].fstype), "f2fs");
	expect("file-extents", STATUS_PASS);
	snprintf(mounts[0].fstype, sizeof(mounts[0].fstype), "xfs");
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_o_direct),
		cmocka_unit_test(test_long_message),
		cmocka_unit_test(test_o_direct_watched),
		cmocka_unit_test(test_file_punts),
		cmocka_unit_test(test_append),
		cmocka_unit_test(test_buf_alignment),
		cmocka_unit_test(test_extents),
		cmocka_unit_test(test_file_punts_observed),
	};

	return cmocka_run_group_tests_name("checks_proc_files", tests, NULL, NULL);
}
