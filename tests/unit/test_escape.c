// SPDX-License-Identifier: GPL-2.0-or-later
/* The escaping rule for untrusted names, and their JSON form. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "output.h"
#include "xalloc.h"
#include "testutil.h"

static void expect_escaped(const char *in, size_t max, unsigned int flags, const char *want)
{
	char *got = escape_text(in, max, flags);

	assert_string_equal(got, want);
	free(got);
}

static void test_controls(void **state)
{
	char in[2] = "", want[8];
	int c;

	(void)state;
	expect_escaped("\a\b\t\n\v\f\r\033", 0, 0, "\\a\\b\\t\\n\\v\\f\\r\\e");
	expect_escaped("\x01\x1f\x7f", 0, 0, "\\x01\\x1f\\x7f");
	expect_escaped("a\\b", 0, 0, "a\\\\b");
	expect_escaped("a\\b", 0, ESCAPE_KEEP_BACKSLASH, "a\\b");
	expect_escaped("", 0, 0, "");
	/* Every C0 byte and DEL: never raw. */
	for (c = 1; c < 0x80; c++) {
		char *got;

		in[0] = (char)c;
		got = escape_text(in, 0, 0);
		if (c >= 0x20 && c < 0x7f && c != '\\') {
			assert_string_equal(got, in);
		} else {
			assert_int_equal(got[0], '\\');
			for (size_t i = 0; got[i]; i++)
				assert_true(got[i] >= 0x20 && got[i] < 0x7f);
		}
		free(got);
	}
	snprintf(want, sizeof(want), "\\x%02x", 0x1c);
	expect_escaped("\x1c", 0, 0, want);
}

static void test_utf8(void **state)
{
	uint32_t cp;

	(void)state;
	/* Well-formed multibyte passes: 2, 3 and 4 bytes. */
	expect_escaped("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 0, 0,
		       "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	/* Invalid bytes, overlong forms, surrogates, past U+10FFFF, cut short. */
	expect_escaped("bad\xff\xfe", 0, 0, "bad\\xff\\xfe");
	expect_escaped("\xc0\xaf", 0, 0, "\\xc0\\xaf");
	expect_escaped("\xe0\x80\xaf", 0, 0, "\\xe0\\x80\\xaf");
	expect_escaped("\xf0\x80\x80\xaf", 0, 0, "\\xf0\\x80\\x80\\xaf");
	expect_escaped("\xed\xa0\x80", 0, 0, "\\xed\\xa0\\x80");
	expect_escaped("\xf4\x90\x80\x80", 0, 0, "\\xf4\\x90\\x80\\x80");
	expect_escaped("x\xe2\x82", 0, 0, "x\\xe2\\x82");
	expect_escaped("\x80" "a", 0, 0, "\\x80a");
	/* C1 controls (U+009B is CSI), bidi overrides, noncharacters: shown. */
	expect_escaped("\xc2\x9b" "31m", 0, 0, "\\u009b31m");
	expect_escaped("a\xe2\x80\xae" "b", 0, 0, "a\\u202eb");
	expect_escaped("\xe2\x80\xa8", 0, 0, "\\u2028");
	expect_escaped("\xef\xbf\xbe\xef\xbf\xbf", 0, 0, "\\ufffe\\uffff");
	assert_int_equal(utf8_seq_len("\xf4\x8f\xbf\xbf", 4, &cp), 4);
	assert_int_equal(cp, 0x10ffff);
	assert_int_equal(utf8_seq_len("\xe2\x82\xac", 2, &cp), 0);
	assert_true(utf8_valid("plain \xc3\xa9"));
	assert_false(utf8_valid("\xc3"));
}

static void test_every_byte(void **state)
{
	char in[256], *got;
	int c;

	(void)state;
	for (c = 1; c < 256; c++)
		in[c - 1] = (char)c;
	in[255] = '\0';
	got = escape_text(in, 0, 0);
	assert_true(utf8_valid(got));
	for (size_t i = 0; got[i]; i++)
		assert_true((unsigned char)got[i] >= 0x20 && got[i] != 0x7f);
	free(got);
}

static void test_markdown(void **state)
{
	(void)state;
	expect_escaped("a`b|c*d_e[f](g)<h>&i~", 0, ESCAPE_MARKDOWN,
		       "a\\`b\\|c\\*d_e\\[f\\](g)\\<h\\>\\&i\\~");
	/* The visible escapes are escaped again, so the page shows the text form. */
	expect_escaped("\033[0m\n", 0, ESCAPE_MARKDOWN, "\\\\e\\[0m\\\\n");
	expect_escaped("\xc3\xa9", 0, ESCAPE_MARKDOWN, "\xc3\xa9");
	/* Inside a word an underscore is inert; at a word's edge it could emphasize. */
	expect_escaped("io_uring_setup _x_ a_ _b a__b", 0, ESCAPE_MARKDOWN,
		       "io_uring_setup \\_x\\_ a\\_ \\_b a\\_\\_b");
}

static void test_bound(void **state)
{
	char path[4096], *got;

	(void)state;
	expect_escaped("abcdefghij", 10, 0, "abcdefghij");
	expect_escaped("abcdefghijk", 10, 0, "abcdefg...");
	/* Never inside an escape or a multibyte character. */
	expect_escaped("abcde\nfgh", 8, 0, "abcde...");
	expect_escaped("abcd\xc3\xa9zzzz", 8, 0, "abcd...");
	expect_escaped("abc\xc3\xa9zzzz", 8, 0, "abc\xc3\xa9...");
	/* A path of the maximum length is shown whole when unbounded. */
	memset(path, 'p', sizeof(path) - 1);
	path[0] = '/';
	path[4095] = '\0';
	got = escape_text(path, 0, 0);
	assert_int_equal(strlen(got), 4095);
	free(got);
	got = escape_text(path, 256, 0);
	assert_int_equal(strlen(got), 256);
	assert_string_equal(got + 253, ESCAPE_ELLIPSIS);
	free(got);
}

static void expect_cut(const char *in, size_t max, const char *want)
{
	char *got = text_cut(in, max);

	assert_string_equal(got, want);
	free(got);
}

/* text_cut bounds without escaping: the escaping comes after. */
static void test_cut(void **state)
{
	(void)state;
	expect_cut("abcdefghij", 10, "abcdefghij");
	expect_cut("abcdefghijk", 10, "abcdefg...");
	expect_cut("a\nb\033cdefghijk", 8, "a\nb\033c...");
	/* Never inside a multibyte character; a stray byte counts as one. */
	expect_cut("abcd\xc3\xa9zzzz", 8, "abcd...");
	expect_cut("abc\xc3\xa9zzzz", 8, "abc\xc3\xa9...");
	expect_cut("abcd\xffzzzz", 8, "abcd\xff...");
	expect_cut("", 4, "");
}

static void test_json_bytes(void **state)
{
	struct json_object *o = json_object_new_object(), *v;

	(void)state;
	json_add_bytes(o, "path", "/data/ok\xc3\xa9");
	json_add_bytes(o, "bad", "/d/bad\xff\xfe\n");
	json_add_bytes(o, "none", NULL);
	assert_string_equal(json_object_get_string(json_object_object_get(o, "path")),
			    "/data/ok\xc3\xa9");
	assert_false(json_object_object_get_ex(o, "path_base64", NULL));
	assert_string_equal(json_object_get_string(json_object_object_get(o, "bad")),
			    "/d/bad\\xff\\xfe\n");
	assert_true(json_object_object_get_ex(o, "bad_base64", &v));
	assert_string_equal(json_object_get_string(v), "L2QvYmFk//4K");
	assert_true(json_object_object_get_ex(o, "none", &v));
	assert_null(v);
	assert_true(utf8_valid(json_object_to_json_string(o)));
	json_object_put(o);

	o = json_object_new_object();
	json_add_bytes(o, "a", "\xff");
	json_add_bytes(o, "b", "\xff\xfe");
	assert_string_equal(json_object_get_string(json_object_object_get(o, "a_base64")), "/w==");
	assert_string_equal(json_object_get_string(json_object_object_get(o, "b_base64")), "//4=");
	json_object_put(o);
}

/* json_put writes, byte for byte, the object json-c would build and write. */
static void test_json_put(void **state)
{
	static const char *const names[] = {
		"/srv/data/x.dat", "", "a\"b\\c/d", "tab\there\nnl\x01\x1f\x7f",
		"caf\xc3\xa9", "bad\xff\xfe", "\xe2\x82", "\xf0\x9f\x98\x80 ok", "del\x7f/", "\x1b[31m",
		/* Each kind of byte in the 8-byte words the scan reads, and in the tail after them. */
		"/srv/data/0123456789abcdef.dat", "/srv/data/01234\"6789", "/srv/data/0123\\56789",
		"/srv/data/012345\n789", "/srv/data/0123456789abcd\x1f", "/srv/data/01234567\x80",
		"/srv/data/0123456\xc3\xa9 ok", "/srv/\x7f\x20\x21\x23\x5b\x5d\x5d\x5d/x",
	};
	struct json_put p;
	char *buf, *want;
	size_t i, len;
	FILE *out;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "fd", json_object_new_int(-5));
		json_add_bytes(o, "path", names[i]);
		json_object_object_add(o, "fs", json_bytes_string(names[i]));
		json_object_object_add(o, "device", NULL);
		json_object_object_add(o, "o_direct", json_object_new_boolean(true));
		json_object_object_add(o, "size", json_object_new_int64(INT64_MAX));
		json_object_object_add(o, "extents", NULL);
		json_object_object_add(o, "min", json_object_new_int64(INT64_MIN));
		json_object_object_add(o, "zero", json_object_new_int64(0));
		/* Open flags as printf "0%o" writes them: none, O_RDWR|O_DIRECT, all bits. */
		json_object_object_add(o, "f0", json_object_new_string("00"));
		json_object_object_add(o, "f1", json_object_new_string("040002"));
		json_object_object_add(o, "f2", json_object_new_string("037777777777"));
		json_object_object_add(o, "access", json_object_new_string("rw"));
		out = open_memstream(&buf, &len);
		assert_non_null(out);
		json_put_init(&p, out);
		json_put_begin(&p);
		json_put_int(&p, "fd", -5);
		json_put_bytes(&p, "path", names[i]);
		json_put_string(&p, "fs", names[i]);
		json_put_string(&p, "device", NULL);
		json_put_bool(&p, "o_direct", true);
		json_put_int_known(&p, "size", true, INT64_MAX);
		json_put_int_known(&p, "extents", false, 3);
		json_put_int(&p, "min", INT64_MIN);
		json_put_int(&p, "zero", 0);
		json_put_octal(&p, "f0", 0);
		json_put_octal(&p, "f1", 040002);
		json_put_octal(&p, "f2", 0xffffffffu);
		json_put_literal(&p, "access", "rw");
		assert_int_equal(json_put_end(&p), 0);
		/* The next object through the same writer: nothing carried over. */
		json_put_begin(&p);
		assert_int_equal(json_put_end(&p), 0);
		assert_int_equal(json_put_flush(&p), 0);
		json_put_free(&p);
		fclose(out);
		want = xasprintf("%s{ }", json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED |
									 JSON_C_TO_STRING_NOSLASHESCAPE));
		assert_string_equal(buf, want);
		free(want);
		free(buf);
		json_object_put(o);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_json_bytes),
		cmocka_unit_test(test_json_put),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
