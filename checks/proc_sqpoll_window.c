// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The SQPOLL checks judged over the audit's window (proc_window): how busy
 * each SQPOLL thread was, and whether it shared a CPU with the threads that
 * feed it.
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "cpulist.h"

/*
 * Below this much SQPOLL CPU in the window a ratio is noise: the thread
 * mostly slept, so it burns no core either way.
 */
#define WINDOW_MIN_CPU_US 20000
/* A thread that ran this long in the window competes for a CPU. */
#define ACTIVE_MIN_NS 1000000ull

/* Where a SQPOLL thread ran in the window, next to the process's other threads. */
struct sqpoll_placement {
	bool known;			/* the SQPOLL thread was read at both ends */
	int cpu[2];			/* its CPU at each reading */
	bool times;
	uint64_t run_ns, wait_ns;	/* its time on a CPU, and waiting for one */
	size_t nactive;			/* other threads that ran ACTIVE_MIN_NS or more */
	const struct window_thread *with;	/* an active one seen on its CPU */
	uint64_t with_run_ns;
	bool may_share;			/* an active one may run where it may run */
	char active_cpus[64];		/* CPUs the active threads were seen on */
};

static void sqpoll_placement(const struct proc_facts *pf, pid_t tid, struct sqpoll_placement *p)
{
	const struct proc_window *w = &pf->window;
	const struct window_thread *s = proc_window_thread(w, tid);
	struct cpuset sset, tset, seen;
	size_t i;

	memset(p, 0, sizeof(*p));
	memset(&seen, 0, sizeof(seen));
	if (!fact_ok(&w->e) || !s || !s->both)
		return;
	p->known = true;
	p->cpu[0] = s->r[0].cpu;
	p->cpu[1] = s->r[1].cpu;
	p->times = window_thread_times(s, &p->run_ns, &p->wait_ns);
	if (cpulist_parse(s->cpus_allowed, &sset) || !s->cpus_allowed[0])
		memset(&sset, 0xff, sizeof(sset));
	for (i = 0; i < w->nthreads; i++) {
		const struct window_thread *t = &w->threads[i];
		uint64_t run, wait;
		int k;

		if (t->kind != THREAD_PLAIN || !window_thread_times(t, &run, &wait) ||
		    run < ACTIVE_MIN_NS)
			continue;
		p->nactive++;
		for (k = 0; k < 2; k++)
			if (t->r[k].cpu >= 0)
				cpuset_set(&seen, (unsigned int)t->r[k].cpu);
		if ((t->r[0].cpu == p->cpu[0] || t->r[1].cpu == p->cpu[1]) && run > p->with_run_ns) {
			p->with = t;
			p->with_run_ns = run;
		}
		if (cpulist_parse(t->cpus_allowed, &tset) || !t->cpus_allowed[0]) {
			p->may_share = true;
			continue;
		}
		p->may_share |= cpuset_intersects(&sset, &tset);
	}
	cpuset_format(&seen, p->active_cpus, sizeof(p->active_cpus));
}

/* The CPU the SQPOLL thread and pl->with were seen on together. */
static int shared_cpu(const struct sqpoll_placement *pl)
{
	return pl->with->r[1].cpu == pl->cpu[1] ? pl->cpu[1] : pl->cpu[0];
}

/* ", measured on CPU 1, apart from ..." for a busy-ratio message. */
static void placement_words(const struct sqpoll_placement *p, char *out, size_t outsz)
{
	out[0] = '\0';
	if (!p->known)
		return;
	if (p->with)
		snprintf(out, outsz, ", measured on CPU %d, shared with thread %d (%.32s)",
			 shared_cpu(p), (int)p->with->tid, p->with->comm);
	else if (p->nactive)
		snprintf(out, outsz, ", measured on CPU %d, apart from the process's active threads "
			 "(CPU %s)", p->cpu[1], p->active_cpus);
	else
		snprintf(out, outsz, ", measured on CPU %d, with no other thread of the process "
			 "active", p->cpu[1]);
}

/* A SQPOLL thread's window, summed over every ring it serves. */
struct sqpoll_delta {
	const char *why;		/* not judged, and why; NULL when judged */
	uint64_t total_us, work_us;
	bool heads;			/* every ring that may be this thread's was read */
	uint64_t taken, posted;
	uint64_t pending;		/* SQEs taken minus CQEs posted, over each ring's life */
};

static void sqpoll_delta(const struct proc_facts *pf, const struct proc_ring *first,
			 struct sqpoll_delta *d)
{
	const struct window_ring *wr = proc_window_ring(&pf->window, first->fd);
	size_t i;

	memset(d, 0, sizeof(*d));
	if (!fact_ok(&pf->window.e)) {
		d->why = pf->window.e.why;
		return;
	}
	if (!wr || !window_ring_ok(wr)) {
		d->why = wr ? wr->e.why : "the ring was not in the window";
		return;
	}
	d->total_us = wr->r[1].total_us - wr->r[0].total_us;
	d->work_us = wr->r[1].work_us - wr->r[0].work_us;
	d->heads = true;
	/*
	 * Rings attached to one thread print the thread's times; their requests
	 * add up. A ring that was not read in the window, or whose SQPOLL thread
	 * is unknown (lock busy), may be the one this thread serves: then whether
	 * the thread had anything to do is unknown, never "nothing".
	 */
	for (i = 0; i < pf->nrings; i++) {
		const struct proc_ring *r = &pf->rings[i];
		const struct window_ring *o;
		int32_t pending;

		if (r->busy || !fact_ok(&r->e) || !r->u.has_sq_thread) {
			d->heads = false;
			continue;
		}
		if (r->u.sq_thread != first->u.sq_thread)
			continue;
		o = proc_window_ring(&pf->window, r->fd);
		if (!o || !window_ring_ok(o) || !o->r[0].has_heads || !o->r[1].has_heads) {
			d->heads = false;
			continue;
		}
		d->taken += (uint32_t)(o->r[1].sq_taken - o->r[0].sq_taken);
		d->posted += (uint32_t)(o->r[1].cq_posted - o->r[0].cq_posted);
		/*
		 * Over the ring's life, not now: CQE_SKIP_SUCCESS, multishot and
		 * overflowed CQEs make it drift, so it only ever withholds a verdict.
		 */
		pending = (int32_t)(o->r[1].sq_taken - o->r[1].cq_posted);
		d->pending += pending > 0 ? (uint64_t)pending : 0;
	}
}

/*
 * Kernels 6.9 to 6.17 filled SqTotalTime from getrusage(RUSAGE_SELF) of the
 * thread, which sums the system time of the whole process; 6.18 ("io_uring/
 * sqpoll: switch away from getrusage() for CPU accounting", also in stable
 * trees) counts the SQPOLL thread's own. Its schedstat run time tells them
 * apart.
 */
static bool sqpoll_total_is_thread(const struct sqpoll_placement *pl, const struct sqpoll_delta *d)
{
	return !pl->times || d->total_us * 1000 <= pl->run_ns + pl->run_ns / 5 + 5000000;
}

/* One SQPOLL ring's window, as the busy ratio is judged on it. */
struct busy_view {
	struct sqpoll_delta d;
	struct sqpoll_placement pl;
	char where[160];		/* placement_words() */
	double ratio;			/* work over total time in the window */
	bool active;			/* its rings took or completed requests */
};

/* A window the ratio says nothing of: the whole process's time, or too little CPU. */
static struct finding *busy_ratio_unmeasured(const struct check *c, struct check_ctx *ctx,
					     const char *subject, const struct busy_view *v)
{
	const struct proc_facts *pf = ctx->proc;

	if (!sqpoll_total_is_thread(&v->pl, &v->d))
		return proc_add(c, ctx, STATUS_SKIP, subject,
				"SqTotalTime grew %.0f ms in the %u ms window while the SQPOLL "
				"thread ran %.0f ms (schedstat): this kernel's SqTotalTime and "
				"SqWorkTime count the whole process's system time (before 6.18 "
				"without the stable fix), so the ratio says nothing about the "
				"thread", v->d.total_us / 1e3, pf->window.ms, v->pl.run_ns / 1e6);
	if (v->d.total_us < WINDOW_MIN_CPU_US)
		return proc_add(c, ctx, STATUS_SKIP, subject,
				"the SQPOLL thread used %.1f ms of CPU in the %u ms window, under "
				"the %d ms a ratio needs: it mostly sleeps, so it burns no core",
				v->d.total_us / 1e3, pf->window.ms, WINDOW_MIN_CPU_US / 1000);
	return NULL;
}

/*
 * The ratio judged: saturated over busy-ratio-saturated; under
 * busy-ratio-idle, spinning on an empty ring only when its rings neither
 * took nor completed a request and none can be pending.
 */
static struct finding *busy_ratio_verdict(const struct check *c, struct check_ctx *ctx,
					  const char *subject, const struct busy_view *v)
{
	const struct proc_facts *pf = ctx->proc;
	const struct thresholds *t = check_thresholds(ctx);
	double pct = 100 * v->ratio, ms = v->d.total_us / 1e3;
	struct finding *fi;

	if (v->ratio > t->busy_saturated) {
		fi = proc_add(c, ctx, STATUS_WARN, subject,
			      "the SQPOLL thread did work in %.1f%% of its %.0f ms of CPU in a "
			      "%u ms window%s: it is saturated, and submissions queue behind it",
			      pct, ms, pf->window.ms, v->where);
		finding_set_fix(fi, "spread rings over more SQPOLL threads (separate rings "
				    "without ATTACH_WQ, each pinned to its own isolated CPU)");
		return fi;
	}
	if (!(v->ratio < t->busy_idle))
		return proc_add(c, ctx, STATUS_PASS, subject,
				"the SQPOLL thread did work in %.1f%% of its %.0f ms of CPU in a "
				"%u ms window%s", pct, ms, pf->window.ms, v->where);
	if (!v->d.heads)
		return proc_add(c, ctx, STATUS_SKIP, subject,
				"the SQPOLL thread did work in %.1f%% of its %.0f ms of CPU in a "
				"%u ms window%s, and whether its rings took or completed requests "
				"is unknown (no SQ/CQ positions in fdinfo before 5.17, or a ring "
				"that may be its own was not read)", pct, ms, pf->window.ms,
				v->where);
	if (!v->active && v->d.pending)
		return proc_add(c, ctx, STATUS_SKIP, subject,
				"the SQPOLL thread did work in %.1f%% of its %.0f ms of CPU in a "
				"%u ms window%s, with no request taken or completed; its rings "
				"have taken %llu more SQEs than they posted CQEs, so requests may "
				"be pending at the device (or the count drifted: multishot, "
				"CQE_SKIP_SUCCESS): not judged", pct, ms, pf->window.ms, v->where,
				(unsigned long long)v->d.pending);
	if (!v->active) {
		fi = proc_add(c, ctx, STATUS_WARN, subject,
			      "the SQPOLL thread did work in %.1f%% of its %.0f ms of CPU in a "
			      "%u ms window%s, with no request taken or completed and none "
			      "pending: it spins on an empty ring, burning a core for nothing",
			      pct, ms, pf->window.ms, v->where);
		finding_set_fix(fi, "lower sq_thread_idle so the thread sleeps sooner, share "
				    "one thread between rings (IORING_SETUP_ATTACH_WQ), or drop "
				    "SQPOLL for this ring");
		return fi;
	}
	return proc_add(c, ctx, STATUS_PASS, subject,
			"the SQPOLL thread did work in %.1f%% of its %.0f ms of CPU in a "
			"%u ms window%s; between, it polled while its rings took %llu and "
			"completed %llu requests: it waits on the device, not on an empty "
			"ring", pct, ms, pf->window.ms, v->where,
			(unsigned long long)v->d.taken, (unsigned long long)v->d.posted);
}

static void busy_ratio_evidence(struct finding *fi, const struct proc_facts *pf,
				const struct uring_fdinfo *u, const struct busy_view *v)
{
	finding_ev_int(fi, "window_ms", pf->window.ms);
	finding_ev_int(fi, "window_total_us", (int64_t)v->d.total_us);
	finding_ev_int(fi, "window_work_us", (int64_t)v->d.work_us);
	if (v->d.heads) {
		finding_ev_int(fi, "sqes_taken", (int64_t)v->d.taken);
		finding_ev_int(fi, "cqes_posted", (int64_t)v->d.posted);
		finding_ev_int(fi, "pending", (int64_t)v->d.pending);
	}
	if (v->pl.known)
		finding_ev_int(fi, "cpu", v->pl.cpu[1]);
	if (v->pl.with)
		finding_ev_int(fi, "shares_cpu_with_tid", v->pl.with->tid);
	/* The counters since the ring was created, as before the window. */
	finding_ev_int(fi, "sq_total_time_us", (int64_t)u->sq_total_time_us);
	finding_ev_int(fi, "sq_work_time_us", (int64_t)u->sq_work_time_us);
	if (v->d.total_us)
		json_object_object_add(fi->evidence, "busy_ratio", json_object_new_double(v->ratio));
}

static void busy_ratio_one(const struct check *c, struct check_ctx *ctx, const struct proc_ring *r)
{
	const struct proc_facts *pf = ctx->proc;
	const struct uring_fdinfo *u = &r->u;
	struct busy_view v;
	struct finding *fi;
	char subject[64];

	snprintf(subject, sizeof(subject), "pid %d ring fd %d sqpoll tid %d", (int)pf->pid, r->fd,
		 (int)u->sq_thread);
	if (!u->has_sq_times) {
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "fdinfo has no SqTotalTime/SqWorkTime before Linux 6.9: the busy ratio "
			 "cannot be read");
		return;
	}
	sqpoll_delta(pf, r, &v.d);
	if (v.d.why) {
		fi = proc_add(c, ctx, STATUS_SKIP, subject, "the busy ratio is judged over a "
			      "window of two readings, and there is none: %s", v.d.why);
		finding_ev_int(fi, "sq_total_time_us", (int64_t)u->sq_total_time_us);
		finding_ev_int(fi, "sq_work_time_us", (int64_t)u->sq_work_time_us);
		return;
	}
	sqpoll_placement(pf, u->sq_thread, &v.pl);
	placement_words(&v.pl, v.where, sizeof(v.where));
	v.active = v.d.heads && (v.d.taken || v.d.posted);
	v.ratio = v.d.total_us ? (double)v.d.work_us / (double)v.d.total_us : 0;
	fi = busy_ratio_unmeasured(c, ctx, subject, &v);
	if (!fi)
		fi = busy_ratio_verdict(c, ctx, subject, &v);
	busy_ratio_evidence(fi, pf, u, &v);
}

void check_sqpoll_busy_ratio(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_ring *sq[SQ_MAX];
	size_t n, i;

	n = sqpoll_rings_or_skip(c, ctx, sq);
	for (i = 0; i < n; i++)
		busy_ratio_one(c, ctx, sq[i]);
}

void sqpoll_harm(const struct check_ctx *ctx, const struct proc_ring *r, struct sqpoll_harm *h)
{
	const struct proc_facts *pf = ctx->proc;
	struct sqpoll_placement pl;
	struct sqpoll_delta d;

	memset(h, 0, sizeof(*h));
	h->busy = -1;
	if (!fact_ok(&pf->window.e)) {
		h->why = pf->window.e.why;
		return;
	}
	sqpoll_placement(pf, r->u.sq_thread, &pl);
	if (!pl.known || !pl.times) {
		h->why = "the SQPOLL thread's schedstat was not read at both ends of the window";
		return;
	}
	h->window_ms = pf->window.ms;
	h->wait_ns = pl.wait_ns;
	h->waited = pl.wait_ns * 100 >= (uint64_t)pf->window.ms * 1000000 * SQPOLL_WAIT_HARM_PCT;
	if (r->u.has_sq_times) {
		sqpoll_delta(pf, r, &d);
		if (!d.why && d.total_us >= WINDOW_MIN_CPU_US && sqpoll_total_is_thread(&pl, &d))
			h->busy = (double)d.work_us / (double)d.total_us;
	}
	h->saturated = h->busy > check_thresholds(ctx)->busy_saturated;
}

void check_sqpoll_submitter_cpu(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct proc_ring *sq[SQ_MAX];
	struct sqpoll_placement pl;
	char subject[64];
	struct finding *fi;
	size_t n, i;

	n = sqpoll_rings_or_skip(c, ctx, sq);
	if (!n)
		return;
	for (i = 0; i < n; i++) {
		pid_t tid = sq[i]->u.sq_thread;

		snprintf(subject, sizeof(subject), "pid %d sqpoll tid %d", (int)pf->pid, (int)tid);
		if (!fact_ok(&pf->window.e)) {
			proc_add(c, ctx, fact_status(&pf->window.e), subject, "where threads run is "
				 "read over a window of two readings, and there is none: %s",
				 pf->window.e.why);
			continue;
		}
		sqpoll_placement(pf, tid, &pl);
		if (!pl.known) {
			proc_add(c, ctx, STATUS_SKIP, subject, "the SQPOLL thread was not read at both "
				 "ends of the window");
			continue;
		}
		if (!pl.nactive) {
			fi = proc_add(c, ctx, STATUS_SKIP, subject,
				      "no other thread of the process ran %llu ms or more in the %u ms "
				      "window: the submitting threads are not known",
				      ACTIVE_MIN_NS / 1000000, pf->window.ms);
		} else if (pl.with) {
			char waited[96] = "";

			if (pl.times)
				snprintf(waited, sizeof(waited), "; the SQPOLL thread waited %.0f ms "
					 "for a CPU", pl.wait_ns / 1e6);
			fi = proc_add(c, ctx, STATUS_WARN, subject,
				      "the SQPOLL thread and thread %d (%.32s), which ran %.0f ms of the "
				      "%u ms window, were on the same CPU %d at a reading: sharing a "
				      "CPU, they take turns, and the poller stalls while the submitter "
				      "runs%s",
				      (int)pl.with->tid, pl.with->comm, pl.with_run_ns / 1e6,
				      pf->window.ms, shared_cpu(&pl), waited);
			finding_set_fix(fi, "pin the SQPOLL thread (IORING_SETUP_SQ_AFF, sq_thread_cpu) "
					    "to a CPU that the submitting threads are kept off "
					    "(sched_setaffinity, taskset or a cpuset), or drop SQPOLL "
					    "where no CPU can be spared");
		} else if (pl.may_share) {
			fi = proc_add(c, ctx, STATUS_SKIP, subject,
				      "at both readings of the %u ms window the SQPOLL thread (CPU %d) "
				      "and the process's %zu active thread%s (CPU %s) were apart, but "
				      "their allowed CPUs overlap: two samples cannot show whether they "
				      "take turns on one CPU", pf->window.ms, pl.cpu[1], pl.nactive,
				      pl.nactive == 1 ? "" : "s", pl.active_cpus);
			finding_set_fix(fi, "pin the SQPOLL thread (IORING_SETUP_SQ_AFF) and keep the "
					    "submitting threads off its CPU, so nothing is left to chance");
		} else {
			fi = proc_add(c, ctx, STATUS_PASS, subject,
				      "no active thread of the process may run on the SQPOLL thread's "
				      "CPUs (it ran on CPU %d, the %zu active thread%s on CPU %s)",
				      pl.cpu[1], pl.nactive, pl.nactive == 1 ? "" : "s", pl.active_cpus);
		}
		finding_ev_int(fi, "window_ms", pf->window.ms);
		finding_ev_int(fi, "cpu", pl.cpu[1]);
		finding_ev_int(fi, "active_threads", (int64_t)pl.nactive);
		finding_ev_bool(fi, "may_share", pl.may_share);
		if (pl.with)
			finding_ev_int(fi, "shares_cpu_with_tid", pl.with->tid);
		if (pl.times) {
			finding_ev_int(fi, "run_us", (int64_t)(pl.run_ns / 1000));
			finding_ev_int(fi, "runqueue_wait_us", (int64_t)(pl.wait_ns / 1000));
		}
	}
}
