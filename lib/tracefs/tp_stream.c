// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sampling several tracepoints on the threads of one process, in order.
 *
 * Each thread gets one perf event per tracepoint; the first owns a ring
 * buffer and the others write into it (PERF_EVENT_IOC_SET_OUTPUT), so one
 * thread's events arrive in the order it produced them. Threads are merged
 * by their CLOCK_MONOTONIC timestamps. Nothing global changes: no ftrace
 * instance, no filter, no eBPF.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "pid_wait.h"
#include "procfs.h"
#include "tracefs.h"

/*
 * Threads watched one by one, at most: each takes a dozen perf events, and
 * opening them for 1,818 threads of a process of 10,000 took 30 s on this
 * 2-CPU VM (an IPI to each running thread's CPU). Past that a process is
 * watched through its cgroup, or its other threads are counted as not
 * attached.
 */
#define MAX_THREADS 1024
/* Threads that start later (io-wq workers come and go, and keep their slots): up to this. */
#define MAX_LATE_THREADS 4096
#define MIN_DATA (64u << 10)
#define MAX_DATA (8u << 20)
/* An inherited stream has one buffer for every thread and child. */
#define MAX_INHERIT_DATA (32u << 20)

uint64_t tp_stream_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A thread's (cpu -1) or a task's and its descendants' event, or a cgroup's on one CPU. */
static int perf_open(const struct tp_stream *s, struct perf_event_attr *attr, pid_t tid, int cpu,
		     int leader)
{
	unsigned long flags = PERF_FLAG_FD_CLOEXEC;
	long fd;

	attr->inherit = s->inherit;
	if (s->cgroup_fd >= 0) {
		tid = s->cgroup_fd;
		flags |= PERF_FLAG_PID_CGROUP;
	}
	fd = syscall(SYS_perf_event_open, attr, tid, cpu, leader, flags);
	return fd < 0 ? -errno : (int)fd;
}

/*
 * A thread's or an inherited task's counter counts on every CPU (cpu -1);
 * a cgroup's can only count on one, so it has one per CPU.
 */
static int open_counter_on(const struct tp_stream *s, const struct tp_format *fmt, pid_t tid,
			   int cpu, const char *filter, bool on)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = (uint64_t)fmt->id,
		.disabled = !on,
	};
	int fd = perf_open(s, &attr, tid, s->cgroup_fd >= 0 ? cpu : -1, -1);

	if (fd >= 0 && filter && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

static int open_counter(const struct tp_stream *s, const struct tp_format *fmt, pid_t tid, int cpu,
			const char *filter)
{
	return open_counter_on(s, fmt, tid, cpu, filter, true);
}

/*
 * A lazy side counter, opened with the lazy events before sampling comes on:
 * disabled, so that it counts from the switch on to the switch off, the
 * sampled time (switch_groups), not the opening's and closing's waits.
 */
static int open_side(const struct tp_stream *s, unsigned int k, const struct tp_stream_thread *t)
{
	const struct tp_side *d = &s->side[k];

	return open_counter_on(s, &d->fmt, t->tid, t->cpu, d->filter,
			       !tp_stream_side_lazy(s, k) || s->sampling);
}

/*
 * A thread's sampled events are one group under the first: switching the
 * leader switches them all, and a context switch visits one group, not
 * one per event.
 */
static int open_event(const struct tp_stream *s, const struct tp_format *fmt, pid_t tid, int cpu,
		      bool on, int leader)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = (uint64_t)fmt->id,
		.sample_period = 1,
		.disabled = !on,
		/*
		 * When inherited (perf_open), followed into every thread and
		 * child the task makes: their samples go to this event's buffer
		 * (the kernel writes an inherited event's output to its parent's).
		 */
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
		/*
		 * Wake nobody per sample (a wakeup would be an irq_work per
		 * event): uringlint reads the rings on a timer instead.
		 */
		.watermark = 1,
		.wakeup_watermark = (uint32_t)(s->data_bytes / 2),
	};

	return perf_open(s, &attr, tid, cpu, leader);
}

/*
 * Event k of a thread (of a CPU) into its group and its buffer; left at -1
 * when the kernel refuses it: those samples are missing, not wrong.
 */
static void open_member(const struct tp_stream *s, struct tp_stream_thread *t, unsigned int k)
{
	int fd = open_event(s, &s->fmts[k], t->tid, t->cpu, true, t->fds[0]);

	if (fd < 0)
		return;
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, t->fds[0])) {
		close(fd);
		return;
	}
	t->fds[k] = fd;
}

/*
 * One buffer: a thread's events (cpu -1), or, for an inherited stream, one
 * CPU's events of the task and all it makes (the kernel maps no inherited
 * per-task buffer), or one CPU's events of a cgroup. counters: open the
 * exact counts here too (once per stream when inherited: an inherited
 * counter counts every descendant; on every CPU for a cgroup).
 */
static int attach_on(struct tp_stream *s, pid_t tid, int cpu, bool late, bool counters)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct tp_stream_thread *t;
	unsigned int k;
	int fd;

	if (cpu < 0 && s->n >= (late ? MAX_LATE_THREADS : MAX_THREADS))
		return -E2BIG;
	if (array_grow(&s->t, &s->cap, s->n + 1))
		return -ENOMEM;
	t = &s->t[s->n];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->cpu = cpu;
	t->late = late;
	for (k = 0; k < TPS_MAX_EVENTS; k++)
		t->fds[k] = -1;
	t->count_fd = t->filtered_fd = -1;
	for (k = 0; k < TPS_MAX_SIDES; k++)
		t->side_fd[k] = -1;
	fd = open_event(s, &s->fmts[0], tid, cpu, s->sampling, -1);
	if (fd < 0)
		return fd;
	t->fds[0] = fd;
	t->ring_len = page + s->data_bytes;
	t->ring = mmap(NULL, t->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (t->ring == MAP_FAILED) {
		int err = -errno;

		close(fd);
		return err;
	}
	/* A thread left out of the exact count is a thread not watched. */
	if (s->counted >= 0 && counters) {
		fd = open_counter(s, &s->fmts[s->counted], tid, cpu, NULL);
		if (fd < 0) {
			munmap(t->ring, t->ring_len);
			close(t->fds[0]);
			return fd;
		}
		t->count_fd = fd;
		if (s->counted_filter && !s->filter_failed) {
			fd = open_counter(s, &s->fmts[s->counted], tid, cpu, s->counted_filter);
			/* A filtered count that misses a thread is no count: given up for all. */
			s->filter_failed |= fd < 0;
			t->filtered_fd = fd >= 0 ? fd : -1;
		}
	}
	for (k = 0; k < TPS_MAX_SIDES; k++) {
		struct tp_side *d = &s->side[k];

		/* A lazy one is opened with the lazy events when sampling comes on. */
		if (d->on && counters && !d->failed && (s->sampling || !tp_stream_side_lazy(s, k))) {
			t->side_fd[k] = open_side(s, k, t);
			d->failed |= t->side_fd[k] < 0;
		}
	}
	for (k = 1; k < s->nev; k++)
		/* A lazy one is opened with the others when sampling comes on. */
		if (s->sampling || !(s->lazy & (1u << k)))
			open_member(s, t, k);
	s->n++;
	s->late += late;
	return 0;
}

static int attach(struct tp_stream *s, pid_t tid, bool late)
{
	return attach_on(s, tid, -1, late, true);
}

/*
 * An inherited or a cgroup's stream: its events on each CPU, each CPU its
 * buffer; the counters once for an inherited one, on each CPU for a cgroup.
 */
static int attach_per_cpu(struct tp_stream *s, pid_t pid)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF), cpu;
	int err = -ENODEV, e;

	for (cpu = 0; cpu < ncpu; cpu++) {
		e = attach_on(s, pid, (int)cpu, false, !s->n || s->cgroup_fd >= 0);
		/*
		 * An offline CPU has no events to give: no loss for an inherited
		 * stream, whose task's events follow it to any CPU; a cgroup's
		 * would miss the threads that run there once it is back.
		 */
		if (e && (e != -ENODEV || s->cgroup_fd >= 0))
			return e;
		if (!e)
			err = 0;
	}
	return err;
}

/*
 * Where tid is, or goes, in the sorted list of threads tried (attached or
 * failed): a process of 10,000 threads is listed every tick.
 */
static size_t known_at(const struct tp_stream *s, pid_t tid)
{
	size_t lo = 0, hi = s->nknown;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->known[mid] < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Room was made before the attach, so an attached thread is never tried twice. */
static void remember(struct tp_stream *s, size_t at, pid_t tid)
{
	memmove(&s->known[at + 1], &s->known[at], (s->nknown - at) * sizeof(*s->known));
	s->known[at] = tid;
	s->nknown++;
}

/* Every event, counter and buffer of one thread (or CPU) closed. */
static void thread_close(struct tp_stream *s, struct tp_stream_thread *t)
{
	unsigned int k;

	if (t->ring && t->ring != MAP_FAILED)
		munmap(t->ring, t->ring_len);
	for (k = 0; k < s->nev; k++)
		if (t->fds[k] >= 0)
			close(t->fds[k]);
	if (t->count_fd >= 0)
		close(t->count_fd);
	if (t->filtered_fd >= 0)
		close(t->filtered_fd);
	for (k = 0; k < TPS_MAX_SIDES; k++)
		if (t->side_fd[k] >= 0)
			close(t->side_fd[k]);
}

static int attach_new(struct tp_stream *s, bool late)
{
	struct task_iter it;
	unsigned int n0 = s->n;
	int err;
	pid_t tid;

	err = task_iter_open(&it, s->sr, s->pid);
	if (err)
		return err;
	while ((tid = task_iter_next(&it))) {
		size_t at = known_at(s, tid);
		int e;

		if (at < s->nknown && s->known[at] == tid)
			continue;
		/* Out of memory: this thread waits for a later tick. */
		if (array_grow(&s->known, &s->known_cap, s->nknown + 1))
			continue;
		e = attach(s, tid, late);
		/* A thread that exited meanwhile is no error; one that failed is counted once. */
		if (e && e != -ESRCH) {
			err = e;
			s->unattached++;
		}
		if (e != -ESRCH)
			remember(s, at, tid);
	}
	task_iter_close(&it);
	/*
	 * The process pinned gone now: the threads just listed may be another
	 * process's that took its pid (a pid is only the process's while it
	 * lives). Those attached in this pass are let go, counts and all;
	 * while it lives, its pid is no one else's and the list was its own.
	 */
	if (late && s->pidfd >= 0 && s->n > n0 && pid_wait_gone(s->pidfd, s->pid, 0)) {
		while (s->n > n0) {
			struct tp_stream_thread *t = &s->t[--s->n];

			s->late -= t->late;
			thread_close(s, t);
		}
		return -ESRCH;
	}
	return s->n ? 0 : (err ? err : -ESRCH);
}

static size_t pow2_floor(size_t v)
{
	size_t p = 1;

	while (p * 2 <= v)
		p *= 2;
	return p;
}

int tp_stream_open(struct tp_stream *s, const struct sysroot *sr, const struct tp_open *o)
{
	size_t per, budget_bytes = o->budget_bytes;
	pid_t pid = o->pid;
	int threads;

	memset(s, 0, sizeof(*s));
	s->pidfd = -1;
	s->sr = sr;
	s->inherit = o->how == TP_ATTACH_INHERIT;
	s->cgroup_fd = o->how == TP_ATTACH_CGROUP ? o->cgroup_fd : -1;
	s->counted = -1;
	if (!o->nev || o->nev > TPS_MAX_EVENTS || o->counted >= (int)o->nev)
		return -EINVAL;
	s->pid = pid;
	s->nev = o->nev;
	s->counted = o->counted;
	s->counted_filter = o->counted_filter;
	s->sampling = true;
	memcpy(s->fmts, o->fmts, o->nev * sizeof(*o->fmts));
	if (s->inherit) {
		long ncpu = sysconf(_SC_NPROCESSORS_CONF);

		/* A buffer per CPU for all the task becomes. */
		per = budget_bytes / (size_t)(ncpu > 0 ? ncpu : 1);
		s->data_bytes = pow2_floor(per < MIN_DATA ? MIN_DATA
					   : per > MAX_INHERIT_DATA ? MAX_INHERIT_DATA : per);
		return attach_per_cpu(s, pid);
	}
	if (s->cgroup_fd >= 0) {
		long ncpu = sysconf(_SC_NPROCESSORS_CONF);

		/*
		 * A buffer per CPU for all the cgroup holds: half the budget, as
		 * a thread's, since a long watch writes every page of them.
		 */
		per = budget_bytes / (2 * (size_t)(ncpu > 0 ? ncpu : 1));
		s->data_bytes = pow2_floor(per < MIN_DATA ? MIN_DATA : per > MAX_DATA ? MAX_DATA : per);
		return attach_per_cpu(s, pid);
	}
	threads = task_count(s->sr, pid);
	if (threads < 0)
		return threads;
	/* Room for the threads there now and as many again (io-wq workers come and go). */
	per = budget_bytes / (2 * (size_t)(threads ? threads : 1));
	per = per < MIN_DATA ? MIN_DATA : per > MAX_DATA ? MAX_DATA : per;
	s->data_bytes = pow2_floor(per);
	return attach_new(s, false);
}

void tp_stream_refresh(struct tp_stream *s)
{
	/* Inherited events and a cgroup's follow new threads by themselves. */
	if (!s->inherit && s->cgroup_fd < 0)
		attach_new(s, true);
}

void tp_stream_pin(struct tp_stream *s, int pidfd)
{
	s->pidfd = pidfd;
}

void tp_stream_lazy(struct tp_stream *s, unsigned int mask)
{
	s->lazy = s->inherit ? 0 : mask & ~1u & ((1u << s->nev) - 1);
}

bool tp_stream_thread_exited(const struct tp_stream_thread *t)
{
	struct pollfd p = { .fd = t->fds[0], .events = POLLIN };

	return t->cpu < 0 && poll(&p, 1, 0) > 0 && (p.revents & POLLHUP);
}

/* Into the group and the buffer of each live thread (each CPU of a cgroup), disabled with it. */
static void open_lazy(struct tp_stream *s)
{
	unsigned int i, k;

	for (i = 0; i < s->n; i++) {
		struct tp_stream_thread *t = &s->t[i];

		if (t->fds[0] < 0 || tp_stream_thread_exited(t))
			continue;
		for (k = 1; k < s->nev; k++)
			if ((s->lazy & (1u << k)) && t->fds[k] < 0)
				open_member(s, t, k);
		for (k = 0; k < TPS_MAX_SIDES; k++) {
			struct tp_side *d = &s->side[k];

			if (!tp_stream_side_lazy(s, k) || d->failed || t->side_fd[k] >= 0)
				continue;
			t->side_fd[k] = open_side(s, k, t);
			/* A thread gone since the look above has nothing left to count. */
			if (t->side_fd[k] == -ESRCH)
				continue;
			d->failed |= t->side_fd[k] < 0;
		}
	}
}

/* Their samples written so far stay in the buffer they went to; their counts are kept. */
static void close_lazy(struct tp_stream *s)
{
	unsigned int i, k;
	uint64_t v;

	for (i = 0; i < s->n; i++)
		for (k = 1; k < s->nev; k++) {
			int *fd = &s->t[i].fds[k];

			if (!(s->lazy & (1u << k)) || *fd < 0)
				continue;
			if (read(*fd, &v, sizeof(v)) == sizeof(v))
				s->lazy_counts[k] += v;
			close(*fd);
			*fd = -1;
		}
	for (k = 0; k < TPS_MAX_SIDES; k++) {
		if (!tp_stream_side_lazy(s, k))
			continue;
		for (i = 0; i < s->n; i++) {
			int *fd = &s->t[i].side_fd[k];

			if (*fd < 0)
				continue;
			if (read(*fd, &v, sizeof(v)) == sizeof(v))
				s->side[k].closed += v;
			close(*fd);
			*fd = -1;
		}
	}
}

/* Switches every buffer's group, and says when: the samples' edge. */
static void switch_groups(struct tp_stream *s, bool on)
{
	unsigned long req = on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE;
	unsigned int i, k;

	s->sampling = on;
	if (on)
		s->switched_at = tp_stream_now();
	for (i = 0; i < s->n; i++) {
		if (s->t[i].fds[0] >= 0)
			ioctl(s->t[i].fds[0], req, 0);
		/* The lazy side counters count the sampled time with the group. */
		for (k = 0; k < TPS_MAX_SIDES; k++)
			if (tp_stream_side_lazy(s, k) && s->t[i].side_fd[k] >= 0)
				ioctl(s->t[i].side_fd[k], req, 0);
	}
	if (!on)
		s->switched_at = tp_stream_now();
}

void tp_stream_sample(struct tp_stream *s, bool on)
{
	if (s->sampling == on)
		return;
	/*
	 * The lazy events are opened before the switch on and closed after
	 * the switch off: opening the first of a system-call tracepoint walks
	 * every task of the host, closing the last waits for an RCU grace
	 * period (tens of ms with 10,000 threads here), and neither is time
	 * sampled.
	 */
	if (on && s->lazy)
		open_lazy(s);
	switch_groups(s, on);
	if (!on && s->lazy)
		close_lazy(s);
}

void tp_stream_disable(struct tp_stream *s)
{
	bool lazy = s->sampling && s->lazy;
	unsigned int i, k;

	if (s->sampling)
		switch_groups(s, false);
	for (i = 0; i < s->n; i++) {
		if (s->t[i].count_fd >= 0)
			ioctl(s->t[i].count_fd, PERF_EVENT_IOC_DISABLE, 0);
		if (s->t[i].filtered_fd >= 0)
			ioctl(s->t[i].filtered_fd, PERF_EVENT_IOC_DISABLE, 0);
		for (k = 0; k < TPS_MAX_SIDES; k++)
			if (s->t[i].side_fd[k] >= 0)
				ioctl(s->t[i].side_fd[k], PERF_EVENT_IOC_DISABLE, 0);
	}
	/* The counts end with the samples, not after the closing's wait. */
	s->stopped_at = tp_stream_now();
	if (lazy)
		close_lazy(s);
}

bool tp_stream_side_lazy(const struct tp_stream *s, unsigned int k)
{
	return k < TPS_MAX_SIDES && s->side[k].on && s->side[k].lazy && s->lazy;
}

int tp_stream_side(struct tp_stream *s, unsigned int k, const struct tp_format *fmt,
		   const char *filter, bool lazy)
{
	struct tp_side *d;
	unsigned int i;

	if (k >= TPS_MAX_SIDES)
		return -EINVAL;
	d = &s->side[k];
	d->fmt = *fmt;
	d->filter = filter;
	d->on = true;
	d->lazy = lazy;
	d->closed = 0;
	d->failed = false;	/* a slot used again (a fallback after a failed open) */
	/* Closed now: opened with the lazy events when sampling comes on. */
	if (tp_stream_side_lazy(s, k) && !s->sampling)
		return s->n ? 0 : -ESRCH;
	/* An inherited stream counts the task and all it makes with its first counter. */
	for (i = 0; i < s->n && !d->failed && (!s->inherit || !i); i++) {
		s->t[i].side_fd[k] = open_side(s, k, &s->t[i]);
		if (s->t[i].side_fd[k] < 0) {
			int err = s->t[i].side_fd[k];

			d->failed = true;
			return err;
		}
	}
	return s->n ? 0 : -ESRCH;
}

bool tp_stream_side_count(const struct tp_stream *s, unsigned int k, uint64_t *total)
{
	unsigned int i;
	uint64_t v;

	*total = 0;
	if (k >= TPS_MAX_SIDES || !s->side[k].on || s->side[k].failed)
		return false;
	*total = s->side[k].closed;
	for (i = 0; i < s->n; i++)
		if (s->t[i].side_fd[k] >= 0 &&
		    read(s->t[i].side_fd[k], &v, sizeof(v)) == sizeof(v))
			*total += v;
	return true;
}

void tp_stream_side_stop(struct tp_stream *s, unsigned int k)
{
	unsigned int i;

	if (k >= TPS_MAX_SIDES)
		return;
	for (i = 0; i < s->n; i++) {
		if (s->t[i].side_fd[k] >= 0)
			close(s->t[i].side_fd[k]);
		s->t[i].side_fd[k] = -1;
	}
	s->side[k].on = false;
}

uint64_t tp_stream_counted(const struct tp_stream *s, bool filtered)
{
	uint64_t sum = 0, v;
	unsigned int i;

	for (i = 0; i < s->n; i++) {
		int fd = filtered ? s->t[i].filtered_fd : s->t[i].count_fd;

		if (fd >= 0 && read(fd, &v, sizeof(v)) == sizeof(v))
			sum += v;
	}
	return sum;
}

void tp_stream_counts(const struct tp_stream *s, uint64_t *counts)
{
	unsigned int i, k;
	uint64_t v;

	for (k = 0; k < s->nev; k++)
		counts[k] = s->lazy_counts[k];
	for (i = 0; i < s->n; i++)
		for (k = 0; k < s->nev; k++)
			if (s->t[i].fds[k] >= 0 && read(s->t[i].fds[k], &v, sizeof(v)) == sizeof(v))
				counts[k] += v;
}

void tp_stream_close(struct tp_stream *s)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		thread_close(s, &s->t[i]);
	if (s->cgroup_fd >= 0)
		close(s->cgroup_fd);
	free(s->t);
	free(s->known);
	free(s->arena);
	free(s->recs);
	memset(s, 0, sizeof(*s));
	s->cgroup_fd = -1;
	s->pidfd = -1;
}
