// SPDX-License-Identifier: GPL-2.0-or-later
/* The facts audit --watch gathered, for the JSON inventory: counts, not verdicts. */
#include <stdio.h>
#include <string.h>

#include "json_bytes.h"
#include "watch_json.h"

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
	for (k = 0; k < f->nops; k++) {
		struct json_object *op = json_object_new_object();

		json_object_object_add(op, "requests", i64(f->ops[k].reqs));
		json_object_object_add(op, "punts", i64(f->ops[k].punts));
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

static struct json_object *ring_json(const struct ut_ring *r)
{
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
	for (k = 0; k < r->nsubmitters; k++) {
		struct json_object *s = json_object_new_object();

		json_object_object_add(s, "tid", json_object_new_int(r->submitters[k].tid));
		json_object_object_add(s, "sq_thread",
				       json_object_new_boolean(r->submitters[k].sq_thread));
		json_object_object_add(s, "requests", i64(r->submitters[k].reqs));
		json_object_array_add(subs, s);
	}
	json_object_object_add(o, "submitters", subs);
	return o;
}

struct json_object *watch_json(const struct punt_watch *w)
{
	struct json_object *o = json_object_new_object(), *files, *rings, *windows;
	size_t i;

	json_object_object_add(o, "source", json_object_new_string(w->tracepoint ? "tracepoint"
										 : "threads"));
	json_object_object_add(o, "seconds", json_object_new_int(w->seconds));
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
	json_object_object_add(o, "punts_cut", i64(w->ut.cut_punts));
	json_object_object_add(o, "punts_outside_samples", i64(w->ut.edge_punts));
	json_object_object_add(o, "samples_lost", i64(w->lost));
	json_object_object_add(o, "coverage", json_object_new_double(punt_watch_coverage(w)));
	json_object_object_add(o, "punts_unattributed", i64(w->ut.punts_unattributed));
	json_object_object_add(o, "threads_watched", json_object_new_int(w->threads_watched));
	json_object_object_add(o, "threads_attached_late", json_object_new_int(w->threads_late));
	json_object_object_add(o, "threads_not_attached", json_object_new_int(w->threads_unattached));
	json_object_object_add(o, "ring_bytes_per_thread", i64(w->ring_bytes));
	files = json_object_new_array();
	for (i = 0; i < w->ut.nfiles; i++)
		json_object_array_add(files, file_json(w, i));
	json_object_object_add(o, "files", files);
	rings = json_object_new_array();
	for (i = 0; i < w->ut.nrings; i++)
		json_object_array_add(rings, ring_json(&w->ut.rings[i]));
	json_object_object_add(o, "rings", rings);
	return o;
}
