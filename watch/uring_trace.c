// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Joins io_uring's tracepoints into per-file and per-ring accounts.
 *
 * One request, as a thread submits it: io_uring_submit_req gives its
 * opcode and SQE flags; io_uring_file_get (only for a normal fd) gives the
 * fd; io_uring_queue_async_work says it was punted to io-wq. They share
 * the kernel's request pointer, which is recycled, so a request is keyed
 * by the pointer from its submit to the next submit of the same pointer,
 * and samples are joined in time order (tp_stream). With IOSQE_ASYNC the
 * punt comes first and the fd later, from the io-wq worker's file_get.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uring_trace.h"
#include "uring_trace_impl.h"

static const char *const event_names[UT_NEVENTS] = {
	[UT_SUBMIT] = "io_uring/io_uring_submit_req",
	[UT_FILE_GET] = "io_uring/io_uring_file_get",
	[UT_PUNT] = "io_uring/io_uring_queue_async_work",
	[UT_ENTER] = "syscalls/sys_enter_io_uring_enter",
	[UT_COMPLETE] = "io_uring/io_uring_complete",
	[UT_CREATE] = "io_uring/io_uring_create",
	[UT_TW_RUN] = "io_uring/io_uring_task_work_run",
	[UT_EXIT] = "syscalls/sys_exit_io_uring_enter",
	[UT_POLL_ARM] = "io_uring/io_uring_poll_arm",
	[UT_C_UPDATE_TIME] = "xfs/xfs_update_time",
	[UT_C_IOMAP_ALLOC] = "xfs/xfs_iomap_alloc",
	[UT_C_DIRTY] = "writeback/balance_dirty_pages",
};

void uring_trace_setup(struct uring_trace *ut)
{
	unsigned int k;

	for (k = 0; k < UT_NEVENTS; k++) {
		if (!ut->have[k])
			continue;
		ut->f_ctx[k] = tp_field_find(&ut->fmts[k], "ctx");
		ut->f_req[k] = tp_field_find(&ut->fmts[k], "req");
		ut->f_opcode[k] = tp_field_find(&ut->fmts[k], "opcode");
		ut->f_flags[k] = tp_field_find(&ut->fmts[k], "flags");
		ut->f_opstr[k] = tp_field_find(&ut->fmts[k], "op_str");
	}
	ut->f_fd = ut->have[UT_FILE_GET] ? tp_field_find(&ut->fmts[UT_FILE_GET], "fd") : NULL;
	ut->f_sq_thread = ut->have[UT_SUBMIT] ? tp_field_find(&ut->fmts[UT_SUBMIT], "sq_thread")
					      : NULL;
	ut->f_enter_fd = ut->have[UT_ENTER] ? tp_field_find(&ut->fmts[UT_ENTER], "fd") : NULL;
	ut->f_enter_flags = ut->have[UT_ENTER] ? tp_field_find(&ut->fmts[UT_ENTER], "flags")
					       : NULL;
	ut->f_res = ut->have[UT_COMPLETE] ? tp_field_find(&ut->fmts[UT_COMPLETE], "res") : NULL;
	ut->f_cflags = ut->have[UT_COMPLETE] ? tp_field_find(&ut->fmts[UT_COMPLETE], "cflags")
					     : NULL;
	ut->f_user_data = ut->have[UT_COMPLETE]
		? tp_field_find(&ut->fmts[UT_COMPLETE], "user_data") : NULL;
	ut->f_tw_count = ut->have[UT_TW_RUN] ? tp_field_find(&ut->fmts[UT_TW_RUN], "count") : NULL;
	if (ut->have[UT_CREATE]) {
		const struct tp_format *c = &ut->fmts[UT_CREATE];

		ut->f_create_fd = tp_field_find(c, "fd");
		ut->f_create_flags = tp_field_find(c, "flags");
		ut->f_sq_entries = tp_field_find(c, "sq_entries");
		ut->f_cq_entries = tp_field_find(c, "cq_entries");
	}
}

int uring_trace_init(struct uring_trace *ut, char *why, size_t whysz)
{
	char other[256];
	unsigned int k;
	int err;

	memset(ut, 0, sizeof(*ut));
	err = tp_format_load(event_names[UT_PUNT], &ut->fmts[UT_PUNT], why, whysz);
	if (err)
		return err;
	ut->have[UT_PUNT] = true;
	for (k = 0; k < UT_NEVENTS; k++) {
		if (k == UT_PUNT)
			continue;
		ut->have[k] = !tp_format_load(event_names[k], &ut->fmts[k], other, sizeof(other));
	}
	if (!ut->have[UT_SUBMIT]) {
		ut->have[UT_SUBMIT] = !tp_format_load("io_uring/io_uring_submit_sqe",
						      &ut->fmts[UT_SUBMIT], other, sizeof(other));
		ut->submit_sqe = ut->have[UT_SUBMIT];
	}
	uring_trace_setup(ut);
	return 0;
}

void uring_trace_free(struct uring_trace *ut)
{
	free(ut->files);
	free(ut->file_of_fd);
	free(ut->rings);
	free(ut->reqs);
	free(ut->threads);
	free(ut->ms);
	free(ut->spans);
	free(ut->waiting);
	memset(ut, 0, sizeof(*ut));
}

static void count_op(struct ut_file *f, uint8_t opcode, bool req, bool punt)
{
	unsigned int i = ut_file_op(f, opcode);

	if (i == f->nops)
		return;
	f->ops[i].reqs += req;
	f->ops[i].punts += punt;
}

/* A punted request whose fd is known. */
static void file_punt(struct uring_trace *ut, struct ut_file *f, const struct ut_req *q)
{
	enum ut_dir d = uring_trace_op_dir(ut, q->opcode);

	bool kernel = uring_trace_op_always_async(ut, q->opcode);
	bool sock = uring_op_socket_only(q->opcode);

	f->punts++;
	f->read_punts += d == UT_DIR_READ;
	f->write_punts += d == UT_DIR_WRITE;
	f->async_punts += q->async && !kernel;
	f->kernel_async_punts += kernel;
	f->socket_punts += sock;
	f->socket_async_punts += sock && q->async;
	count_op(f, q->opcode, false, true);
}

static void learn_op_name(struct uring_trace *ut, unsigned int ev, const struct tp_record *r,
			  uint8_t opcode)
{
	char name[24];

	if (!ut->op_names[opcode][0] && ut->f_opstr[ev] &&
	    tp_field_str(ut->f_opstr[ev], r->raw, r->len, name, sizeof(name)))
		memcpy(ut->op_names[opcode], name, sizeof(name));
}

static void add_submitter(struct ut_ring *ring, pid_t tid, bool sq_thread, int cpu)
{
	unsigned int i;

	for (i = 0; i < ring->nsubmitters && ring->submitters[i].tid != tid; i++)
		;
	if (i == ring->nsubmitters) {
		if (i == UT_MAX_SUBMITTERS) {
			ring->submitters_other++;
			return;
		}
		memset(&ring->submitters[i], 0, sizeof(ring->submitters[i]));
		ring->submitters[i].tid = tid;
		ring->submitters[i].sq_thread = sq_thread;
		ring->submitters[i].last_cpu = cpu;
		ring->nsubmitters++;
	}
	ring->submitters[i].reqs++;
	if (cpu >= 0 && cpu < 64)
		ring->submitters[i].cpus |= 1ull << cpu;
	else if (cpu >= 64)
		ring->submitters[i].cpus_high = true;
	ring->submitters[i].migrations += cpu != ring->submitters[i].last_cpu;
	ring->submitters[i].last_cpu = cpu;
}

/*
 * A request for the trace file: r is its first CQE, NULL when none was seen.
 * Dropped past UT_MAX_SPANS.
 */
void ut_keep_span(struct uring_trace *ut, const struct ut_req *q, const struct tp_record *r,
		      int32_t res)
{
	struct ut_span *s;

	if (ut->nspans == ut->spans_cap) {
		size_t cap = ut->spans_cap ? ut->spans_cap * 2 : 4096;
		void *p;

		if (cap > UT_MAX_SPANS)
			cap = UT_MAX_SPANS;
		p = cap > ut->spans_cap ? realloc(ut->spans, cap * sizeof(*ut->spans)) : NULL;
		if (!p) {
			ut->spans_dropped++;
			return;
		}
		ut->spans = p;
		ut->spans_cap = cap;
	}
	s = &ut->spans[ut->nspans++];
	s->start = q->time;
	s->end = r ? r->time : 0;
	s->completed = r != NULL;
	s->pid = q->pid;
	s->tid = q->tid;
	s->done_tid = r ? r->tid : 0;
	s->worker = q->worker;
	s->worker_time = q->worker_time;
	/*
	 * A punted request no worker was seen taking the file of (its file was
	 * got at submit, as a plain write's is): the thread its CQE was posted
	 * from, when not the submitter, is the io-wq worker that ran it. On a
	 * ring without DEFER_TASKRUN, io_wq_submit_work() issues the request in
	 * the worker and posts its CQE there (io_req_complete_post(), which
	 * fires io_uring_complete in that thread: io_uring/io_uring.c, 6.1 to
	 * 6.18); task work, the other road, runs in the submitting task, so a
	 * CQE from the submitter names no worker. When it took the request is
	 * not known (worker_time 0).
	 */
	if (!s->worker && q->punted && r && r->tid != q->tid) {
		s->worker = r->tid;
		s->worker_time = 0;
	}
	s->fd = q->fixed ? -1 : q->fd;
	s->res = res;
	s->opcode = q->opcode;
	s->fixed = q->fixed;
	s->async = q->async;
	s->punted = q->punted;
	s->polled = q->polled;
}

/*
 * A punt cut off before its file showed, that file-punts must own: not one
 * the kernel always runs in io-wq, and not a socket-only request (a recv
 * waiting in its worker for data at the watch's end), which net-punts counts.
 */
static bool cut_punt(const struct uring_trace *ut, const struct ut_req *q)
{
	return q->punted && !uring_trace_op_always_async(ut, q->opcode) &&
	       !uring_op_socket_only(q->opcode);
}

/* A request whose pointer is reused (or the watch ends): what it never got. */
static void settle(struct uring_trace *ut, const struct ut_req *q)
{
	struct ut_ring *ring;

	if (q->fd >= 0 || q->fixed)
		return;
	/* Its worker's file_get may have come before that worker's events were on. */
	if (q->time < ut->sampled_since) {
		ut->cut_punts += cut_punt(ut, q);
		return;
	}
	ring = ut_ring_of(ut, q->ctx);
	if (ring) {
		ring->nofile_reqs++;
		if (q->punted && uring_op_socket_only(q->opcode))
			ring->nofile_socket_punts++;
		else	/* OPENAT, STATX and the like have no file and always run in io-wq. */
			ring->nofile_punts += q->punted && !uring_trace_op_always_async(ut, q->opcode);
	}
}

static void censor(struct uring_trace *ut, const struct ut_req *q)
{
	struct ut_ring *ring = ut_ring_of(ut, q->ctx);
	struct ut_ring_op *op = ring ? ut_ring_op(ring, q->opcode) : NULL;

	if (op)
		op->latency_censored++;
}

/*
 * Sampling stops (a gap, or the end): a request still without its file and
 * not completed may get it after the stop (a forced punt's worker takes it
 * later), so it is cut, not taken for one without a file; a completed one
 * had none. Its pointer starts over.
 */
void uring_trace_cut(struct uring_trace *ut)
{
	size_t i;

	for (i = 0; i < ut->reqs_cap; i++) {
		const struct ut_req *q = &ut->reqs[i];

		/*
		 * Completed without a file: it had none (its lookup comes before
		 * its completion), as when its pointer is reused. Otherwise cut.
		 */
		if (q->req && q->ctx && q->fd < 0 && !q->fixed && q->completed)
			settle(ut, q);
		else if (q->req && q->ctx && q->fd < 0 && !q->fixed)
			ut->cut_punts += cut_punt(ut, q);
		/* Not completed while seen: its latency is longer than the window, not known. */
		if (q->req && q->ctx && !q->completed) {
			censor(ut, q);
			if (ut->keep_spans)
				ut_keep_span(ut, q, NULL, 0);
		}
	}
	if (ut->reqs_cap)
		memset(ut->reqs, 0, ut->reqs_cap * sizeof(*ut->reqs));
	ut->reqs_used = 0;
	/* A multishot request's CQEs in the gap go unseen: its count would be short. */
	if (ut->ms)
		memset(ut->ms, 0, MS_CAP * sizeof(*ut->ms));
	ut->ms_used = 0;
	/* Unseen from here on: where each thread is, until its next entry or exit. */
	for (i = 0; i < ut->nthreads; i++) {
		ut->threads[i].where = UT_IN_UNKNOWN;
		ut->threads[i].run_req = 0;
	}
	ut->waiting_head = ut->waiting_len = 0;
}

static void on_enter(struct uring_trace *ut, const struct tp_record *r)
{
	struct ut_thread *e = ut_thread_of(ut, r->tid, true);
	uint64_t fd, flags = 0;

	if (!e)
		return;
	e->enters++;
	e->where = UT_IN_ENTER;
	if (!tp_field_u64(ut->f_enter_fd, r->raw, r->len, &fd))
		return;
	tp_field_u64(ut->f_enter_flags, r->raw, r->len, &flags);
	/* IORING_ENTER_REGISTERED_RING: fd is an index into the thread's ring table. */
	e->fd = (flags & (1u << 4)) || fd > (uint64_t)INT32_MAX ? -1 : (int)fd;
}

static void on_submit(struct uring_trace *ut, const struct tp_record *r)
{
	uint64_t req = 0, ctx = 0, opcode = 0, flags = 0, sq = 0;
	struct ut_thread *e;
	struct ut_ring *ring;
	struct ut_req *q;

	tp_field_u64(ut->f_req[UT_SUBMIT], r->raw, r->len, &req);
	tp_field_u64(ut->f_ctx[UT_SUBMIT], r->raw, r->len, &ctx);
	tp_field_u64(ut->f_opcode[UT_SUBMIT], r->raw, r->len, &opcode);
	tp_field_u64(ut->f_flags[UT_SUBMIT], r->raw, r->len, &flags);
	tp_field_u64(ut->f_sq_thread, r->raw, r->len, &sq);
	learn_op_name(ut, UT_SUBMIT, r, (uint8_t)opcode);
	ring = ut_ring_of(ut, ctx);
	if (ring) {
		struct ut_ring_op *op = ut_ring_op(ring, (uint8_t)opcode);

		ring->reqs++;
		if (op) {
			op->reqs++;
			op->async_reqs += (flags & UT_REQ_FORCE_ASYNC) && !(flags & UT_REQ_IO_DRAIN);
		}
		add_submitter(ring, r->tid, sq != 0, r->cpu);
		e = sq ? NULL : ut_thread_of(ut, r->tid, false);
		if (e && e->fd >= 0 && ring->fd != e->fd) {
			ring->fd_ambiguous |= ring->fd >= 0;
			ring->fd = e->fd;
		} else if (e && e->fd < 0) {
			ring->fd_ambiguous = true;
		}
	}
	q = ut_req_slot(ut, req, true);
	if (!q)
		return;
	if (q->ctx) {
		if (ut->keep_spans && !q->completed)
			ut_keep_span(ut, q, NULL, 0);
		settle(ut, q);	/* the pointer's previous request */
		ring = ut_ring_of(ut, ctx);	/* settle may have grown the table */
	}
	q->ctx = ctx;
	q->time = r->time;
	q->pid = r->pid;
	q->tid = r->tid;
	q->worker = 0;
	q->fd = -1;
	q->opcode = (uint8_t)opcode;
	q->fixed = flags & UT_REQ_FIXED_FILE;
	q->async = flags & UT_REQ_FORCE_ASYNC;
	/* io_uring forces drained requests to io-wq with the same bit (io_init_req). */
	if (flags & UT_REQ_IO_DRAIN)
		ut->drain_seen = true;
	if (ring && q->async && !(flags & UT_REQ_IO_DRAIN) &&
	    !uring_trace_op_always_async(ut, q->opcode))
		ring->async_reqs++;
	q->punted = false;
	q->polled = false;
	q->completed = false;
	q->causes = 0;
	if (q->fixed && ring)
		ring->fixed_reqs++;
}

static void on_file_get(struct uring_trace *ut, const struct tp_record *r)
{
	uint64_t req = 0, fd = 0, ctx = 0;
	struct ut_file *f;
	struct ut_req *q;
	enum ut_dir d;

	tp_field_u64(ut->f_req[UT_FILE_GET], r->raw, r->len, &req);
	tp_field_u64(ut->f_ctx[UT_FILE_GET], r->raw, r->len, &ctx);
	if (!tp_field_u64(ut->f_fd, r->raw, r->len, &fd))
		return;
	q = ut_req_slot(ut, req, false);
	/*
	 * Another ring's request under a reused pointer, one that already has
	 * its file, or a registered-file one, is not this request.
	 */
	if (q && (q->ctx != ctx || q->fd >= 0 || q->fixed))
		q = NULL;
	if (!q) {
		/* Submitted while not sampled: half a request, left out of the shares. */
		ut->edge_reqs++;
		return;
	}
	f = ut_file_of(ut, (int)(int32_t)fd);
	if (!f)
		return;
	q->fd = f->fd;
	/* After a punt, a lookup from another thread is the io-wq worker running it. */
	if (q->punted && r->tid != q->tid) {
		struct ut_thread *t = ut_thread_of(ut, r->tid, true);

		q->worker = r->tid;
		q->worker_time = r->time;
		/* What that worker shows next is this request's, until it completes. */
		if (t) {
			t->run_req = q->req;
			t->run_ctx = q->ctx;
			t->run_time = q->time;
			t->run_seen = 0;
		}
	}
	if (!f->pid)
		f->pid = r->pid;
	d = uring_trace_op_dir(ut, q->opcode);
	f->reqs++;
	f->reads += d == UT_DIR_READ;
	f->writes += d == UT_DIR_WRITE;
	f->async_reqs += q->async && !uring_trace_op_always_async(ut, q->opcode);
	f->kernel_async_reqs += uring_trace_op_always_async(ut, q->opcode);
	f->socket_reqs += uring_op_socket_only(q->opcode);
	count_op(f, q->opcode, true, false);
	/* Forced to io-wq: the worker takes the file after the punt. */
	if (q->punted && q->async)
		file_punt(ut, f, q);
	else if (q->punted)
		ut->punts_unattributed++;
}

static void on_punt(struct uring_trace *ut, const struct tp_record *r)
{
	uint64_t req = 0, ctx = 0, opcode = 0;
	struct ut_ring *ring;
	struct ut_req *q;

	ut->punted_submit = 0;
	tp_field_u64(ut->f_req[UT_PUNT], r->raw, r->len, &req);
	tp_field_u64(ut->f_ctx[UT_PUNT], r->raw, r->len, &ctx);
	if (tp_field_u64(ut->f_opcode[UT_PUNT], r->raw, r->len, &opcode)) {
		learn_op_name(ut, UT_PUNT, r, (uint8_t)opcode);
		ut->punt_ops[(uint8_t)opcode]++;
		ut->punts_kernel_async += uring_trace_op_always_async(ut, (uint8_t)opcode);
	}
	ring = ut_ring_of(ut, ctx);
	if (ring)
		ring->punts++;
	q = ut_req_slot(ut, req, false);
	if (q && q->ctx != ctx)
		q = NULL;
	if (!q) {
		/* Submitted while not sampled (before the watch, or in a gap); FSYNC-like ones are no fault. */
		ut->edge_punts += !uring_trace_op_always_async(ut, (uint8_t)opcode);
		return;
	}
	/*
	 * Punted again before its file showed: an IOSQE_ASYNC socket request
	 * goes back to io-wq each time its poll fires (io_req_task_submit), and
	 * its worker's file_get may have come while that worker's events were
	 * off, at a window's edge. It is one request: settle() or the cut
	 * accounts for it once, as without a file or as cut.
	 */
	if (q->punted && q->fd < 0 && !q->fixed)
		return;
	/*
	 * Punted again (a retry): the file, the ring and the opcode count
	 * requests punted, not punts, so their shares stay one.
	 */
	if (q->punted)
		return;
	if (ring) {
		struct ut_ring_op *op = ut_ring_op(ring, q->opcode);

		if (op) {
			op->punted++;
			op->async_punted += q->async;
		}
	}
	q->punted = true;
	ut->punted_submit = q->time;
	ut_wait_for_worker(ut, q);
	if (q->fd >= 0) {
		struct ut_file *f = ut_file_of(ut, q->fd);

		if (f)
			file_punt(ut, f, q);
	} else if (q->fixed && ring && !uring_trace_op_always_async(ut, q->opcode)) {
		ring->fixed_punts++;
	}
	/* Otherwise the fd comes with the worker's file_get, or never (no file). */
}

/* The open requests of a ctx whose ring is gone: not to be joined to the next ring there. */
static void forget_ring_reqs(struct uring_trace *ut, uint64_t ctx)
{
	size_t i;

	for (i = 0; i < ut->reqs_cap; i++)
		if (ut->reqs[i].req && ut->reqs[i].ctx == ctx) {
			if (ut->keep_spans && !ut->reqs[i].completed)
				ut_keep_span(ut, &ut->reqs[i], NULL, 0);
			ut->reqs[i].ctx = 0;
		}
}

/* A ring set up while watched: the only event that carries its setup flags. */
static void on_create(struct uring_trace *ut, const struct tp_record *r)
{
	uint64_t ctx = 0, fd = 0, flags = 0, sq = 0, cq = 0;
	struct ut_ring *ring;

	if (!tp_field_u64(ut->f_ctx[UT_CREATE], r->raw, r->len, &ctx) ||
	    !tp_field_u64(ut->f_create_flags, r->raw, r->len, &flags))
		return;
	tp_field_u64(ut->f_create_fd, r->raw, r->len, &fd);
	tp_field_u64(ut->f_sq_entries, r->raw, r->len, &sq);
	tp_field_u64(ut->f_cq_entries, r->raw, r->len, &cq);
	ring = ut_ring_of(ut, ctx);
	/*
	 * The same ctx pointer again: a ring freed and another set up in its
	 * memory. The old one is kept as it was, retired, and its requests
	 * still open are not the new ring's.
	 */
	if (ring && (ring->created || ring->reqs || ring->completions || ring->punts)) {
		ring->retired = true;
		forget_ring_reqs(ut, ctx);
		ring = ut_ring_of(ut, ctx);
	}
	if (!ring)
		return;
	ring->created = true;
	ring->creator = r->tid;
	/*
	 * What io_uring_setup() returns: an fd, or with REGISTERED_FD_ONLY an
	 * index in the thread's registered rings, which is no fd.
	 */
	ring->created_fd = flags & (1u << 15) ? -1 : (int)(int32_t)fd;
	ring->setup_flags = (uint32_t)flags;
	ring->sq_entries = (uint32_t)sq;
	ring->cq_entries = (uint32_t)cq;
}

/*
 * A batch of completion work run in the thread that owns the requests:
 * in io_uring_enter (each wakeup of a wait runs one), on the way back from
 * another system call, or, without COOP_TASKRUN, after the kernel
 * interrupted the thread for it (task_work with TWA_SIGNAL). Only the
 * batches run while the thread is known to be out of io_uring_enter count
 * as outside it.
 */
static void on_tw_run(struct uring_trace *ut, const struct tp_record *r)
{
	struct ut_thread *t = ut_thread_of(ut, r->tid, true);
	uint64_t count = 0;

	if (!t)
		return;
	t->tw_runs++;
	t->tw_outside += t->where == UT_OUT_OF_ENTER;
	if (tp_field_u64(ut->f_tw_count, r->raw, r->len, &count))
		t->tw_items += count;
}

static void on_leave(struct uring_trace *ut, const struct tp_record *r)
{
	struct ut_thread *t = ut_thread_of(ut, r->tid, true);

	if (t)
		t->where = UT_OUT_OF_ENTER;
}

/*
 * A request armed on poll: it would have blocked, and waits for its file to
 * be ready with no io-wq thread (the network fast path). A multishot
 * request or a retry may arm again; each request counts once.
 */
static void on_poll_arm(struct uring_trace *ut, const struct tp_record *r)
{
	uint64_t req = 0, ctx = 0;
	struct ut_ring_op *op;
	struct ut_ring *ring;
	struct ut_req *q;

	tp_field_u64(ut->f_req[UT_POLL_ARM], r->raw, r->len, &req);
	tp_field_u64(ut->f_ctx[UT_POLL_ARM], r->raw, r->len, &ctx);
	q = ut_req_slot(ut, req, false);
	if (!q || q->ctx != ctx || q->polled)
		return;
	q->polled = true;
	ring = ut_ring_of(ut, ctx);
	op = ring ? ut_ring_op(ring, q->opcode) : NULL;
	if (op)
		op->polled++;
}

void uring_trace_record(struct uring_trace *ut, const struct tp_record *r)
{
	if (r->event >= UT_NEVENTS)
		return;
	ut->samples[r->event]++;
	switch (r->event) {
	case UT_SUBMIT:
		on_submit(ut, r);
		break;
	case UT_FILE_GET:
		on_file_get(ut, r);
		break;
	case UT_PUNT:
		on_punt(ut, r);
		break;
	case UT_ENTER:
		on_enter(ut, r);
		break;
	case UT_COMPLETE:
		ut_on_complete(ut, r);
		break;
	case UT_CREATE:
		on_create(ut, r);
		break;
	case UT_TW_RUN:
		on_tw_run(ut, r);
		break;
	case UT_EXIT:
		on_leave(ut, r);
		break;
	case UT_POLL_ARM:
		on_poll_arm(ut, r);
		break;
	case UT_C_UPDATE_TIME:
		ut_on_cause(ut, r, UT_CAUSE_TIMESTAMP);
		break;
	case UT_C_IOMAP_ALLOC:
		ut_on_cause(ut, r, UT_CAUSE_ALLOC);
		break;
	case UT_C_DIRTY:
		ut_on_cause(ut, r, UT_CAUSE_DIRTY);
		break;
	}
}
