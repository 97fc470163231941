// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine's completions (uring_trace.c dispatches): each CQE joined to
 * its request for the opcode, the errors by opcode and errno, a request's
 * first CQE for its latency, and multishot requests followed by their
 * user_data from arm to end (how many CQEs a run posted, why it ended).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uring_trace_impl.h"

static void count_err(struct ut_ring *ring, int opcode, int err)
{
	unsigned int i;

	for (i = 0; i < ring->nerrs; i++)
		if (ring->errs[i].err == err && ring->errs[i].opcode == opcode) {
			ring->errs[i].n++;
			return;
		}
	if (ring->nerrs == UT_MAX_ERRS) {
		ring->errs_other++;
		return;
	}
	ring->errs[ring->nerrs++] = (struct ut_ring_err){ opcode, err, 1 };
}

static struct ut_ms *ms_slot(struct uring_trace *ut, uint64_t ctx, uint64_t user_data,
			     bool create)
{
	size_t h;

	if (!ut->ms) {
		if (!create)
			return NULL;
		ut->ms = calloc(MS_CAP, sizeof(*ut->ms));
		if (!ut->ms) {
			ut->oom = true;
			return NULL;
		}
	}
	if (create && 2 * (ut->ms_used + 1) > MS_CAP) {
		/* More multishot requests than followed: start over (their counts are lost). */
		memset(ut->ms, 0, MS_CAP * sizeof(*ut->ms));
		ut->ms_used = 0;
		ut->ms_resets++;
	}
	for (h = ut_hash64(ctx ^ ut_hash64(user_data)) & (MS_CAP - 1); ut->ms[h].ctx;
	     h = (h + 1) & (MS_CAP - 1))
		if (ut->ms[h].ctx == ctx && ut->ms[h].user_data == user_data)
			return &ut->ms[h];
	if (!create)
		return NULL;
	ut->ms_used++;
	ut->ms[h].ctx = ctx;
	ut->ms[h].user_data = user_data;
	return &ut->ms[h];
}

/* A CQE that says more follow: a multishot request's, known by its user_data. */
static void ms_count(struct uring_trace *ut, uint64_t ctx, uint64_t user_data)
{
	struct ut_ms *m = ms_slot(ut, ctx, user_data, true);

	if (m)
		m->cqes++;
}

/*
 * A request's last CQE: the CQEs its multishot run posted before (0: none
 * seen, a single-shot request). The slot stays, empty, for the next arm.
 */
static uint32_t ms_end(struct uring_trace *ut, uint64_t ctx, uint64_t user_data)
{
	struct ut_ms *m = ms_slot(ut, ctx, user_data, false);
	uint32_t n = m ? m->cqes : 0;

	if (m)
		m->cqes = 0;
	return n;
}

/*
 * A CQE. Its request, joined by pointer, gives the opcode; the first CQE of
 * a request gives its latency (a multishot request posts many, each a
 * completion, none a new latency). A CQE of a request submitted while not
 * sampled counts on the ring, unjoined.
 */
void ut_on_complete(struct uring_trace *ut, const struct tp_record *r)
{
	uint64_t req = 0, ctx = 0, res = 0, cflags = 0, user_data = 0;
	struct ut_ring_op *op;
	struct ut_ring *ring;
	struct ut_req *q;
	int32_t v;

	tp_field_u64(ut->f_req[UT_COMPLETE], r->raw, r->len, &req);
	tp_field_u64(ut->f_ctx[UT_COMPLETE], r->raw, r->len, &ctx);
	if (!tp_field_u64(ut->f_res, r->raw, r->len, &res))
		return;
	v = (int32_t)res;
	ring = ut_ring_of(ut, ctx);
	if (!ring)
		return;
	ring->completions++;
	tp_field_u64(ut->f_cflags, r->raw, r->len, &cflags);
	tp_field_u64(ut->f_user_data, r->raw, r->len, &user_data);
	/* A multishot request's CQEs before its last: traced without the request. */
	if (!req) {
		ring->completions_multishot++;
		if (v < 0)
			count_err(ring, UT_ERR_MULTISHOT, -v);
		if (cflags & CQE_F_MORE)
			ms_count(ut, ctx, user_data);
		return;
	}
	q = ut_req_slot(ut, req, false);
	if (q && q->ctx != ctx)
		q = NULL;
	if (v < 0)
		count_err(ring, q ? q->opcode : UT_ERR_UNJOINED, -v);
	if (!q) {
		ring->completions_unjoined++;
		return;
	}
	op = ut_ring_op(ring, q->opcode);
	if (!op)
		return;
	op->completions++;
	if (cflags & CQE_F_MORE) {
		ms_count(ut, ctx, user_data);
	} else {
		uint32_t before = ms_end(ut, ctx, user_data);

		/* Its last CQE, after others: a multishot request ended, to be armed again. */
		if (before) {
			op->ms_ended++;
			op->ms_ended_enobufs += v == -ENOBUFS;
			op->ms_ended_eof += v == 0;
			op->ms_cqes += before + 1;
		}
	}
	op->errors += v < 0;
	if (!q->completed)
		ut_count_observed(ut, q);
	if (!q->completed && r->time >= q->time) {
		op->latency[uring_trace_lat_bucket(r->time - q->time)]++;
		op->latency_n++;
		op->done_polled += q->polled;
		op->done_punted += q->punted;
		op->done_async += q->async;
		op->done_async_punted += q->punted && q->async;
		if (ut->keep_spans)
			ut_keep_span(ut, q, r, v);
	}
	q->completed = true;
}
