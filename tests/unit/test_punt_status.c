// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one punt rule: a share over the tolerance fails only when a rate at
 * the tolerance would show that many punts less than 5% of the time.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <cmocka.h>

#include "checks.h"
#include "testutil.h"

static struct check_ctx ctx;
static struct thresholds th;

static void test_status(void **state)
{
	(void)state;
	thresholds_defaults(&th);
	ctx.th = &th;
	assert_int_equal(punt_status(&ctx, 0, 0), STATUS_PASS);
	assert_int_equal(punt_status(&ctx, 0, 1000), STATUS_PASS);
	/* Punts with no request counted: nothing to weigh them by. */
	assert_int_equal(punt_status(&ctx, 1, 0), STATUS_FAIL);
	/* Under the tolerance. */
	assert_int_equal(punt_status(&ctx, 5, 4619), STATUS_INFO);
	/* 1 of 48 (a healthy MariaDB's one punt, 2.1%): chance 38%, not shown. */
	assert_int_equal(punt_status(&ctx, 1, 48), STATUS_INFO);
	assert_int_equal(punt_status(&ctx, 2, 48), STATUS_INFO);	/* chance 8.4% */
	assert_int_equal(punt_status(&ctx, 3, 48), STATUS_FAIL);	/* chance 1.3% */
	/* A single request that punted: 1% at the tolerance. */
	assert_int_equal(punt_status(&ctx, 1, 1), STATUS_FAIL);
	/* 10 of 461 (2.2%): chance 2.0%; 20 of 120: far beyond chance. */
	assert_int_equal(punt_status(&ctx, 10, 461), STATUS_FAIL);
	assert_int_equal(punt_status(&ctx, 20, 120), STATUS_FAIL);
	/* Many requests: 1.05% of 100,000 is chance, 1.1% is not. */
	assert_int_equal(punt_status(&ctx, 1050, 100000), STATUS_INFO);
	assert_int_equal(punt_status(&ctx, 1100, 100000), STATUS_FAIL);
	/* Every request of millions punted: no overflow, no endless sum. */
	assert_int_equal(punt_status(&ctx, 50000000, 50000000), STATUS_FAIL);
	/* A tolerance of 0: any punt fails. */
	th.punt_tolerance = 0;
	assert_int_equal(punt_status(&ctx, 1, 1000000), STATUS_FAIL);
	assert_int_equal(punt_status(&ctx, 0, 1000000), STATUS_PASS);
	/* A tolerance of 1: never more than chance. */
	th.punt_tolerance = 1;
	assert_int_equal(punt_status(&ctx, 10, 10), STATUS_INFO);
}

static void test_chance(void **state)
{
	(void)state;
	thresholds_defaults(&th);
	ctx.th = &th;
	assert_true(fabs(punt_chance(&ctx, 1, 48) - (1 - exp(-0.48))) < 1e-9);
	assert_true(fabs(punt_chance(&ctx, 2, 48) - (1 - exp(-0.48) * 1.48)) < 1e-9);
	assert_true(punt_chance(&ctx, 4, 1000) == 1);	/* under the tolerance */
	assert_true(punt_chance(&ctx, 1000000, 1000000) == 0);
}

static void test_text(void **state)
{
	char buf[320];

	(void)state;
	thresholds_defaults(&th);
	ctx.th = &th;
	assert_string_equal(punt_tolerance_text(&ctx, STATUS_FAIL, 3, 48, buf, sizeof(buf)), "");
	assert_contains(punt_tolerance_text(&ctx, STATUS_INFO, 4, 1000, buf, sizeof(buf)),
			"under the punt tolerance of 1% (punt-tolerance): not off the fast path");
	assert_contains(punt_tolerance_text(&ctx, STATUS_INFO, 1, 48, buf, sizeof(buf)),
			"over the punt tolerance of 1% (punt-tolerance) by no more than chance "
			"(at 1%, 48 requests show 1 or more punts 38% of the time)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_chance),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
