// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * MariaDB option files and command lines as the server reads them: its
 * groups only, later settings over earlier ones, includes where they
 * stand, the command line last; '-' and '_' alike, quotes and comments,
 * the loose-, skip-, enable- and maximum- prefixes; and text that is no
 * option file at all.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "apps.h"
#include "testutil.h"

static struct my_cnf c;
static char included[4][64];
static unsigned int nincluded;

/* An include names one of two texts by its path: "conf.d" (a directory) or "extra.cnf". */
static void include(void *arg, const char *path, bool dir)
{
	(void)arg;
	if (nincluded < 4)
		snprintf(included[nincluded++], sizeof(included[0]), "%s%s", dir ? "dir " : "", path);
	if (dir && !strcmp(path, "/etc/mysql/conf.d"))
		my_cnf_parse("[mysqld]\ninnodb_flush_method = O_DSYNC\n", "/etc/mysql/conf.d/50.cnf",
			     &c, include, NULL);
	else if (!dir && !strcmp(path, "/etc/extra.cnf"))
		my_cnf_parse("[server]\ninnodb-use-native-aio = 0\n", path, &c, include, NULL);
}

static void parse(const char *text)
{
	memset(&c, 0, sizeof(c));
	nincluded = 0;
	my_cnf_parse(text, "/etc/my.cnf", &c, include, NULL);
}

static void test_groups(void **state)
{
	const struct my_cnf_value *why;

	(void)state;
	/* The client's group and a versioned one are not the server's; later wins. */
	parse("[client]\ninnodb_flush_method = nosync\n"
	      "[mysqld]\ninnodb_flush_method = O_DIRECT\n"
	      "[mysqld-10.11]\ninnodb_flush_method = littlesync\n"
	      "[mariadb]\ninnodb-flush-method=\"fsync\"   # buffered\n");
	assert_string_equal(c.flush_method.value, "fsync");
	assert_string_equal(c.flush_method.from, "/etc/my.cnf");
	assert_true(c.versioned);
	assert_true(my_cnf_buffered(&c, &why));
	assert_ptr_equal(why, &c.flush_method);
	assert_string_equal(my_cnf_name(&c, why), "innodb_flush_method");
	assert_false(my_cnf_no_uring(&c, &why));
	assert_null(why);

	/* Case does not matter in a group's name, blanks around it neither. */
	parse("[ MariaDBD ]\ninnodb_flush_method = O_DIRECT\n");
	assert_string_equal(c.flush_method.value, "O_DIRECT");
	assert_false(my_cnf_buffered(&c, &why));
	/* 11.0's replacement, and the numbers the enum takes. */
	parse("[server]\ninnodb_data_file_buffering = ON\n");
	assert_true(my_cnf_buffered(&c, &why));
	assert_ptr_equal(why, &c.data_file_buffering);
	parse("[galera]\ninnodb_flush_method = 0\n");
	assert_true(my_cnf_buffered(&c, &why));
	parse("[galera]\ninnodb_flush_method = 4\n");
	assert_false(my_cnf_buffered(&c, &why));
}

static void test_includes(void **state)
{
	const struct my_cnf_value *why;

	(void)state;
	/* Where they stand: the directory's O_DSYNC over the line before, under the one after. */
	parse("[client-server]\nsocket = /run/mysqld/mysqld.sock\n"
	      "!includedir /etc/mysql/conf.d\n"
	      "!include /etc/extra.cnf\n"
	      "!includex /nope\n");
	assert_int_equal(nincluded, 2);
	assert_string_equal(included[0], "dir /etc/mysql/conf.d");
	assert_string_equal(included[1], "/etc/extra.cnf");
	assert_string_equal(c.flush_method.value, "O_DSYNC");
	assert_string_equal(c.flush_method.from, "/etc/mysql/conf.d/50.cnf");
	assert_true(my_cnf_no_uring(&c, &why));
	assert_ptr_equal(why, &c.native_aio);
	assert_string_equal(why->from, "/etc/extra.cnf");
	/* An included file's group does not carry back into the includer. */
	parse("[client]\n!includedir /etc/mysql/conf.d\ninnodb_flush_method = nosync\n");
	assert_string_equal(c.flush_method.value, "O_DSYNC");
}

static void test_prefixes(void **state)
{
	const struct my_cnf_value *why;

	(void)state;
	parse("[mysqld]\nskip-innodb-use-native-aio\nloose-innodb_linux_aio = aio\n"
	      "maximum-innodb-flush-method = nosync\n");
	assert_string_equal(c.native_aio.value, "OFF");
	assert_string_equal(c.linux_aio.value, "aio");
	assert_string_equal(c.flush_method.value, "");
	assert_true(my_cnf_no_uring(&c, &why));
	parse("[mysqld]\ninnodb_use_native_aio = OFF\nenable-innodb-use-native-aio\n"
	      "innodb_linux_aio = 'io_uring'\n");
	assert_string_equal(c.native_aio.value, "ON");
	assert_false(my_cnf_no_uring(&c, &why));
	parse("[mysqld]\ninnodb_linux_aio = aio\n");
	assert_true(my_cnf_no_uring(&c, &why));
	assert_ptr_equal(why, &c.linux_aio);
	/* A prefix on a setting that takes a value is the server's error: not taken. */
	parse("[mysqld]\nskip-innodb-flush-method\ndisable-innodb_linux_aio=aio\n");
	assert_string_equal(c.flush_method.value, "");
	assert_string_equal(c.linux_aio.value, "");
}

static void test_command_line(void **state)
{
	struct my_cnf_files f;
	const struct my_cnf_value *why;
	char argv[512];
	size_t n;

	(void)state;
	n = cmdline_of(argv, sizeof(argv), "/usr/sbin/mariadbd\n--defaults-file=/srv/db/my.cnf\n"
			"--defaults-extra-file=/srv/db/extra.cnf\n--user=mysql\n"
			"--innodb-flush-method\nfsync\n--skip-innodb-use-native-aio\n"
			"--defaults-file=/not/first.cnf");
	my_cnf_files_of(argv, n, &f);
	assert_false(f.no_defaults);
	assert_string_equal(f.defaults_file, "/srv/db/my.cnf");
	assert_string_equal(f.extra_file, "/srv/db/extra.cnf");
	memset(&c, 0, sizeof(c));
	strcpy(c.flush_method.value, "O_DIRECT");
	my_cnf_apply_args(argv, n, &c);
	assert_string_equal(c.flush_method.value, "fsync");
	assert_string_equal(c.flush_method.from, "its command line");
	assert_string_equal(c.native_aio.value, "OFF");
	assert_true(my_cnf_buffered(&c, &why));
	n = cmdline_of(argv, sizeof(argv), "mariadbd\n--no-defaults\n--innodb_flush_method=O_DSYNC");
	my_cnf_files_of(argv, n, &f);
	assert_true(f.no_defaults);
	assert_null(f.defaults_file);
	memset(&c, 0, sizeof(c));
	my_cnf_apply_args(argv, n, &c);
	assert_string_equal(c.flush_method.value, "O_DSYNC");
	/* Cut before its value, and without the final NUL: nothing taken from past the end. */
	memcpy(argv, "mariadbd\0--innodb-flush-method\0fsy", 34);
	memset(&c, 0, sizeof(c));
	my_cnf_apply_args(argv, 34, &c);
	assert_string_equal(c.flush_method.value, "");
	my_cnf_files_of(NULL, 0, &f);
	assert_null(f.defaults_file);
}

static void test_garbage(void **state)
{
	char big[200];

	(void)state;
	/* No group, an unclosed bracket, no '=', no final newline: nothing taken, nothing read past. */
	parse("innodb_flush_method = fsync\n[mysqld\ninnodb_flush_method = fsync\n"
	      "[mysqld]\n=\n = fsync\n\"innodb_flush_method\" = fsync\ninnodb_flush_method");
	assert_string_equal(c.flush_method.value, "");
	/* A value longer than kept is cut, not overrun; an unmatched quote is kept. */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	{
		char text[300];

		snprintf(text, sizeof(text), "[mysqld]\ninnodb_linux_aio = %s\n", big);
		parse(text);
		assert_int_equal(strlen(c.linux_aio.value), sizeof(c.linux_aio.value) - 1);
	}
	parse("[mysqld]\ninnodb_linux_aio = \"aio\n");
	assert_string_equal(c.linux_aio.value, "\"aio");
	parse("");
	assert_string_equal(c.flush_method.value, "");
	/* An include with no reader is a file not read. */
	memset(&c, 0, sizeof(c));
	my_cnf_parse("!include /etc/x.cnf\n", "f", &c, NULL, NULL);
	assert_true(c.unread);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_includes),
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_command_line),
		cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests_name("my_cnf", tests, NULL, NULL);
}
