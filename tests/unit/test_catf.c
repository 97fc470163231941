// SPDX-License-Identifier: GPL-2.0-or-later
/* catf: appends, and a cut that says it is one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "output.h"

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

/* A buffer filled exactly, then appended to: the append is lost, and said to be. */
static void test_full_then_more(void **state)
{
	char buf[10] = "";

	(void)state;
	catf(buf, sizeof(buf), "%s", "123456789");
	assert_string_equal(buf, "123456789");
	catf(buf, sizeof(buf), "%s", "MORE");
	assert_string_equal(buf, "123456…");
	catf(buf, sizeof(buf), "%s", "");
	assert_string_equal(buf, "123456…");
}

/* Too small for the mark: cut plainly, on a character boundary. */
static void test_tiny_buffer(void **state)
{
	char buf[4] = "";

	(void)state;
	catf(buf, sizeof(buf), "%s", "ab");
	assert_string_equal(buf, "ab");
	catf(buf, sizeof(buf), "%s", "é");
	assert_string_equal(buf, "ab");
}

/* Bytes that are not UTF-8 never walk the cut back past one character's length. */
static void test_cut_in_invalid_utf8(void **state)
{
	char buf[12] = "";

	(void)state;
	catf(buf, sizeof(buf), "%s", "abcd\x80\x80\x80\x80\x80\x80\x80\x80");
	/* Eight bytes kept (never more than 3 looked back over), then the mark, nothing after. */
	assert_int_equal(strlen(buf), 8 + 3);
	assert_memory_equal(buf + 8, "…", 3);
	catf(buf, sizeof(buf), "%s", "Z");
	assert_null(strchr(buf, 'Z'));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_appends),
		cmocka_unit_test(test_cut_is_marked),
		cmocka_unit_test(test_cut_on_character),
		cmocka_unit_test(test_full_then_more),
		cmocka_unit_test(test_tiny_buffer),
		cmocka_unit_test(test_cut_in_invalid_utf8),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
