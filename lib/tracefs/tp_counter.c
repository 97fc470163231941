// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Counting a tracepoint on the threads of one process with perf_event_open.
 * What a bpftrace one-liner would do, without eBPF and without touching
 * ftrace's global state.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "array.h"
#include "procfs.h"
#include "tracefs.h"

#define MAX_THREADS 4096

static int attach(struct tp_counter *c, pid_t tid)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = (uint64_t)c->fmt.id,
	};
	struct tp_thread *t;
	long fd;

	if (c->n >= MAX_THREADS)
		return -E2BIG;
	if (array_grow(&c->threads, &c->cap, c->n + 1))
		return -ENOMEM;
	fd = syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	t = &c->threads[c->n++];
	t->tid = tid;
	t->fd = (int)fd;
	return 0;
}

static int attach_new(struct tp_counter *c)
{
	struct task_iter it;
	int err;
	pid_t tid;

	err = task_iter_open(&it, NULL, c->pid);
	if (err)
		return err;
	while ((tid = task_iter_next(&it))) {
		unsigned int i;
		bool known = false;

		for (i = 0; i < c->n; i++)
			known |= c->threads[i].tid == tid;
		if (!known) {
			int e = attach(c, tid);

			if (e && e != -ESRCH)
				err = e;	/* a thread that exited meanwhile is no error */
		}
	}
	task_iter_close(&it);
	return c->n ? 0 : (err ? err : -ESRCH);
}

int tp_counter_open(struct tp_counter *c, const struct tp_format *fmt, pid_t pid)
{
	memset(c, 0, sizeof(*c));
	c->fmt = *fmt;
	c->pid = pid;
	return attach_new(c);
}

int tp_counter_open_host(struct tp_counter *c, const struct tp_format *fmt, const char *filter)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = (uint64_t)fmt->id,
	};
	long ncpu = sysconf(_SC_NPROCESSORS_CONF), cpu, fd;
	int err = 0;

	memset(c, 0, sizeof(*c));
	c->fmt = *fmt;
	c->pid = -1;
	for (cpu = 0; cpu < ncpu && !err; cpu++) {
		fd = syscall(SYS_perf_event_open, &attr, -1, (int)cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			err = errno == ENODEV ? 0 : -errno;
			continue;
		}
		if (filter && ioctl((int)fd, PERF_EVENT_IOC_SET_FILTER, filter))
			err = -errno;
		else
			err = array_grow(&c->threads, &c->cap, c->n + 1) ? -ENOMEM : 0;
		if (err) {
			close((int)fd);
			continue;
		}
		c->threads[c->n].tid = -1;
		c->threads[c->n++].fd = (int)fd;
	}
	if (!err && !c->n)
		err = -ENODEV;
	if (err)
		tp_counter_close(c);
	return err;
}

void tp_counter_refresh(struct tp_counter *c)
{
	/* A host-wide counter covers every task already. */
	if (c->pid > 0)
		attach_new(c);
}

uint64_t tp_counter_read(const struct tp_counter *c)
{
	uint64_t sum = 0, v;
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (read(c->threads[i].fd, &v, sizeof(v)) == sizeof(v))
			sum += v;
	return sum;
}

void tp_counter_close(struct tp_counter *c)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		close(c->threads[i].fd);
	free(c->threads);
	memset(c, 0, sizeof(*c));
}
