// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Watching audited processes: whether a plain audit's reading needs a
 * watch, and the watch of one process or of many in one window.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc_facts.h"
#include "watch.h"

/* The process's devices and the CPUs its threads last ran on, for the scene. */
struct scene_want {
	struct scene_target t;
	const struct blockdev_facts *devs[SCENE_MAX_DEVS];
	bool opened[SCENE_MAX_DEVS];
	int *cpus;
};

static void scene_want(const struct proc_facts *pf, struct scene_want *w)
{
	size_t i;

	memset(w, 0, sizeof(*w));
	w->t.pid = pf->pid;
	for (i = 0; i < pf->devices.n && w->t.ndevs < SCENE_MAX_DEVS; i++) {
		w->opened[w->t.ndevs] = pf->devices.v[i].opened;
		w->devs[w->t.ndevs++] = &pf->devices.v[i].blk;
	}
	w->t.devs = w->devs;
	w->t.opened = w->opened;
	w->cpus = calloc(pf->threads.n + 1, sizeof(*w->cpus));
	for (i = 0; w->cpus && i < pf->threads.n; i++)
		w->cpus[w->t.ncpus++] = pf->threads.v[i].cpu;
	w->t.cpus = w->cpus;
}

void proc_facts_scene_once(const struct sysroot *sr, struct proc_facts *pf)
{
	struct scene_want w;

	scene_want(pf, &w);
	scene_once(sr, &w.t, &pf->scene);
	pf->scene_taken = true;
	free(w.cpus);
}

void proc_facts_scene_off(struct proc_facts *pf)
{
	fact_fail(&pf->scene.e, -ECANCELED, "not taken: audit --no-scene");
	pf->scene_taken = true;
}

struct scene_tick {
	const struct sysroot *sr;
	struct proc_facts *pf;
};

static void scene_tick(void *arg)
{
	struct scene_tick *t = arg;

	scene_iowq_sample(t->sr, t->pf->pid, &t->pf->scene);
}

void proc_facts_set_watch(struct proc_facts *pf, struct punt_watch *w)
{
	pf->watch = w;
	pf->watch_free = punt_watch_free;
}

/* The mounts of the files the watch saw first (opened since the audit read pf). */
static void watch_mounts(const struct sysroot *sr, struct proc_facts *pf)
{
	uint32_t *ids = calloc(pf->watch->nfiles ? pf->watch->nfiles : 1, sizeof(*ids));
	size_t i, n = 0;

	if (!ids)
		return;
	for (i = 0; i < pf->watch->nfiles; i++) {
		const struct file_state *st = &pf->watch->files[i].first;

		if (!st->err && st->mnt_known)
			ids[n++] = st->mnt_id;
	}
	proc_facts_add_mounts(sr, pf, ids, n);
	free(ids);
}

void proc_facts_after_watch(const struct sysroot *sr, struct proc_facts *pf, struct punt_watch *w,
			    bool rings, bool live)
{
	proc_facts_set_watch(pf, w);
	if (rings)
		ring_match(pf, w);
	if (!live)
		return;
	watch_mounts(sr, pf);
	proc_threads_read_affinity(sr, pf->pid, &pf->threads);
}

static void watch_one(const struct sysroot *sr, struct proc_facts *pf, unsigned int seconds,
		      bool keep_spans, size_t budget, bool scene)
{
	int *fds = calloc(pf->nrings ? pf->nrings : 1, sizeof(*fds));
	struct scene_want sw = { 0 };
	struct scene_tick tick = { .sr = sr, .pf = pf };
	bool listens;
	size_t i;

	proc_facts_set_watch(pf, calloc(1, sizeof(*pf->watch)));
	if (!pf->watch || !fds) {
		free(fds);
		return;
	}
	/* The rings known now have their queues' fill read through the watch. */
	for (i = 0; i < pf->nrings; i++)
		fds[i] = pf->rings[i].fd;
	punt_watch_fill_fds(pf->watch, fds, pf->nrings);
	free(fds);
	pf->watch->req.keep_spans = keep_spans;
	pf->watch->req.ring_budget = budget;
	pf->watch->req.pinned = pf->pinned;
	pf->watch->req.pidfd = pf->pidfd;
	/* The namespace's listen counters around the watch, for a delta that is now. */
	listens = proc_sockets_tcp_listening(&pf->sockets) > 0;
	if (listens)
		proc_netstat_read(sr, pf->pid, &pf->sockets.netstat.begin);
	/* The scene over the same window: its first reading just before the watch starts. */
	if (scene) {
		scene_want(pf, &sw);
		scene_begin(sr, &sw.t, &pf->scene);
		pf->watch->req.every_100ms = scene_tick;
		pf->watch->req.every_arg = &tick;
	}
	punt_watch_run(sr, pf->pid, seconds, pf->watch);
	pf->watch->req.every_100ms = NULL;
	if (scene) {
		scene_end(sr, &sw.t, &pf->scene);
		pf->scene_taken = true;
		free(sw.cpus);
	} else {
		proc_facts_scene_off(pf);
	}
	if (listens) {
		proc_netstat_read(sr, pf->pid, &pf->sockets.netstat.end);
		pf->sockets.netstat.watched = true;
	}
	proc_facts_after_watch(sr, pf, pf->watch, true, true);
}

/* A ring's kernel-side positions now: false when its fdinfo has none to give. */
static bool ring_positions(const struct sysroot *sr, pid_t pid, int fd, uint32_t *sq,
			   uint32_t *cq)
{
	struct uring_fdinfo u = { 0 };
	char *text;
	size_t len;
	bool ok;

	if (sysroot_read_filef(sr, 64u << 20, &text, &len, "proc/%d/fdinfo/%d", (int)pid, fd))
		return false;
	ok = !uring_fdinfo_parse(text, &u) && u.has_ring_state;
	*sq = u.cached_sq_head;
	*cq = u.cached_cq_tail;
	uring_fdinfo_free(&u);
	free(text);
	return ok;
}

bool proc_facts_needs_watch(const struct sysroot *sr, const struct proc_facts *pf, char *why,
			    size_t whysz)
{
	const struct proc_window *win = &pf->window;
	unsigned int ran = 0, stuck = 0;
	size_t i;

	why[0] = '\0';
	if (!sr->live || !fact_ok(&pf->e) || pf->kernel_thread || pf->zombie || !pf->nrings)
		return false;
	for (i = 0; fact_ok(&win->e) && i < win->nthreads; i++) {
		uint64_t run, wait;

		if (win->threads[i].kind == THREAD_IOU_WRK &&
		    window_thread_times(&win->threads[i], &run, &wait) && run)
			ran++;
	}
	if (ran || (fact_ok(&win->e) && win->new_workers)) {
		snprintf(why, whysz, "io-wq workers %s in its window", ran ? "ran" : "started");
		return true;
	}
	for (i = 0; i < pf->threads.n; i++)
		stuck += pf->threads.v[i].state == 'D' && !pf->threads.v[i].d_transient;
	if (stuck) {
		snprintf(why, whysz, "%u thread%s in D state", stuck, stuck == 1 ? " is" : "s are");
		return true;
	}
	for (i = 0; i < pf->nrings; i++) {
		const struct proc_ring *r = &pf->rings[i];
		uint32_t sq, cq;

		/* Its lock held at every read: it is taking requests now (or, before 6.7, polled). */
		if (r->busy) {
			snprintf(why, whysz, "ring fd %d was busy (its lock held) at every read", r->fd);
			return true;
		}
		if (!fact_ok(&r->e) || !r->u.has_ring_state)
			continue;
		if (!r->u.cached_sq_head && !r->u.sq_tail && !r->u.cached_cq_tail) {
			snprintf(why, whysz, "ring fd %d never took a request", r->fd);
			return true;
		}
		if (ring_positions(sr, pf->pid, r->fd, &sq, &cq) &&
		    (sq != r->u.cached_sq_head || cq != r->u.cached_cq_tail)) {
			snprintf(why, whysz, "ring fd %d took requests while it was read", r->fd);
			return true;
		}
	}
	return false;
}

void proc_facts_watch(const struct sysroot *sr, struct proc_facts *pf, unsigned int seconds,
		      bool keep_spans)
{
	watch_one(sr, pf, seconds, keep_spans, 0, true);
}

struct watch_job {
	const struct sysroot *sr;
	struct proc_facts *pf;
	unsigned int seconds;
	bool keep_spans, scene;
	size_t budget;
	pthread_t thread;
	bool started;
};

static void *watch_job_run(void *arg)
{
	struct watch_job *j = arg;

	watch_one(j->sr, j->pf, j->seconds, j->keep_spans, j->budget, j->scene);
	return NULL;
}

/*
 * The watch's stack: its frames hold a few KiB of names and formats each;
 * glibc's default (8 MiB reserved a thread) is far more than they need.
 */
#define WATCH_STACK (1u << 20)
/* The smallest share of the sample budget: a few 64 KiB buffers. */
#define WATCH_MIN_BUDGET (1u << 20)

int proc_facts_watch_many(const struct sysroot *sr, struct proc_facts **pfs,
			  const unsigned int *seconds, size_t n, bool keep_spans, bool scene)
{
	struct watch_job *jobs;
	pthread_attr_t attr;
	size_t i, watched = 0, budget;
	bool attr_ok;
	int err;

	for (i = 0; i < n; i++)
		watched += seconds[i] > 0;
	if (!watched)
		return 0;
	/* One, or a recording sysroot (its record is not for threads): one at a time. */
	if (watched == 1 || sr->rec) {
		for (i = 0; i < n; i++)
			if (seconds[i])
				watch_one(sr, pfs[i], seconds[i], keep_spans, 0, scene);
		return 0;
	}
	jobs = calloc(n, sizeof(*jobs));
	if (!jobs)
		return -ENOMEM;
	/*
	 * Each watch's sample buffers are locked memory: the budget of one
	 * watch is shared, so many processes cost what one large one does.
	 */
	budget = PUNT_WATCH_BUDGET / watched;
	if (budget < WATCH_MIN_BUDGET)
		budget = WATCH_MIN_BUDGET;
	punt_watch_prepare();
	err = -pthread_attr_init(&attr);
	attr_ok = !err;
	if (attr_ok)
		err = -pthread_attr_setstacksize(&attr, WATCH_STACK);
	for (i = 0; i < n; i++) {
		struct watch_job *j = &jobs[i];

		if (!seconds[i])
			continue;
		*j = (struct watch_job){ .sr = sr, .pf = pfs[i], .seconds = seconds[i],
					 .keep_spans = keep_spans, .scene = scene,
					 .budget = budget };
		if (!err)
			err = -pthread_create(&j->thread, &attr, watch_job_run, j);
		j->started = !err;
	}
	for (i = 0; i < n; i++)
		if (jobs[i].started)
			pthread_join(jobs[i].thread, NULL);
	/* Those no thread could be made for: watched after, one at a time (each its own window). */
	for (i = 0; i < n; i++)
		if (jobs[i].seconds && !jobs[i].started)
			watch_job_run(&jobs[i]);
	if (attr_ok)
		pthread_attr_destroy(&attr);
	free(jobs);
	return err;
}
