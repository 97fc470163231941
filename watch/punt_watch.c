// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Watches a process's punts to io-wq: perf_event_open(PERF_TYPE_TRACEPOINT)
 * on each of its threads, a counter on io_uring_queue_async_work for the
 * exact total and the sampled events of uring_trace for the per-file and
 * per-ring breakdown, sampled in windows when the rate is high (the
 * session, watch_session.c). Without eBPF and without touching ftrace's
 * global state; without the tracepoint, new io-wq workers are counted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "pid_wait.h"
#include "procfs.h"
#include "sysroot.h"
#include "tracefs.h"
#include "watch.h"
#include "watch_session.h"

#define MAX_THREADS 4096

/* Without the tracepoint: each new iou-wrk thread is at least one punt. */
static void watch_threads(const struct sysroot *sr, pid_t pid, struct punt_watch *w)
{
	pid_t seen[MAX_THREADS];
	unsigned int nseen = 0, s, tick;
	char comm[32];
	uint64_t before = 0, start = tp_stream_now();
	int err;

	for (s = 0; s <= w->seconds; s++) {
		for (tick = 0; tick < (s ? 10u : 1u); tick++) {
			struct task_iter it;
			uint64_t was = w->total;
			pid_t tid;

			if (s || tick)
				sleep_ms(100);
			if (w->req.every_100ms)
				w->req.every_100ms(w->req.every_arg);
			err = task_iter_open(&it, sr, pid);
			if (err) {
				if (!s && !tick)
					fact_fail(&w->e, err, "cannot read '/proc/%d/task': %s", (int)pid,
						  strerror(-err));
				else
					w->exited = err == -ENOENT || err == -ESRCH;
				goto out;
			}
			while ((tid = task_iter_next(&it))) {
				unsigned int i;
				bool known = false;

				for (i = 0; i < nseen; i++)
					known |= seen[i] == tid;
				if (known || nseen >= MAX_THREADS)
					continue;
				seen[nseen++] = tid;
				/* Workers present at the start are not new punts. */
				if (s && !sysroot_read_namef(sr, comm, sizeof(comm), "proc/%d/task/%d/comm",
							     (int)pid, (int)tid) &&
				    !strncmp(comm, "iou-wrk-", 8))
					w->total++;
			}
			task_iter_close(&it);
			/* Gone: that list may be of whatever took its pid; not counted. */
			if (w->req.pinned && pid_wait_gone(w->req.pidfd, pid, 0)) {
				w->total = was;
				w->exited = true;
				goto out;
			}
		}
		if (s) {
			w->per_second[s - 1] = w->total - before;
			w->nper_second = s;
			before = w->total;
		}
	}
out:
	if (w->exited && w->nper_second < w->seconds)
		w->per_second[w->nper_second++] = w->total - before;
	w->threads_watched = nseen;
	w->seconds_watched = (double)(tp_stream_now() - start) / (double)NS;
	if (w->seconds_watched > w->seconds)
		w->seconds_watched = w->seconds;
}

void punt_watch_run(const struct sysroot *sr, pid_t pid, unsigned int seconds,
		    struct punt_watch *w)
{
	struct watch_request req = w->req;
	struct watch_fill *fills = w->fills;
	size_t nfills = w->nfills, left_out = w->fills_left_out;

	/* All but what the caller set: the request, the rings whose fill to read. */
	memset(w, 0, sizeof(*w));
	w->req = req;
	w->fills = fills;
	w->nfills = nfills;
	w->fills_left_out = left_out;
	w->seconds = seconds > WATCH_MAX_SECONDS ? WATCH_MAX_SECONDS : seconds;
	if (!watch_session_run(sr, pid, w, NULL))
		watch_threads(sr, pid, w);
}

bool punt_watch_exec(const struct sysroot *sr, pid_t pid, struct punt_watch *w,
		     const struct watch_exec *ex)
{
	bool keep = w->req.keep_spans;

	memset(w, 0, sizeof(*w));
	w->req.keep_spans = keep;
	w->exec = true;
	if (!watch_session_run(sr, pid, w, ex))
		return false;
	/* As long as the program ran: the whole seconds it took. */
	w->seconds = (unsigned int)w->seconds_watched + (w->seconds_watched > (unsigned int)w->seconds_watched);
	return true;
}

void punt_watch_free(struct punt_watch *w)
{
	size_t i;

	for (i = 0; i < w->nfiles; i++) {
		file_state_free(&w->files[i].first);
		file_state_free(&w->files[i].last);
	}
	free(w->files);
	w->files = NULL;
	w->nfiles = w->files_cap = 0;
	for (i = 0; i < w->nfills; i++)
		free(w->fills[i].r);
	free(w->fills);
	free(w->matches);
	w->fills = NULL;
	w->matches = NULL;
	w->nfills = 0;
	if (w->series)
		watch_series_free(w->series);
	free(w->series);
	w->series = NULL;
	uring_trace_free(&w->ut);
}

struct watch_span punt_watch_span(const struct punt_watch *w)
{
	struct watch_span sp;

	if (!w->tracepoint || w->sampled_all)
		snprintf(sp.s, sizeof(sp.s), "%.1f s", w->seconds_watched);
	else
		snprintf(sp.s, sizeof(sp.s), "%.1f s (samples from %.2f s of it)",
			 w->seconds_watched, w->seconds_sampled);
	return sp;
}

/*
 * The share of what happened that the watch saw: of its threads, those it
 * could attach to; of its punts, those the samples cover. 0 when blind.
 */
double punt_watch_coverage(const struct punt_watch *w)
{
	double threads = 1.0, samples = 1.0;

	if (w->blind)
		return 0.0;
	if (w->threads_unattached)
		threads = (double)w->threads_watched /
			  (double)(w->threads_watched + w->threads_unattached);
	if (w->tracepoint && w->total && w->punts_sampled < w->total)
		samples = (double)w->punts_sampled / (double)w->total;
	return threads < samples ? threads : samples;
}
