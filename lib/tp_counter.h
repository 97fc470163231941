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
/* Attaches to threads that appeared since. */
void tp_counter_refresh(struct tp_counter *c);
/* Events counted so far over all threads. */
uint64_t tp_counter_read(const struct tp_counter *c);
void tp_counter_close(struct tp_counter *c);

#endif
