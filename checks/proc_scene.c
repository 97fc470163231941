// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The incident scene joined to the punts: whether the device, the CPUs or
 * writeback, not io_uring, is what the operator is looking at. Numbers in
 * (facts/scene.h), verdicts out; thresholds in docs/commands.md.
 */
#include <stdio.h>

#include "checks.h"

/* The process's scene, or NULL after the finding that says why it (or part) cannot be judged. */
static const struct scene *scene_usable(const struct check *c, struct check_ctx *ctx,
					bool need_window, const struct fact_err *part, char *subject,
					size_t subjsz)
{
	const struct proc_facts *pf = ctx->proc;

	if (!proc_usable(c, ctx, true))
		return NULL;
	snprintf(subject, subjsz, "pid %d", (int)pf->pid);
	if (!pf->scene_taken) {
		proc_add(c, ctx, STATUS_SKIP, subject, "the scene was not taken (audit --exec)");
		return NULL;
	}
	if (!fact_ok(&pf->scene.e)) {
		proc_add(c, ctx, STATUS_SKIP, subject, "%s", pf->scene.e.why);
		return NULL;
	}
	if (need_window && !pf->scene.windowed) {
		proc_add(c, ctx, STATUS_SKIP, subject, "no window (--watch 0): iostat's and top's "
			 "rates need two readings; audit --watch SECONDS measures them");
		return NULL;
	}
	if (part && !fact_ok(part)) {
		proc_fact_missing(c, ctx, subject, part);
		return NULL;
	}
	return &pf->scene;
}

/* io-wq workers of the process in D now. */
static unsigned int workers_in_d(const struct proc_facts *pf)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < pf->threads.n; i++)
		n += pf->threads.v[i].kind == THREAD_IOU_WRK && pf->threads.v[i].state == 'D';
	return n;
}

/*
 * Threads held in D, not passing through it (out of it again within the
 * readings 10 ms apart: a moment's flush or page read); *first: one of them.
 */
static unsigned int threads_held_in_d(const struct proc_facts *pf, const struct proc_thread **first)
{
	unsigned int n = 0;
	size_t i;

	*first = NULL;
	for (i = 0; i < pf->threads.n; i++) {
		const struct proc_thread *t = &pf->threads.v[i];

		if (t->state != 'D' || t->d_transient)
			continue;
		if (!n++)
			*first = t;
	}
	return n;
}

/*
 * The device a filesystem of the process sits on (or a block device it
 * holds open) when every such device did no I/O over the window (%util
 * under 1, under 1 request/s); NULL when
 * one was busy or none was measured. The disks under it are left out: a
 * loop's backing disk or a partition's disk serves other filesystems too.
 */
static const struct scene_dev *fs_devices_idle(const struct scene *s)
{
	const struct scene_dev *idle = NULL;
	size_t i;

	for (i = 0; i < s->ndevs; i++) {
		const struct scene_dev *d = &s->devs[i];

		if ((d->role != SCENE_DEV_FS && d->role != SCENE_DEV_OPEN) || !d->has_delta)
			continue;
		if (d->io.util >= SCENE_IDLE_UTIL || d->io.r_s + d->io.w_s >= 1)
			return NULL;
		idle = d;
	}
	return idle;
}

/* Punts measured by the watch: -1 when there was no watch to say. */
static int64_t punts_seen(const struct proc_facts *pf)
{
	if (!pf->watch || !fact_ok(&pf->watch->e) || pf->watch->blind)
		return -1;
	return (int64_t)pf->watch->total;
}

void check_scene_device(const struct check *c, struct check_ctx *ctx)
{
	char subject[32];
	const struct scene *s = scene_usable(c, ctx, true, NULL, subject, sizeof(subject));
	const struct scene_dev *worst = NULL, *full = NULL, *idle;
	const struct proc_thread *first;
	int64_t punts;
	unsigned int ind, held;
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->ndevs; i++) {
		const struct scene_dev *d = &s->devs[i];

		if (!d->has_delta)
			continue;
		if (!worst || d->io.util > worst->io.util)
			worst = d;
		if (d->io.aqu_sz >= SCENE_QUEUE_FULL && d->io.r_s + d->io.w_s < SCENE_LOW_IOPS &&
		    (!full || d->io.aqu_sz > full->io.aqu_sz))
			full = d;
	}
	if (!worst) {
		proc_add(c, ctx, STATUS_SKIP, subject, "no device under the process's files was "
			 "measured at both ends of the window%s%s", s->ndevs ? ": " : "",
			 s->ndevs ? s->devs[0].e.why : "");
		return;
	}
	punts = punts_seen(ctx->proc);
	/* In D at the threads' reading, or at any of the window's readings 100 ms apart. */
	ind = workers_in_d(ctx->proc);
	if (s->iowq_d_max > ind)
		ind = s->iowq_d_max;
	if (full && punts > 0 && ind) {
		proc_add(c, ctx, STATUS_FAIL, subject, "%s's queue is full (aqu-sz %.1f) at only "
			 "%.0f requests/s (%%util %.0f, w_await %.1f ms) while %u io-wq worker%s "
			 "wait%s in D and %lld requests were punted: punted buffered writes "
			 "collapse into writeback, the device serves the flush, not the service",
			 full->name, full->io.aqu_sz, full->io.r_s + full->io.w_s, full->io.util,
			 full->io.w_await, ind, ind == 1 ? "" : "s", ind == 1 ? "s" : "",
			 (long long)punts);
		return;
	}
	/*
	 * Held in D while the filesystem's device did nothing: what holds the
	 * threads is not the device (a frozen filesystem's writers wait in
	 * sb_start_write() and issue no I/O; docs/kernel-facts.md section 18).
	 */
	held = threads_held_in_d(ctx->proc, &first);
	idle = held ? fs_devices_idle(s) : NULL;
	if (idle) {
		proc_add(c, ctx, STATUS_WARN, subject, "%u thread%s held in D (%s %d %s, in %s) "
			 "while %s, the device under its files, was idle (%%util %.1f, %.1f r/s, "
			 "%.1f w/s over %.1f s): not the device: a lock, a frozen filesystem or a "
			 "remote mount holds them", held, held == 1 ? "" : "s",
			 first->kind == THREAD_IOU_WRK ? "io-wq worker" : "thread", (int)first->tid,
			 first->comm, first->wchan[0] ? first->wchan : "an unknown wait", idle->name,
			 idle->io.util, idle->io.r_s, idle->io.w_s, s->seconds);
		return;
	}
	if (worst->io.util >= SCENE_UTIL_LIMIT && punts <= 0) {
		proc_add(c, ctx, STATUS_INFO, subject, "%s is at its limit (%%util %.0f, aqu-sz %.1f, "
			 "%.0f r/s, %.0f w/s) with %s: the device is the bottleneck, not io_uring",
			 worst->name, worst->io.util, worst->io.aqu_sz, worst->io.r_s, worst->io.w_s,
			 punts == 0 ? "no punt in the watch" : "no watch of the punts");
		return;
	}
	proc_add(c, ctx, STATUS_PASS, subject, "busiest device %s: %%util %.0f, aqu-sz %.1f, "
		 "%.0f r/s, %.0f w/s, r_await %.2f ms, w_await %.2f ms over %.1f s",
		 worst->name, worst->io.util, worst->io.aqu_sz, worst->io.r_s, worst->io.w_s,
		 worst->io.r_await, worst->io.w_await, s->seconds);
}

void check_scene_cpu(const struct check *c, struct check_ctx *ctx)
{
	char subject[32];
	const struct scene *s = scene_usable(c, ctx, true, &ctx->proc->scene.cpus_e,
					     subject, sizeof(subject));
	const struct scene_cpu *worst = NULL;
	struct finding *fi;
	size_t i, n = 0;

	if (!s)
		return;
	for (i = 0; i < s->ncpus; i++) {
		const struct scene_cpu *cp = &s->cpus[i];

		if (!fact_ok(&cp->e))
			continue;
		n++;
		if (!worst || cp->hi + cp->si + cp->st > worst->hi + worst->si + worst->st)
			worst = cp;
	}
	if (!worst) {
		proc_add(c, ctx, STATUS_SKIP, subject, "no CPU of the process was measured at both "
			 "ends of the window%s%s", s->ncpus ? ": " : "",
			 s->ncpus ? s->cpus[0].e.why : "");
		return;
	}
	/*
	 * Steal is time a hypervisor gave another guest: a loss nothing in this
	 * machine causes. Interrupt time is, most often, the process's own I/O
	 * completing and its own packets arriving (a healthy O_DIRECT fio on a
	 * virtio disk spends 16% of a CPU in softirq here): a cost to know of,
	 * not a fault, unless the IRQ placement puts others' there, which
	 * sqpoll-cpu-placement and the preflight's IRQ checks name.
	 */
	if (worst->st >= SCENE_CPU_LOST) {
		fi = proc_add(c, ctx, STATUS_WARN, subject, "cpu%d, where the process's threads "
			      "ran, lost %.0f%% to steal over %.1f s: the hypervisor ran another "
			      "guest on it, and the ring's work waited", worst->id, worst->st,
			      s->seconds);
		finding_set_fix(fi, "give the VM dedicated physical CPUs (vCPU pinning, no "
				    "overcommit on its host), or move the service to a host that does");
		return;
	}
	if (worst->hi + worst->si >= SCENE_CPU_LOST) {
		proc_add(c, ctx, STATUS_INFO, subject, "cpu%d, where the process's threads ran, "
			 "spent %.0f%% in interrupts (hi %.0f%%, si %.0f%%) over %.1f s: mostly its "
			 "own completions and packets, a cost rather than a fault; where other "
			 "devices' IRQs land there, preflight --sqpoll-cpu LIST names them",
			 worst->id, worst->hi + worst->si, worst->hi, worst->si, s->seconds);
		return;
	}
	proc_add(c, ctx, STATUS_PASS, subject, "the %zu CPU%s the process ran on lost at most "
		 "%.0f%% to interrupts and %.0f%% to steal over %.1f s", n, n == 1 ? "" : "s",
		 worst->hi + worst->si, worst->st, s->seconds);
}

void check_scene_writeback(const struct check *c, struct check_ctx *ctx)
{
	char subject[32];
	const struct scene *s = scene_usable(c, ctx, false, &ctx->proc->scene.mem_e,
					     subject, sizeof(subject));

	if (!s)
		return;
	if (!s->dirty_thresh_kb) {
		proc_add(c, ctx, STATUS_SKIP, subject, "vmstat's nr_dirty_threshold is 0: no "
			 "threshold to judge Dirty against");
		return;
	}
	if (s->dirty_kb >= s->dirty_thresh_kb) {
		proc_add(c, ctx, STATUS_WARN, subject, "Dirty is %llu kB, at or above the dirty "
			 "threshold of %llu kB (Writeback %llu kB): every buffered writer on the "
			 "host is throttled in balance_dirty_pages(), io-wq workers included",
			 (unsigned long long)s->dirty_kb, (unsigned long long)s->dirty_thresh_kb,
			 (unsigned long long)s->writeback_kb);
		return;
	}
	proc_add(c, ctx, STATUS_PASS, subject, "Dirty %llu kB and Writeback %llu kB, below the "
		 "dirty threshold of %llu kB", (unsigned long long)s->dirty_kb,
		 (unsigned long long)s->writeback_kb, (unsigned long long)s->dirty_thresh_kb);
}

void check_scene_iowq(const struct check *c, struct check_ctx *ctx)
{
	char subject[32];
	const struct scene *s = scene_usable(c, ctx, true, &ctx->proc->scene.iowq_e,
					     subject, sizeof(subject));

	if (!s)
		return;
	if (s->iowq_cpu > SCENE_IOWQ_CPU) {
		proc_add(c, ctx, STATUS_WARN, subject, "its %u io-wq worker%s burned %.2f CPU "
			 "(utime+stime) over %.1f s%s: CPU the service loses to punted requests",
			 s->iowq_workers, s->iowq_workers == 1 ? "" : "s", s->iowq_cpu, s->seconds,
			 s->iowq_gone ? ", more: some exited in the window" : "");
		return;
	}
	proc_add(c, ctx, STATUS_PASS, subject, "its %u io-wq worker%s used %.2f CPU over %.1f s%s",
		 s->iowq_workers, s->iowq_workers == 1 ? "" : "s", s->iowq_cpu, s->seconds,
		 s->iowq_gone ? " (at least: some exited in the window)" : "");
}
