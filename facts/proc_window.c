// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Two readings of a live process a window apart: the SQPOLL rings'
 * counters (SqTotalTime, SqWorkTime, the SQ and CQ positions) and every
 * thread's last CPU and scheduler times. Checks judge the differences.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "array.h"
#include "procfs.h"
#include "parse.h"
#include "proc_window.h"

/* A ring whose lock is busy prints no io_uring lines: read it again, briefly. */
#define RING_TRIES 100

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ull),
			       .tv_nsec = (long)(ns % 1000000000ull) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int schedstat_parse(const char *text, uint64_t *run_ns, uint64_t *wait_ns, uint64_t *slices)
{
	unsigned long long run, wait, slices_;

	if (sscanf(text, "%llu %llu %llu", &run, &wait, &slices_) != 3)
		return -EBADMSG;
	*run_ns = run;
	*wait_ns = wait;
	*slices = slices_;
	return 0;
}

/* 0, or -errno with the reason in e: gone, unreadable, garbage. */
static int read_ring(const struct sysroot *sr, pid_t pid, int fd, struct ring_reading *rr,
		     uint64_t *ino, struct fact_err *e)
{
	struct fdinfo_generic g;
	struct uring_fdinfo u;
	char *text;
	size_t len;
	int err = 0, i;

	for (i = 0; i < RING_TRIES; i++) {
		if (i)
			sleep_ns(100000 + (uint64_t)(i * 7919 % 900) * 1000);
		err = sysroot_read_filef(sr, 64 * 1024 * 1024, &text, &len, "proc/%d/fdinfo/%d",
					 (int)pid, fd);
		if (err) {
			struct stat st;

			/* The fd closed, or the whole process went. */
			if (err == -ENOENT && sysroot_stat_livef(sr, &st, "proc/%d", (int)pid))
				fact_fail(e, -ESRCH, "the process exited during the window");
			else
				fact_fail(e, err, "fd %d %s during the window", fd,
					  err == -ENOENT ? "was closed" : "could not be read");
			return err;
		}
		memset(&u, 0, sizeof(u));
		err = fdinfo_parse_generic(text, &g);
		if (!err)
			err = uring_fdinfo_parse(text, &u);
		free(text);
		if (!err)
			break;
		uring_fdinfo_free(&u);
		if (err != -ENODATA)
			break;
	}
	if (err) {
		fact_fail(e, err, "fd %d: %s", fd, err == -ENODATA ?
			  "its lock stayed busy through every read of the window" :
			  "its fdinfo is not an io_uring ring's");
		return err;
	}
	*rr = (struct ring_reading){
		.has_times = u.has_sq_times,
		.total_us = u.sq_total_time_us,
		.work_us = u.sq_work_time_us,
		.has_heads = u.has_ring_state,
		.sq_taken = u.cached_sq_head,
		.cq_posted = u.cached_cq_tail,
		.sq_thread = u.has_sq_thread ? u.sq_thread : -1,
	};
	*ino = g.ino;
	uring_fdinfo_free(&u);
	return 0;
}

void window_ring_validate(struct window_ring *wr, uint64_t ino_end)
{
	const struct ring_reading *a = &wr->r[0], *b = &wr->r[1];

	if (ino_end != wr->ino)
		fact_fail(&wr->e, -ESTALE, "fd %d is another ring than at the window's start", wr->fd);
	else if (a->sq_thread != b->sq_thread && b->sq_thread <= 0)
		fact_fail(&wr->e, -ESTALE, "fd %d no longer named its SQPOLL thread %d at the "
			  "window's end (exiting, or its lock held)", wr->fd, (int)a->sq_thread);
	else if (a->sq_thread != b->sq_thread)
		fact_fail(&wr->e, -ESTALE, "fd %d changed SQPOLL thread during the window (%d, then "
			  "%d)", wr->fd, (int)a->sq_thread, (int)b->sq_thread);
	else if (a->has_times != b->has_times || b->total_us < a->total_us ||
		 b->work_us < a->work_us)
		fact_fail(&wr->e, -ERANGE, "fd %d: SqTotalTime or SqWorkTime went backwards during "
			  "the window (%llu/%llu us, then %llu/%llu us)", wr->fd,
			  (unsigned long long)a->total_us, (unsigned long long)a->work_us,
			  (unsigned long long)b->total_us, (unsigned long long)b->work_us);
	else if (b->work_us - a->work_us > b->total_us - a->total_us)
		fact_fail(&wr->e, -ERANGE, "fd %d: SqWorkTime grew more than SqTotalTime during "
			  "the window", wr->fd);
}

static void read_task(const struct sysroot *sr, pid_t pid, struct window_thread *t, int end)
{
	struct task_reading *tr = &t->r[end];
	struct proc_thread pt;
	char *text;
	size_t len;

	unsigned long flags = 0;
	int err;

	tr->cpu = -1;
	err = proc_stat_readf(sr, &pt, &flags, "proc/%d/task/%d/stat", (int)pid, (int)t->tid);
	if (err) {
		tr->gone = err == -ENOENT || err == -ESRCH;
		return;
	}
	tr->cpu = pt.cpu;
	tr->state = pt.state;
	if (!end) {
		snprintf(t->comm, sizeof(t->comm), "%s", pt.comm);
		t->io_thread = flags & PF_IO_WORKER;
		t->kind = pt.kind;
	}
	if (!sysroot_read_filef(sr, 4096, &text, &len, "proc/%d/task/%d/schedstat", (int)pid,
				(int)t->tid)) {
		tr->has_sched = !schedstat_parse(text, &tr->run_ns, &tr->wait_ns, &tr->slices);
		free(text);
	}
	if (end) {
		t->both = tr->cpu >= 0;
		return;
	}
	if (!sysroot_read_filef(sr, SYSROOT_READ_MAX, &text, &len, "proc/%d/task/%d/status",
				(int)pid, (int)t->tid)) {
		parse_keyed_value(text, "Cpus_allowed_list", t->cpus_allowed,
				  sizeof(t->cpus_allowed));
		free(text);
	}
}

/* Every thread of pid at its first reading; 0 or -errno (then the window is not judged). */
static int list_threads(const struct sysroot *sr, pid_t pid, struct proc_window *w)
{
	struct task_iter it;
	size_t cap = 0;
	pid_t tid;
	int err;

	err = task_iter_open(&it, sr, pid);
	if (err)
		return err;
	while ((tid = task_iter_next(&it))) {
		if (array_grow(&w->threads, &cap, w->nthreads + 1)) {
			task_iter_close(&it);
			return -ENOMEM;
		}
		memset(&w->threads[w->nthreads], 0, sizeof(w->threads[0]));
		w->threads[w->nthreads].tid = tid;
		read_task(sr, pid, &w->threads[w->nthreads], 0);
		w->nthreads++;
	}
	task_iter_close(&it);
	return it.err;
}

/* io-wq workers that were not there at the first reading: io-wq starts one per punt it cannot queue. */
static unsigned int new_workers(const struct sysroot *sr, pid_t pid, const struct proc_window *w)
{
	struct proc_window now = { 0 };
	unsigned int n = 0;
	size_t i;

	if (list_threads(sr, pid, &now)) {
		free(now.threads);
		return 0;
	}
	for (i = 0; i < now.nthreads; i++)
		n += now.threads[i].kind == THREAD_IOU_WRK &&
		     !proc_window_thread(w, now.threads[i].tid);
	free(now.threads);
	return n;
}

void proc_window_begin(const struct sysroot *sr, pid_t pid, const int *ring_fds, size_t n,
		       struct proc_window *w)
{
	size_t i, workers = 0;
	int err;

	memset(w, 0, sizeof(*w));
	if (!sr->live) {
		fact_fail(&w->e, -EOPNOTSUPP, "a captured tree holds one reading; a window needs "
			  "two readings of a live process");
		return;
	}
	w->t0_ns = now_ns();
	err = list_threads(sr, pid, w);
	if (err) {
		proc_window_free(w);
		fact_fail(&w->e, err, "its threads could not be listed: %s", sysroot_strerror(err));
		return;
	}
	for (i = 0; i < w->nthreads; i++)
		workers += w->threads[i].kind == THREAD_IOU_WRK;
	/* Nothing here is judged over a window: spare the process the wait. */
	if (!n && !workers) {
		proc_window_free(w);
		fact_fail(&w->e, -ENOENT, "the process has no SQPOLL ring and no io-wq worker");
		return;
	}
	w->rings = calloc(n ? n : 1, sizeof(*w->rings));
	if (!w->rings) {
		proc_window_free(w);
		fact_fail(&w->e, -ENOMEM, "out of memory");
		return;
	}
	for (i = 0; i < n; i++) {
		w->rings[i].fd = ring_fds[i];
		read_ring(sr, pid, ring_fds[i], &w->rings[i].r[0], &w->rings[i].ino,
			  &w->rings[i].e);
	}
	w->nrings = n;
}

void proc_window_end(const struct sysroot *sr, pid_t pid, struct proc_window *w)
{
	uint64_t want = PROC_WINDOW_MS * 1000000ull, took;
	size_t i;

	if (!fact_ok(&w->e))
		return;
	took = now_ns() - w->t0_ns;
	if (took < want)
		sleep_ns(want - took);
	for (i = 0; i < w->nrings; i++) {
		struct window_ring *wr = &w->rings[i];

		uint64_t ino = 0;

		if (fact_ok(&wr->e) && !read_ring(sr, pid, wr->fd, &wr->r[1], &ino, &wr->e))
			window_ring_validate(wr, ino);
	}
	for (i = 0; i < w->nthreads; i++)
		if (w->threads[i].r[0].cpu >= 0)
			read_task(sr, pid, &w->threads[i], 1);
	w->new_workers = new_workers(sr, pid, w);
	w->ms = (unsigned int)((now_ns() - w->t0_ns + 500000) / 1000000);
}

void proc_window_free(struct proc_window *w)
{
	free(w->rings);
	free(w->threads);
	memset(w, 0, sizeof(*w));
}

bool window_ring_ok(const struct window_ring *wr)
{
	return fact_ok(&wr->e);
}

bool window_thread_times(const struct window_thread *t, uint64_t *run_ns, uint64_t *wait_ns)
{
	if (!t->both || !t->r[0].has_sched || !t->r[1].has_sched ||
	    t->r[1].run_ns < t->r[0].run_ns || t->r[1].wait_ns < t->r[0].wait_ns)
		return false;
	*run_ns = t->r[1].run_ns - t->r[0].run_ns;
	*wait_ns = t->r[1].wait_ns - t->r[0].wait_ns;
	return true;
}

uint64_t window_thread_slices(const struct window_thread *t)
{
	uint64_t run, wait;

	if (!window_thread_times(t, &run, &wait) || t->r[1].slices < t->r[0].slices)
		return 0;
	return t->r[1].slices - t->r[0].slices;
}

const struct window_thread *proc_window_thread(const struct proc_window *w, pid_t tid)
{
	size_t i;

	for (i = 0; i < w->nthreads; i++)
		if (w->threads[i].tid == tid)
			return &w->threads[i];
	return NULL;
}

const struct window_ring *proc_window_ring(const struct proc_window *w, int fd)
{
	size_t i;

	for (i = 0; i < w->nrings; i++)
		if (w->rings[i].fd == fd)
			return &w->rings[i];
	return NULL;
}
