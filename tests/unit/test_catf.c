// SPDX-License-Identifier: GPL-2.0-or-later
/* catf: appends, and a cut that says it is one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "catf.h"

static void test_appends(void **state)
{
	char buf[32] = "";

	(void)state;
	catf(buf, sizeof(buf), "%s", "a");
	catf(buf, sizeof(buf), ", %d", 42);
	assert_string_equal(buf, "a, 42");
}

static void test_cut_is_marked(void **state)
{
	char buf[16] = "";

	(void)state;
	catf(buf, sizeof(buf), "%s", "0123456789");
	catf(buf, sizeof(buf), "%s", "abcdefghij");
	/* 15 bytes of text: 12 kept, then the 3-byte mark. */
	assert_string_equal(buf, "0123456789ab…");
	/* Nothing after a cut: the rest would read as if it followed. */
	catf(buf, sizeof(buf), "%s", "z");
	assert_string_equal(buf, "0123456789ab…");
}

static void test_cut_on_character(void **state)
{
	char buf[12] = "";

	(void)state;
	/* "ééééé" is 10 bytes: 8 fit before the mark, and 8 is a character boundary. */
	catf(buf, sizeof(buf), "%s", "xéééé");
	assert_string_equal(buf, "xéééé");
	memset(buf, 0, sizeof(buf));
	catf(buf, sizeof(buf), "%s", "xéééééé");
	/* 11 bytes of room, 3 for the mark: 8 left, which would split the 4th é. */
	assert_string_equal(buf, "xééé…");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_appends),
		cmocka_unit_test(test_cut_is_marked),
		cmocka_unit_test(test_cut_on_character),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
