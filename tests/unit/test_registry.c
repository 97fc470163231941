// SPDX-License-Identifier: GPL-2.0-or-later
/* The table is the contract behind `checks`, `explain` and the report. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "array.h"
#include "checks.h"
#include "testutil.h"

static bool kebab_case(const char *s)
{
	const char *p;

	if (!*s || *s == '-' || s[strlen(s) - 1] == '-')
		return false;
	for (p = s; *p; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
			return false;
		if (p[0] == '-' && p[1] == '-')
			return false;
	}
	return true;
}

static void test_ids_unique_and_kebab(void **state)
{
	size_t i, j;

	(void)state;
	assert_true(check_table_len > 0);
	for (i = 0; i < check_table_len; i++) {
		assert_true(kebab_case(check_table[i].info.id));
		for (j = i + 1; j < check_table_len; j++)
			assert_string_not_equal(check_table[i].info.id, check_table[j].info.id);
		assert_ptr_equal(check_find(check_table[i].info.id), &check_table[i]);
	}
	assert_false(kebab_case("Kernel_version"));
	assert_false(kebab_case("a--b"));
	assert_null(check_find("nosuch"));
}

static void test_every_row_complete(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < check_table_len; i++) {
		const struct check *c = &check_table[i];
		bool category_known = false;

		assert_non_null(c->info.title);
		assert_true(strlen(c->info.title) > 10);
		assert_non_null(c->run);
		assert_non_null(c->info.looks_at);
		assert_non_null(c->info.why);
		assert_non_null(c->info.reference);
		assert_true(!strncmp(c->info.reference, "https://", 8));
		if (c->info.severity >= SEVERITY_MEDIUM)
			assert_true(c->info.fix && strlen(c->info.fix) > 10);
		for (j = 0; j < check_categories_len; j++)
			if (!strcmp(check_categories[j].id, c->info.category))
				category_known = true;
		assert_true(category_known);
	}
}

/*
 * docs/kernel-facts.md, section 7, lists errors popular articles make;
 * explain texts must not repeat them.
 */
static void test_no_known_article_errors(void **state)
{
	static const char *const wrong[] = {
		"no memlock after 5.12",
		"setup_sqpoll(0) disables",
		"SQPOLL thread belongs to the io-wq",
		"never use linked SQEs with SQPOLL",
	};
	size_t i, j;

	(void)state;
	for (i = 0; i < check_table_len; i++)
		for (j = 0; j < ARRAY_SIZE(wrong); j++) {
			assert_null(strcasestr(check_table[i].info.why, wrong[j]));
			assert_null(strcasestr(check_table[i].info.fix ? check_table[i].info.fix : "", wrong[j]));
		}
}

static void test_policy_validation(void **state)
{
	struct check_policy ok = { .only = "kernel-version,memlock-limit", .skip = NULL };
	struct check_policy bad = { .only = NULL, .skip = "kernel-version,nosuch" };
	struct check_policy none = { .only = " , ", .skip = NULL };
	char *which;

	(void)state;
	assert_int_equal(check_policy_validate(&ok, &which), 0);
	assert_null(which);
	assert_int_equal(check_policy_validate(&bad, &which), -EINVAL);
	assert_string_equal(which, "nosuch");
	free(which);
	/* A list given that names nothing would run nothing and pass. */
	assert_int_equal(check_policy_validate(&none, &which), -ENODATA);
	assert_null(which);
	none.only = NULL;
	none.skip = "";
	assert_int_equal(check_policy_validate(&none, &which), -ENODATA);
	assert_true(check_policy_selects(&ok, "memlock-limit"));
	assert_false(check_policy_selects(&ok, "fs-type"));
	assert_false(check_policy_selects(&bad, "kernel-version"));
	assert_true(check_policy_selects(&bad, "fs-type"));
}

/* The live tries follow the selected checks' rows: none when none of them needs one. */
static void test_policy_tries(void **state)
{
	const struct check_policy all = { 0 };
	const struct check_policy fs = { .only = "fs-type,memlock-limit" };
	const struct check_policy align = { .only = "dio-alignment" };
	const struct check_policy no_try = { .skip = "io-uring-features,fs-o-direct,dio-alignment,"
						      "irqbalance,sqpoll-cpu-irqs,net-irq-placement" };
	const struct check_policy irqb = { .only = "net-irq-placement" };
	size_t i, verdicts = 0;

	(void)state;
	assert_int_equal(check_policy_tries(&all),
			 CHECK_TRY_FEATURES | CHECK_TRY_ODIRECT | CHECK_READ_PROCESSES);
	assert_int_equal(check_policy_tries(&fs), 0);
	assert_int_equal(check_policy_tries(&align), CHECK_TRY_ODIRECT);
	assert_int_equal(check_policy_tries(&no_try), 0);
	assert_int_equal(check_policy_tries(&irqb), CHECK_READ_PROCESSES);
	/* Only host checks read every process: an audit's checks never ask for it. */
	for (i = 0; i < check_table_len; i++)
		if (check_table[i].tries & CHECK_READ_PROCESSES)
			assert_int_equal(check_table[i].scope, SCOPE_HOST);
	/* One probe verdict, and it is a probe check. */
	for (i = 0; i < check_table_len; i++)
		if (check_table[i].flags & CHECK_PROBE_VERDICT) {
			assert_int_equal(check_table[i].scope, SCOPE_PROBE);
			verdicts++;
		}
	assert_int_equal(verdicts, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids_unique_and_kebab),
		cmocka_unit_test(test_every_row_complete),
		cmocka_unit_test(test_no_known_article_errors),
		cmocka_unit_test(test_policy_validation),
		cmocka_unit_test(test_policy_tries),
	};

	return cmocka_run_group_tests_name("registry", tests, NULL, NULL);
}
