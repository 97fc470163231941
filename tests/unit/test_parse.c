// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "cpulist.h"
#include "parse.h"
#include "testutil.h"
#include "output.h"

static void test_numbers(void **state)
{
	int64_t v;
	uint64_t u;

	(void)state;
	assert_int_equal(parse_i64(" -1\n", 10, &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(parse_i64("2", 10, &v), 0);
	assert_int_equal(v, 2);
	assert_int_equal(parse_i64("", 10, &v), -EINVAL);
	assert_int_equal(parse_i64("12abc", 10, &v), -EINVAL);
	assert_int_equal(parse_i64("1 2", 10, &v), -EINVAL);
	assert_int_equal(parse_i64("99999999999999999999", 10, &v), -ERANGE);
	assert_int_equal(parse_u64("000001fffeffffff", 16, &u), 0);
	assert_int_equal(u, 0x1fffeffffffULL);
	/* strtoull would wrap "-1" to UINT64_MAX; a count is never negative. */
	assert_int_equal(parse_u64("-1", 10, &u), -EINVAL);
	assert_int_equal(parse_u64("18446744073709551616", 10, &u), -ERANGE);
}

static void test_keyed_values(void **state)
{
	const char *text = "Name:\tcap\nSeccomp:\t2\nSeccomp_filters:\t1\nGroups:\t \nEmpty:\n";
	char out[16];

	(void)state;
	assert_int_equal(parse_keyed_value(text, "Seccomp", out, sizeof(out)), 0);
	assert_string_equal(out, "2");
	assert_int_equal(parse_keyed_value(text, "Seccomp_filters", out, sizeof(out)), 0);
	assert_string_equal(out, "1");
	assert_int_equal(parse_keyed_value(text, "Groups", out, sizeof(out)), 0);
	assert_string_equal(out, "");
	assert_int_equal(parse_keyed_value(text, "Empty", out, sizeof(out)), 0);
	assert_int_equal(parse_keyed_value(text, "Seccomp_", out, sizeof(out)), -ENOENT);
	assert_int_equal(parse_keyed_value(text, "ame", out, sizeof(out)), -ENOENT);
	assert_int_equal(parse_keyed_value("Name:\t0123456789abcdefXYZ\n", "Name", out, sizeof(out)),
			 -EOVERFLOW);
}

static void test_cpulist(void **state)
{
	struct cpuset set;

	(void)state;
	assert_int_equal(cpulist_parse("0-1\n", &set), 0);
	assert_int_equal(cpuset_count(&set), 2);
	assert_true(cpuset_has(&set, 1));
	assert_false(cpuset_has(&set, 2));
	assert_int_equal(cpulist_parse("0,2-3,8191", &set), 0);
	assert_int_equal(cpuset_count(&set), 4);
	assert_true(cpuset_has(&set, 8191));
	assert_int_equal(cpulist_parse("", &set), 0);
	assert_int_equal(cpuset_count(&set), 0);
	assert_int_equal(cpulist_parse("3-1", &set), -EBADMSG);
	assert_int_equal(cpulist_parse("8192", &set), -EBADMSG);
	assert_int_equal(cpulist_parse("1,,2", &set), -EBADMSG);
	assert_int_equal(cpulist_parse("a", &set), -EBADMSG);
	assert_int_equal(cpulist_parse("-1", &set), -EBADMSG);
	assert_int_equal(cpulist_parse("99999999999999999999", &set), -EBADMSG);
}

/* The bounded counts and PIDs the command line and the policy file share. */
static void test_counts_and_pids(void **state)
{
	unsigned int n = 7;
	int pid = 7;

	(void)state;
	assert_int_equal(parse_count("32768", 32768, &n), 0);
	assert_int_equal(n, 32768);
	assert_int_equal(parse_count("32769", 32768, &n), -ERANGE);
	assert_int_equal(parse_count("0", 32768, &n), -ERANGE);
	assert_int_equal(parse_count("-1", 32768, &n), -EINVAL);
	assert_int_equal(parse_count("12x", 32768, &n), -EINVAL);
	assert_int_equal(n, 32768);
	assert_int_equal(parse_pid("4194304", &pid), 0);
	assert_int_equal(pid, 4194304);
	assert_int_equal(parse_pid("4194305", &pid), -ERANGE);
	assert_int_equal(parse_pid("0", &pid), -ERANGE);
	assert_int_equal(parse_pid("", &pid), -EINVAL);
	assert_int_equal(pid, 4194304);
}

static void test_sizes(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(parse_size("65536", &v), 0);
	assert_int_equal(v, 65536);
	assert_int_equal(parse_size("64M", &v), 0);
	assert_int_equal(v, 64ull << 20);
	assert_int_equal(parse_size("64MiB", &v), 0);
	assert_int_equal(v, 64ull << 20);
	assert_int_equal(parse_size("1g", &v), 0);
	assert_int_equal(v, 1ull << 30);
	assert_int_equal(parse_size("0", &v), 0);
	assert_int_equal(parse_size("64Q", &v), -EINVAL);
	assert_int_equal(parse_size("M", &v), -EINVAL);
	assert_int_equal(parse_size("-1M", &v), -EINVAL);
	assert_int_equal(parse_size("64MB2", &v), -EINVAL);
	assert_int_equal(parse_size("99999999999E", &v), -ERANGE);
}

static void test_cpumask(void **state)
{
	struct cpuset set;
	char buf[64];

	(void)state;
	assert_int_equal(cpumask_parse_hex("00000000,0000000f", &set), 0);
	assert_int_equal(cpuset_count(&set), 4);
	cpuset_format(&set, buf, sizeof(buf));
	assert_string_equal(buf, "0-3");
	assert_int_equal(cpumask_parse_hex("a", &set), 0);
	cpuset_format(&set, buf, sizeof(buf));
	assert_string_equal(buf, "1,3");
	assert_int_equal(cpumask_parse_hex("1,00000000", &set), 0);
	assert_true(cpuset_has(&set, 32));
	assert_int_equal(cpumask_parse_hex("xyz", &set), -EBADMSG);
	assert_int_equal(cpumask_parse_hex("", &set), -EBADMSG);
	cpulist_parse("0-3,8,10-11", &set);
	cpuset_format(&set, buf, sizeof(buf));
	assert_string_equal(buf, "0-3,8,10-11");
	cpulist_parse("", &set);
	cpuset_format(&set, buf, sizeof(buf));
	assert_string_equal(buf, "");
	/* The hex mask sysfs takes (rps_cpus, xps_cpus), and reads back the same. */
	cpuset_format_hex(&set, buf, sizeof(buf));
	assert_string_equal(buf, "0");
	cpulist_parse("2-5", &set);
	cpuset_format_hex(&set, buf, sizeof(buf));
	assert_string_equal(buf, "3c");
	cpulist_parse("0,40", &set);
	cpuset_format_hex(&set, buf, sizeof(buf));
	assert_string_equal(buf, "100,00000001");
	assert_int_equal(cpumask_parse_hex(buf, &set), 0);
	cpuset_format(&set, buf, sizeof(buf));
	assert_string_equal(buf, "0,40");
}

/* Set operations word by word: words past the first, and dst aliasing an input. */
static void test_cpuset_ops(void **state)
{
	struct cpuset a, b, d;
	char buf[64];

	(void)state;
	assert_int_equal(cpulist_parse("0-3,63-64,8191", &a), 0);
	assert_int_equal(cpulist_parse("1,64,100", &b), 0);
	cpuset_andnot(&d, &a, &b);
	cpuset_format(&d, buf, sizeof(buf));
	/* Not "1,64" (a and b), not "0-3,63-64,8191" (b ignored), not a first word only. */
	assert_string_equal(buf, "0,2-3,63,8191");
	cpuset_andnot(&d, &b, &a);
	cpuset_format(&d, buf, sizeof(buf));
	assert_string_equal(buf, "100");
	cpuset_andnot(&a, &a, &b);
	cpuset_format(&a, buf, sizeof(buf));
	assert_string_equal(buf, "0,2-3,63,8191");
	cpuset_andnot(&b, &b, &b);
	assert_int_equal(cpuset_count(&b), 0);

	assert_int_equal(cpulist_parse("0-3,63-64,8191", &a), 0);
	assert_int_equal(cpulist_parse("4-62,65-8190", &b), 0);
	assert_false(cpuset_intersects(&a, &b));
	assert_false(cpuset_intersects(&a, &d));
	cpuset_set(&b, 8191);	/* shared in the last word only */
	assert_true(cpuset_intersects(&a, &b));
	assert_true(cpuset_intersects(&b, &a));
	cpulist_parse("", &d);
	assert_false(cpuset_intersects(&d, &d));
}

static void test_format_bytes(void **state)
{
	char b[BYTES_STR_MAX];

	(void)state;
	assert_string_equal(format_bytes(0, b), "0 B");
	assert_string_equal(format_bytes(1023, b), "1023 B");
	assert_string_equal(format_bytes(4095, b), "3.9 KiB");
	assert_string_equal(format_bytes(65536, b), "64 KiB");
	assert_string_equal(format_bytes(8 << 20, b), "8 MiB");
	assert_string_equal(format_bytes(3ull << 29, b), "1.5 GiB");
	assert_string_equal(format_bytes(UINT64_MAX, b), "unlimited");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_keyed_values),
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_format_bytes),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_counts_and_pids),
		cmocka_unit_test(test_cpumask),
		cmocka_unit_test(test_cpuset_ops),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
