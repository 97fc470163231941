// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where the threads that drive rings run: the thread-per-core model pins
 * each ring's thread to a CPU of its own. From the ring map (which thread
 * submitted to which ring, from which CPUs) and each thread's
 * Cpus_allowed_list as read at the end of the watch.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "checks.h"
#include "cpulist.h"

/* A thread with DRIVER_SHARE or more of some ring's requests, SQPOLL threads apart. */
struct driver {
	pid_t tid;
	size_t ring;			/* the ring it has the largest share of */
	double share;
	unsigned int rings;		/* rings it drives */
	uint64_t cpus_seen;		/* CPUs below 64 its submissions came from */
	bool cpus_high;
	uint64_t migrations;
	const struct proc_thread *t;	/* NULL: started during the watch, or gone */
	int allowed;			/* CPUs it may run on; 0 unknown */
	int cpu;			/* the one CPU when allowed == 1 */
	bool judged;			/* said in a finding of its own */
};

struct drivers {
	struct driver *v;
	size_t n, cap;
};

static int add_driver(struct drivers *d, const struct ut_submitter *s, size_t ring, double share)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].tid == s->tid)
			break;
	if (i == d->n) {
		if (array_grow(&d->v, &d->cap, d->n + 1))
			return -ENOMEM;
		memset(&d->v[d->n], 0, sizeof(d->v[0]));
		d->v[d->n].tid = s->tid;
		d->v[d->n].share = -1;
		d->n++;
	}
	d->v[i].rings++;
	d->v[i].cpus_seen |= s->cpus;
	d->v[i].cpus_high |= s->cpus_high;
	d->v[i].migrations += s->migrations;
	if (share > d->v[i].share) {
		d->v[i].share = share;
		d->v[i].ring = ring;
	}
	return 0;
}

/* Its allowed CPUs from the thread's status: how many, and the first. */
static void read_allowed(const struct proc_facts *pf, struct driver *dr)
{
	struct cpuset set;
	unsigned int cpu;

	dr->t = proc_threads_find(&pf->threads, dr->tid);
	if (!dr->t || !dr->t->cpus_allowed[0] || cpulist_parse(dr->t->cpus_allowed, &set))
		return;
	dr->allowed = (int)cpuset_count(&set);
	for (cpu = 0; cpu < CPULIST_MAX && dr->allowed == 1; cpu++)
		if (cpuset_has(&set, cpu)) {
			dr->cpu = (int)cpu;
			break;
		}
}

static int collect(const struct proc_facts *pf, struct drivers *d)
{
	const struct uring_trace *ut = &pf->watch->ut;
	size_t i;
	unsigned int k;

	for (i = 0; i < ut->nrings; i++) {
		const struct ut_ring *r = &ut->rings[i];

		for (k = 0; r->reqs && k < r->nsubmitters; k++) {
			const struct ut_submitter *s = &r->submitters[k];
			double share = (double)s->reqs / (double)r->reqs;

			if (!s->sq_thread && share >= DRIVER_SHARE && add_driver(d, s, i, share))
				return -ENOMEM;
		}
	}
	for (i = 0; i < d->n; i++)
		read_allowed(pf, &d->v[i]);
	return 0;
}

/* The CPUs a pinned SQPOLL thread of the process polls on. */
static void sqpoll_cpus(const struct proc_facts *pf, struct cpuset *set)
{
	size_t i;

	memset(set, 0, sizeof(*set));
	for (i = 0; i < pf->nrings; i++) {
		const struct uring_fdinfo *u = &pf->rings[i].u;
		const struct proc_thread *t = u->sq_thread > 0 ?
						      proc_threads_find(&pf->threads, u->sq_thread) :
						      NULL;
		struct cpuset allowed;

		if (t && t->cpus_allowed[0] && !cpulist_parse(t->cpus_allowed, &allowed) &&
		    cpuset_count(&allowed) == 1 && u->sq_thread_cpu >= 0)
			cpuset_set(set, (unsigned int)u->sq_thread_cpu);
	}
}

/* The storage and network IRQs whose affinity holds cpu: said, not judged (see registry). */
static unsigned int irqs_on(const struct cpu_facts *cf, int cpu)
{
	unsigned int n = 0;
	size_t k;

	for (k = 0; fact_ok(&cf->irq_e) && k < cf->nirqs; k++)
		n += cf->irqs[k].cls != IRQ_OTHER && fact_ok(&cf->irqs[k].e) &&
		     cpuset_has(&cf->irqs[k].affinity, (unsigned int)cpu);
	return n;
}

static void format_seen(const struct driver *dr, char *buf, size_t n)
{
	struct cpuset set;
	unsigned int cpu;

	memset(&set, 0, sizeof(set));
	for (cpu = 0; cpu < 64; cpu++)
		if (dr->cpus_seen & (1ULL << cpu))
			cpuset_set(&set, cpu);
	cpuset_format(&set, buf, n);
	if (dr->cpus_high)
		snprintf(buf + strlen(buf), n - strlen(buf), "%s64 and above", buf[0] ? ", " : "");
}

/*
 * An unpinned thread: a warn where the application shows the thread-per-core
 * design it breaks (most of its ring-driving threads pinned, each to one
 * CPU); elsewhere how the application is written, advice (info): a runtime
 * that does not pin is no setting an operator can change.
 */
static void judge_unpinned(const struct check *c, struct check_ctx *ctx, struct driver *dr,
			   bool per_core)
{
	const struct proc_facts *pf = ctx->proc;
	char subject[48], ring[48], seen[128];
	struct finding *fi;

	dr->judged = true;
	format_seen(dr, seen, sizeof(seen));
	snprintf(subject, sizeof(subject), "pid %d tid %d", (int)pf->pid, (int)dr->tid);
	fi = proc_add(c, ctx, per_core ? STATUS_WARN : STATUS_INFO, subject,
		      "thread %s submits %.0f%% of %s's requests%s and is not pinned (it may run on "
		      "CPUs %.64s): its submissions came from CPUs %s and moved to another CPU %llu "
		      "times in the %s watched, and the ring's memory moved with them%s",
		      dr->t->comm, 100 * dr->share, ringmap_ring_name(pf, dr->ring, ring, sizeof(ring)),
		      dr->rings > 1 ? " (and drives other rings)" : "", dr->t->cpus_allowed, seen,
		      (unsigned long long)dr->migrations, punt_watch_span(pf->watch).s,
		      per_core ? "; the process's other ring-driving threads are pinned each to a "
				 "CPU of its own, and this one breaks that design"
			       : "");
	finding_ev_int(fi, "tid", dr->tid);
	finding_ev_bool(fi, "thread_per_core", per_core);
	finding_ev_int(fi, "migrations", (int64_t)dr->migrations);
}

/* Pinned drivers sharing CPU cpu, the first of them at first. */
static void judge_shared(const struct check *c, struct check_ctx *ctx, struct drivers *d,
			 size_t first)
{
	const struct proc_facts *pf = ctx->proc;
	int cpu = d->v[first].cpu;
	char subject[48], list[256], ring[48];
	size_t i, used = 0;
	unsigned int n = 0;
	struct finding *fi;

	list[0] = '\0';
	for (i = first; i < d->n; i++) {
		struct driver *dr = &d->v[i];
		int w;

		if (dr->allowed != 1 || dr->cpu != cpu)
			continue;
		dr->judged = true;
		n++;
		w = snprintf(list + used, sizeof(list) - used, "%stid %d (%s)", used ? ", " : "",
			     (int)dr->tid, ringmap_ring_name(pf, dr->ring, ring, sizeof(ring)));
		if (w > 0 && (size_t)w < sizeof(list) - used)
			used += (size_t)w;
	}
	snprintf(subject, sizeof(subject), "pid %d cpu %d", (int)pf->pid, cpu);
	fi = proc_add(c, ctx, STATUS_WARN, subject,
		      "%u ring-driving threads are pinned to CPU %d alone: %s; they take turns on "
		      "one CPU, and each waits while another runs", n, cpu, list);
	finding_ev_int(fi, "cpu", cpu);
	finding_ev_int(fi, "threads", n);
}

static void judge_on_sqpoll(const struct check *c, struct check_ctx *ctx, struct driver *dr)
{
	const struct proc_facts *pf = ctx->proc;
	char subject[48], ring[48];
	struct finding *fi;

	dr->judged = true;
	snprintf(subject, sizeof(subject), "pid %d tid %d", (int)pf->pid, (int)dr->tid);
	fi = proc_add(c, ctx, STATUS_WARN, subject,
		      "thread %s drives %s pinned to CPU %d, where a SQPOLL thread of the process "
		      "is pinned to poll: the two take turns on that CPU",
		      dr->t->comm, ringmap_ring_name(pf, dr->ring, ring, sizeof(ring)), dr->cpu);
	finding_ev_int(fi, "tid", dr->tid);
	finding_ev_int(fi, "cpu", dr->cpu);
}

/* The pass: each driver in a few words, how many could not be read. */
static void pass(const struct check *c, struct check_ctx *ctx, const struct drivers *d)
{
	const struct proc_facts *pf = ctx->proc;
	const struct cpu_facts *cf = &ctx->host->cpu;
	unsigned int pinned = 0, unknown = 0, irqs = 0, still = 0;
	char subject[32], list[512], how[768] = "";
	size_t i, used = 0;
	struct finding *fi;

	list[0] = '\0';
	for (i = 0; i < d->n; i++) {
		const struct driver *dr = &d->v[i];
		int w = 0;

		if (!dr->allowed) {
			unknown++;
			continue;
		}
		if (dr->allowed == 1) {
			pinned++;
			irqs += irqs_on(cf, dr->cpu);
			w = snprintf(list + used, sizeof(list) - used, "%stid %d on CPU %d",
				     used ? ", " : "", (int)dr->tid, dr->cpu);
		} else {
			still++;
		}
		if (w > 0 && (size_t)w < sizeof(list) - used)
			used += (size_t)w;
	}
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!pinned && !still) {
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "where the %zu ring-driving thread%s may run is unknown: each started during "
			 "the watch or ended before its status was read", d->n, d->n == 1 ? "" : "s");
		return;
	}
	if (pinned)
		snprintf(how, sizeof(how), "%u ring-driving thread%s pinned, each to a CPU of its own "
			 "and none to a SQPOLL thread's (%s; %u storage or network IRQs there)",
			 pinned, pinned == 1 ? "" : "s", list, irqs);
	if (still)
		snprintf(how + strlen(how), sizeof(how) - strlen(how), "%s%u ring-driving thread%s "
			 "not pinned, but each stayed on one CPU while sampled", pinned ? "; " : "",
			 still, still == 1 ? "" : "s");
	fi = proc_add(c, ctx, STATUS_PASS, subject, "%s%s", how,
		      unknown ? " (others started during the watch or ended: where they may run is "
				"unknown)" : "");
	finding_ev_int(fi, "pinned", pinned);
	finding_ev_int(fi, "irqs", irqs);
}

void check_ring_thread_cpus(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	struct drivers d = { 0 };
	struct cpuset sq;
	bool bad = false, per_core;
	char subject[32];
	size_t i, j, pinned, known;

	if (!ringmap_watch(c, ctx))
		return;
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (collect(pf, &d)) {
		proc_add(c, ctx, STATUS_ERROR, subject, "out of memory");
		free(d.v);
		return;
	}
	if (!d.n) {
		proc_add(c, ctx, STATUS_SKIP, subject, "no thread other than a SQPOLL thread "
			 "submitted to a ring while sampled");
		free(d.v);
		return;
	}
	sqpoll_cpus(pf, &sq);
	for (i = 0, pinned = 0, known = 0; i < d.n; i++) {
		known += d.v[i].allowed > 0;
		pinned += d.v[i].allowed == 1;
	}
	/* The design shown: two or more ring-driving threads, most pinned each to one CPU. */
	per_core = pinned >= 2 && 2 * pinned > known;
	for (i = 0; i < d.n; i++) {
		struct driver *dr = &d.v[i];

		if (dr->allowed > 1 && dr->migrations) {
			judge_unpinned(c, ctx, dr, per_core);
		} else if (dr->allowed == 1 && !dr->judged) {
			for (j = i + 1; j < d.n; j++)
				if (d.v[j].allowed == 1 && d.v[j].cpu == dr->cpu)
					break;
			if (j < d.n)
				judge_shared(c, ctx, &d, i);
			else if (cpuset_has(&sq, (unsigned int)dr->cpu))
				judge_on_sqpoll(c, ctx, dr);
		}
		bad |= dr->judged;
	}
	if (!bad)
		pass(c, ctx, &d);
	free(d.v);
}
