// SPDX-License-Identifier: GPL-2.0-or-later
/* The host collector on captured trees, healthy and hostile. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "host_facts.h"
#include "testutil.h"

static void collect(const char *root, struct host_facts *hf)
{
	struct sysroot sr;

	assert_int_equal(sysroot_open(&sr, root), 0);
	host_facts_collect(&sr, hf);
	sysroot_close(&sr);
}

static void test_uring_disabled_tree(void **state)
{
	struct host_facts hf;

	(void)state;
	collect(TESTDATA "/uring-disabled-2", &hf);
	assert_false(hf.live);
	assert_int_equal(hf.kernel.e.err, 0);
	assert_int_equal(hf.kernel.v.major, 6);
	assert_int_equal(hf.uring_disabled.e.err, 0);
	assert_int_equal(hf.uring_disabled.value, 2);
	assert_int_equal(hf.uring_group.value, -1);
	assert_int_equal(hf.self_status.e.err, 0);
	assert_int_equal(hf.self_limits.e.err, 0);
	assert_int_equal(hf.cpus, 2);
	/* Nothing is tried live under --root, and the reason says so. */
	assert_int_equal(hf.uring_setup.e.err, -EOPNOTSUPP);
	assert_non_null(strstr(hf.uring_setup.e.why, "--root"));
}

static void test_old_kernel_tree(void **state)
{
	struct host_facts hf;

	(void)state;
	collect(TESTDATA "/old-5.10-memlock-64k", &hf);
	assert_int_equal(hf.kernel.v.minor, 10);
	assert_int_equal(hf.kernel.v.patch, 179);
	assert_string_equal(hf.hostname, "bullseye-db");
	assert_int_equal(hf.uring_disabled.e.err, -ENOENT);
	assert_string_equal(hf.uring_disabled.e.why,
			    "cannot read 'proc/sys/kernel/io_uring_disabled': No such file or directory");
	assert_int_equal(hf.self_limits.lim.memlock.soft, 65536);
}

static void test_live(void **state)
{
	struct host_facts hf;

	(void)state;
	collect(NULL, &hf);
	assert_true(hf.live);
	assert_int_equal(hf.kernel.e.err, 0);
	assert_int_equal(hf.self_status.e.err, 0);
	assert_int_equal(hf.self_status.st.tgid, getpid());
	assert_int_equal(hf.uring_setup.e.err, 0);
	assert_true(hf.cpus >= 1);
}

/* Garbage gets -EBADMSG with the path; an empty tree gets -ENOENT; nothing crashes. */
static void test_hostile_tree(void **state)
{
	char *dir = make_tmpdir();
	struct host_facts hf;

	(void)state;
	write_file(dir, "proc/sys/kernel/osrelease", "banana\n");
	write_file(dir, "proc/sys/kernel/io_uring_disabled", "zero\n");
	write_file(dir, "proc/sys/kernel/io_uring_group", "99999999999999999999\n");
	write_file(dir, "proc/self/status", "Name:\tx\nTgid:\t1\n");
	write_file(dir, "proc/self/limits", "Max locked memory");
	write_file(dir, "sys/devices/system/cpu/online", "0-zz\n");
	collect(dir, &hf);
	assert_int_equal(hf.kernel.e.err, -EBADMSG);
	assert_non_null(strstr(hf.kernel.e.why, "'banana' is not a kernel release"));
	assert_int_equal(hf.uring_disabled.e.err, -EBADMSG);
	assert_int_equal(hf.uring_group.e.err, -EBADMSG);
	assert_int_equal(hf.self_status.e.err, -EBADMSG);
	assert_int_equal(hf.self_limits.e.err, -EBADMSG);
	assert_int_equal(hf.cpus, 0);
	assert_string_equal(hf.hostname, "unknown");
	rm_rf(dir);

	dir = make_tmpdir();
	write_file(dir, "proc/.keep", "");
	collect(dir, &hf);
	assert_int_equal(hf.kernel.e.err, -ENOENT);
	assert_int_equal(hf.self_status.e.err, -ENOENT);
	rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uring_disabled_tree),
		cmocka_unit_test(test_old_kernel_tree),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_hostile_tree),
	};

	return cmocka_run_group_tests_name("host_facts", tests, NULL, NULL);
}
