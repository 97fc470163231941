// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The thread model, from the ring map audit --watch samples: which threads
 * submit to each ring, how its requests complete, how full its completion
 * queue runs, and with which setup flags it was made (when made while
 * watched). Each ring is named by the fd it was matched to, or by its
 * order when it could not be matched.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "watch.h"
#include "uring_flags.h"

/* One thread with this share of a ring's requests submits for it; the rest are strays. */
#define OWNER_SHARE 0.95
/* An errno in at least this share of an opcode's completions is a storm, not noise. */
#define ERR_STORM_SHARE 0.01
/* A completion queue seen this full is an overflow waiting to happen. */
#define CQ_NEAR_FULL 0.9

const char *ringmap_ring_name(const struct proc_facts *pf, size_t i, char *buf, size_t n)
{
	const struct watch_ring_match *m = pf->watch->matches;

	if (m && m[i].fd >= 0)
		snprintf(buf, n, "ring fd %d", m[i].fd);
	else
		snprintf(buf, n, "ring %zu (fd not matched)", i + 1);
	return buf;
}

void ringmap_subject(const struct proc_facts *pf, size_t i, char *buf, size_t n)
{
	char name[48];

	snprintf(buf, n, "pid %d %s", (int)pf->pid, ringmap_ring_name(pf, i, name, sizeof(name)));
}

const struct punt_watch *ringmap_watch(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_watch *w = pf->watch;
	char subject[32];
	size_t i;

	if (!proc_usable(c, ctx, false))
		return NULL;
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!w) {
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "not watched: the ring map comes from audit --watch SECONDS (root)");
		return NULL;
	}
	if (!fact_ok(&w->e)) {
		proc_fact_missing(c, ctx, subject, &w->e);
		return NULL;
	}
	if (!w->tracepoint) {
		proc_add(c, ctx, STATUS_SKIP, subject, "the ring map needs io_uring's tracepoints: %s",
			 w->fallback_why);
		return NULL;
	}
	for (i = 0; i < w->ut.nrings; i++)
		if (w->ut.rings[i].reqs)
			return w;
	proc_add(c, ctx, STATUS_SKIP, subject, "no request was submitted in the %s watched",
		 punt_watch_span(w).s);
	return NULL;
}

/*
 * The threads other than its SQPOLL thread that submit to a ring, the
 * larger ones named in list. Shared when two or more do and none has
 * OWNER_SHARE of the requests (those past the table count as others).
 */
static unsigned int plain_drivers(const struct ut_ring *r, char *list, size_t n, bool *shared)
{
	unsigned int k, plain = 0;
	uint64_t top = 0;
	size_t used = 0;

	list[0] = '\0';
	for (k = 0; k < r->nsubmitters; k++) {
		const struct ut_submitter *s = &r->submitters[k];
		double share = (double)s->reqs / (double)r->reqs;
		int w;

		if (s->sq_thread)
			continue;
		plain++;
		top = s->reqs > top ? s->reqs : top;
		if (share < DRIVER_SHARE)
			continue;
		w = snprintf(list + used, n - used, "%stid %d %.0f%%", used ? ", " : "", (int)s->tid,
			     100 * share);
		if (w > 0 && (size_t)w < n - used)
			used += (size_t)w;
	}
	plain += r->submitters_other ? 1 : 0;
	*shared = plain >= 2 && (double)top < OWNER_SHARE * (double)r->reqs;
	return plain;
}

/*
 * Rings shared by submitting threads take the ring's lock on each
 * submission. Many applications share a ring by design (a database's I/O
 * threads): that is how the application is written, advice (info). Where
 * the application shows a ring per thread (two or more rings, each driven
 * by one thread) a shared ring breaks that design: a warn.
 */
void check_ring_submitters(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_watch *w;
	unsigned int judged = 0, shared = 0, owned = 0;
	char subject[64], list[256];
	bool many, per_thread;
	size_t i;

	w = ringmap_watch(c, ctx);
	if (!w)
		return;
	for (i = 0; i < w->ut.nrings; i++) {
		if (w->ut.rings[i].reqs) {
			plain_drivers(&w->ut.rings[i], list, sizeof(list), &many);
			owned += !many;
		}
	}
	per_thread = owned >= 2;
	for (i = 0; i < w->ut.nrings; i++) {
		const struct ut_ring *r = &w->ut.rings[i];
		unsigned int threads;

		if (!r->reqs)
			continue;
		judged++;
		threads = plain_drivers(r, list, sizeof(list), &many);
		if (!many)
			continue;
		shared++;
		ringmap_subject(pf, i, subject, sizeof(subject));
		proc_add(c, ctx, per_thread ? STATUS_WARN : STATUS_INFO, subject,
			 "%s%u threads submit to this ring (%s of its %llu requests in the %s watched) "
			 "and none of them is its SQPOLL thread: each submission takes the ring's "
			 "lock, and the ring's memory moves between their CPUs%s",
			 r->submitters_other ? "more than " : "", threads, list[0] ? list : "none with 5%",
			 (unsigned long long)r->reqs, punt_watch_span(w).s,
			 per_thread ? "; the process drives its other rings from one thread each, "
				      "and this ring breaks that design" : "");
	}
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!shared)
		proc_add(c, ctx, STATUS_PASS, subject, "each of the %u ring%s with requests in the %s "
			 "sampled has one submitting thread (95%% or more of its requests) or its SQPOLL "
			 "thread",
			 judged, judged == 1 ? "" : "s", punt_watch_span(w).s);
}

/* Whether err is an opcode's ordinary answer rather than a fault: a timeout that expired. */
static bool expected_err(const struct uring_trace *ut, int opcode, int err)
{
	char buf[24];
	const char *op;

	if (opcode < 0)
		return false;
	op = uring_trace_op_name(ut, (uint8_t)opcode, buf, sizeof(buf));
	return (err == ETIME && strstr(op, "TIMEOUT")) ||
	       (err == ECANCELED && (strstr(op, "TIMEOUT") || strstr(op, "CANCEL")));
}

static uint64_t op_completions(const struct ut_ring *r, int opcode)
{
	unsigned int k;

	if (opcode == UT_ERR_MULTISHOT)
		return r->completions_multishot;
	if (opcode == UT_ERR_UNJOINED)
		return r->completions_unjoined;
	for (k = 0; k < r->nops; k++)
		if (r->ops[k].opcode == opcode)
			return r->ops[k].completions;
	return r->completions;
}

void check_ring_completion_errors(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_watch *w;
	unsigned int bad = 0;
	uint64_t cqes = 0;
	char subject[64], buf[24];
	size_t i;

	w = ringmap_watch(c, ctx);
	if (!w)
		return;
	for (i = 0; i < w->ut.nrings; i++) {
		const struct ut_ring *r = &w->ut.rings[i];
		unsigned int k;

		cqes += r->completions;
		for (k = 0; k < r->nerrs; k++) {
			const struct ut_ring_err *e = &r->errs[k];
			uint64_t all = op_completions(r, e->opcode);
			double share = all ? (double)e->n / (double)all : 1;
			const char *name = strerrorname_np(e->err), *op;

			if (expected_err(&w->ut, e->opcode, e->err))
				continue;
			/* Out of provided buffers is never noise; other errnos count as a storm. */
			if (e->err != ENOBUFS && share < ERR_STORM_SHARE)
				continue;
			bad++;
			op = e->opcode == UT_ERR_MULTISHOT ? "multishot requests (their CQEs before "
							     "the last)"
			     : e->opcode == UT_ERR_UNJOINED ? "requests whose submit was not sampled"
			     : uring_trace_op_name(&w->ut, (uint8_t)e->opcode, buf, sizeof(buf));
			ringmap_subject(pf, i, subject, sizeof(subject));
			proc_add(c, ctx, STATUS_WARN, subject,
				 "%llu of %llu completions of %s failed with %s in the %s watched%s",
				 (unsigned long long)e->n, (unsigned long long)all, op,
				 name ? name : "an errno", punt_watch_span(w).s,
				 e->err == ENOBUFS ? ": the provided buffers ran out, so each of them is "
						     "a receive to redo (and a multishot one to re-arm)"
				 : e->err == EAGAIN ? ": the kernel could not complete them without "
						      "waiting and the application was told to retry"
				 : "");
		}
	}
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!bad)
		proc_add(c, ctx, STATUS_PASS, subject,
			 "no error storm in %llu completions in the %s watched (expired timeouts aside)",
			 (unsigned long long)cqes, punt_watch_span(w).s);
}

void check_ring_iosqe_async(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_watch *w;
	uint64_t reqs = 0;
	unsigned int bad = 0;
	char subject[64];
	size_t i;

	w = ringmap_watch(c, ctx);
	if (!w)
		return;
	for (i = 0; i < w->ut.nrings; i++) {
		const struct ut_ring *r = &w->ut.rings[i];

		reqs += r->reqs;
		if (!r->async_reqs)
			continue;
		bad++;
		ringmap_subject(pf, i, subject, sizeof(subject));
		proc_add(c, ctx, STATUS_WARN, subject,
			 "%llu of %llu requests in the %s watched were sent to io-wq with IOSQE_ASYNC: "
			 "each one is a worker's work and a context switch even when it could have "
			 "completed inline, and many at once grow the worker pool",
			 (unsigned long long)r->async_reqs, (unsigned long long)r->reqs,
			 punt_watch_span(w).s);
	}
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!bad)
		proc_add(c, ctx, STATUS_PASS, subject,
			 "none of the %llu requests in the %s watched set IOSQE_ASYNC",
			 (unsigned long long)reqs, punt_watch_span(w).s);
}

static unsigned int fill_unread(const struct punt_watch *w)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < w->nfills; i++)
		n += w->fills[i].unread;
	return n;
}

/*
 * The most completions that could have been owed at once: those waiting
 * plus the requests in flight, over the readings; -1 when a reading's
 * in-flight count is unknown (negative: multishot or CQE_SKIP requests).
 */
static int64_t fill_demand(const struct watch_fill *f)
{
	int64_t most = 0;
	size_t i;

	for (i = 0; i < f->n; i++) {
		if (f->r[i].inflight < 0)
			return -1;
		if ((int64_t)f->r[i].cq + f->r[i].inflight > most)
			most = (int64_t)f->r[i].cq + f->r[i].inflight;
	}
	return most;
}

void check_ring_cq_fill(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_watch *w;
	unsigned int full = 0, read = 0;
	char subject[64];
	size_t i;

	if (!proc_usable(c, ctx, false))
		return;
	w = pf->watch;
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!w) {
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "not watched: audit --watch SECONDS (root) reads each ring's queue fill "
			 "every 100 ms");
		return;
	}
	if (!fact_ok(&w->e)) {
		proc_fact_missing(c, ctx, subject, &w->e);
		return;
	}
	if (!w->tracepoint || !w->nfills) {
		proc_add(c, ctx, STATUS_SKIP, subject, "no ring's queue fill was read: %s",
			 !w->tracepoint ? w->fallback_why
			 : w->exec ? "a program run under --exec has no ring fd when it starts"
				   : "the process had no ring fd when the watch began");
		return;
	}
	for (i = 0; i < w->nfills; i++) {
		const struct watch_fill *f = &w->fills[i];
		uint32_t max;
		int64_t most;

		if (!f->n || !f->cq_entries)
			continue;
		read++;
		max = watch_fill_max(f, true);
		if (max < CQ_NEAR_FULL * f->cq_entries)
			continue;
		snprintf(subject, sizeof(subject), "pid %d ring fd %d", (int)pf->pid, f->fd);
		most = fill_demand(f);
		if (most >= 0 && most <= f->cq_entries) {
			/* Full, but no more could complete than it holds: the risk cannot happen. */
			proc_add(c, ctx, STATUS_PASS, subject,
				 "its completion queue held up to %u of %u entries, but never more "
				 "completions waited and requests were in flight than it holds (at most "
				 "%lld in %zu readings 100 ms apart): it cannot overflow as driven",
				 max, f->cq_entries, (long long)most, f->n);
			continue;
		}
		full++;
		proc_add(c, ctx, STATUS_WARN, subject,
			 "its completion queue held up to %u of %u entries (%u in 99%% of %zu readings "
			 "100 ms apart) %s: completions are reaped late, and one more burst overflows it",
			 max, f->cq_entries, watch_fill_quantile(f, true, 0.99), f->n,
			 most < 0 ? "with requests that post several completions each (multishot) or "
				    "none, so more may come than were submitted"
				  : "while more completions waited and requests were in flight than it "
				    "holds");
	}
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!read)
		proc_add(c, ctx, STATUS_SKIP, subject, "no ring's fdinfo gave its queue heads and tails "
			 "during the watch (before 5.17, or the ring lock was always busy)");
	else if (!full)
		proc_add(c, ctx, STATUS_PASS, subject, "no completion queue of the %u rings read ran "
			 "%.0f%% full in the %s watched (%u readings left empty by a busy ring lock%s)",
			 read, 100 * CQ_NEAR_FULL, punt_watch_span(w).s, fill_unread(w),
			 w->fills_left_out ? ", and rings past the first 64 not read" : "");
}

/* One submitting thread, none of them SQPOLL: what SINGLE_ISSUER promises. */
static bool single_submitter(const struct ut_ring *r)
{
	unsigned int k, n = 0;

	for (k = 0; k < r->nsubmitters; k++) {
		if (r->submitters[k].sq_thread)
			return false;
		n++;
	}
	return n == 1 && !r->submitters_other;
}

/*
 * Seen set up, and submitted to by the thread that set it up alone, with
 * every request sampled; without SINGLE_ISSUER (nor SQPOLL, its own
 * submitter). The kernel binds a SINGLE_ISSUER ring to the task that sets
 * it up: a ring made by one thread and driven by another would fail its
 * submissions with EEXIST, so it is no candidate here.
 */
static bool candidate(const struct punt_watch *w, const struct ut_ring *r)
{
	return w->sampled_all && r->created && r->reqs && single_submitter(r) &&
	       r->submitters[0].tid == r->creator &&
	       !(r->setup_flags & (URING_SETUP_SINGLE_ISSUER | URING_SETUP_SQPOLL));
}

void check_ring_setup_flags(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_watch *w;
	unsigned int known = 0, unknown = 0, said = 0;
	char subject[256], flags[160];
	size_t i, j;

	w = ringmap_watch(c, ctx);
	if (!w)
		return;
	for (i = 0; i < w->ut.nrings; i++) {
		const struct ut_ring *r = &w->ut.rings[i];

		if (!r->created)
			unknown += r->reqs > 0;
		else
			known++;
	}
	/* One finding per set of flags: a process that sets rings up often repeats itself. */
	for (i = 0; i < w->ut.nrings; i++) {
		const struct ut_ring *r = &w->ut.rings[i];
		uint64_t reqs = 0;
		unsigned int rings = 0;
		bool first = true;

		if (!candidate(w, r))
			continue;
		for (j = 0; j < i && first; j++)
			first = !candidate(w, &w->ut.rings[j]) ||
				w->ut.rings[j].setup_flags != r->setup_flags;
		if (!first)
			continue;
		for (j = i; j < w->ut.nrings; j++)
			if (candidate(w, &w->ut.rings[j]) &&
			    w->ut.rings[j].setup_flags == r->setup_flags) {
				rings++;
				reqs += w->ut.rings[j].reqs;
			}
		said++;
		uring_setup_flags_format(r->setup_flags, flags, sizeof(flags));
		if (rings == 1)
			ringmap_subject(pf, i, subject, sizeof(subject));
		else
			snprintf(subject, sizeof(subject), "pid %d rings set up with %s", (int)pf->pid,
				 flags);
		/* A flag of the application's own code: advice, never a risk to act on. */
		proc_add(c, ctx, STATUS_INFO, subject,
			 "%u ring%s set up while watched with %s, each submitted to only by the thread "
			 "that set it up (%llu requests, all sampled, in the %s watched): "
			 "SINGLE_ISSUER (6.0) is that thread's promise to be the only submitter, and "
			 "DEFER_TASKRUN (6.1), which needs it, runs completion work when that thread "
			 "waits for completions rather than whenever the kernel interrupts it",
			 rings, rings == 1 ? "" : "s", flags, (unsigned long long)reqs,
			 punt_watch_span(w).s);
	}
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!known)
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "the setup flags of the %u ring%s are unknown: they were set up before the "
			 "watch began, and only io_uring_create carries the flags",
			 unknown, unknown == 1 ? "" : "s");
	else if (!said)
		proc_add(c, ctx, STATUS_PASS, subject,
			 "%u ring%s set up while watched: none submitted to only by the thread that "
			 "set it up lacks SINGLE_ISSUER%s%s", known, known == 1 ? "" : "s",
			 w->sampled_all ? "" : " (sampled in windows: a rare second submitter could "
					       "have been missed, so none is advised)",
			 unknown ? " (the others were set up before the watch: flags unknown)" : "");
}
