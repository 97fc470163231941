// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How a ring runs its socket requests, from the watch's trace. A socket
 * request that would block gets -EAGAIN and is armed on poll (fast poll,
 * 5.7+): it waits for readiness with no thread. It goes to an io-wq
 * worker only when the application forces it (IOSQE_ASYNC), the file
 * cannot be polled, or the poll could not be set up (io_uring/poll.c,
 * io_arm_poll_handler). A multishot recv or accept stays armed across
 * many completions until it ends: when its provided buffers run out
 * (ENOBUFS), the stream ends, or it fails; then the application must arm
 * it again.
 */
#include <errno.h>
#include <linux/io_uring.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"

/* Punted socket requests, as a share of them, that are not a rare event. */
#define PUNT_SHARE 0.01
#define PUNT_MIN 20
/* Multishot ends a second, with fewer CQEs a run than this, that undo multishot's gain. */
#define REARM_OFTEN 100
#define REARM_FEW_CQES 8

struct net_ops {
	uint64_t reqs, polled, punted, async_reqs, async_punted;
	char list[512];		/* "RECV 4210 (4210 punted, 0 armed on poll, ...)", by opcode */
};

static void add_ops(const struct punt_watch *w, const struct ut_ring *r, struct net_ops *n)
{
	size_t len = strlen(n->list);
	unsigned int k;
	char name[24];

	for (k = 0; k < r->nops; k++) {
		const struct ut_ring_op *op = &r->ops[k];

		if (!uring_op_socket_only(op->opcode))
			continue;
		/* Requests seen from submit to completion: throttled samples do not thin them. */
		if (!op->latency_n)
			continue;
		n->reqs += op->latency_n;
		n->polled += op->done_polled;
		n->punted += op->done_punted;
		n->async_reqs += op->done_async;
		n->async_punted += op->done_async_punted;
		if (len < sizeof(n->list) - 1)
			len += (size_t)snprintf(n->list + len, sizeof(n->list) - len,
						"%s%s %llu (%llu punted, %llu armed on poll, %llu with "
						"IOSQE_ASYNC)", len ? "; " : "",
						uring_trace_op_name(&w->ut, op->opcode, name,
								    sizeof(name)),
						(unsigned long long)op->latency_n,
						(unsigned long long)op->done_punted,
						(unsigned long long)op->done_polled,
						(unsigned long long)op->done_async);
		if (len >= sizeof(n->list))
			len = sizeof(n->list) - 1;
	}
}

void net_accept_threads(const struct check_ctx *ctx, char *buf, size_t n)
{
	const struct punt_watch *w = ctx->proc->watch;
	unsigned int rings = 0;
	size_t i, used;
	int k;

	buf[0] = '\0';
	if (!proc_watched(ctx->proc))
		return;
	used = (size_t)snprintf(buf, n, "; in the %s watched, ACCEPT went to", punt_watch_span(w).s);
	for (i = 0; i < w->ut.nrings && used < n; i++) {
		const struct ut_ring *r = &w->ut.rings[i];
		unsigned int j, tids = 0;
		bool accepts = false;

		for (j = 0; j < r->nops; j++)
			accepts |= r->ops[j].opcode == IORING_OP_ACCEPT && r->ops[j].reqs;
		if (!accepts)
			continue;
		k = snprintf(buf + used, n - used, "%s ring %s%d from tid", rings++ ? ";" : "",
			     r->fd >= 0 && !r->fd_ambiguous ? "fd " : "#", r->fd >= 0 &&
			     !r->fd_ambiguous ? r->fd : (int)i);
		used += k > 0 ? (size_t)k : 0;
		for (j = 0; j < r->nsubmitters && used < n; j++) {
			const struct ut_submitter *s = &r->submitters[j];

			if (s->sq_thread || (double)s->reqs < DRIVER_SHARE * (double)r->reqs)
				continue;
			k = snprintf(buf + used, n - used, "%s %d", tids++ ? "," : "", (int)s->tid);
			used += k > 0 ? (size_t)k : 0;
		}
	}
	if (!rings)
		snprintf(buf, n, "; no ACCEPT was submitted in the %s watched", punt_watch_span(w).s);
}

void check_net_punts(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_watch *w;
	struct net_ops all = { 0 };
	unsigned int nrings = 0, warned = 0;
	char subject[64];
	size_t i;

	w = ringmap_watch(c, ctx);
	if (!w)
		return;
	for (i = 0; i < w->ut.nrings; i++) {
		const struct ut_ring *r = &w->ut.rings[i];
		struct net_ops n = { 0 };
		struct finding *fi;

		add_ops(w, r, &n);
		if (!n.reqs)
			continue;
		nrings++;
		all.reqs += n.reqs;
		all.polled += n.polled;
		all.punted += n.punted;
		all.async_reqs += n.async_reqs;
		all.async_punted += n.async_punted;
		if (n.punted < PUNT_MIN || (double)n.punted < PUNT_SHARE * (double)n.reqs)
			continue;
		warned++;
		ringmap_subject(pf, i, subject, sizeof(subject));
		if (n.async_punted * 2 >= n.punted)
			fi = proc_add(c, ctx, STATUS_WARN, subject,
				      "%llu of %llu socket requests seen to completion went to io-wq "
				      "workers (%.0f%%), "
				      "%llu of them because the application set IOSQE_ASYNC on "
				      "them, which skips the poll a socket request would wait on "
				      "with no thread; in the %s watched: %s",
				      (unsigned long long)n.punted, (unsigned long long)n.reqs,
				      100.0 * (double)n.punted / (double)n.reqs,
				      (unsigned long long)n.async_punted, punt_watch_span(w).s,
				      n.list);
		else
			fi = proc_add(c, ctx, STATUS_WARN, subject,
				      "%llu of %llu socket requests seen to completion went to io-wq "
				      "workers (%.0f%%) without IOSQE_ASYNC: their file could not be polled, or the "
				      "poll could not be set up; in the %s watched: %s",
				      (unsigned long long)n.punted, (unsigned long long)n.reqs,
				      100.0 * (double)n.punted / (double)n.reqs, punt_watch_span(w).s,
				      n.list);
		finding_ev_int(fi, "socket_requests", (int64_t)n.reqs);
		finding_ev_int(fi, "punted", (int64_t)n.punted);
		finding_ev_int(fi, "iosqe_async_punted", (int64_t)n.async_punted);
		finding_ev_int(fi, "poll_armed", (int64_t)n.polled);
	}
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!all.reqs) {
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "no socket request (accept, connect, send, recv and their msg and "
			 "zero-copy forms) was seen from submit to completion in the %s watched",
			 punt_watch_span(w).s);
		return;
	}
	if (warned)
		return;
	if (!w->ut.have[UT_POLL_ARM])
		proc_add(c, ctx, STATUS_PASS, subject,
			 "%llu socket requests seen to completion on %u ring%s, %llu punted to "
			 "io-wq; how many waited on poll is unknown (no io_uring_poll_arm "
			 "tracepoint)",
			 (unsigned long long)all.reqs, nrings, nrings == 1 ? "" : "s",
			 (unsigned long long)all.punted);
	else
		proc_add(c, ctx, STATUS_PASS, subject,
			 "%llu socket requests seen to completion on %u ring%s in the %s watched: "
			 "%llu armed on poll "
			 "(they waited for the socket with no thread), %llu punted to io-wq",
			 (unsigned long long)all.reqs, nrings, nrings == 1 ? "" : "s",
			 punt_watch_span(w).s, (unsigned long long)all.polled,
			 (unsigned long long)all.punted);
}

void check_net_multishot(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_watch *w;
	uint64_t ended = 0, cqes = 0;
	unsigned int warned = 0;
	char subject[64], buf[24];
	const char *name;
	double secs;
	size_t i;

	w = ringmap_watch(c, ctx);
	if (!w)
		return;
	secs = w->seconds_sampled > 0 ? w->seconds_sampled : w->seconds_watched;
	for (i = 0; i < w->ut.nrings; i++) {
		const struct ut_ring *r = &w->ut.rings[i];
		unsigned int k;

		for (k = 0; k < r->nops; k++) {
			const struct ut_ring_op *op = &r->ops[k];
			uint64_t failed = op->ms_ended - op->ms_ended_eof;
			double rate = secs > 0 ? (double)failed / secs : 0;
			double per_run = op->ms_ended ? (double)op->ms_cqes / (double)op->ms_ended : 0;
			struct finding *fi;

			ended += op->ms_ended;
			cqes += op->ms_cqes;
			/* Ends at the end of a stream are a connection closing, not a fault. */
			if (rate < REARM_OFTEN || per_run >= REARM_FEW_CQES)
				continue;
			warned++;
			ringmap_subject(pf, i, subject, sizeof(subject));
			name = uring_trace_op_name(&w->ut, op->opcode, buf, sizeof(buf));
			if (op->ms_ended_enobufs * 2 >= failed)
				fi = proc_add(c, ctx, STATUS_WARN, subject,
					      "multishot %s ended %.0f times a second, %llu of %llu times "
					      "with ENOBUFS: its provided buffer ring ran dry after %.1f "
					      "completions a run on average, and each end costs a new "
					      "request and a new poll arm (in the %s watched)",
					      name, rate, (unsigned long long)op->ms_ended_enobufs,
					      (unsigned long long)op->ms_ended, per_run,
					      punt_watch_span(w).s);
			else
				fi = proc_add(c, ctx, STATUS_WARN, subject,
					      "multishot %s ended %.0f times a second with an error, "
					      "after %.1f completions a run on average (%llu ends, %llu "
					      "of them at the end of a stream, in the %s watched): the "
					      "ring's completion errors say which",
					      name, rate, per_run, (unsigned long long)op->ms_ended,
					      (unsigned long long)op->ms_ended_eof, punt_watch_span(w).s);
			finding_ev_int(fi, "ended", (int64_t)op->ms_ended);
			finding_ev_int(fi, "ended_enobufs", (int64_t)op->ms_ended_enobufs);
			finding_ev_int(fi, "ended_eof", (int64_t)op->ms_ended_eof);
			finding_ev_int(fi, "cqes", (int64_t)op->ms_cqes);
		}
	}
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (warned)
		return;
	if (!ended) {
		proc_add(c, ctx, STATUS_PASS, subject,
			 "no multishot request ended in the %s watched (one that stays armed, or "
			 "none was used)%s", punt_watch_span(w).s,
			 w->ut.ms_resets ? "; more multishot requests ran than were followed at once, "
					   "so some ends were not counted" : "");
		return;
	}
	proc_add(c, ctx, STATUS_PASS, subject,
		 "%llu multishot requests ended in the %s watched, after %.1f completions a run on "
		 "average: fewer than %d a second ended short of their stream's end",
		 (unsigned long long)ended, punt_watch_span(w).s, (double)cqes / (double)ended,
		 REARM_OFTEN);
}
