// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * smb.conf as Samba reads it: [global] defaults for every share, names
 * matched without case or blanks, comments, continued lines, and text
 * that is not a parameter.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "apps.h"

static struct smb_conf c;

static int parse(const char *text)
{
	smb_conf_free(&c);
	return smb_conf_parse(text, &c);
}

static void test_shares(void **state)
{
	(void)state;
	assert_int_equal(parse("[global]\n\tworkgroup = WG\n  AIO Read Size = 0\n"
			       "[share]\n\tpath = /srv/share\n\tvfs objects = acl_xattr io_uring\n"
			       "[plain]\n\tpath = /srv/plain\n"
			       "[fast]\n  vfs objects = io_uring\n  aio read size = 1\n"
			       "  aiowritesize=0x0\n"), 0);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.v[0].name, "share");
	assert_true(c.v[0].uring);
	assert_int_equal(c.v[0].aio_read_size, 0);	/* [global]'s */
	assert_int_equal(c.v[0].aio_write_size, 1);	/* the default */
	assert_false(c.v[1].uring);
	assert_true(c.v[2].uring);
	assert_int_equal(c.v[2].aio_read_size, 1);	/* its own over [global]'s */
	assert_int_equal(c.v[2].aio_write_size, 0);
	assert_false(c.includes);
	smb_conf_free(&c);
}

static void test_syntax(void **state)
{
	(void)state;
	/* vfs objects in [global] is every share's; a continued line; comments. */
	assert_int_equal(parse("; a comment\n# another\n[ global ]\nvfs objects = \\\n"
			       "  fruit io_uring\ninclude = /etc/samba/more.conf\n[s]\n"
			       "; aio read size = 0\n"), 0);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.v[0].name, "s");
	assert_true(c.v[0].uring);
	assert_int_equal(c.v[0].aio_read_size, 1);
	assert_true(c.includes);
	/* io_uring must be a whole word; a bad number leaves the default. */
	assert_int_equal(parse("[s]\nvfs objects = io_uring_x,foo\naio read size = many\n"), 0);
	assert_false(c.v[0].uring);
	assert_int_equal(c.v[0].aio_read_size, 1);
	/* Garbage: no section, no '=', an unclosed bracket, no final newline. */
	assert_int_equal(parse("aio read size = 0\nnonsense\n[unclosed\naio write size = 0"), 0);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.v[0].name, "unclosed");
	assert_int_equal(c.v[0].aio_read_size, 0);
	assert_int_equal(c.v[0].aio_write_size, 0);
	assert_int_equal(parse(""), 0);
	assert_int_equal(c.n, 0);
	smb_conf_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shares),
		cmocka_unit_test(test_syntax),
	};

	return cmocka_run_group_tests_name("smb_conf", tests, NULL, NULL);
}
