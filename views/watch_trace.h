/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_WATCH_TRACE_H
#define URINGLINT_WATCH_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "proc_tasks.h"
#include "punt_watch.h"

/*
 * What audit --watch sampled, as a Chrome trace-event file (audit --trace
 * FILE), which Perfetto and chrome://tracing open: a track per thread of
 * each watched process, the submitters', SQPOLL threads' and io-wq
 * workers', with each request sampled from its submit to its first CQE.
 *
 * Each request is an async slice ("b" and "e", which may overlap, as a
 * submitter's requests in flight do) named by its opcode, on its
 * submitting thread, with its fd, file, result and whether it was punted;
 * instants ("i") mark its submit on the submitter's track, its run on an
 * io-wq worker's track when the events show the worker (it took the
 * request's file after the punt, as with IOSQE_ASYNC), and its CQE on the
 * track of the thread that posted it (for a punted request, the worker on a
 * plain ring, the submitter's task work on a DEFER_TASKRUN one). Times are in microseconds from the first
 * sampling window of the first process watched: processes watched one after
 * another follow one another on the timeline.
 */

/* The spans of one watched process, taken out of its watch. */
struct watch_trace_proc {
	pid_t pid;
	char comm[64];
	struct ut_span *spans;
	size_t nspans;
	uint64_t dropped;
	char op_names[256][24];
	/*
	 * The opcodes whose prep forces them to io-wq itself (FSYNC and the
	 * like: uring_trace_op_always_async), and whether the watch saw a
	 * drained request: both set the submit tracepoint's flags bit 4
	 * (REQ_F_FORCE_ASYNC) that IOSQE_ASYNC sets, so that bit alone does
	 * not say the application asked for io-wq.
	 */
	bool op_forced[256];
	bool drain_seen;
	/* fd (and the process that looked it up) to the path at its first request */
	struct watch_trace_file {
		pid_t pid;
		int fd;
		char *path;
	} *files;
	size_t nfiles;
	struct watch_trace_thread {
		pid_t tid;
		char comm[64];
	} *threads;
	size_t nthreads;
	uint64_t t0;			/* CLOCK_MONOTONIC ns of its first sampling window, 0 none */
	double seconds_watched, seconds_sampled;
	unsigned int nwindows;
};

struct watch_trace {
	struct watch_trace_proc *v;
	size_t n, cap;
};

/*
 * Takes w's spans (w keeps none after) and what names them: the paths of
 * its files, and the names of threads (th, may be NULL). 0 or -ENOMEM.
 */
int watch_trace_take(struct watch_trace *t, pid_t pid, const char *comm, struct punt_watch *w,
		     const struct proc_threads *th);
/* The trace-event JSON of every process taken; 0, or -EIO when a write failed. */
int watch_trace_write(FILE *out, const void *t);
void watch_trace_free(struct watch_trace *t);

#endif
