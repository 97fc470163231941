// SPDX-License-Identifier: GPL-2.0-or-later
/* Strings copied into blocks freed together: each copy stays where it was put. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strpool.h"

static void test_copies_stay(void **state)
{
	struct strpool p = { 0 };
	char *copies[20000], name[32];
	size_t i;

	(void)state;
	/* Enough to fill several blocks: earlier copies must not move or change. */
	for (i = 0; i < 20000; i++) {
		snprintf(name, sizeof(name), "/srv/db/f%05zu.ibd", i);
		copies[i] = strpool_dup(&p, name);
		assert_non_null(copies[i]);
		assert_ptr_not_equal(copies[i], name);
	}
	for (i = 0; i < 20000; i++) {
		snprintf(name, sizeof(name), "/srv/db/f%05zu.ibd", i);
		assert_string_equal(copies[i], name);
	}
	strpool_free(&p);
	assert_null(p.head);
}

static void test_long_and_empty(void **state)
{
	struct strpool p = { 0 };
	size_t n = 200 * 1024;
	char *big = malloc(n + 1), *a, *b, *c;

	(void)state;
	assert_non_null(big);
	memset(big, 'x', n);
	big[n] = '\0';
	a = strpool_dup(&p, "before");
	/* Longer than a block: a block of its own. */
	b = strpool_dup(&p, big);
	c = strpool_dup(&p, "");
	assert_string_equal(a, "before");
	assert_int_equal(strlen(b), n);
	assert_string_equal(c, "");
	strpool_free(&p);
	strpool_free(&p);	/* twice: nothing left the second time */
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copies_stay),
		cmocka_unit_test(test_long_and_empty),
	};

	return cmocka_run_group_tests_name("strpool", tests, NULL, NULL);
}
