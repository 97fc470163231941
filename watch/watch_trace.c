// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The watch's sampled requests as a Chrome trace-event file (see
 * watch_trace.h). The format: "JSON Object Format" of the Trace Event
 * Format (traceEvents, with ph, name, cat, ts, pid, tid, id, s, args), as
 * Perfetto's JSON importer and chrome://tracing read it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "output.h"
#include "watch.h"
#include "xalloc.h"

static int take_names(struct watch_trace_proc *p, const struct punt_watch *w,
		      const struct proc_threads *th)
{
	size_t i;

	p->files = calloc(w->ut.nfiles ? w->ut.nfiles : 1, sizeof(*p->files));
	if (!p->files)
		return -ENOMEM;
	for (i = 0; i < w->ut.nfiles; i++) {
		const char *path = i < w->nfiles ? w->files[i].first.path : NULL;

		p->files[p->nfiles] = (struct watch_trace_file){ .pid = w->ut.files[i].pid,
								 .fd = w->ut.files[i].fd };
		if (path && !(p->files[p->nfiles].path = strdup(path)))
			return -ENOMEM;
		p->nfiles++;
	}
	if (!th || !th->n)
		return 0;
	p->threads = calloc(th->n, sizeof(*p->threads));
	if (!p->threads)
		return -ENOMEM;
	for (i = 0; i < th->n; i++) {
		p->threads[i].tid = th->v[i].tid;
		snprintf(p->threads[i].comm, sizeof(p->threads[i].comm), "%s", th->v[i].comm);
	}
	p->nthreads = th->n;
	return 0;
}

int watch_trace_take(struct watch_trace *t, pid_t pid, const char *comm, struct punt_watch *w,
		     const struct proc_threads *th)
{
	struct watch_trace_proc *p;
	size_t i;
	int err;

	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 4;
		void *v = realloc(t->v, cap * sizeof(*t->v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	p = &t->v[t->n++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	snprintf(p->comm, sizeof(p->comm), "%s", comm ? comm : "");
	p->spans = w->ut.spans;
	p->nspans = w->ut.nspans;
	p->dropped = w->ut.spans_dropped;
	w->ut.spans = NULL;
	w->ut.nspans = w->ut.spans_cap = 0;
	memcpy(p->op_names, w->ut.op_names, sizeof(p->op_names));
	for (i = 0; i < ARRAY_SIZE(p->op_forced); i++)
		p->op_forced[i] = uring_trace_op_always_async(&w->ut, (uint8_t)i);
	p->drain_seen = w->ut.drain_seen;
	p->t0 = w->nwindows ? w->windows[0].start : p->nspans ? p->spans[0].start : 0;
	p->seconds_watched = w->seconds_watched;
	p->seconds_sampled = w->seconds_sampled;
	p->nwindows = w->nwindows;
	err = take_names(p, w, th);
	return err;
}

static const char *path_of(const struct watch_trace_proc *p, pid_t pid, int fd)
{
	size_t i;

	if (fd < 0)
		return NULL;
	/* A file is its first looker's; the other processes of an --exec number fds alike. */
	for (i = 0; i < p->nfiles; i++)
		if (p->files[i].fd == fd && p->files[i].pid == pid)
			return p->files[i].path;
	for (i = 0; i < p->nfiles; i++)
		if (p->files[i].fd == fd && !p->files[i].pid)
			return p->files[i].path;
	return NULL;
}

static const char *op_of(const struct watch_trace_proc *p, uint8_t op, char *buf, size_t n)
{
	if (p->op_names[op][0])
		return p->op_names[op];
	snprintf(buf, n, "opcode %u", op);
	return buf;
}

/* ts and dur are microseconds; the events keep the nanoseconds as decimals. */
static void put_us(struct json_put *j, const char *key, size_t klen, uint64_t ns)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%llu.%03llu", (unsigned long long)(ns / 1000),
			 (unsigned long long)(ns % 1000));

	json_put_key(j, key, klen);
	json_put_len(j, buf, (size_t)n);
}

static void json_put_raw_key(struct json_put *j, const char *key, size_t klen, const char *v)
{
	json_put_key(j, key, klen);
	json_put_raw(j, v);
}

/* One time zero for every process: the first window of the first watched (one clock). */
static uint64_t since(uint64_t t0, uint64_t t)
{
	return t >= t0 ? t - t0 : 0;
}

static void put_sep(struct json_put *j, bool *first)
{
	if (!*first)
		json_put_raw(j, ",\n");
	*first = false;
}

static void put_name(struct json_put *j, bool *first, const char *what, pid_t pid, pid_t tid,
		     const char *name)
{
	put_sep(j, first);
	json_put_begin(j);
	json_put_literal(j, "ph", "M");
	json_put_string(j, "name", what);
	json_put_int(j, "pid", pid);
	json_put_int(j, "tid", tid);
	json_put_key(j, JSON_PUT_KEY("args"));
	json_put_begin(j);
	json_put_bytes(j, "name", name);
	json_put_end(j);
	json_put_end(j);
}

/* Each thread's name once: its comm as read, else what the spans say it is. */
static void put_threads(struct json_put *j, bool *first, const struct watch_trace_proc *p)
{
	pid_t *seen = NULL;
	size_t nseen = 0, cap = 0, i, k;
	char buf[96];

	for (i = 0; i < 3 * p->nspans; i++) {
		const struct ut_span *s = &p->spans[i / 3];
		pid_t tid = i % 3 == 2 ? s->worker : i % 3 ? s->done_tid : s->tid;
		const char *comm = NULL;

		if (!tid)
			continue;
		for (k = 0; k < nseen && seen[k] != tid; k++)
			;
		if (k < nseen)
			continue;
		xarray_grow(&seen, &cap, nseen + 1);
		seen[nseen++] = tid;
		for (k = 0; k < p->nthreads; k++)
			if (p->threads[k].tid == tid)
				comm = p->threads[k].comm;
		if (comm)
			snprintf(buf, sizeof(buf), "%s (tid %d)", comm, (int)tid);
		else if (i % 3 == 2 || (i % 3 == 1 && s->punted && tid != s->tid))
			snprintf(buf, sizeof(buf), "io-wq worker (tid %d, gone by the end)", (int)tid);
		else
			snprintf(buf, sizeof(buf), "thread %d", (int)tid);
		put_name(j, first, "thread_name", s->pid, tid, buf);
	}
	free(seen);
}

static void put_span(struct json_put *j, bool *first, const struct watch_trace_proc *p,
		     const struct ut_span *s, uint64_t id, uint64_t t0)
{
	char ob[24];
	const char *op = op_of(p, s->opcode, ob, sizeof(ob));
	const char *cat = s->punted ? "punted" : s->polled ? "polled" : "inline";
	const char *path = path_of(p, s->pid, s->fd);
	int e;

	/*
	 * Its slice, begun and ended on the submitting thread's process (async:
	 * they overlap). A request whose CQE was not seen has no end to draw: an
	 * instant on the submitter's track, with the same args.
	 */
	for (e = 0; e < 2; e++) {
		if (e && !s->completed)
			break;
		put_sep(j, first);
		json_put_begin(j);
		json_put_literal_n(j, JSON_PUT_KEY("ph"), !s->completed ? "i" : e ? "e" : "b", 1);
		if (!s->completed)
			json_put_literal(j, "s", "t");
		json_put_string(j, "name", op);
		json_put_string(j, "cat", cat);
		json_put_int(j, "id", (int64_t)id);
		json_put_int(j, "pid", s->pid);
		json_put_int(j, "tid", s->tid);
		put_us(j, JSON_PUT_KEY("ts"), since(t0, e ? s->end : s->start));
		if (!e) {
			json_put_key(j, JSON_PUT_KEY("args"));
			json_put_begin(j);
			if (s->fd >= 0)
				json_put_int(j, "fd", s->fd);
			else
				json_put_raw_key(j, JSON_PUT_KEY("fd"), "null");
			json_put_bytes(j, "file", path);
			json_put_bool(j, "registered_file", s->fixed);
			json_put_bool(j, "punted", s->punted);
			/*
			 * force_async: the tracepoint's bit as it is. iosqe_async: the
			 * application's IOSQE_ASYNC, which only that bit on an opcode
			 * the kernel does not force, on a ring without drained
			 * requests, says; null where the bit may be the kernel's.
			 */
			json_put_bool(j, "force_async", s->async);
			if (s->async && (p->op_forced[s->opcode] || p->drain_seen))
				json_put_raw_key(j, JSON_PUT_KEY("iosqe_async"), "null");
			else
				json_put_bool(j, "iosqe_async", s->async);
			json_put_bool(j, "polled", s->polled);
			json_put_bool(j, "completed", s->completed);
			if (s->completed) {
				json_put_int(j, "res", s->res);
				json_put_int(j, "completed_by", s->done_tid);
			} else {
				json_put_raw_key(j, JSON_PUT_KEY("res"), "null");
				json_put_raw_key(j, JSON_PUT_KEY("completed_by"), "null");
			}
			if (s->worker)
				json_put_int(j, "io_wq_worker", s->worker);
			else
				json_put_raw_key(j, JSON_PUT_KEY("io_wq_worker"), "null");
			if (s->completed)
				put_us(j, JSON_PUT_KEY("latency_us"), s->end - s->start);
			else
				json_put_raw_key(j, JSON_PUT_KEY("latency_us"), "null");
			json_put_end(j);
		}
		json_put_end(j);
	}
	/*
	 * Its submit on the submitter's track; the io-wq worker that ran it, when
	 * one was seen taking its file, on the worker's (one known from the CQE
	 * it posted shows there by that CQE); its CQE on the track of
	 * the thread that posted it.
	 */
	for (e = 0; e < 3; e++) {
		/* A worker known from its CQE alone has no time it took the request. */
		if ((e == 1 && (!s->worker || !s->worker_time)) || (e == 2 && !s->completed))
			continue;
		put_sep(j, first);
		json_put_begin(j);
		json_put_literal(j, "ph", "i");
		json_put_literal(j, "s", "t");
		json_put_string(j, "name", e == 2 ? "completed" : e ? "run in io-wq" : "submit");
		json_put_string(j, "cat", cat);
		json_put_int(j, "pid", s->pid);
		json_put_int(j, "tid", e == 2 ? s->done_tid : e ? s->worker : s->tid);
		put_us(j, JSON_PUT_KEY("ts"), since(t0, e == 2 ? s->end : e ? s->worker_time : s->start));
		json_put_key(j, JSON_PUT_KEY("args"));
		json_put_begin(j);
		json_put_string(j, "op", op);
		json_put_int(j, "id", (int64_t)id);
		json_put_end(j);
		json_put_end(j);
	}
}

int watch_trace_write(FILE *out, const void *data)
{
	const struct watch_trace *t = data;
	struct json_put j;
	uint64_t id = 0, spans = 0, dropped = 0, t0 = 0;
	pid_t *kids = NULL;
	size_t nkids, kids_cap = 0;
	bool first = true;
	char buf[96];
	size_t i, k;
	int err;

	for (i = 0; i < t->n; i++)
		if (t->v[i].t0 && (!t0 || t->v[i].t0 < t0))
			t0 = t->v[i].t0;
	json_put_init(&j, out);
	json_put_raw(&j, "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n");
	for (i = 0; i < t->n; i++) {
		const struct watch_trace_proc *p = &t->v[i];

		snprintf(buf, sizeof(buf), "%s (pid %d)", p->comm, (int)p->pid);
		put_name(&j, &first, "process_name", p->pid, p->pid, buf);
		/* The children of an --exec submit under their own pids: each is named once. */
		nkids = 0;
		for (k = 0; k < p->nspans; k++) {
			pid_t kid = p->spans[k].pid;
			size_t m;

			if (kid == p->pid)
				continue;
			for (m = 0; m < nkids && kids[m] != kid; m++)
				;
			if (m < nkids)
				continue;
			xarray_grow(&kids, &kids_cap, nkids + 1);
			kids[nkids++] = kid;
			snprintf(buf, sizeof(buf), "pid %d (a child of %d)", (int)kid, (int)p->pid);
			put_name(&j, &first, "process_name", kid, kid, buf);
		}
		put_threads(&j, &first, p);
		for (k = 0; k < p->nspans; k++)
			put_span(&j, &first, p, &p->spans[k], ++id, t0);
		spans += p->nspans;
		dropped += p->dropped;
		if (json_put_flush(&j))
			break;
	}
	json_put_raw(&j, "\n], \"otherData\": ");
	json_put_begin(&j);
	json_put_literal(&j, "tool", "uringlint");
	json_put_int(&j, "requests", (int64_t)spans);
	json_put_int(&j, "requests_dropped", (int64_t)dropped);
	json_put_key(&j, JSON_PUT_KEY("processes"));
	json_put_raw(&j, "[");
	for (i = 0; i < t->n; i++) {
		const struct watch_trace_proc *p = &t->v[i];
		int n;

		if (i)
			json_put_raw(&j, ", ");
		json_put_begin(&j);
		json_put_int(&j, "pid", p->pid);
		json_put_bytes(&j, "comm", p->comm);
		json_put_int(&j, "requests", (int64_t)p->nspans);
		json_put_int(&j, "requests_dropped", (int64_t)p->dropped);
		n = snprintf(buf, sizeof(buf), "%.3f", p->seconds_watched);
		json_put_key(&j, JSON_PUT_KEY("seconds_watched"));
		json_put_len(&j, buf, (size_t)n);
		n = snprintf(buf, sizeof(buf), "%.3f", p->seconds_sampled);
		json_put_key(&j, JSON_PUT_KEY("seconds_sampled"));
		json_put_len(&j, buf, (size_t)n);
		json_put_int(&j, "sampling_windows", p->nwindows);
		json_put_end(&j);
	}
	json_put_raw(&j, "]");
	json_put_end(&j);
	json_put_raw(&j, "}\n");
	err = json_put_flush(&j);
	json_put_free(&j);
	free(kids);
	return err;
}

void watch_trace_free(struct watch_trace *t)
{
	size_t i, k;

	for (i = 0; i < t->n; i++) {
		for (k = 0; k < t->v[i].nfiles; k++)
			free(t->v[i].files[k].path);
		free(t->v[i].files);
		free(t->v[i].threads);
		free(t->v[i].spans);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}
