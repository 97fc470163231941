// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace-event file of audit --trace: spans taken out of a watch, named
 * by their files and threads, written as events json-c parses back; a
 * punted request completes on the worker's track; hostile names stay JSON.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "watch.h"

static struct json_object *written(struct watch_trace *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_object *o;

	assert_non_null(f);
	assert_int_equal(watch_trace_write(f, t), 0);
	fclose(f);
	o = json_tokener_parse(buf);
	free(buf);
	assert_non_null(o);
	return o;
}

static struct json_object *event(struct json_object *o, const char *ph, const char *name, int n)
{
	struct json_object *ev = json_object_object_get(o, "traceEvents");
	size_t i;

	for (i = 0; i < json_object_array_length(ev); i++) {
		struct json_object *e = json_object_array_get_idx(ev, i);

		if (!strcmp(json_object_get_string(json_object_object_get(e, "ph")), ph) &&
		    (!name || !strcmp(json_object_get_string(json_object_object_get(e, "name")), name)) &&
		    !n--)
			return e;
	}
	return NULL;
}

static double ts_of(struct json_object *e)
{
	return json_object_get_double(json_object_object_get(e, "ts"));
}

static int64_t num(struct json_object *e, const char *k)
{
	return json_object_get_int64(json_object_object_get(e, k));
}

static void test_spans(void **state)
{
	struct punt_watch *w = calloc(1, sizeof(*w));
	struct proc_threads th = { 0 };
	struct proc_thread tv[1] = { { .tid = 101 } };
	struct watch_trace t = { 0 };
	struct json_object *o, *b, *e, *args;

	(void)state;
	snprintf(tv[0].comm, sizeof(tv[0].comm), "%s", "fio\n\xff");
	th.v = tv;
	th.n = 1;
	w->nwindows = 1;
	w->windows[0].start = 1000000;
	w->seconds_watched = 2;
	w->seconds_sampled = 2;
	snprintf(w->ut.op_names[2], sizeof(w->ut.op_names[2]), "WRITEV");
	w->ut.spans = calloc(3, sizeof(*w->ut.spans));
	w->ut.nspans = w->ut.spans_cap = 3;
	w->ut.spans[0] = (struct ut_span){ .start = 1002000, .end = 1005500, .pid = 100, .tid = 101,
					   .done_tid = 101, .worker = 150, .worker_time = 1004000,
					   .fd = 5, .res = 4096, .opcode = 2, .punted = true,
					   .async = true, .completed = true };
	w->ut.spans[1] = (struct ut_span){ .start = 1003000, .end = 1003100, .pid = 100, .tid = 101,
					   .done_tid = 101, .fd = -1, .res = -11, .opcode = 9,
					   .fixed = true, .completed = true };
	/* Punted, its CQE never seen: an instant, no slice, no end made up. */
	w->ut.spans[2] = (struct ut_span){ .start = 1004000, .pid = 100, .tid = 101, .fd = 5,
					   .opcode = 2, .punted = true };
	w->ut.files = calloc(1, sizeof(*w->ut.files));
	w->ut.files[0] = (struct ut_file){ .fd = 5, .pid = 100 };
	w->ut.nfiles = 1;
	w->files = calloc(1, sizeof(*w->files));
	w->files[0].first.path = strdup("/data/a\"b.dat");
	w->nfiles = 1;

	assert_int_equal(watch_trace_take(&t, 100, "fio", w, &th), 0);
	/* The watch gave its spans away. */
	assert_null(w->ut.spans);
	assert_int_equal(w->ut.nspans, 0);
	o = written(&t);

	b = event(o, "b", "WRITEV", 0);
	assert_non_null(b);
	e = event(o, "e", "WRITEV", 0);
	assert_non_null(e);
	assert_int_equal(num(b, "id"), num(e, "id"));
	assert_int_equal(num(b, "tid"), 101);
	/* Microseconds from the first window: 2 and 5.5. */
	assert_true(json_object_get_double(json_object_object_get(b, "ts")) == 2.0);
	assert_true(json_object_get_double(json_object_object_get(e, "ts")) == 5.5);
	assert_string_equal(json_object_get_string(json_object_object_get(b, "cat")), "punted");
	args = json_object_object_get(b, "args");
	assert_string_equal(json_object_get_string(json_object_object_get(args, "file")),
			    "/data/a\"b.dat");
	assert_int_equal(num(args, "completed_by"), 101);
	assert_int_equal(num(args, "io_wq_worker"), 150);
	assert_true(json_object_get_boolean(json_object_object_get(args, "punted")));
	/* The worker that ran it on its own track, named though /proc never listed it. */
	e = event(o, "i", "run in io-wq", 0);
	assert_non_null(e);
	assert_int_equal(num(e, "tid"), 150);
	assert_true(json_object_get_double(json_object_object_get(e, "ts")) == 4.0);
	/* Its CQE where it was posted: the submitter's task work. */
	assert_int_equal(num(event(o, "i", "completed", 0), "tid"), 101);
	/* Not punted: no worker. */
	assert_null(event(o, "i", "run in io-wq", 1));
	assert_non_null(event(o, "M", "thread_name", 1));
	assert_string_equal(json_object_get_string(json_object_object_get(
		json_object_object_get(event(o, "M", "thread_name", 1), "args"), "name")),
		"io-wq worker (tid 150, gone by the end)");
	/* The submitter's comm, not UTF-8, is kept byte for byte beside its text. */
	args = json_object_object_get(event(o, "M", "thread_name", 0), "args");
	assert_non_null(json_object_object_get(args, "name_base64"));
	/* A registered file: no fd, no file; an opcode never named is said as a number. */
	b = event(o, "b", "opcode 9", 0);
	assert_non_null(b);
	args = json_object_object_get(b, "args");
	assert_true(json_object_is_type(json_object_object_get(args, "fd"), json_type_null));
	assert_true(json_object_get_boolean(json_object_object_get(args, "registered_file")));
	assert_int_equal(num(args, "res"), -11);
	b = event(o, "i", "WRITEV", 0);
	assert_non_null(b);
	args = json_object_object_get(b, "args");
	assert_false(json_object_get_boolean(json_object_object_get(args, "completed")));
	assert_true(json_object_is_type(json_object_object_get(args, "latency_us"), json_type_null));
	assert_null(event(o, "b", "WRITEV", 1));
	assert_null(event(o, "i", "completed", 2));
	assert_int_equal(num(json_object_object_get(o, "otherData"), "requests"), 3);
	json_object_put(o);
	watch_trace_free(&t);
	punt_watch_free(w);
	free(w);
}

/* Two processes watched one after the other share one time zero; a child is named once. */
static void test_two_processes(void **state)
{
	struct watch_trace t = { 0 };
	struct json_object *o, *ev;
	size_t i, kid_names = 0;
	int k;

	(void)state;
	for (k = 0; k < 2; k++) {
		struct punt_watch *w = calloc(1, sizeof(*w));
		size_t n;

		w->nwindows = 1;
		w->windows[0].start = k ? 3000000 : 1000000;
		w->ut.spans = calloc(3, sizeof(*w->ut.spans));
		w->ut.nspans = w->ut.spans_cap = 3;
		for (n = 0; n < 3; n++)
			/* The second's spans alternate between it and a child of its own. */
			w->ut.spans[n] = (struct ut_span){
				.start = w->windows[0].start + 1000, .end = w->windows[0].start + 2000,
				.pid = k && n % 2 ? 300 : 100 + k, .tid = k && n % 2 ? 300 : 100 + k,
				.done_tid = 100 + k, .fd = -1, .opcode = 1, .completed = true };
		assert_int_equal(watch_trace_take(&t, 100 + k, "p", w, NULL), 0);
		punt_watch_free(w);
		free(w);
	}
	o = written(&t);
	/* 1 us after the first's window, and 2 ms + 1 us for the second: one timeline. */
	assert_true(ts_of(event(o, "b", NULL, 0)) == 1.0);
	assert_true(ts_of(event(o, "b", NULL, 3)) == 2001.0);
	ev = json_object_object_get(o, "traceEvents");
	for (i = 0; i < json_object_array_length(ev); i++) {
		struct json_object *e = json_object_array_get_idx(ev, i);

		kid_names += !strcmp(json_object_get_string(json_object_object_get(e, "name")),
				     "process_name") && num(e, "pid") == 300;
	}
	assert_int_equal(kid_names, 1);
	json_object_put(o);
	watch_trace_free(&t);
}

static void test_empty(void **state)
{
	struct watch_trace t = { 0 };
	struct json_object *o;

	(void)state;
	o = written(&t);
	assert_int_equal(json_object_array_length(json_object_object_get(o, "traceEvents")), 0);
	assert_int_equal(num(json_object_object_get(o, "otherData"), "requests"), 0);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spans),
		cmocka_unit_test(test_two_processes),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests_name("watch_trace", tests, NULL, NULL);
}
