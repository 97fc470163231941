// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The watch's join on hand-built samples laid out by 6.18's own format
 * files: a punted buffered write, IOSQE_ASYNC (the punt before the
 * worker's file_get), FSYNC (io_uring's own choice), a registered file,
 * and a request pointer reused. And the libraries the maps parser keeps
 * for the application table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "procfs.h"
#include "uring_trace.h"
#include "uring_trace_fixture.h"

static void test_join(void **state)
{
	(void)state;
	setup_trace();
	/* A buffered write: submit, its fd, then the punt. */
	submit(0x1000, 23, "WRITE", 0);
	file_get(0x1000, 3);
	punt(0x1000, 23, "WRITE");
	/* The same pointer again, not punted this time. */
	submit(0x1000, 23, "WRITE", 0);
	file_get(0x1000, 3);
	/* IOSQE_ASYNC: punted first, the worker takes the fd after. */
	submit(0x2000, 23, "WRITE", UT_REQ_FORCE_ASYNC);
	punt(0x2000, 23, "WRITE");
	file_get(0x2000, 4);
	/* FSYNC: io_uring sets the same bit itself. */
	submit(0x3000, 3, "FSYNC", UT_REQ_FORCE_ASYNC);
	file_get(0x3000, 3);
	punt(0x3000, 3, "FSYNC");
	/* A registered file: no fd in any event. */
	submit(0x4000, 22, "READ", UT_REQ_FIXED_FILE);
	punt(0x4000, 22, "READ");
	/* A punt of a request submitted before the watch. */
	punt(0x5000, 23, "WRITE");
	uring_trace_cut(&ut);

	assert_int_equal(file(3)->reqs, 3);
	assert_int_equal(file(3)->punts, 2);
	assert_int_equal(file(3)->write_punts, 1);
	assert_int_equal(file(3)->kernel_async_punts, 1);
	assert_int_equal(ut_file_fault_punts(file(3)), 1);
	assert_int_equal(ut_file_fault_reqs(file(3)), 2);
	assert_int_equal(file(3)->async_punts, 0);
	assert_int_equal(file(4)->reqs, 1);
	assert_int_equal(file(4)->punts, 1);
	assert_int_equal(file(4)->async_punts, 1);
	assert_int_equal(ut.nrings, 1);
	assert_int_equal(ut.rings[0].reqs, 5);
	assert_int_equal(ut.rings[0].fixed_reqs, 1);
	assert_int_equal(ut.rings[0].fixed_punts, 1);
	assert_int_equal(ut.rings[0].nsubmitters, 1);
	/* Half a request (its submit unseen) is set apart, never blamed or untied. */
	assert_int_equal(ut.punts_unattributed, 0);
	assert_int_equal(ut.edge_punts, 1);
	assert_int_equal(ut_unresolved_punts(&ut), 0);
	assert_int_equal(ut.punts_kernel_async, 1);
	assert_true(uring_trace_op_always_async(&ut, 3));
	assert_false(uring_trace_op_always_async(&ut, 23));
	assert_int_equal(uring_trace_op_dir(&ut, 22), UT_DIR_READ);
	uring_trace_free(&ut);
}

/*
 * For the time series: a punt is its request's, at its submit's time, even
 * when the punt event came later (a 100 ms bucket's edge between them); a
 * repeat punt, or one of a request not seen submitted, is no request's.
 */
static void test_punted_submit(void **state)
{
	uint64_t t;

	(void)state;
	setup_trace();
	submit(0x1000, 23, "WRITE", 0);
	t = now;
	file_get(0x1000, 3);
	now += 5000000;		/* 5 ms later: maybe the next bucket */
	punt(0x1000, 23, "WRITE");
	assert_int_equal(ut.punted_submit, t);
	punt(0x1000, 23, "WRITE");	/* punted again: counted once */
	assert_int_equal(ut.punted_submit, 0);
	punt(0x9000, 23, "WRITE");	/* submitted before the watch */
	assert_int_equal(ut.punted_submit, 0);
	uring_trace_free(&ut);
}

/*
 * Sampling with gaps: a forced punt whose worker's file_get falls after the
 * stop is cut, and so is one submitted just before sampling went on (its
 * worker's events may not have been on yet); neither is a punt without a
 * file. A true one without a file still counts.
 */
static void test_gaps(void **state)
{
	(void)state;
	setup_trace();
	/* Submitted before sampling was on everywhere, reused after: cut. */
	submit(0x1000, 23, "WRITE", UT_REQ_FORCE_ASYNC);
	punt(0x1000, 23, "WRITE");
	ut.sampled_since = now + 1;
	submit(0x1000, 23, "WRITE", 0);
	file_get(0x1000, 3);
	/* A file_get whose submit was not seen: left out of the file's requests. */
	file_get(0x9000, 3);
	/* A NOP forced to io-wq: no file, ever; its pointer is reused. */
	submit(0x2000, 0, "NOP", UT_REQ_FORCE_ASYNC);
	punt(0x2000, 0, "NOP");
	submit(0x2000, 23, "WRITE", 0);
	file_get(0x2000, 3);
	/* Forced, punted, and sampling stops before its worker takes the file. */
	submit(0x3000, 23, "WRITE", UT_REQ_FORCE_ASYNC);
	punt(0x3000, 23, "WRITE");
	uring_trace_cut(&ut);
	/* After the gap the same pointer's worker file_get is half a request. */
	file_get(0x3000, 3);

	assert_int_equal(file(3)->reqs, 2);
	assert_int_equal(file(3)->punts, 0);
	assert_int_equal(ut.cut_punts, 2);
	assert_int_equal(ut.edge_reqs, 2);
	assert_int_equal(ut.rings[0].nofile_punts, 1);
	assert_int_equal(ut_unresolved_punts(&ut), 1);
	uring_trace_free(&ut);
}

/*
 * A RECV punted with IOSQE_ASYNC whose worker's file_get was missed (the
 * worker attached late): its file is a socket, whichever, so no file's punt
 * is unaccounted; a WRITE in the same state still is.
 */
static void test_socket_punt_without_file(void **state)
{
	(void)state;
	setup_trace();
	submit(0x1000, 27, "RECV", UT_REQ_FORCE_ASYNC);
	punt(0x1000, 27, "RECV");
	submit(0x1000, 0, "NOP", 0);	/* the pointer reused: the RECV is settled */
	assert_int_equal(ut.rings[0].nofile_socket_punts, 1);
	assert_int_equal(ut.rings[0].nofile_punts, 0);
	assert_int_equal(ut_unresolved_punts(&ut), 0);
	uring_trace_free(&ut);

	setup_trace();
	submit(0x1000, 23, "WRITE", UT_REQ_FORCE_ASYNC);
	punt(0x1000, 23, "WRITE");
	submit(0x1000, 0, "NOP", 0);
	assert_int_equal(ut.rings[0].nofile_socket_punts, 0);
	assert_int_equal(ut_unresolved_punts(&ut), 1);
	uring_trace_free(&ut);
}

/* Fields that point outside the record are refused, never read. */
static void test_fields_bounded(void **state)
{
	struct tp_format fmt;
	uint8_t rec[8] = { 0 };
	char buf[16];
	uint64_t v;

	(void)state;
	assert_int_equal(tp_format_parse(submit_fmt, &fmt), 0);
	assert_false(tp_field_u64(tp_field_find(&fmt, "flags"), rec, sizeof(rec), &v));
	assert_false(tp_field_str(tp_field_find(&fmt, "op_str"), rec, sizeof(rec), buf, sizeof(buf)));
	assert_null(tp_field_find(&fmt, "nonexistent"));
	assert_int_equal(tp_format_parse("no fields here", &fmt), -EINVAL);
}

static void test_maps_libs(void **state)
{
	struct proc_maps m;

	(void)state;
	assert_int_equal(proc_maps_parse(
		"55d0-55d1 r-xp 00000000 fe:01 11 /usr/sbin/mariadbd\n"
		"7f00-7f01 r-xp 00000000 fe:01 12 /usr/lib/x86_64-linux-gnu/liburing.so.2.3\n"
		"7f01-7f02 r--p 00001000 fe:01 12 /usr/lib/x86_64-linux-gnu/liburing.so.2.3\n"
		"7f02-7f03 r-xp 00000000 fe:01 13 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
		"7f03-7f04 rw-s 00000000 00:01 14 /memfd:not-a-library (deleted)\n"
		"7f04-7f05 rw-p 00000000 00:00 0 [heap]\n"
		"7f05-7f06 r-xp 00000000 fe:01 15 /opt/x/libfoo.so (deleted)", &m), 0);
	assert_int_equal(m.nlibs, 3);
	assert_string_equal(m.libs[0], "liburing.so.2.3");
	assert_string_equal(m.libs[1], "libc.so.6");
	assert_string_equal(m.libs[2], "libfoo.so");
	assert_string_equal(m.runtime, "/usr/lib/x86_64-linux-gnu/liburing.so.2.3");
	proc_maps_free(&m);
	/* A bad line empties it all, libraries included. */
	assert_int_equal(proc_maps_parse("7f00-7f01 r-xp 0 fe:01 12 /x/liba.so\nnot a line\n", &m),
			 -EBADMSG);
	assert_int_equal(m.nlibs, 0);
}

static const struct ut_ring_op *ring_op_of(const struct ut_ring *r, uint8_t opcode)
{
	unsigned int k;

	for (k = 0; k < r->nops; k++)
		if (r->ops[k].opcode == opcode)
			return &r->ops[k];
	fail_msg("opcode %u has no account", opcode);
	return NULL;
}

/*
 * The ring map: who submits (and from which CPU), what completes and how,
 * how long it took, and the setup flags of a ring set up while watched.
 */
static void test_ring_map(void **state)
{
	const struct ut_ring *r;
	const struct ut_ring_op *op;
	unsigned int i;

	(void)state;
	setup_trace();
	now = 0;
	put(UT_CREATE, "ctx", 0xc0ffee);
	put(UT_CREATE, "fd", 7);
	put(UT_CREATE, "flags", (1u << 8) | (1u << 31));
	put(UT_CREATE, "sq_entries", 64);
	put(UT_CREATE, "cq_entries", 128);
	feed(UT_CREATE);
	/* 100 reads from tid 42, 10 of them on CPU 1; each completes 10 us later. */
	for (i = 0; i < 100; i++) {
		feed_cpu = i >= 90;
		submit(0x1000 + i, 22, "READ", 0);
		complete(0x1000 + i, i % 20 == 0 ? -ENOBUFS : 4096, 10000);
	}
	/* A second thread, and a request it forced to io-wq. */
	feed_tid = 43;
	submit(0x2000, 22, "READ", 1ull << 4);
	complete(0x2000, 4096, 1000000);
	/*
	 * A multishot request: the kernel traces the CQEs before its last
	 * with no request pointer, and the last with it.
	 */
	submit(0x3000, 27, "RECV", 0);
	complete(0, 10, 2000);
	complete(0, -ENOBUFS, 2000);
	complete(0x3000, 10, 2000);
	/* A CQE of a request submitted before sampling: counted, not joined. */
	complete(0x9999, -ECANCELED, 100);
	feed_tid = 42;
	feed_cpu = 0;

	assert_int_equal(ut.nrings, 1);
	r = &ut.rings[0];
	assert_true(r->created);
	assert_int_equal(r->created_fd, 7);
	assert_int_equal(r->setup_flags, (1u << 8) | (1u << 31));
	assert_int_equal(r->sq_entries, 64);
	assert_int_equal(r->cq_entries, 128);
	assert_int_equal(r->nsubmitters, 2);
	assert_int_equal(r->submitters[0].tid, 42);
	assert_int_equal(r->submitters[0].reqs, 100);
	assert_int_equal(r->submitters[0].cpus, 3);	/* CPUs 0 and 1 */
	assert_int_equal(r->submitters[0].migrations, 1);
	assert_int_equal(r->submitters[1].reqs, 2);
	assert_int_equal(r->async_reqs, 1);
	assert_int_equal(r->completions, 105);
	assert_int_equal(r->completions_unjoined, 1);
	assert_int_equal(r->completions_multishot, 2);
	op = ring_op_of(r, 22);
	assert_int_equal(op->reqs, 101);
	assert_int_equal(op->completions, 101);
	assert_int_equal(op->errors, 5);
	assert_int_equal(op->latency_n, 101);
	/* p50 in the bucket of 10 us, p99.9 in the one of 1 ms, each high by at most 25%. */
	assert_true(uring_trace_latency(op, 0.5) >= 10000 && uring_trace_latency(op, 0.5) <= 12500);
	assert_true(uring_trace_latency(op, 0.999) >= 1000000 &&
		    uring_trace_latency(op, 0.999) <= 1250000);
	op = ring_op_of(r, 27);
	assert_int_equal(op->completions, 1);
	assert_int_equal(op->latency_n, 1);
	/* Errors by opcode and errno; the multishot and unjoined ones have none. */
	assert_int_equal(r->nerrs, 3);
	assert_int_equal(r->errs[0].opcode, 22);
	assert_int_equal(r->errs[0].err, ENOBUFS);
	assert_int_equal(r->errs[0].n, 5);
	assert_int_equal(r->errs[1].opcode, UT_ERR_MULTISHOT);
	assert_int_equal(r->errs[1].err, ENOBUFS);
	assert_int_equal(r->errs[2].opcode, UT_ERR_UNJOINED);
	assert_int_equal(r->errs[2].err, ECANCELED);
	/* Open when sampling stops: censored, not a latency. */
	submit(0x4000, 22, "READ", 0);
	uring_trace_cut(&ut);
	assert_int_equal(ring_op_of(r, 22)->latency_censored, 1);

	/* The same ctx set up again: a new ring, the old one kept apart, retired. */
	submit(0x5000, 22, "READ", 0);
	put(UT_CREATE, "ctx", 0xc0ffee);
	put(UT_CREATE, "fd", 9);
	put(UT_CREATE, "flags", 1u << 12);
	feed(UT_CREATE);
	assert_int_equal(ut.nrings, 2);
	assert_true(ut.rings[0].retired);
	assert_int_equal(ut.rings[0].reqs, 104);
	assert_int_equal(ut.rings[1].created_fd, 9);
	assert_int_equal(ut.rings[1].creator, 42);
	assert_int_equal(ut.rings[1].reqs, 0);
	/* The old ring's open request does not complete on the new one. */
	complete(0x5000, 4096, 100);
	assert_int_equal(ut.rings[1].completions_unjoined, 1);
	assert_int_equal(ut.rings[1].nops, 0);
	/* REGISTERED_FD_ONLY: what setup returns is a ring index, not an fd. */
	put(UT_CREATE, "ctx", 0xbeef);
	put(UT_CREATE, "fd", 0);
	put(UT_CREATE, "flags", 1u << 15);
	feed(UT_CREATE);
	assert_int_equal(ut.rings[2].created_fd, -1);
	uring_trace_free(&ut);
}

/*
 * Batches of completion work, per thread, each thread first seen by them:
 * forty threads (past the table's first growths), thread i running i + 1
 * batches of 3 items; counts start from nothing (valgrind watches).
 */
static void test_task_work(void **state)
{
	const struct ut_thread *t;
	unsigned int i, k;

	(void)state;
	setup_trace();
	for (i = 0; i < 40; i++)
		for (k = 0; k <= i; k++) {
			feed_tid = 1000 + (pid_t)i;
			put(UT_TW_RUN, "count", 3);
			feed(UT_TW_RUN);
		}
	feed_tid = 42;
	assert_int_equal(ut.nthreads, 40);
	for (i = 0; i < 40; i++) {
		t = uring_trace_thread(&ut, 1000 + (pid_t)i);
		assert_non_null(t);
		assert_int_equal(t->tw_runs, i + 1);
		assert_int_equal(t->tw_items, 3 * (i + 1));
		assert_int_equal(t->enters, 0);
		assert_int_equal(t->fd, -1);
	}
	assert_null(uring_trace_thread(&ut, 999));
	uring_trace_free(&ut);
}

/*
 * Batches in io_uring_enter (a wait's wakeups) are not outside it; after
 * the exit they are; after a cut, where the thread is is unknown until its
 * next entry or exit, and nothing counts outside.
 */
static void test_task_work_outside(void **state)
{
	const struct ut_thread *t;

	(void)state;
	setup_trace();
	assert_int_equal(tp_format_parse(enter_fmt, &ut.fmts[UT_ENTER]), 0);
	assert_int_equal(tp_format_parse(exit_fmt, &ut.fmts[UT_EXIT]), 0);
	ut.have[UT_ENTER] = ut.have[UT_EXIT] = true;
	uring_trace_setup(&ut);
	feed(UT_TW_RUN);		/* before any entry: unknown */
	put(UT_ENTER, "fd", 5);
	feed(UT_ENTER);
	feed(UT_TW_RUN);
	feed(UT_TW_RUN);		/* two wakeups of one wait */
	feed(UT_EXIT);
	feed(UT_TW_RUN);		/* interrupted in user space, or another call's return */
	uring_trace_cut(&ut);
	feed(UT_TW_RUN);		/* unseen since the cut */
	feed(UT_EXIT);
	feed(UT_TW_RUN);
	t = uring_trace_thread(&ut, 42);
	assert_non_null(t);
	assert_int_equal(t->tw_runs, 6);
	assert_int_equal(t->tw_outside, 2);
	assert_int_equal(t->enters, 1);
	assert_int_equal(t->fd, 5);
	uring_trace_free(&ut);
}

/* The histogram's buckets: ordered, and every latency below its bucket's upper edge. */
static void poll_arm(uint64_t req)
{
	put(UT_POLL_ARM, "ctx", 0xc0ffee);
	put(UT_POLL_ARM, "req", req);
	feed(UT_POLL_ARM);
}

static void cqe(uint64_t req, uint64_t user_data, int res, uint32_t cflags)
{
	put(UT_COMPLETE, "ctx", 0xc0ffee);
	put(UT_COMPLETE, "req", req);
	put(UT_COMPLETE, "user_data", user_data);
	put(UT_COMPLETE, "res", (uint32_t)res);
	put(UT_COMPLETE, "cflags", cflags);
	feed(UT_COMPLETE);
}

static const struct ut_ring_op *ring_op_named(uint8_t opcode)
{
	unsigned int k;

	for (k = 0; k < ut.rings[0].nops; k++)
		if (ut.rings[0].ops[k].opcode == opcode)
			return &ut.rings[0].ops[k];
	fail_msg("opcode %u has no account", opcode);
	return NULL;
}

/*
 * Socket requests: one armed on poll (twice: it counts once), one forced to
 * io-wq with IOSQE_ASYNC and punted twice (once), one that completes at
 * once. A multishot recv posts three CQEs with F_MORE (no request in the
 * event) and ends with ENOBUFS, is armed again and ends at the stream's
 * end after one more; a single-shot recv's last CQE is no multishot end.
 */
static void test_socket_requests(void **state)
{
	const struct ut_ring_op *recv, *send;

	(void)state;
	setup_trace();
	submit(0x1000, 27, "RECV", 0);
	poll_arm(0x1000);
	poll_arm(0x1000);
	submit(0x2000, 27, "RECV", UT_REQ_FORCE_ASYNC);
	punt(0x2000, 27, "RECV");
	punt(0x2000, 27, "RECV");
	file_get(0x2000, 5);
	/* A plain read on the same socket, punted: that one is file-punts' to judge. */
	submit(0x7000, 22, "READ", 0);
	file_get(0x7000, 5);
	punt(0x7000, 22, "READ");
	/*
	 * Punted, then punted again when its poll fired, its worker's file_get
	 * unseen (an edge): one request, cut at the end, not a punt without a file,
	 * and not one file-punts waits on (a CI run's file-punts warned of it).
	 */
	submit(0x8000, 27, "RECV", UT_REQ_FORCE_ASYNC);
	punt(0x8000, 27, "RECV");
	punt(0x8000, 27, "RECV");
	submit(0x3000, 26, "SEND", 0);
	cqe(0x3000, 9, 64, 0);
	/* A multishot recv: user_data 7. */
	submit(0x4000, 27, "RECV", 0);
	poll_arm(0x4000);
	cqe(0, 7, 16, 2);
	cqe(0, 7, 16, 2);
	cqe(0, 7, 16, 2);
	cqe(0x4000, 7, -ENOBUFS, 0);
	submit(0x5000, 27, "RECV", 0);
	cqe(0, 7, 16, 2);
	cqe(0x5000, 7, 0, 0);
	/* Single shot, user_data 8: its CQE ends no multishot run. */
	submit(0x6000, 27, "RECV", 0);
	cqe(0x6000, 8, 64, 0);
	uring_trace_cut(&ut);

	recv = ring_op_named(27);
	send = ring_op_named(26);
	assert_int_equal(recv->reqs, 6);
	assert_int_equal(recv->polled, 2);
	assert_int_equal(recv->punted, 2);
	assert_int_equal(recv->async_reqs, 2);
	assert_int_equal(recv->async_punted, 2);
	assert_int_equal(ut.punts_unattributed, 0);
	assert_int_equal(ut.cut_punts, 0);
	assert_int_equal(ut_unresolved_punts(&ut), 0);
	assert_int_equal(send->punted, 0);
	assert_int_equal(send->polled, 0);
	assert_int_equal(recv->ms_ended, 2);
	assert_int_equal(recv->ms_ended_enobufs, 1);
	assert_int_equal(recv->ms_ended_eof, 1);
	assert_int_equal(recv->ms_cqes, 6);
	assert_int_equal(ut.rings[0].completions_multishot, 4);
	/* The socket's account: its recv is net-punts', its read is a file's punt. */
	assert_int_equal(file(5)->reqs, 2);
	assert_int_equal(file(5)->punts, 2);
	assert_int_equal(file(5)->socket_reqs, 1);
	assert_int_equal(file(5)->socket_punts, 1);
	assert_int_equal(file(5)->socket_async_punts, 1);
	assert_int_equal(ut_file_fault_punts(file(5)), 1);
	assert_int_equal(ut_file_fault_reqs(file(5)), 1);
	assert_true(uring_op_socket_only(27));
	assert_false(uring_op_socket_only(22));
	uring_trace_free(&ut);
}

static void test_latency_buckets(void **state)
{
	struct ut_ring_op op;
	uint64_t ns;
	unsigned int prev = 0;

	(void)state;
	assert_int_equal(uring_trace_lat_bucket(0), 0);
	assert_int_equal(uring_trace_lat_bucket(127), 0);
	for (ns = 128; ns < (1ull << 40); ns = ns * 9 / 8 + 1) {
		unsigned int b = uring_trace_lat_bucket(ns);

		assert_true(b >= prev);
		assert_true(b < UT_LAT_BUCKETS);
		prev = b;
		memset(&op, 0, sizeof(op));
		op.latency[b] = 1;
		op.latency_n = 1;
		if (b < UT_LAT_BUCKETS - 1) {
			assert_true(uring_trace_latency(&op, 0.5) > ns);
			assert_true((double)uring_trace_latency(&op, 0.5) <= (double)ns * 1.25 + 1);
		}
	}
	memset(&op, 0, sizeof(op));
	assert_int_equal(uring_trace_latency(&op, 0.5), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_punted_submit),
		cmocka_unit_test(test_gaps),
		cmocka_unit_test(test_socket_punt_without_file),
		cmocka_unit_test(test_fields_bounded),
		cmocka_unit_test(test_maps_libs),
		cmocka_unit_test(test_ring_map),
		cmocka_unit_test(test_task_work),
		cmocka_unit_test(test_task_work_outside),
		cmocka_unit_test(test_latency_buckets),
		cmocka_unit_test(test_socket_requests),
	};

	return cmocka_run_group_tests_name("uring_trace", tests, NULL, NULL);
}
