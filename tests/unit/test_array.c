// SPDX-License-Identifier: GPL-2.0-or-later
/* array_grow: doubling growth, no realloc when there is room, overflow refused. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>

#include "array.h"
#include "xalloc.h"
#include "testutil.h"

struct item {
	uint64_t a, b;
};

static void test_growth_doubles(void **state)
{
	struct item *v = NULL;
	size_t cap = 0, n, reallocs = 0;

	(void)state;
	assert_int_equal(array_grow(&v, &cap, 1), 0);
	assert_non_null(v);
	assert_int_equal(cap, 8);
	/* Appending one at a time: a realloc at each power of two only. */
	for (n = 0; n < 10000; n++) {
		size_t before = cap;

		assert_int_equal(array_grow(&v, &cap, n + 1), 0);
		assert_true(cap >= n + 1);
		reallocs += cap != before;
		v[n].a = n;
		v[n].b = ~n;
	}
	assert_int_equal(cap, 16384);
	assert_int_equal(reallocs, 11);	/* 8 -> 16 -> ... -> 16384 */
	for (n = 0; n < 10000; n++)
		assert_true(v[n].a == n && v[n].b == ~n);
	free(v);
}

static void test_room_left_keeps_pointer(void **state)
{
	struct item *v = NULL, *was;
	size_t cap = 0;

	(void)state;
	assert_int_equal(array_grow(&v, &cap, 5), 0);
	was = v;
	assert_int_equal(array_grow(&v, &cap, 8), 0);
	assert_ptr_equal(v, was);
	assert_int_equal(cap, 8);
	assert_int_equal(array_grow(&v, &cap, 0), 0);
	assert_int_equal(cap, 8);
	/* A need far past the doubling is met in one step, still a power of two. */
	assert_int_equal(array_grow(&v, &cap, 1000), 0);
	assert_int_equal(cap, 1024);
	free(v);
}

static void test_overflow_refused(void **state)
{
	struct item *v = NULL, *was;
	size_t cap = 0;
	char *bytes = NULL;
	size_t bcap = 0;

	(void)state;
	assert_int_equal(array_grow(&v, &cap, 4), 0);
	was = v;
	/* need * size wraps around: refused, and nothing changed. */
	assert_int_equal(array_grow(&v, &cap, SIZE_MAX / sizeof(*v) + 2), -ENOMEM);
	assert_ptr_equal(v, was);
	assert_int_equal(cap, 8);
	assert_int_equal(array_grow(&v, &cap, SIZE_MAX), -ENOMEM);
	assert_int_equal(cap, 8);
	/* Beyond PTRDIFF_MAX bytes: no allocation may be that large. */
	assert_int_equal(array_grow(&v, &cap, (size_t)PTRDIFF_MAX / sizeof(*v) + 1), -ENOMEM);
	assert_int_equal(array_grow(&bytes, &bcap, (size_t)PTRDIFF_MAX + 1), -ENOMEM);
	assert_null(bytes);
	assert_int_equal(bcap, 0);
	/* Doubling past SIZE_MAX / 2 must not wrap to a small capacity. */
	bcap = SIZE_MAX / 2 + 1;
	assert_int_equal(array_grow(&bytes, &bcap, SIZE_MAX / 2 + 2), -ENOMEM);
	assert_int_equal(bcap, SIZE_MAX / 2 + 1);
	assert_null(bytes);
	free(v);
}

static void test_x_variant(void **state)
{
	char *s = NULL;
	size_t cap = 0;

	(void)state;
	xarray_grow(&s, &cap, 100);
	assert_int_equal(cap, 128);
	memset(s, 'x', 100);
	xarray_grow(&s, &cap, 100);
	assert_int_equal(cap, 128);
	free(s);
}

/*
 * An array without a capacity of its own grows at 0 and at each power of two
 * from 8 on, and only there: 1,000 appends, each element kept, 8 allocations.
 */
static void test_implied_capacity(void **state)
{
	int *v = NULL, *last = NULL;
	size_t n, moves = 0;

	(void)state;
	for (n = 0; n < 1000; n++) {
		assert_int_equal(array_grow_implied(&v, n, sizeof(*v)), 0);
		moves += v != last || n == 0;
		last = v;
		v[n] = (int)n;
	}
	for (n = 0; n < 1000; n++)
		assert_int_equal(v[n], (int)n);
	/* 0, 8, 16, 32, 64, 128, 256, 512: at most that many, fewer if realloc grew in place. */
	assert_true(moves <= 8);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_growth_doubles),
		cmocka_unit_test(test_room_left_keeps_pointer),
		cmocka_unit_test(test_overflow_refused),
		cmocka_unit_test(test_x_variant),
		cmocka_unit_test(test_implied_capacity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
