// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How a ring's completion work reaches its thread. Without COOP_TASKRUN
 * (5.19) or DEFER_TASKRUN (6.1) the kernel queues it as task work with
 * TWA_SIGNAL: the thread is interrupted (an IPI when it runs on another
 * CPU) whenever a batch is queued, whatever it was doing. With
 * COOP_TASKRUN the batch waits for the thread's next entry to the kernel;
 * SQPOLL rings already work so (io_uring_create sets the notify method).
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "uring_flags.h"

/* Batches of completion work a second, on one thread, that count as interrupting it often. */
#define TW_RUNS_OFTEN 1000

/* Whether a ring's completion work interrupts its thread: only its setup flags say. */
static bool interrupts(uint32_t flags)
{
	return !(flags & (URING_SETUP_COOP_TASKRUN | URING_SETUP_DEFER_TASKRUN | URING_SETUP_SQPOLL));
}

/* The thread that drives ring r most, SQPOLL apart, and whether it has DRIVER_SHARE. */
static const struct ut_submitter *main_driver(const struct ut_ring *r)
{
	const struct ut_submitter *best = NULL;
	unsigned int k;

	for (k = 0; k < r->nsubmitters; k++)
		if (!r->submitters[k].sq_thread &&
		    (!best || r->submitters[k].reqs > best->reqs))
			best = &r->submitters[k];
	return best && (double)best->reqs >= DRIVER_SHARE * (double)r->reqs ? best : NULL;
}

void check_ring_taskrun(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_watch *w;
	unsigned int known = 0, unknown = 0, plain = 0, often = 0;
	char subject[64], flags[160];
	double secs;
	size_t i;

	w = ringmap_watch(c, ctx);
	if (!w)
		return;
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!w->ut.have[UT_TW_RUN] || !w->ut.have[UT_EXIT]) {
		proc_add(c, ctx, STATUS_SKIP, subject, "this kernel has no %s tracepoint: how often "
			 "completion work ran in each thread outside io_uring_enter is unknown",
			 !w->ut.have[UT_TW_RUN] ? "io_uring_task_work_run"
						: "syscalls:sys_exit_io_uring_enter");
		return;
	}
	secs = w->seconds_sampled > 0 ? w->seconds_sampled : w->seconds_watched;
	for (i = 0; i < w->ut.nrings; i++) {
		const struct ut_ring *r = &w->ut.rings[i];
		const struct ut_submitter *s;
		const struct ut_thread *t;
		const struct proc_thread *pt;
		double runs;
		struct finding *fi;

		if (!r->reqs)
			continue;
		if (!r->created) {
			unknown++;
			continue;
		}
		known++;
		if (!interrupts(r->setup_flags))
			continue;
		plain++;
		s = main_driver(r);
		t = s ? uring_trace_thread(&w->ut, s->tid) : NULL;
		/* Batches run while it was out of io_uring_enter: where the interruptions are. */
		runs = t && secs > 0 ? (double)t->tw_outside / secs : 0;
		if (runs < TW_RUNS_OFTEN)
			continue;
		often++;
		pt = proc_threads_find(&pf->threads, t->tid);
		uring_setup_flags_format(r->setup_flags, flags, sizeof(flags));
		ringmap_subject(pf, i, subject, sizeof(subject));
		/* A setup flag of the application's own code: advice. */
		fi = proc_add(c, ctx, STATUS_INFO, subject,
			      "set up with %s, no COOP_TASKRUN: its thread tid %d%s%s%s ran io_uring's "
			      "completion work %.0f times a second outside io_uring_enter (%llu of "
			      "%llu batches, %llu items, %llu io_uring_enter calls, in the %s watched); "
			      "without COOP_TASKRUN the kernel interrupts the thread to queue each "
			      "batch, whatever it is doing",
			      flags, (int)t->tid, pt ? " (" : "", pt ? pt->comm : "", pt ? ")" : "", runs,
			      (unsigned long long)t->tw_outside, (unsigned long long)t->tw_runs,
			      (unsigned long long)t->tw_items, (unsigned long long)t->enters,
			      punt_watch_span(w).s);
		finding_ev_int(fi, "tid", t->tid);
		finding_ev_int(fi, "task_work_runs", (int64_t)t->tw_runs);
		finding_ev_int(fi, "task_work_runs_outside_enter", (int64_t)t->tw_outside);
		finding_ev_int(fi, "runs_per_second", (int64_t)runs);
	}
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!known)
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "the setup flags of the %u ring%s are unknown (set up before the watch; "
			 "audit --exec sees every ring set up): whether their completion work "
			 "interrupts their threads is not judged", unknown, unknown == 1 ? "" : "s");
	else if (!often)
		proc_add(c, ctx, STATUS_PASS, subject,
			 "of %u ring%s set up while watched, %u lack%s COOP_TASKRUN and DEFER_TASKRUN, "
			 "and no thread of those ran completion work %u times a second outside "
			 "io_uring_enter%s",
			 known, known == 1 ? "" : "s", plain, plain == 1 ? "s" : "", TW_RUNS_OFTEN,
			 unknown ? " (the flags of the others are unknown: set up before the watch)"
				 : "");
}
