// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/PID/net/netstat: the file as 6.18 prints it (tests/fuzz/seeds),
 * counters absent, and files that are not the kernel's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "procfs.h"
#include "testutil.h"

static void test_real(void **state)
{
	char *text = slurp("tests/fuzz/seeds/netstat/netstat-6.18");
	struct netstat_listen l;

	(void)state;
	assert_int_equal(netstat_parse(text, &l), 0);
	assert_true(l.has_overflows && l.has_drops);
	assert_true(l.drops >= l.overflows);
	free(text);
}

static void test_values(void **state)
{
	struct netstat_listen l;

	(void)state;
	assert_int_equal(netstat_parse("TcpExt: SyncookiesSent ListenOverflows ListenDrops X\n"
				       "TcpExt: 0 17 19 0\n"
				       "IpExt: ListenOverflows InOctets\n"
				       "IpExt: 99 123456\n", &l), 0);
	assert_true(l.has_overflows && l.has_drops);
	assert_int_equal(l.overflows, 17);
	assert_int_equal(l.drops, 19);
	/* A kernel without the counters: parsed, and left unset. */
	assert_int_equal(netstat_parse("TcpExt: SyncookiesSent\nTcpExt: 4\n", &l), 0);
	assert_false(l.has_overflows || l.has_drops);
	assert_int_equal(netstat_parse("", &l), 0);
	assert_false(l.has_overflows);
	/* 2^64 - 1 is a value; 2^64 is not. */
	assert_int_equal(netstat_parse("TcpExt: ListenOverflows\nTcpExt: 18446744073709551615\n", &l), 0);
	assert_true(l.overflows == UINT64_MAX);
}

static void test_garbage(void **state)
{
	static const char *const bad[] = {
		"TcpExt: ListenOverflows\nTcpExt: 18446744073709551616\n",
		"TcpExt: ListenOverflows ListenDrops\nTcpExt: 1\n",	/* a value short */
		"TcpExt: ListenOverflows\nTcpExt: 1 2\n",		/* a value more */
		"TcpExt: ListenOverflows\nIpExt: 1\n",			/* another prefix */
		"TcpExt: ListenOverflows\nTcpExt: -1\n",
		"TcpExt: ListenOverflows\nTcpExt: 0x10\n",
		"TcpExt: ListenOverflows\n",				/* no values */
		"TcpExt: ListenOverflows\nTcpExt: 1",			/* cut in its last line */
		"TcpExt: ListenOverflows ListenOverflows\nTcpExt: 1 2\n",	/* named twice */
		"TcpExt: ListenOverflows\nTcpExt: 1\nTcpExt: ListenOverflows\nTcpExt: 5\n",
		"garbage\n",
		"Tcp Ext: ListenOverflows\nTcp Ext: 1\n",
		"TcpExt: List\xe9nOverflows\nTcpExt: 1\n",
	};
	struct netstat_listen l;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(netstat_parse(bad[i], &l), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests_name("netstat", tests, NULL, NULL);
}
