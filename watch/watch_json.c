// SPDX-License-Identifier: GPL-2.0-or-later
/* The facts audit --watch gathered, for the JSON inventory: counts, not verdicts. */
#include <stdio.h>
#include <string.h>

#include "cpulist.h"
#include "output.h"
#include "watch.h"
#include "uring_flags.h"

static struct json_object *i64(uint64_t v)
{
	return json_object_new_int64((int64_t)v);
}

static struct json_object *state_json(const struct file_state *st)
{
	struct json_object *o;

	if (st->err)
		return NULL;
	o = json_object_new_object();
	if (st->flags >= 0) {
		char flags[16];

		snprintf(flags, sizeof(flags), "0%o", (unsigned int)st->flags);
		json_object_object_add(o, "flags", json_object_new_string(flags));
	}
	json_object_object_add(o, "size", i64(st->size));
	json_object_object_add(o, "allocated", i64(st->allocated));
	json_object_object_add(o, "extents", st->ext_err ? NULL : i64(st->extents));
	json_object_object_add(o, "unwritten_extents", st->ext_err ? NULL : i64(st->unwritten));
	json_object_object_add(o, "cached_pages", st->cache_err ? NULL : i64(st->cached));
	json_object_object_add(o, "dirty_pages", st->cache_err || strcmp(st->cache_how, "cachestat")
					       ? NULL : i64(st->dirty));
	json_object_object_add(o, "cache_source", st->cache_err ? NULL
						  : json_object_new_string(st->cache_how));
	return o;
}

/*
 * Punted writes by the cause their worker showed, one each: null for a
 * cause whose tracepoint this kernel lacks (not watched).
 */
static struct json_object *observed_json(const struct uring_trace *ut, const uint64_t *n)
{
	struct json_object *o = json_object_new_object();
	unsigned int c;

	for (c = 0; c < UT_NCAUSES; c++)
		json_object_object_add(o, uring_trace_cause_name((enum ut_cause)c),
				       uring_trace_cause_watched(ut, (enum ut_cause)c) ? i64(n[c])
										: NULL);
	return o;
}

static struct json_object *file_json(const struct punt_watch *w, size_t i)
{
	const struct ut_file *f = &w->ut.files[i];
	const struct watch_file *wf = i < w->nfiles ? &w->files[i] : NULL;
	struct json_object *o = json_object_new_object(), *ops = json_object_new_object();
	char buf[24];
	unsigned int k;

	json_object_object_add(o, "fd", json_object_new_int(f->fd));
	json_add_bytes(o, "path", wf && wf->first.path ? wf->first.path : NULL);
	json_object_object_add(o, "requests", i64(f->reqs));
	json_object_object_add(o, "punts", i64(f->punts));
	json_object_object_add(o, "reads", i64(f->reads));
	json_object_object_add(o, "writes", i64(f->writes));
	json_object_object_add(o, "read_punts", i64(f->read_punts));
	json_object_object_add(o, "write_punts", i64(f->write_punts));
	json_object_object_add(o, "iosqe_async", i64(f->async_reqs));
	json_object_object_add(o, "iosqe_async_punts", i64(f->async_punts));
	json_object_object_add(o, "socket_requests", i64(f->socket_reqs));
	json_object_object_add(o, "socket_punts", i64(f->socket_punts));
	json_object_object_add(o, "observed_causes", observed_json(&w->ut, f->observed));
	/* Inferred from an observed update of the times, apart from what was observed. */
	json_object_object_add(o, "timestamp_same_tick",
			       uring_trace_cause_watched(&w->ut, UT_CAUSE_TIMESTAMP)
			       ? i64(f->ts_same_tick) : NULL);
	for (k = 0; k < f->nops; k++) {
		struct json_object *op = json_object_new_object();

		json_object_object_add(op, "requests", i64(f->ops[k].reqs));
		json_object_object_add(op, "punts", i64(f->ops[k].punts));
		json_object_object_add(op, "observed_causes", observed_json(&w->ut,
									    f->ops[k].observed));
		json_object_object_add(ops, uring_trace_op_name(&w->ut, f->ops[k].opcode, buf,
								sizeof(buf)), op);
	}
	json_object_object_add(o, "per_opcode", ops);
	json_object_object_add(o, "first", wf ? state_json(&wf->first) : NULL);
	json_object_object_add(o, "last", wf ? state_json(&wf->last) : NULL);
	json_object_object_add(o, "fd_reused", json_object_new_boolean(wf && wf->reused));
	json_object_object_add(o, "peak_cached_pages", wf && wf->cache_reads ? i64(wf->peak_cached)
									  : NULL);
	json_object_object_add(o, "peak_dirty_pages", wf && wf->cache_reads ? i64(wf->peak_dirty)
									 : NULL);
	return o;
}

/*
 * A submitting thread's io_uring_enter calls and the batches of completion
 * work it ran (of all its rings: the kernel queues that work per thread).
 */
static void thread_work(struct json_object *s, const struct uring_trace *ut, pid_t tid)
{
	const struct ut_thread *t = uring_trace_thread(ut, tid);

	json_object_object_add(s, "io_uring_enter_calls", t ? i64(t->enters) : i64(0));
	json_object_object_add(s, "task_work_runs", !ut->have[UT_TW_RUN] ? NULL
						   : t ? i64(t->tw_runs) : i64(0));
	json_object_object_add(s, "task_work_items", !ut->have[UT_TW_RUN] ? NULL
						    : t ? i64(t->tw_items) : i64(0));
	json_object_object_add(s, "task_work_runs_outside_enter",
			       !ut->have[UT_TW_RUN] || !ut->have[UT_EXIT] ? NULL
			       : t ? i64(t->tw_outside) : i64(0));
}

/* The CPUs a thread submitted from, and how often it changed CPU between submissions. */
static void cpus_of(struct json_object *s, const struct ut_submitter *t)
{
	struct cpuset set = { 0 };
	char list[256];
	unsigned int c;

	for (c = 0; c < 64; c++)
		if (t->cpus & (1ull << c))
			cpuset_set(&set, c);
	cpuset_format(&set, list, sizeof(list));
	json_object_object_add(s, "cpus", json_object_new_string(list));
	json_object_object_add(s, "cpus_past_63", json_object_new_boolean(t->cpus_high));
	json_object_object_add(s, "migrations", i64(t->migrations));
}

static const char *comm_of(const struct proc_threads *pt, pid_t tid)
{
	const struct proc_thread *t = proc_threads_find(pt, tid);

	return t ? t->comm : NULL;	/* NULL: exited before the audit read its threads */
}

/*
 * watch.series: the requests and punts sampled per 100 ms from the watch's
 * start, over every bucket of the time watched, and the share of each the
 * sampling windows covered (an empty bucket outside them is no quiet one).
 */
static struct json_object *series_json(const struct punt_watch *w)
{
	struct json_object *o, *reqs, *punts, *sampled;
	const struct watch_series *s = w->series;
	unsigned int b, n;

	if (!s || !s->start || !w->tracepoint)
		return NULL;
	n = (unsigned int)(w->seconds_watched * (1000.0 / WATCH_SERIES_MS) + 0.999);
	n = n > s->n ? n : s->n;
	/* An --exec watch may run longer than the series holds: it stops, not drawn as quiet. */
	n = n < WATCH_SERIES_MAX ? n : WATCH_SERIES_MAX;
	o = json_object_new_object();
	reqs = json_object_new_array_ext((int)n);
	punts = json_object_new_array_ext((int)n);
	sampled = json_object_new_array_ext((int)n);
	for (b = 0; b < n; b++) {
		json_object_array_add(reqs, json_object_new_int64(b < s->n ? s->reqs[b] : 0));
		json_object_array_add(punts, json_object_new_int64(b < s->n ? s->punts[b] : 0));
		json_object_array_add(sampled, json_object_new_double(
			(double)(int)(watch_series_sampled(w, b) * 100 + 0.5) / 100));
	}
	json_object_object_add(o, "bucket_ms", json_object_new_int(WATCH_SERIES_MS));
	json_object_object_add(o, "start", json_object_new_double((double)s->start / 1e9));
	json_object_object_add(o, "requests", reqs);
	json_object_object_add(o, "punts", punts);
	json_object_object_add(o, "sampled", sampled);
	return o;
}

static struct json_object *setup_json(const struct ut_ring *r)
{
	struct json_object *o = json_object_new_object(), *names = json_object_new_array();
	unsigned int b;

	for (b = 0; b < 32; b++) {
		const char *name = uring_setup_flag_name(b);
		char bit[16];

		if (!(r->setup_flags & (1u << b)))
			continue;
		snprintf(bit, sizeof(bit), "bit %u", b);
		json_object_array_add(names, json_object_new_string(name ? name : bit));
	}
	json_object_object_add(o, "flags", names);
	json_object_object_add(o, "flags_value", json_object_new_int64(r->setup_flags));
	json_object_object_add(o, "sq_entries", i64(r->sq_entries));
	json_object_object_add(o, "cq_entries", i64(r->cq_entries));
	json_object_object_add(o, "fd", r->created_fd >= 0 ? json_object_new_int(r->created_fd)
							     : NULL);
	json_object_object_add(o, "creator_tid", json_object_new_int(r->creator));
	return o;
}

/*
 * A quantile in microseconds, or null when the requests still open as
 * sampling stopped (longer than seen) could be the ones above it.
 */
static struct json_object *quantile_json(const struct ut_ring_op *op, double q)
{
	if (!uring_trace_latency_known(op, q))
		return NULL;
	return json_object_new_double((double)uring_trace_latency(op, q) / 1e3);
}

static struct json_object *latency_json(const struct ut_ring_op *op)
{
	struct json_object *o;

	if (!op->latency_n)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "p50", quantile_json(op, 0.5));
	json_object_object_add(o, "p99", quantile_json(op, 0.99));
	json_object_object_add(o, "p999", quantile_json(op, 0.999));
	json_object_object_add(o, "requests", i64(op->latency_n));
	json_object_object_add(o, "censored", i64(op->latency_censored));
	return o;
}

static struct json_object *fill_json(const struct punt_watch *w, int fd)
{
	struct json_object *o;
	size_t i;

	for (i = 0; fd >= 0 && i < w->nfills; i++) {
		const struct watch_fill *f = &w->fills[i];

		if (f->fd != fd)
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "fd", json_object_new_int(f->fd));
		json_object_object_add(o, "readings", i64(f->n));
		json_object_object_add(o, "unread", i64(f->unread));
		if (!f->n)
			return o;
		json_object_object_add(o, "sq_entries", i64(f->sq_entries));
		json_object_object_add(o, "cq_entries", i64(f->cq_entries));
		json_object_object_add(o, "sq_max", i64(watch_fill_max(f, false)));
		json_object_object_add(o, "cq_max", i64(watch_fill_max(f, true)));
		json_object_object_add(o, "cq_p99", i64(watch_fill_quantile(f, true, 0.99)));
		json_object_object_add(o, "inflight_max", watch_fill_inflight_max(f) >= 0
				       ? i64(watch_fill_inflight_max(f)) : NULL);
		return o;
	}
	return NULL;
}

/* The ring map's part of one ring: who submits, what, how it completes, how full it runs. */
static void ring_map_json(struct json_object *o, const struct punt_watch *w, size_t i)
{
	const struct ut_ring *r = &w->ut.rings[i];
	const struct watch_ring_match *m = w->matches ? &w->matches[i] : NULL;
	struct json_object *ops = json_object_new_object(), *errs = json_object_new_array();
	double secs = w->seconds_sampled > 0 ? w->seconds_sampled : w->seconds_watched;
	uint64_t sq = 0;
	char buf[24];
	unsigned int k;

	json_object_object_add(o, "matched_fd", m && m->fd >= 0 ? json_object_new_int(m->fd) : NULL);
	json_object_object_add(o, "matched_by", m && ring_match_name(m->how)
						       ? json_object_new_string(ring_match_name(m->how))
						       : NULL);
	/* The flags exist only in io_uring_create: null for a ring set up before the watch. */
	json_object_object_add(o, "setup", r->created ? setup_json(r) : NULL);
	for (k = 0; k < r->nsubmitters; k++)
		sq += r->submitters[k].sq_thread ? r->submitters[k].reqs : 0;
	json_object_object_add(o, "sqpoll_share",
			       r->reqs ? json_object_new_double((double)sq / (double)r->reqs) : NULL);
	json_object_object_add(o, "submitters_other", i64(r->submitters_other));
	json_object_object_add(o, "iosqe_async_requests", i64(r->async_reqs));
	json_object_object_add(o, "completions", i64(r->completions));
	json_object_object_add(o, "completions_unjoined", i64(r->completions_unjoined));
	json_object_object_add(o, "completions_multishot", i64(r->completions_multishot));
	for (k = 0; k < r->nerrs; k++) {
		struct json_object *e = json_object_new_object();
		const char *name = strerrorname_np(r->errs[k].err);

		json_object_object_add(e, "opcode", r->errs[k].opcode < 0 ? NULL
			: json_object_new_string(uring_trace_op_name(&w->ut, (uint8_t)r->errs[k].opcode,
								     buf, sizeof(buf))));
		/* Which CQEs: of a sampled request, of one not joined, or a multishot one's extra. */
		json_object_object_add(e, "cqes", json_object_new_string(
			r->errs[k].opcode == UT_ERR_MULTISHOT ? "multishot"
			: r->errs[k].opcode == UT_ERR_UNJOINED ? "unjoined" : "joined"));
		json_object_object_add(e, "errno", name ? json_object_new_string(name)
							: json_object_new_int(r->errs[k].err));
		json_object_object_add(e, "count", i64(r->errs[k].n));
		json_object_array_add(errs, e);
	}
	json_object_object_add(o, "errors", errs);
	json_object_object_add(o, "errors_other", i64(r->errs_other));
	for (k = 0; k < r->nops; k++) {
		const struct ut_ring_op *op = &r->ops[k];
		struct json_object *x = json_object_new_object();

		json_object_object_add(x, "requests", i64(op->reqs));
		json_object_object_add(x, "per_second", secs > 0 ? json_object_new_double(
								   (double)op->reqs / secs) : NULL);
		json_object_object_add(x, "completions", i64(op->completions));
		json_object_object_add(x, "errors", i64(op->errors));
		/* Requests, each once: armed on poll (null without the event), punted, IOSQE_ASYNC. */
		json_object_object_add(x, "poll_armed", w->ut.have[UT_POLL_ARM] ? i64(op->polled)
										: NULL);
		json_object_object_add(x, "punted", i64(op->punted));
		json_object_object_add(x, "iosqe_async", i64(op->async_reqs));
		json_object_object_add(x, "iosqe_async_punted", i64(op->async_punted));
		/* The same of the requests seen from submit to completion, which net-punts judges. */
		json_object_object_add(x, "completed_seen", i64(op->latency_n));
		json_object_object_add(x, "completed_poll_armed", w->ut.have[UT_POLL_ARM]
					       ? i64(op->done_polled) : NULL);
		json_object_object_add(x, "completed_punted", i64(op->done_punted));
		json_object_object_add(x, "completed_iosqe_async", i64(op->done_async));
		json_object_object_add(x, "multishot_ended", i64(op->ms_ended));
		json_object_object_add(x, "multishot_ended_enobufs", i64(op->ms_ended_enobufs));
		json_object_object_add(x, "multishot_ended_eof", i64(op->ms_ended_eof));
		json_object_object_add(x, "multishot_cqes", i64(op->ms_cqes));
		json_object_object_add(x, "latency_us", latency_json(op));
		json_object_object_add(ops, uring_trace_op_name(&w->ut, op->opcode, buf, sizeof(buf)),
				       x);
	}
	json_object_object_add(o, "ops", ops);
	json_object_object_add(o, "fill", fill_json(w, m ? m->fd : -1));
}

static struct json_object *ring_json(const struct punt_watch *w, size_t i,
				     const struct proc_threads *pt)
{
	const struct ut_ring *r = &w->ut.rings[i];
	struct json_object *o = json_object_new_object(), *subs = json_object_new_array();
	unsigned int k;

	json_object_object_add(o, "fd", r->fd >= 0 && !r->fd_ambiguous ? json_object_new_int(r->fd)
									: NULL);
	json_object_object_add(o, "requests", i64(r->reqs));
	json_object_object_add(o, "punts", i64(r->punts));
	json_object_object_add(o, "registered_file_requests", i64(r->fixed_reqs));
	json_object_object_add(o, "registered_file_punts", i64(r->fixed_punts));
	json_object_object_add(o, "no_fd_requests", i64(r->nofile_reqs));
	json_object_object_add(o, "no_fd_punts", i64(r->nofile_punts));
	json_object_object_add(o, "no_fd_socket_punts", i64(r->nofile_socket_punts));
	for (k = 0; k < r->nsubmitters; k++) {
		struct json_object *s = json_object_new_object();

		json_object_object_add(s, "tid", json_object_new_int(r->submitters[k].tid));
		json_object_object_add(s, "sq_thread",
				       json_object_new_boolean(r->submitters[k].sq_thread));
		json_object_object_add(s, "requests", i64(r->submitters[k].reqs));
		cpus_of(s, &r->submitters[k]);
		thread_work(s, &w->ut, r->submitters[k].tid);
		json_add_bytes(s, "comm", comm_of(pt, r->submitters[k].tid));
		json_object_object_add(s, "share", json_object_new_double(
				(double)r->submitters[k].reqs / (double)(r->reqs ? r->reqs : 1)));
		json_object_array_add(subs, s);
	}
	json_object_object_add(o, "submitters", subs);
	ring_map_json(o, w, i);
	return o;
}

struct json_object *watch_json(const struct punt_watch *w, const struct proc_threads *threads)
{
	struct json_object *o = json_object_new_object(), *files, *rings, *windows, *fills;
	size_t i;

	json_object_object_add(o, "source", json_object_new_string(w->tracepoint ? "tracepoint"
										 : "threads"));
	json_object_object_add(o, "seconds", json_object_new_int(w->seconds));
	/* audit --exec: watched from the program's start to its end. */
	json_object_object_add(o, "exec", json_object_new_boolean(w->exec));
	json_object_object_add(o, "seconds_watched", json_object_new_double(w->seconds_watched));
	json_object_object_add(o, "ended", json_object_new_string(w->exited ? "process exited"
									    : "time"));
	json_object_object_add(o, "punts", i64(w->total));
	if (!w->tracepoint)
		return o;
	json_object_object_add(o, "requests", w->submit_counted && w->sampled_all
						      ? i64(w->submitted) : NULL);
	json_object_object_add(o, "seconds_sampled", json_object_new_double(w->seconds_sampled));
	json_object_object_add(o, "sampled_all", json_object_new_boolean(w->sampled_all));
	/* Counted through a filter on the opcode, exact like punts; null when the kernel refused it. */
	json_object_object_add(o, "punts_always_async",
			       w->kernel_async_counted ? i64(w->kernel_async_total) : NULL);
	/* [start, end] in CLOCK_MONOTONIC seconds, to line the samples up with other traces. */
	windows = json_object_new_array();
	for (i = 0; i < w->nwindows; i++) {
		struct json_object *pair = json_object_new_array();

		json_object_array_add(pair, json_object_new_double((double)w->windows[i].start / 1e9));
		json_object_array_add(pair, json_object_new_double((double)w->windows[i].end / 1e9));
		json_object_array_add(windows, pair);
	}
	json_object_object_add(o, "windows", windows);
	json_object_object_add(o, "series", series_json(w));
	json_object_object_add(o, "punts_cut", i64(w->ut.cut_punts));
	json_object_object_add(o, "punts_outside_samples", i64(w->ut.edge_punts));
	json_object_object_add(o, "samples_lost", i64(w->lost));
	/* Ticks with more samples than perf_event_max_sample_rate allows: events missed, unknown which. */
	json_object_object_add(o, "samples_throttled", i64(w->throttled));
	json_object_object_add(o, "samples_missed", i64(w->samples_missed));
	json_object_object_add(o, "coverage", json_object_new_double(punt_watch_coverage(w)));
	json_object_object_add(o, "blind", w->blind ? json_bytes_string(w->blind_why) : NULL);
	/* A watch that failed (out of memory, its cgroup shared meanwhile): no check judges it. */
	json_object_object_add(o, "error", fact_ok(&w->e) ? NULL : json_bytes_string(w->e.why));
	/* pread64, pwrite64 and their vector forms with plain system calls: null when not counted */
	json_object_object_add(o, "plain_io", w->plain_io_counted ? i64(w->plain_io) : NULL);
	/* the seconds plain_io covers: the sampled ones, where it counted only while sampling */
	json_object_object_add(o, "plain_io_seconds", !w->plain_io_counted ? NULL
			       : json_object_new_double(w->plain_io_sampled && !w->sampled_all
							? w->seconds_sampled : w->seconds_watched));
	json_object_object_add(o, "plain_io_error", w->plain_io_counted || !w->tracepoint ? NULL
			       : json_bytes_string(w->plain_io_why));
	json_object_object_add(o, "attached_after_exec_ms", w->attached_after_exec
			       ? json_object_new_double((double)w->attach_ns / 1e6) : NULL);
	/* Stopped at its exec and attached there: nothing before its first instruction missed. */
	json_object_object_add(o, "stopped_at_exec", w->attached_after_exec
			       ? json_object_new_boolean(w->exec_stopped) : NULL);
	json_object_object_add(o, "punts_unattributed", i64(w->ut.punts_unattributed));
	/*
	 * Cause events sampled on io-wq workers, and those no open punted
	 * request was there to take: null for a tracepoint not watched.
	 */
	json_object_object_add(o, "cause_events", observed_json(&w->ut, w->ut.cause_events));
	json_object_object_add(o, "cause_events_unclaimed",
			       observed_json(&w->ut, w->ut.cause_events_unclaimed));
	json_object_object_add(o, "threads_watched", json_object_new_int(w->threads_watched));
	json_object_object_add(o, "threads_attached_late", json_object_new_int(w->threads_late));
	json_object_object_add(o, "threads_not_attached", json_object_new_int(w->threads_unattached));
	json_object_object_add(o, "ring_bytes_per_thread", i64(w->ring_bytes));
	/*
	 * What the events followed: each thread, the process's cgroup (one set
	 * per CPU; ring_bytes_per_thread is then per CPU), or a program from
	 * its exec (inherited, per CPU too).
	 */
	json_object_object_add(o, "attached_by", json_object_new_string(
		w->exec ? "exec" : w->by_cgroup ? "cgroup" : "threads"));
	json_object_object_add(o, "cgroup", w->by_cgroup ? json_bytes_string(w->cgroup) : NULL);
	json_object_object_add(o, "cgroup_not_used", w->cgroup_why[0]
			       ? json_object_new_string(w->cgroup_why) : NULL);
	files = json_object_new_array();
	for (i = 0; i < w->ut.nfiles; i++)
		json_object_array_add(files, file_json(w, i));
	json_object_object_add(o, "files", files);
	rings = json_object_new_array();
	for (i = 0; i < w->ut.nrings; i++)
		json_object_array_add(rings, ring_json(w, i, threads));
	json_object_object_add(o, "rings", rings);
	json_object_object_add(o, "untracked_ring_events", i64(w->ut.untracked_ring_events));
	/* Multishot requests past the 4096 followed at once: their ends were not counted. */
	json_object_object_add(o, "multishot_table_resets", i64(w->ut.ms_resets));
	json_object_object_add(o, "queue_fill_rings_left_out", i64(w->fills_left_out));
	/* Every ring fd's queue fill, whether or not it had requests to sample. */
	fills = json_object_new_array();
	for (i = 0; i < w->nfills; i++)
		json_object_array_add(fills, fill_json(w, w->fills[i].fd));
	json_object_object_add(o, "queue_fill", fills);
	return o;
}
