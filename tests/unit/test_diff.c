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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
