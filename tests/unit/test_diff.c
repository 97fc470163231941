// SPDX-License-Identifier: GPL-2.0-or-later
/* report diff's comparison, and the strict reading of the reports it compares. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "cmd.h"
#include "diff.h"
#include "merge.h"
#include "testutil.h"

/* stderr into a buffer for the length of a case: what the one error line says. */
static FILE *saved_stderr;
static char *err_buf;
static size_t err_len;

static void err_capture(void)
{
	saved_stderr = stderr;
	stderr = open_memstream(&err_buf, &err_len);
	assert_non_null(stderr);
}

static char *err_release(void)
{
	fclose(stderr);
	stderr = saved_stderr;
	return err_buf;
}

/* A finding as uringlint writes it; evidence: the members of its evidence object. */
static char *finding(const char *id, const char *status, const char *subject, const char *evidence)
{
	char *s;

	assert_true(asprintf(&s, "{\"id\": \"%s\", \"status\": \"%s\", \"subject\": \"%s\", "
			     "\"message\": \"%s of %s\", \"evidence\": {%s}, \"fix\": %s}",
			     id, status, subject, status, subject, evidence ? evidence : "",
			     strcmp(status, "fail") ? "null" : "\"do this\"") > 0);
	return s;
}

/* A report of host with the findings (a NULL-ended list, each freed here). */
static char *report_text(const char *host, const char *kernel, ...)
{
	char *s, *list = strdup(""), *f, *next;
	va_list ap;

	va_start(ap, kernel);
	while ((f = va_arg(ap, char *))) {
		assert_true(asprintf(&next, "%s%s%s", list, list[0] ? ", " : "", f) > 0);
		free(list);
		free(f);
		list = next;
	}
	va_end(ap);
	assert_true(asprintf(&s, "{\"schema_version\": 1, \"host\": {\"hostname\": \"%s\", "
			     "\"kernel_release\": \"%s\"}, \"findings\": [%s]}", host, kernel, list) > 0);
	free(list);
	return s;
}

static struct json_object *parsed(const char *text)
{
	struct json_object *doc;

	assert_int_equal(strict_json_parse("t.json", text, strlen(text), &doc), 0);
	return doc;
}

/* One side of a diff from a report text (freed here). */
static void side_of(struct diff_side *s, const char *file, char *text)
{
	assert_int_equal(diff_side_init(s, file, parsed(text)), 0);
	free(text);
}

struct diffed {
	struct diff_side a, b;
	struct report r;
	struct diff_counts c;
	int ret;
};

/* Diffs two report texts (freed here) at --fail-on fail_on. */
static void diff_of(struct diffed *d, char *old, char *new, int fail_on)
{
	side_of(&d->a, "old.json", old);
	side_of(&d->b, "new.json", new);
	d->ret = diff_sides(&d->a, &d->b, fail_on, &d->r, &d->c);
}

static void diffed_free(struct diffed *d)
{
	report_free(&d->r);
	diff_side_free(&d->a);
	diff_side_free(&d->b);
}

static const char *change_of(const struct finding *f)
{
	struct json_object *v;

	assert_true(json_object_object_get_ex(f->evidence, "change", &v));
	return json_object_get_string(v);
}

static void test_identical(void **state)
{
	struct diffed d;

	(void)state;
	diff_of(&d, report_text("h", "6.1", finding("fd-o-direct", "warn", "pid 4 fd 3 /a", NULL),
				finding("iowq-punts", "fail", "pid 4", "\"punts\": 10"), NULL),
		report_text("h", "6.1", finding("fd-o-direct", "warn", "pid 4 fd 3 /a", NULL),
			    finding("iowq-punts", "fail", "pid 4", "\"punts\": 10"), NULL), STATUS_WARN);
	assert_int_equal(d.ret, 0);
	assert_int_equal(d.r.nfindings, 0);
	assert_int_equal(d.c.changes, 0);
	assert_int_equal(d.c.gate, 0);
	assert_int_equal(d.r.nnotes, 1);
	assert_string_equal(d.r.notes[0], "0 changes from old.json to new.json; 0 reached "
			    "--fail-on warn now and not before");
	assert_string_equal(d.r.host.hostname, "h");
	diffed_free(&d);
}

/* A restarted process: other process and thread IDs, the same findings. */
static void test_restart_same(void **state)
{
	struct diffed d;

	(void)state;
	diff_of(&d, report_text("h", "6.1", finding("fd-o-direct", "warn", "pid 4 fd 3 /a", NULL),
				finding("dstate-threads", "warn", "pid 4 tid 5", NULL), NULL),
		report_text("h", "6.1", finding("fd-o-direct", "warn", "pid 99 fd 3 /a", NULL),
			    finding("dstate-threads", "warn", "pid 99 tid 100", NULL), NULL), STATUS_WARN);
	assert_int_equal(d.r.nfindings, 0);
	diffed_free(&d);
}

static void test_appeared(void **state)
{
	struct diffed d;

	(void)state;
	diff_of(&d, report_text("h", "6.1", finding("fd-o-direct", "warn", "pid 4 fd 3 /a", NULL), NULL),
		report_text("h", "6.1", finding("fd-o-direct", "warn", "pid 4 fd 3 /a", NULL),
			    finding("fd-o-direct", "fail", "pid 4 fd 9 /b", NULL),
			    finding("fd-o-direct", "pass", "pid 4 fd 10 /c", NULL), NULL), STATUS_FAIL);
	/* A new pass is no change: only new at warn or fail. */
	assert_int_equal(d.r.nfindings, 1);
	assert_string_equal(change_of(&d.r.findings[0]), "new");
	assert_int_equal(d.r.findings[0].status, STATUS_FAIL);
	assert_string_equal(d.r.findings[0].subject, "pid 4 fd 9 /b");
	assert_string_equal(d.r.findings[0].message, "new: fail of pid 4 fd 9 /b");
	assert_string_equal(d.r.findings[0].fix, "do this");
	assert_int_equal(d.c.gate, 1);
	diffed_free(&d);
}

static void test_gone(void **state)
{
	struct diffed d;

	(void)state;
	diff_of(&d, report_text("h", "6.1", finding("fd-o-direct", "fail", "pid 4 fd 3 /a", NULL),
				finding("fd-o-direct", "info", "pid 4 fd 4 /i", NULL),
				finding("iowq-punts", "warn", "pid 4", NULL), NULL),
		report_text("h", "6.1", NULL), STATUS_WARN);
	/* Gone in the order of the old report; a gone info is no change. */
	assert_int_equal(d.r.nfindings, 2);
	assert_string_equal(change_of(&d.r.findings[0]), "gone");
	assert_string_equal(d.r.findings[0].subject, "pid 4 fd 3 /a");
	assert_int_equal(d.r.findings[0].status, STATUS_PASS);
	assert_string_equal(d.r.findings[1].check->id, "iowq-punts");
	assert_int_equal(d.c.changes, 2);
	assert_int_equal(d.c.gate, 0);
	diffed_free(&d);
}

static void test_status_changed(void **state)
{
	struct diffed d;
	struct json_object *v;

	(void)state;
	diff_of(&d, report_text("h", "6.1", finding("fd-o-direct", "warn", "pid 4 fd 3 /a", NULL),
				finding("fd-o-direct", "fail", "pid 4 fd 4 /b", NULL),
				finding("fd-o-direct", "fail", "pid 4 fd 5 /c", NULL),
				finding("iowq-punts", "warn", "pid 4", "\"punts\": 10, \"requests\": 20"), NULL),
		report_text("h", "6.2", finding("fd-o-direct", "fail", "pid 8 fd 3 /a", NULL),
			    finding("fd-o-direct", "pass", "pid 8 fd 4 /b", NULL),
			    finding("fd-o-direct", "warn", "pid 8 fd 5 /c", NULL),
			    finding("iowq-punts", "warn", "pid 8", "\"punts\": 3000, \"requests\": 20"), NULL),
		STATUS_FAIL);
	assert_int_equal(d.r.nfindings, 4);
	assert_string_equal(change_of(&d.r.findings[0]), "worse");
	assert_string_equal(d.r.findings[0].message, "worse (was warn): fail of pid 8 fd 3 /a");
	assert_string_equal(change_of(&d.r.findings[1]), "fixed");
	assert_int_equal(d.r.findings[1].status, STATUS_PASS);
	assert_string_equal(change_of(&d.r.findings[2]), "better");
	assert_string_equal(change_of(&d.r.findings[3]), "changed");
	assert_string_equal(d.r.findings[3].message, "punts 10 -> 3000 (warn): warn of pid 8");
	assert_true(json_object_object_get_ex(d.r.findings[3].evidence, "values", &v));
	assert_string_equal(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN),
			    "{\"punts\":[10,3000]}");
	assert_string_equal(d.r.notes[0], "kernel 6.1 -> 6.2");
	/* Only the warn that became a fail reached --fail-on fail anew. */
	assert_int_equal(d.c.gate, 1);
	diffed_free(&d);
}

/* Two processes alike share a key: the first of the worst status stands for it. */
static void test_duplicate_keys(void **state)
{
	struct diffed d;

	(void)state;
	diff_of(&d, report_text("h", "6.1", finding("fd-o-direct", "warn", "pid 1 fd 3 /a", NULL),
				finding("fd-o-direct", "fail", "pid 2 fd 3 /a", NULL),
				finding("fd-o-direct", "fail", "pid 3 fd 3 /a", NULL), NULL),
		report_text("h", "6.1", finding("fd-o-direct", "pass", "pid 7 fd 3 /a", NULL),
			    finding("fd-o-direct", "warn", "pid 8 fd 3 /a", NULL),
			    finding("fd-o-direct", "warn", "pid 9 fd 3 /a", NULL), NULL), STATUS_WARN);
	assert_int_equal(d.r.nfindings, 1);
	assert_string_equal(change_of(&d.r.findings[0]), "better");
	assert_string_equal(d.r.findings[0].message, "better (was fail): warn of pid 8 fd 3 /a");
	assert_string_equal(d.r.findings[0].subject, "pid 8 fd 3 /a");
	assert_int_equal(d.c.changes, 1);
	diffed_free(&d);
}

static void test_empty(void **state)
{
	struct diffed d;

	(void)state;
	diff_of(&d, report_text("h", "6.1", NULL), report_text("h", "6.1", NULL), STATUS_WARN);
	assert_int_equal(d.ret, 0);
	assert_int_equal(d.r.nfindings, 0);
	assert_int_equal(d.c.changes, 0);
	diffed_free(&d);
	diff_of(&d, report_text("h", "6.1", NULL),
		report_text("h", "6.1", finding("no-such-check", "fail", "x", NULL),
			    finding("iowq-punts", "fail", "pid 1", NULL), NULL), -1);
	assert_int_equal(d.r.nfindings, 1);
	assert_int_equal(d.c.unknown, 1);
	assert_int_equal(d.c.gate, 0);	/* --fail-on never */
	assert_string_equal(d.r.notes[0], "1 changes of checks this uringlint does not know were left out");
	diffed_free(&d);
}

/* A finding of process pid, as uringlint writes one. */
static char *pfinding(int pid, const char *id, const char *status, const char *subject,
		      const char *evidence)
{
	char *f = finding(id, status, subject, evidence), *s;

	assert_true(asprintf(&s, "{\"pid\": %d, %s", pid, f + 1) > 0);
	free(f);
	return s;
}

/* text (a report, freed here) with processes, a JSON array's members. */
static char *with_procs(char *text, const char *procs)
{
	char *s;

	text[strlen(text) - 1] = '\0';
	assert_true(asprintf(&s, "%s, \"processes\": [%s]}", text, procs) > 0);
	free(text);
	return s;
}

static const char *ev_json(const struct finding *f, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(f->evidence, key, &v))
		return "absent";
	return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
}

/* f is a change of its kind, of the process of that identity (JSON, quoted). */
static void expect_change(const struct finding *f, const char *change, const char *process)
{
	assert_string_equal(change_of(f), change);
	assert_string_equal(ev_json(f, "process"), process);
}

#define FIO_UNIT "{\"pid\": %d, \"comm\": \"fio\", \"unit\": {\"name\": \"%s\"}, \"container\": null}"

/* A process object of pid in unit. */
static char *proc_in(int pid, const char *unit)
{
	char *s;

	assert_true(asprintf(&s, FIO_UNIT, pid, unit) > 0);
	return s;
}

/* The side of a diff, old or new, of one process of unit: its iowq-punts and a buffered file. */
static char *unit_report(int pid, const char *unit, const char *punts, const char *status)
{
	char *subj, *file, *p = proc_in(pid, unit), *r;

	assert_true(asprintf(&subj, "pid %d", pid) > 0);
	assert_true(asprintf(&file, "pid %d fd %d /data/x", pid, pid % 7) > 0);
	r = with_procs(report_text("h", "6.18", pfinding(pid, "iowq-punts", status, subj, punts),
				   pfinding(pid, "fd-o-direct", status, file, NULL), NULL), p);
	free(subj);
	free(file);
	free(p);
	return r;
}

#define PUNTING "\"punts\": 200, \"submitted\": 200, \"punt_share\": 1.0, \"seconds_watched\": 2.0"
#define CLEAN "\"punts\": 0, \"seconds_watched\": 2.0"

/* A service restarted with a fix: a new pid in the same unit is the same process, its punts measured. */
static void test_same_unit_new_pid(void **state)
{
	struct json_object *procs, *p;
	struct diffed d;

	(void)state;
	diff_of(&d, unit_report(40, "db.service", PUNTING, "fail"),
		unit_report(93, "db.service", CLEAN, "pass"), STATUS_WARN);
	assert_int_equal(d.r.nfindings, 2);
	expect_change(&d.r.findings[0], "fixed", "\"unit db.service\"");
	assert_string_equal(d.r.findings[0].check->id, "iowq-punts");
	assert_string_equal(ev_json(&d.r.findings[0], "old_pid"), "40");
	assert_string_equal(ev_json(&d.r.findings[0], "new_pid"), "93");
	assert_string_equal(ev_json(&d.r.findings[0], "punt_share"), "[1.0,0.0]");
	assert_string_equal(ev_json(&d.r.findings[0], "punt_rate"), "[100.0,0.0]");
	/* The file, at another fd in the new process, is the same file. */
	assert_string_equal(change_of(&d.r.findings[1]), "fixed");
	assert_string_equal(d.r.findings[1].subject, "pid 93 fd 2 /data/x");
	assert_int_equal(d.c.gate, 0);
	assert_non_null(d.r.diff);
	assert_true(json_object_object_get_ex(d.r.diff, "processes", &procs));
	assert_int_equal(json_object_array_length(procs), 1);
	p = json_object_array_get_idx(procs, 0);
	assert_string_equal(json_object_to_json_string_ext(p, JSON_C_TO_STRING_PLAIN),
			    "{\"identity\":\"unit db.service\",\"change\":\"matched\",\"old_pid\":40,"
			    "\"new_pid\":93,\"iowq-punts\":{\"status\":[\"fail\",\"pass\"],"
			    "\"punt_share\":[1.0,0.0],\"punt_rate\":[100.0,0.0]}}");
	assert_string_equal(d.r.notes[0], "matched process: unit db.service, pid 40 -> 93; "
			    "iowq-punts fail -> pass, punts 100% -> 0% of requests, 100/s -> 0/s");
	diffed_free(&d);

	/* The other way, a deploy that brought the punts: a new problem, the gate's. */
	diff_of(&d, unit_report(93, "db.service", CLEAN, "pass"),
		unit_report(40, "db.service", PUNTING, "fail"), STATUS_WARN);
	assert_string_equal(change_of(&d.r.findings[0]), "worse");
	assert_string_equal(ev_json(&d.r.findings[0], "punt_share"), "[0.0,1.0]");
	assert_int_equal(d.c.gate, 2);
	diffed_free(&d);
}

/* One command line in two units is two services: never matched, one gone and one appeared. */
static void test_same_command_other_unit(void **state)
{
	struct json_object *procs;
	struct diffed d;

	(void)state;
	diff_of(&d, unit_report(40, "a.service", PUNTING, "fail"),
		unit_report(40, "b.service", PUNTING, "fail"), STATUS_WARN);
	assert_int_equal(d.r.nfindings, 4);
	expect_change(&d.r.findings[0], "new", "\"unit b.service\"");
	expect_change(&d.r.findings[2], "gone", "\"unit a.service\"");
	assert_int_equal(d.c.gate, 2);
	assert_true(json_object_object_get_ex(d.r.diff, "processes", &procs));
	assert_int_equal(json_object_array_length(procs), 2);
	assert_string_equal(d.r.notes[0], "appeared process: unit b.service, pid 40; "
			    "iowq-punts none -> fail, punts ? -> 100% of requests, ? -> 100/s");
	assert_string_equal(d.r.notes[1], "gone process: unit a.service, pid 40; "
			    "iowq-punts fail -> none, punts 100% -> ? of requests, 100/s -> ?");
	diffed_free(&d);
}

/* A warn that became a fail is worse: the gate's at --fail-on warn, though it warned before. */
static void test_worse_gates(void **state)
{
	struct diffed d;

	(void)state;
	diff_of(&d, unit_report(40, "db.service", PUNTING, "warn"),
		unit_report(41, "db.service", PUNTING, "fail"), STATUS_WARN);
	assert_int_equal(d.r.nfindings, 2);
	assert_string_equal(change_of(&d.r.findings[0]), "worse");
	assert_int_equal(d.c.gate, 2);
	diffed_free(&d);
}

static void test_subject_norm(void **state)
{
	static const char *const cases[][2] = {
		{ "pid 123 fd 7 /path", "/path" },
		{ "pid 123 tid 9", "" },
		{ "pid 1 ring fd 5", "ring" },
		{ "pid 12 fd 3 /srv/fd 9x", "/srv/fd 9x" },
		{ "pid 5: 2 rings", "2 rings" },
		{ "host", "host" },
		{ "pidfile 12", "pidfile 12" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *k = diff_subject_norm(cases[i][0]);

		assert_string_equal(k, cases[i][1]);
		free(k);
	}
}

static void test_process_identity(void **state)
{
	static const char *const cases[][2] = {
		{ "{\"pid\": 4, \"comm\": \"fio\", \"unit\": {\"name\": \"a.service\"}, \"container\": "
		  "{\"id\": \"abc\"}}", "unit a.service" },
		{ "{\"pid\": 4, \"comm\": \"fio\", \"unit\": null, \"container\": {\"id\": null, "
		  "\"name\": \"web\"}}", "container web" },
		{ "{\"pid\": 4, \"comm\": \"fio\", \"unit\": null, \"container\": null}", "command fio" },
		{ "{\"pid\": 4, \"comm\": null}", "pid 4" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct json_object *p = parsed(cases[i][0]);
		char *id = diff_process_identity(p);

		assert_string_equal(id, cases[i][1]);
		free(id);
		json_object_put(p);
	}
}

/* One strict JSON refusal: exit 2 and one line that names the file, the fault and its byte. */
static void expect_refused(const char *text, const char *why)
{
	struct json_object *doc = (struct json_object *)1;
	char *err;

	err_capture();
	assert_int_equal(strict_json_parse("r.json", text, strlen(text), &doc), EXIT_USAGE);
	err = err_release();
	assert_null(doc);
	assert_contains(err, "uringlint: 'r.json' is not JSON: ");
	assert_contains(err, why);
	assert_contains(err, " at byte ");
	assert_ptr_equal(strchr(err, '\n'), strstr(err, "\nTry 'uringlint --help'\n"));
	free(err);
}

static void test_strict_json(void **state)
{
	struct json_object *doc;

	(void)state;
	expect_refused("{\"a\": 1} x", "data after the JSON value at byte 9");
	expect_refused("{\"a\": 1}{}", "data after the JSON value at byte 8");
	expect_refused("{\"a\": NaN}", "NaN or Infinity");
	expect_refused("{\"a\": [Infinity]}", "NaN or Infinity");
	expect_refused("{\"a\": -Infinity}", "NaN or Infinity");
	expect_refused("{\"a\": 1e999}", "beyond a double's range at byte 6");
	expect_refused("{\"a\": -1.5E+400}", "beyond a double's range");
	expect_refused("{\"a\": 1.}", "without digits after its point");
	expect_refused("{'a': 1}", "single-quoted");
	expect_refused("{\"a\": 1,}", "unexpected character");
	expect_refused("{\"a\": 1} // c", "data after the JSON value");
	expect_refused("", "unexpected end of data at byte 0");
	/* What JSON allows passes: whitespace after, big and small doubles, escapes. */
	doc = parsed(" {\"a\": [1e300, -2.5E-300, 0, -0.0, \"N\\\"I\\u0041\"], \"b\": null}\r\n\t ");
	json_object_put(doc);
	/* Raw controls and bytes that are not UTF-8 pass: a host name may hold them. */
	doc = parsed("{\"hostname\": \"vm\xff\033[2J\"}");
	json_object_put(doc);
	/* A NUL after the value is data after it. */
	err_capture();
	assert_int_equal(strict_json_parse("r.json", "{}\0x", 4, &doc), EXIT_USAGE);
	free(err_release());
}

/* A huge host name with a terminal escape is cut and escaped in the error line, and cut in the output. */
static void test_long_hostname(void **state)
{
	size_t n = 100000;
	char *host = malloc(n + 1), *err;
	struct diffed d;

	(void)state;
	memset(host, 'A', n);
	memcpy(host, "h\\u001b[31m", 11);
	host[n] = '\0';
	side_of(&d.a, "old.json", report_text(host, "6.1", NULL));
	side_of(&d.b, "new.json", report_text("other", "6.1", NULL));
	err_capture();
	assert_int_equal(diff_sides(&d.a, &d.b, STATUS_WARN, &d.r, &d.c), EXIT_USAGE);
	err = err_release();
	assert_true(strlen(err) < 600);
	assert_null(strchr(err, '\033'));
	assert_contains(err, "of host 'h\\e[31mAAA");
	assert_contains(err, "AAA...', 'new.json' of host 'other'");
	free(err);
	diffed_free(&d);

	side_of(&d.a, "old.json", report_text(host, "6.1", NULL));
	side_of(&d.b, "new.json", report_text(host, "6.1", NULL));
	assert_int_equal(diff_sides(&d.a, &d.b, STATUS_WARN, &d.r, &d.c), 0);
	assert_int_equal(strlen(d.r.host.hostname), sizeof(d.r.host.hostname) - 1);
	assert_contains(d.r.host.hostname, "AAA...");
	diffed_free(&d);
	free(host);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identical),
		cmocka_unit_test(test_restart_same),
		cmocka_unit_test(test_appeared),
		cmocka_unit_test(test_gone),
		cmocka_unit_test(test_status_changed),
		cmocka_unit_test(test_duplicate_keys),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_strict_json),
		cmocka_unit_test(test_long_hostname),
		cmocka_unit_test(test_same_unit_new_pid),
		cmocka_unit_test(test_same_command_other_unit),
		cmocka_unit_test(test_worse_gates),
		cmocka_unit_test(test_subject_norm),
		cmocka_unit_test(test_process_identity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
