/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_TP_COUNTER_H
#define URINGLINT_TP_COUNTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tp_format.h"

struct tp_thread {
	pid_t tid;
	int fd;
};

/*
 * One tracepoint counted on every thread of a process with
 * perf_event_open(PERF_TYPE_TRACEPOINT): no global tracing state changes.
 */
struct tp_counter {
	struct tp_format fmt;
	pid_t pid;
	struct tp_thread *threads;
	unsigned int n;
	size_t cap;
};

/* Attaches to every thread of pid; 0, or -errno when no thread could be opened. */
int tp_counter_open(struct tp_counter *c, const struct tp_format *fmt, pid_t pid);
/*
 * The same tracepoint counted on every CPU for every task of the host,
 * through filter (a tracefs filter on the event's fields, or NULL): one
 * counter a CPU, in threads[] with tid -1. Needs what CPU-wide perf events
 * need (CAP_PERFMON, or kernel.perf_event_paranoid <= 0). 0 or -errno;
 * a CPU offline now is left out (-ENODEV from it is no error).
 */
int tp_counter_open_host(struct tp_counter *c, const struct tp_format *fmt, const char *filter);
/* Attaches to threads that appeared since. */
void tp_counter_refresh(struct tp_counter *c);
/* Events counted so far over all threads. */
uint64_t tp_counter_read(const struct tp_counter *c);
void tp_counter_close(struct tp_counter *c);

#endif
