// SPDX-License-Identifier: GPL-2.0-or-later
/* The rings of a process: inventory, SQPOLL threads (placed, shared), CQ overflow. */
#include <stdio.h>
#include <string.h>

#include "checks.h"

/* An iou-sqp thread that no ring's SqThread names means some ring hid its own. */
static bool sqp_unclaimed(const struct proc_facts *pf)
{
	return proc_facts_sqp_unnamed(pf) > 0;
}

/*
 * Why a ring prints SqThread -1 while an iou-sqp thread runs unnamed: kernels
 * with 7644b1a1c9a7 ("io_uring/fdinfo: lock SQ thread while retrieving thread
 * cpu/pid", 6.6, and the stable trees such as Debian 12's 6.1) name the thread
 * only when they can take its lock, which a polling SQPOLL thread holds almost
 * all the time. "io_uring/fdinfo: remove need for sqpoll lock for thread/pid
 * retrieval" (6.7) prints the stored PID instead.
 */
#define SQP_UNNAMED_WHY "SqThread -1 while an iou-sqp thread runs unnamed: before 6.7 " \
	"fdinfo names a SQPOLL thread only when it can take the thread's lock, which a " \
	"busy one holds"

/* Whether a ring's SQPOLL state is known: never read "no SQPOLL" off a busy ring. */
static bool sqpoll_known(const struct proc_facts *pf, const struct proc_ring *r)
{
	if (r->busy || !fact_ok(&r->e) || !r->u.has_sq_thread)
		return false;
	return r->u.sq_thread > 0 || !sqp_unclaimed(pf);
}

void check_proc_rings(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	char subject[32], list[1024] = "";
	unsigned int busy = 0, unnamed = 0, locked = 0, unreadable = 0;
	struct finding *fi;
	size_t i;

	if (!proc_usable(c, ctx, true))
		return;
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	for (i = 0; i < pf->nrings; i++) {
		const struct proc_ring *r = &pf->rings[i];
		char one[160];

		if (r->busy)
			snprintf(one, sizeof(one), "fd %d (lock busy in %d reads: SQPOLL, files and "
				 "buffers unknown)", r->fd, r->reads);
		else if (!fact_ok(&r->e))
			snprintf(one, sizeof(one), "fd %d (%.100s)", r->fd, r->e.why);
		else if (!sqpoll_known(pf, r))
			snprintf(one, sizeof(one), "fd %d (SQPOLL unknown: SqThread -1, and an "
				 "iou-sqp thread no ring names)", r->fd);
		else
			snprintf(one, sizeof(one), "fd %d (%s%u files, %u buffers)", r->fd,
				 r->u.sq_thread > 0 ? "SQPOLL, " : "", r->u.user_files, r->u.user_bufs);
		busy += r->busy || !sqpoll_known(pf, r);
		locked += r->busy;
		unnamed += !r->busy && fact_ok(&r->e) && !sqpoll_known(pf, r);
		/* Not the lock: a file past any real one, or garbage, is an error of its own. */
		unreadable += !r->busy && !fact_ok(&r->e) && fact_status(&r->e) == STATUS_ERROR;
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? "; " : "", one);
	}
	if (pf->incomplete)
		fi = proc_add(c, ctx, STATUS_ERROR, subject,
			      "pid %d exited while being read: what was read is reported, and it is "
			      "incomplete; rings: %s", (int)pf->pid, list);
	else
		/* Blind to a ring's state is a skip: nothing in the service is at fault for it. */
		fi = proc_add(c, ctx, unreadable ? STATUS_ERROR : busy ? STATUS_SKIP : STATUS_PASS,
			      subject,
			      "%zu ring%s, %u io-wq worker%s, %u SQPOLL thread%s: %s%s%s%s",
			      pf->nrings, pf->nrings == 1 ? "" : "s", pf->threads.iou_wrk,
			      pf->threads.iou_wrk == 1 ? "" : "s", pf->threads.iou_sqp,
			      pf->threads.iou_sqp == 1 ? "" : "s", list,
			      busy ? "; rings whose state is unknown are left out of the SQPOLL checks"
				   : "",
			      unnamed ? " (" SQP_UNNAMED_WHY ")" : "",
			      locked ? " (the kernel prints a ring's state only when the ring's lock is "
				       "free at that moment; a ring under steady register/unregister "
				       "load keeps it held)" : "");
	finding_ev_int(fi, "rings", (int64_t)pf->nrings);
	finding_ev_int(fi, "unknown", busy);
	finding_ev_int(fi, "unreadable", unreadable);
}

/* Each SQPOLL thread once, with the first ring that names it. */
static size_t sqpoll_rings(const struct proc_facts *pf, const struct proc_ring **out, size_t max)
{
	size_t i, j, n = 0;

	for (i = 0; i < pf->nrings && n < max; i++) {
		const struct proc_ring *r = &pf->rings[i];
		bool dup = false;

		if (!sqpoll_known(pf, r) || r->u.sq_thread <= 0)
			continue;
		for (j = 0; j < n; j++)
			dup |= out[j]->u.sq_thread == r->u.sq_thread;
		if (!dup)
			out[n++] = r;
	}
	return n;
}

size_t sqpoll_rings_or_skip(const struct check *c, struct check_ctx *ctx,
			    const struct proc_ring **sq)
{
	char subject[32];
	size_t n;

	if (!proc_usable(c, ctx, true))
		return 0;
	n = sqpoll_rings(ctx->proc, sq, SQ_MAX);
	if (!n) {
		snprintf(subject, sizeof(subject), "pid %d", (int)ctx->proc->pid);
		if (sqp_unclaimed(ctx->proc))
			proc_add(c, ctx, STATUS_SKIP, subject,
				 "the process has a SQPOLL thread no ring's fdinfo names (%s): not judged",
				 SQP_UNNAMED_WHY);
		else
			proc_add(c, ctx, STATUS_SKIP, subject, "no SQPOLL ring (known)");
	}
	return n;
}

/* "; in the 300 ms window it waited 2 ms for a CPU (1%)..." and whether that is harm. */
static bool harm_words(const struct sqpoll_harm *h, char *out, size_t outsz)
{
	char busy[64] = "";

	if (h->why) {
		snprintf(out, outsz, "; what it costs was not measured (%.200s)", h->why);
		return false;
	}
	if (h->busy >= 0)
		snprintf(busy, sizeof(busy), ", and did work in %.1f%% of its CPU time",
			 100 * h->busy);
	snprintf(out, outsz, "; in the %u ms window it waited %.1f ms for a CPU (%.1f%%)%s%s",
		 h->window_ms, h->wait_ns / 1e6,
		 h->window_ms ? h->wait_ns / 1e4 / h->window_ms : 0.0, busy,
		 h->waited || h->saturated ? ": the placement costs it now"
					   : ": no loss measured, a risk to know of");
	return h->waited || h->saturated;
}

/*
 * A SQPOLL thread placed where IRQs, other tasks or a remote node can take its
 * time is a risk; it is a warning only where the window measured the loss (the
 * thread waiting for its CPU, or saturated), and never a failure by itself:
 * the requests still bypass io-wq, so the fast path holds.
 */
static struct finding *placement_risk(const struct check *c, struct check_ctx *ctx,
				      const struct proc_ring *r, const char *subject,
				      const struct proc_thread *t, int cpu, bool pinned, bool iso,
				      const char *why)
{
	char where[256], cost[384];
	struct sqpoll_harm h;
	struct finding *fi;
	bool harm;

	sqpoll_harm(ctx, r, &h);
	harm = harm_words(&h, cost, sizeof(cost));
	if (!t || !t->cpus_allowed[0])
		snprintf(where, sizeof(where), "runs on CPU %d (whether it is pinned is unknown: "
			 "its task status was not readable)", cpu);
	else if (!pinned)
		snprintf(where, sizeof(where), "is not pinned (allowed: %.64s) and last ran on "
			 "CPU %d", t->cpus_allowed, cpu);
	else
		snprintf(where, sizeof(where), "polls on CPU %d", cpu);
	fi = proc_add(c, ctx, harm ? STATUS_WARN : STATUS_INFO, subject,
		      "the SQPOLL thread %s, where %s%s", where,
		      why[0] ? why : iso ? "other tasks may run" :
		      "the CPU is not isolated, so other tasks share it", cost);
	if (why[0])
		finding_set_fix(fi, "pin the SQPOLL thread (IORING_SETUP_SQ_AFF, sq_thread_cpu) "
				    "to an isolated CPU on the device's node, and move IRQs off "
				    "it (uringlint preflight --sqpoll-cpu LIST names them)");
	else
		finding_set_fix(fi, "pin it with IORING_SETUP_SQ_AFF and sq_thread_cpu to a CPU "
				    "isolated with isolcpus=, nohz_full= and rcu_nocbs=");
	proc_app_fix(ctx, fi, APP_FIX_SQPOLL_CPU);
	if (!h.why) {
		finding_ev_int(fi, "window_ms", h.window_ms);
		finding_ev_int(fi, "waited_us", (int64_t)(h.wait_ns / 1000));
		if (h.busy >= 0)
			json_object_object_add(fi->evidence, "busy_ratio",
					       json_object_new_double(h.busy));
	}
	return fi;
}

void check_sqpoll_cpu_placement(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct cpu_facts *cf = &ctx->host->cpu;
	const struct proc_ring *sq[SQ_MAX];
	char subject[64], irqs[512], why[768];
	struct finding *fi;
	size_t n, i, k;

	n = sqpoll_rings_or_skip(c, ctx, sq);
	if (!n)
		return;
	for (i = 0; i < n; i++) {
		const struct uring_fdinfo *u = &sq[i]->u;
		const struct proc_thread *t = proc_threads_find(&pf->threads, u->sq_thread);
		int cpu = u->sq_thread_cpu, node, dnode = -1;
		bool pinned, iso, remote = false;
		size_t nirq = 0;

		snprintf(subject, sizeof(subject), "pid %d sqpoll tid %d cpu %d", (int)pf->pid,
			 (int)u->sq_thread, cpu);
		if (cpu < 0) {
			proc_add(c, ctx, STATUS_SKIP, subject, "SqThreadCpu is unknown");
			continue;
		}
		irqs[0] = why[0] = '\0';
		for (k = 0; fact_ok(&cf->irq_e) && k < cf->nirqs; k++) {
			const struct irq_info *ii = &cf->irqs[k];

			if (ii->cls == IRQ_OTHER || !fact_ok(&ii->e) ||
			    !cpuset_has(&ii->affinity, (unsigned int)cpu))
				continue;
			if (strlen(irqs) + 48 < sizeof(irqs))
				snprintf(irqs + strlen(irqs), sizeof(irqs) - strlen(irqs), "%s%u %s",
					 nirq ? ", " : "", ii->line.irq, ii->line.name);
			nirq++;
		}
		pinned = t && t->cpus_allowed[0] && !strchr(t->cpus_allowed, ',') &&
			 !strchr(t->cpus_allowed, '-');
		iso = fact_ok(&cf->isolated_e) && cpuset_has(&cf->isolated, (unsigned int)cpu);
		node = cpu_facts_node_of(cf, (unsigned int)cpu);
		for (k = 0; k < pf->devices.n && cf->nnodes > 1; k++) {
			const struct blockdev_facts *b = &pf->devices.v[k].blk;

			if (fact_ok(&b->e) && b->numa_node >= 0 && node >= 0 && b->numa_node != node) {
				remote = true;
				dnode = b->numa_node;
			}
		}
		if (nirq)
			snprintf(why, sizeof(why), "storage or network IRQs land on CPU %d (%s)", cpu,
				 irqs);
		if (remote)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 "%sCPU %d is on NUMA node %d, a data device on node %d",
				 why[0] ? "; " : "", cpu, node, dnode);
		if (!why[0] && pinned && iso)
			fi = proc_add(c, ctx, STATUS_PASS, subject,
				      "the SQPOLL thread is pinned to isolated CPU %d with no storage "
				      "or network IRQ there", cpu);
		else
			fi = placement_risk(c, ctx, sq[i], subject, t, cpu, pinned, iso, why);
		finding_ev_int(fi, "cpu", cpu);
		finding_ev_bool(fi, "pinned", pinned);
		finding_ev_bool(fi, "isolated", iso);
		finding_ev_int(fi, "irqs", (int64_t)nirq);
	}
}

void check_sqpoll_shared(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct proc_ring *sq[SQ_MAX];
	size_t n, i, nrings = 0;
	char subject[32];
	struct finding *fi;

	n = sqpoll_rings_or_skip(c, ctx, sq);
	if (!n)
		return;
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	for (i = 0; i < pf->nrings; i++)
		nrings += sqpoll_known(pf, &pf->rings[i]) && pf->rings[i].u.sq_thread > 0;
	if (n > 1) {
		fi = proc_add(c, ctx, STATUS_WARN, subject,
			      "%zu SQPOLL rings run %zu separate SQPOLL threads, each polling its "
			      "own CPU", nrings, n);
		finding_set_fix(fi, "create the later rings with IORING_SETUP_ATTACH_WQ and wq_fd of "
				    "the first, so they share its SQPOLL thread, unless one thread "
				    "cannot keep up (see sqpoll-busy-ratio)");
	} else if (nrings > 1) {
		fi = proc_add(c, ctx, STATUS_PASS, subject,
			      "%zu SQPOLL rings share one SQPOLL thread (tid %d)", nrings,
			      (int)sq[0]->u.sq_thread);
	} else {
		fi = proc_add(c, ctx, STATUS_PASS, subject, "one SQPOLL ring, one SQPOLL thread "
			      "(tid %d)", (int)sq[0]->u.sq_thread);
	}
	finding_ev_int(fi, "sqpoll_rings", (int64_t)nrings);
	finding_ev_int(fi, "sqpoll_threads", (int64_t)n);
}

void check_cq_overflow(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	unsigned int bad = 0, judged = 0;
	char subject[64];
	struct finding *fi;
	size_t i;

	if (!proc_usable(c, ctx, true))
		return;
	for (i = 0; i < pf->nrings; i++) {
		const struct proc_ring *r = &pf->rings[i];

		if (r->busy || !fact_ok(&r->e) || !r->u.has_overflow_list)
			continue;
		judged++;
		if (!r->u.cq_overflow)
			continue;
		bad++;
		snprintf(subject, sizeof(subject), "pid %d ring fd %d", (int)pf->pid, r->fd);
		fi = proc_add(c, ctx, STATUS_FAIL, subject,
			      "%u completions overflowed the %u-entry CQ and wait in kernel memory: "
			      "the application reaps completions slower than they arrive",
			      r->u.cq_overflow, r->u.cq_entries);
		finding_set_fix(fi, "reap completions more often, or give the ring a larger CQ "
				    "(IORING_SETUP_CQSIZE with cq_entries of a few times the queue "
				    "depth)");
		finding_ev_int(fi, "overflowed", r->u.cq_overflow);
		finding_ev_int(fi, "cq_entries", r->u.cq_entries);
	}
	if (bad)
		return;
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	/* A pass speaks for every ring: one unread ring makes it a skip. */
	if (judged && judged == pf->nrings)
		proc_add(c, ctx, STATUS_PASS, subject, "no overflowed completions in %u ring%s",
			 judged, judged == 1 ? "" : "s");
	else if (judged)
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "no overflowed completions in the %u ring%s read, but %zu ring%s could not "
			 "be judged (unreadable, lock busy, or no CqOverflowList before 5.17)",
			 judged, judged == 1 ? "" : "s", pf->nrings - judged,
			 pf->nrings - judged == 1 ? "" : "s");
	else
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "no ring printed a CqOverflowList (5.17+, and not while its lock is busy)");
}
