/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PUNT_WATCH_H
#define URINGLINT_PUNT_WATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "fact.h"

#define WATCH_MAX_SECONDS 600
#define WATCH_MAX_OPS 64

/* Punts of one process to io-wq, counted over a few seconds. */
struct punt_watch {
	struct fact_err e;		/* nothing could be counted */
	bool tracepoint;		/* counted with io_uring:io_uring_queue_async_work */
	char fallback_why[256];		/* why the tracepoint was not used */
	unsigned int seconds;
	uint64_t total;			/* punts (tracepoint) or new iou-wrk threads (fallback) */
	uint64_t per_second[WATCH_MAX_SECONDS];
	struct {
		char op[24];
		uint64_t n;
	} ops[WATCH_MAX_OPS];
	unsigned int nops;
	uint64_t lost;			/* samples the kernel dropped: counted, opcode unknown */
	unsigned int threads_watched;
};

/*
 * Live only. As root, opens a perf tracepoint counter on every thread of
 * pid (rescanned each second), which touches no global tracing state; if
 * tracefs is not mounted it is mounted in a private mount namespace of
 * this process only. Otherwise, or when that fails, counts new iou-wrk
 * threads instead and says why in fallback_why.
 */
void punt_watch_run(pid_t pid, unsigned int seconds, struct punt_watch *w);

#endif
