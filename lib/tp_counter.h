/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_TP_COUNTER_H
#define URINGLINT_TP_COUNTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A tracepoint's id and the offsets of the fields we read from its samples. */
struct tp_format {
	int id;
	int opcode_off;		/* u8 opcode, -1 if absent */
	int op_str_off;		/* __data_loc char[] op_str (6.x), -1 if absent */
};

struct tp_thread {
	pid_t tid;
	int fd;
	void *ring;		/* sample buffer, NULL when only counting */
	size_t ring_len;
};

/*
 * One tracepoint counted on every thread of a process with
 * perf_event_open(PERF_TYPE_TRACEPOINT): no global tracing state changes.
 */
struct tp_counter {
	struct tp_format fmt;
	pid_t pid;
	bool sample;		/* keep raw samples (for the opcode) */
	struct tp_thread *threads;
	unsigned int n, cap;
};

/*
 * Looks up "category/name" in tracefs; when tracefs is not mounted, mounts
 * it in a mount namespace private to this process (root only). 0 or -errno,
 * with why filled.
 */
int tp_format_load(const char *event, struct tp_format *fmt, char *why, size_t whysz);

/* Attaches to every thread of pid; 0, or -errno when no thread could be opened. */
int tp_counter_open(struct tp_counter *c, const struct tp_format *fmt, pid_t pid, bool sample);
/* Attaches to threads that appeared since. */
void tp_counter_refresh(struct tp_counter *c);
/* Events counted so far over all threads. */
uint64_t tp_counter_read(const struct tp_counter *c);
/* Calls fn on the raw data of each sample waiting, and consumes them; returns lost samples. */
uint64_t tp_counter_drain(struct tp_counter *c, void (*fn)(const uint8_t *raw, uint32_t len,
							   void *arg), void *arg);
void tp_counter_close(struct tp_counter *c);

#endif
