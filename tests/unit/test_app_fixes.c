// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "apps.h"
#include "testutil.h"

/* The compiled-in table is the file, and every row of it is complete. */
static void test_builtin_table(void **state)
{
	struct app_fixes t;
	char *file = slurp("lib/apps/app_fixes.tbl");
	size_t i, j;

	(void)state;
	assert_string_equal(app_fixes_builtin_text(), file);
	free(file);
	assert_int_equal(app_fixes_builtin(&t), 0);
	assert_true(t.n_apps >= 5);
	assert_true(t.n_fixes >= 10);
	for (i = 0; i < t.n_apps; i++) {
		const struct app_entry *a = &t.apps[i];

		assert_non_null(a->reference);
		assert_true(strlen(a->reference) > 8);
		assert_true(a->n_match > 0);
		assert_true(strlen(a->name) > 0);
		for (j = 0; j < a->n_match; j++)
			assert_true(strlen(a->match[j].pattern) > 0);
	}
	for (i = 0; i < t.n_fixes; i++) {
		const struct app_fix *f = &t.fixes[i];

		assert_true(f->app < t.n_apps);
		assert_true(strlen(f->reference) > 8);
		assert_true(strlen(f->setting) > 8);
		assert_true(!strncmp(f->verified, "run:", 4) || !strncmp(f->verified, "docs:", 5));
	}
	app_fixes_free(&t);
}

static void test_kinds(void **state)
{
	int k;

	(void)state;
	for (k = 0; k < APP_FIX_KINDS; k++)
		assert_int_equal(app_fix_kind_from_name(app_fix_kind_name((enum app_fix_kind)k)), k);
	assert_int_equal(app_fix_kind_from_name("buffered"), APP_FIX_BUFFERED);
	assert_int_equal(app_fix_kind_from_name("Buffered"), -1);
	assert_int_equal(app_fix_kind_from_name(""), -1);
	assert_string_equal(app_fix_kind_check(APP_FIX_BUFFERED), "fd-o-direct");
	assert_string_equal(app_fix_kind_check(APP_FIX_APPEND), "fd-append");
	assert_string_equal(app_fix_kind_check(APP_FIX_FORCE_ASYNC), "iowq-punts");
	assert_null(app_fix_kind_check(APP_FIX_NO_URING));
	assert_null(app_fix_kind_name(APP_FIX_KINDS));
}

/* What a check would ask about the processes the e2e harness starts. */
static void test_builtin_match_and_find(void **state)
{
	struct app_fixes t;
	const struct app_entry *a;
	const struct app_fix *f;

	(void)state;
	assert_int_equal(app_fixes_builtin(&t), 0);
	a = app_fixes_match(&t, "mariadbd", NULL, NULL, 0);
	assert_non_null(a);
	assert_string_equal(a->id, "mariadb");
	assert_ptr_equal(app_fixes_match(&t, "something", "/usr/sbin/mariadbd", NULL, 0), a);
	f = app_fixes_find(&t, a, APP_FIX_BUFFERED);
	assert_non_null(f);
	assert_contains(f->setting, "innodb_flush_method=O_DIRECT");
	assert_contains(f->reference, "https://");
	assert_string_equal(f->tested, "tests/e2e/fixes.sh: fix applied: mariadb buffered");
	/* No test applies MariaDB's memlock setting: its fix has no Tested. */
	assert_null(app_fixes_find(&t, a, APP_FIX_MEMLOCK)->tested);
	assert_non_null(app_fixes_find(&t, a, APP_FIX_MEMLOCK));
	assert_null(app_fixes_find(&t, a, APP_FIX_FORCE_ASYNC));
	assert_true(app_entry_uses_uring(a, "/srv/db/ibdata1"));
	assert_true(app_entry_uses_uring(a, "/srv/db/shop/orders.ibd"));
	assert_false(app_entry_uses_uring(a, "/srv/db/ib_logfile0"));
	assert_true(app_entry_writes_plain(a, "/srv/db/ib_logfile0"));
	assert_false(app_entry_writes_plain(a, "/srv/db/ibdata1"));

	/* comm is cut to 15 bytes by the kernel: the glob still takes it. */
	a = app_fixes_match(&t, "qemu-system-x86", NULL, NULL, 0);
	assert_non_null(a);
	assert_string_equal(a->id, "qemu-system");
	assert_contains(app_fixes_find(&t, a, APP_FIX_BUFFERED)->setting, "cache=none");
	a = app_fixes_match(&t, NULL, "/usr/bin/qemu-nbd", NULL, 0);
	assert_non_null(a);
	assert_string_equal(a->id, "qemu-nbd");
	assert_contains(app_fixes_find(&t, a, APP_FIX_NO_URING)->setting, "--aio=io_uring");
	a = app_fixes_match(&t, "fio", NULL, NULL, 0);
	assert_non_null(a);
	assert_contains(app_fixes_find(&t, a, APP_FIX_FORCE_ASYNC)->setting, "force_async");
	assert_null(app_fixes_match(&t, "bash", "/usr/bin/bash", NULL, 0));
	assert_null(app_fixes_match(&t, NULL, NULL, NULL, 0));
	assert_null(app_fixes_find(&t, NULL, APP_FIX_BUFFERED));
	app_fixes_free(&t);
}

static const char small[] =
	"# a comment before anything\n"
	"App: db\n"
	"Name: A database\n"
	"Match: comm:dbd lib:libdb.so.*\n"
	"Uring: *.dat\n"
	"Reference: https://example.org/db\n"
	"\n"
	"Fix: db buffered\n"
	"# a comment inside a record\n"
	"Setting: direct_io=on,\n"
	"  the default\r\n"
	"\tfrom 2.0\n"
	"Verified: docs: the manual\n"
	"Reference: https://example.org/db#direct\n"
	"\n"
	"\n"
	"Fix: db memlock\n"
	"Setting: LimitMEMLOCK=\n"
	"Verified: run: here\n"
	"Reference: https://example.org/db#memlock";	/* no newline at the end */

static void test_parse_small(void **state)
{
	struct app_fixes t;
	const char *libs[] = { "/usr/lib/x86_64-linux-gnu/libc.so.6", "/opt/db/lib/libdb.so.3" };
	char err[200];

	(void)state;
	assert_int_equal(app_fixes_parse(small, strlen(small), &t, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(t.n_apps, 1);
	assert_int_equal(t.n_fixes, 2);
	assert_int_equal(t.apps[0].line, 2);
	assert_int_equal(t.apps[0].n_match, 2);
	assert_int_equal(t.apps[0].match[1].what, APP_MATCH_LIB);
	assert_null(t.apps[0].note);
	assert_int_equal(t.apps[0].n_plain, 0);
	/* Continuations join with one space; CR and blanks are trimmed. */
	assert_string_equal(t.fixes[0].setting, "direct_io=on, the default from 2.0");
	assert_int_equal(t.fixes[0].line, 8);
	assert_int_equal(t.fixes[1].kind, APP_FIX_MEMLOCK);
	assert_string_equal(t.fixes[1].reference, "https://example.org/db#memlock");
	assert_ptr_equal(app_fixes_match(&t, "other", NULL, libs, 2), &t.apps[0]);
	assert_null(app_fixes_match(&t, "other", NULL, libs, 1));
	app_fixes_free(&t);

	assert_int_equal(app_fixes_parse("", 0, &t, err, sizeof(err)), 0);
	assert_int_equal(t.n_apps + t.n_fixes, 0);
	assert_int_equal(app_fixes_parse("\n# only\n\n", 9, &t, NULL, 0), 0);
	app_fixes_free(&t);
}

static const char app_ok[] = "App: db\nName: D\nMatch: comm:dbd\nReference: r://x\n\n";

/* TEXT fails to parse, saying WHAT at LINE. */
static void expect_error(const char *text, size_t len, unsigned int line, const char *what)
{
	struct app_fixes t;
	char err[300], at[32];

	assert_int_equal(app_fixes_parse(text, len, &t, err, sizeof(err)), -EINVAL);
	snprintf(at, sizeof(at), "line %u: ", line);
	if (strncmp(err, at, strlen(at)) || !strstr(err, what))
		fail_msg("wanted '%s%s', got '%s'", at, what, err);
	assert_null(t.apps);
	assert_null(t.fixes);
}

#define EXPECT_ERROR(lit, line, what) expect_error((lit), sizeof(lit) - 1, (line), (what))

static void expect_error_after_app(const char *rest, unsigned int line, const char *what)
{
	char text[1024];

	snprintf(text, sizeof(text), "%s%s", app_ok, rest);
	expect_error(text, strlen(text), line, what);
}

static void test_parse_errors(void **state)
{
	(void)state;
	EXPECT_ERROR("Name: x\n", 1, "starts with App: or Fix:");
	EXPECT_ERROR("App: db\nColour: red\n", 2, "unknown key 'Colour'");
	EXPECT_ERROR("  stray\n", 1, "continuation line");
	EXPECT_ERROR("App: db\nno colon here\n", 2, "not \"Key: value\"");
	EXPECT_ERROR("App: db\nName: D\nMatch: comm:dbd\n", 1, "App record lacks Reference:");
	EXPECT_ERROR("App: DB\nName: D\nMatch: comm:dbd\nReference: r\n", 1, "App id 'DB'");
	EXPECT_ERROR("App: db\nName: D\nMatch: dbd\nReference: r\n", 1, "match rule 'dbd'");
	EXPECT_ERROR("App: db\nName: D\nMatch: comm:\nReference: r\n", 1, "match rule 'comm:'");
	EXPECT_ERROR("App: db\nName: D\nName: E\n", 3, "Name: given twice");
	EXPECT_ERROR("App: db\nSetting: x\n", 2, "Setting: does not belong in an App record");
	EXPECT_ERROR("App: db\nName: \0\n", 2, "NUL byte");
	expect_error_after_app("App: db\nName: D\nMatch: exe:d\nReference: r\n", 6, "defined twice (first at line 1)");
	expect_error_after_app("Fix: db buffered\nSetting: s\nVerified: run: x\n", 6, "Fix record lacks Reference:");
	expect_error_after_app("Fix: db buffered\nSetting: s\nVerified: trust me\nReference: r\n", 6,
			       "Verified must start with");
	expect_error_after_app("Fix: db faster\nSetting: s\nVerified: run: x\nReference: r\n", 6,
			       "unknown kind 'faster'");
	/* Tested names an e2e case: "tests/e2e/SUITE.sh: CASE", nothing vaguer. */
	expect_error_after_app("Fix: db buffered\nSetting: s\nVerified: run: x\nTested: by hand\n"
			       "Reference: r\n", 6, "Tested must be");
	expect_error_after_app("Fix: db buffered\nSetting: s\nVerified: run: x\nTested: "
			       "tests/e2e/fixes.sh\nReference: r\n", 6, "Tested must be");
	expect_error_after_app("Fix: db\nSetting: s\nVerified: run: x\nReference: r\n", 6, "not APP-ID KIND");
	expect_error_after_app("Fix: other buffered\nSetting: s\nVerified: run: x\nReference: r\n", 6,
			       "'other', which no App record defines");
	expect_error_after_app("Fix: db append\nSetting: s\nVerified: run: x\nReference: r\n\n"
			       "Fix: db append\nSetting: t\nVerified: docs: y\nReference: r\n", 11,
			       "a second Fix db append (first at line 6)");
	expect_error_after_app("Fix: db append\nMatch: comm:x\n", 7, "Match: does not belong in a Fix record");
}

/* A Fix may come before its App. */
static void test_fix_before_app(void **state)
{
	static const char text[] = "Fix: db sparse\nSetting: s\nVerified: run: x\nReference: r\n\n"
				   "App: db\nName: D\nMatch: comm:dbd\nReference: r\n";
	struct app_fixes t;

	(void)state;
	assert_int_equal(app_fixes_parse(text, strlen(text), &t, NULL, 0), 0);
	assert_non_null(app_fixes_find(&t, app_fixes_match(&t, "dbd", NULL, NULL, 0), APP_FIX_SPARSE));
	app_fixes_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_table),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_builtin_match_and_find),
		cmocka_unit_test(test_parse_small),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_fix_before_app),
	};

	return cmocka_run_group_tests_name("app_fixes", tests, NULL, NULL);
}
