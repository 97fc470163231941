// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The watch's time series: each sampled submit and punt in its 100 ms
 * bucket from the watch's start, nothing before it or of another event,
 * and the share of each bucket the sampling windows covered.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "watch.h"

#define MS 1000000ull

static void test_buckets(void **state)
{
	struct watch_series s;

	(void)state;
	watch_series_begin(&s, 1000 * MS);
	watch_series_add(&s, UT_SUBMIT, 999 * MS);		/* before the start: not counted */
	watch_series_add(&s, UT_SUBMIT, 1000 * MS);
	watch_series_add(&s, UT_SUBMIT, 1099 * MS);
	watch_series_add(&s, UT_PUNT, 1099 * MS);
	watch_series_add(&s, UT_COMPLETE, 1050 * MS);		/* not a request or a punt */
	watch_series_add(&s, UT_SUBMIT, 1100 * MS);		/* the second bucket */
	watch_series_add(&s, UT_PUNT, 3050 * MS);		/* bucket 20: the ones between empty */
	assert_int_equal(s.n, 21);
	assert_int_equal(s.reqs[0], 2);
	assert_int_equal(s.punts[0], 1);
	assert_int_equal(s.reqs[1], 1);
	assert_int_equal(s.reqs[10], 0);
	assert_int_equal(s.punts[20], 1);
	/* Past the longest watch: dropped, never written out of bounds. */
	watch_series_add(&s, UT_SUBMIT, 1000 * MS + (uint64_t)(WATCH_MAX_SECONDS + 5) * 1000 * MS);
	assert_int_equal(s.n, 21);
	watch_series_free(&s);
	assert_null(s.reqs);
}

static void test_sampled(void **state)
{
	static struct punt_watch w;
	struct watch_series s;

	(void)state;
	watch_series_begin(&s, 1000 * MS);
	w.series = &s;
	w.sampled_all = true;
	assert_true(watch_series_sampled(&w, 7) == 1);
	/* Sampled from 1050 to 1250 ms: half of bucket 0, bucket 1 whole, half of 2, none of 3. */
	w.sampled_all = false;
	w.nwindows = 1;
	w.windows[0].start = 1050 * MS;
	w.windows[0].end = 1250 * MS;
	assert_true(watch_series_sampled(&w, 0) == 0.5);
	assert_true(watch_series_sampled(&w, 1) == 1);
	assert_true(watch_series_sampled(&w, 2) == 0.5);
	assert_true(watch_series_sampled(&w, 3) == 0);
	w.series = NULL;
	assert_true(watch_series_sampled(&w, 1) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_sampled),
	};

	return cmocka_run_group_tests_name("watch_series", tests, NULL, NULL);
}
