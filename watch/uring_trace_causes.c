// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cause a punted write met, observed: the cause events (xfs's time
 * update and block allocation, writeback's throttling) on the io-wq worker
 * that runs it, tied to the request, and counted per file and opcode when
 * the write completes; writes refused in the same tick as a time update
 * counted apart (docs/kernel-facts.md, section 17).
 */
#include <stdlib.h>

#include "uring_trace.h"
#include "uring_trace_impl.h"

/* Each cause's event, its name in the evidence. */
static const struct {
	enum ut_event ev;
	const char *name, *event;
} causes[UT_NCAUSES] = {
	[UT_CAUSE_TIMESTAMP] = { UT_C_UPDATE_TIME, "timestamp", "xfs:xfs_update_time" },
	[UT_CAUSE_ALLOC] = { UT_C_IOMAP_ALLOC, "allocation", "xfs:xfs_iomap_alloc" },
	[UT_CAUSE_DIRTY] = { UT_C_DIRTY, "dirty-throttling", "writeback:balance_dirty_pages" },
};

const char *uring_trace_cause_name(enum ut_cause c)
{
	return c < UT_NCAUSES ? causes[c].name : "unknown";
}

const char *uring_trace_cause_event(enum ut_cause c)
{
	return c < UT_NCAUSES ? causes[c].event : "";
}

bool uring_trace_cause_watched(const struct uring_trace *ut, enum ut_cause c)
{
	return c < UT_NCAUSES && ut->have[causes[c].ev];
}

/* A punted request joins the ones waiting for a worker's cause event; the oldest goes when full. */
void ut_wait_for_worker(struct uring_trace *ut, const struct ut_req *q)
{
	size_t at;

	if (!ut->waiting) {
		ut->waiting = calloc(UT_MAX_WAITING, sizeof(*ut->waiting));
		if (!ut->waiting) {
			ut->oom = true;
			return;
		}
	}
	if (ut->waiting_len == UT_MAX_WAITING) {
		ut->waiting_head = (ut->waiting_head + 1) % UT_MAX_WAITING;
		ut->waiting_len--;
	}
	at = (ut->waiting_head + ut->waiting_len++) % UT_MAX_WAITING;
	ut->waiting[at] = (struct ut_waiting){ q->req, q->ctx, q->time };
}

/* The request a waiting entry names, if it is still that request and open. */
static struct ut_req *waiting_req(struct uring_trace *ut, const struct ut_waiting *e)
{
	struct ut_req *q = e->req ? ut_req_slot(ut, e->req, false) : NULL;

	if (!q || q->ctx != e->ctx || q->time != e->time || q->completed || q->worker)
		return NULL;
	return q;
}

/*
 * The oldest open punted request of the process an idle worker (tid, of
 * pid) may be running: not submitted by that thread, submitted before the
 * event. Closed ones at the head go.
 */
static struct ut_req *claim_waiting(struct uring_trace *ut, const struct tp_record *r)
{
	size_t i;

	while (ut->waiting_len && !waiting_req(ut, &ut->waiting[ut->waiting_head])) {
		ut->waiting_head = (ut->waiting_head + 1) % UT_MAX_WAITING;
		ut->waiting_len--;
	}
	for (i = 0; i < ut->waiting_len; i++) {
		struct ut_waiting *e = &ut->waiting[(ut->waiting_head + i) % UT_MAX_WAITING];
		struct ut_req *q = waiting_req(ut, e);

		if (!q || q->pid != r->pid || q->tid == r->tid || q->time > r->time)
			continue;
		e->req = 0;
		return q;
	}
	return NULL;
}

/*
 * A cause event on a thread. Only an io-wq worker's count: a thread seen
 * in io_uring_enter submits, and what it does is its own. The request is
 * the one the worker was seen running (its file_get after an IOSQE_ASYNC
 * punt, or its last cause event), while that request is open and has not
 * shown this cause already: a write meets each check once, so the same
 * event again is the worker's next request. Otherwise the worker took
 * the oldest open punted request of its process.
 */
void ut_on_cause(struct uring_trace *ut, const struct tp_record *r, enum ut_cause c)
{
	struct ut_thread *t = ut_thread_of(ut, r->tid, true);
	uint8_t bit = (uint8_t)(1u << c);
	struct ut_req *q = NULL;

	if (!t || t->enters)
		return;
	ut->cause_events[c]++;
	if (t->run_req) {
		q = ut_req_slot(ut, t->run_req, false);
		if (q && (q->ctx != t->run_ctx || q->time != t->run_time || q->completed ||
			  (t->run_seen & bit)))
			q = NULL;
	}
	if (!q) {
		q = claim_waiting(ut, r);
		if (!q) {
			t->run_req = 0;
			ut->cause_events_unclaimed[c]++;
			return;
		}
		q->worker = r->tid;
		q->worker_time = r->time;
		t->run_req = q->req;
		t->run_ctx = q->ctx;
		t->run_time = q->time;
		t->run_seen = 0;
	}
	t->run_seen |= bit;
	q->causes |= bit;
	if (c == UT_CAUSE_TIMESTAMP && !q->fixed) {
		struct ut_file *f = ut_file_of(ut, q->fd);

		if (f) {
			f->ts_prev = f->ts_last;
			f->ts_last = r->time;
		}
	}
}

/*
 * A punted write's first CQE: its worker is done with it, and the first
 * cause it showed (enum ut_cause order) is its file's. IOSQE_ASYNC ones
 * were punted by the application, whatever the worker did after.
 */
void ut_count_observed(struct uring_trace *ut, const struct ut_req *q)
{
	struct ut_file *f;
	unsigned int c, i;

	if (!q->punted || q->async || q->fixed || q->fd < 0 ||
	    uring_trace_op_dir(ut, q->opcode) != UT_DIR_WRITE ||
	    uring_trace_op_always_async(ut, q->opcode) || uring_op_socket_only(q->opcode))
		return;
	f = ut_file_of(ut, q->fd);
	if (!f)
		return;
	/*
	 * No cause of its own: refused in the tick before an update of the
	 * file's times, it was refused for them. io-wq runs a file's writes in
	 * order (hashed by inode), so that update's worker ran before its CQE.
	 */
	if (!q->causes) {
		f->ts_same_tick += f->ts_last && q->time <= f->ts_last && q->time > f->ts_prev &&
				   f->ts_last - q->time <= UT_TICK_MAX_NS;
		return;
	}
	for (c = 0; !(q->causes & (1u << c)); c++)
		;
	f->observed[c]++;
	i = ut_file_op(f, q->opcode);
	if (i < f->nops)
		f->ops[i].observed[c]++;
}
