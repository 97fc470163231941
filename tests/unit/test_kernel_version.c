// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "procfs.h"
#include "testutil.h"

static void test_release_strings(void **state)
{
	struct kernel_version kv;

	(void)state;
	assert_int_equal(kernel_version_parse("6.18.44-fc-v657", &kv), 0);
	assert_int_equal(kv.major, 6);
	assert_int_equal(kv.minor, 18);
	assert_int_equal(kv.patch, 44);
	assert_string_equal(kv.release, "6.18.44-fc-v657");
	assert_int_equal(kernel_version_parse("6.1.0-50-cloud-amd64", &kv), 0);
	assert_int_equal(kv.patch, 0);
	assert_int_equal(kernel_version_parse("6.8", &kv), 0);
	assert_int_equal(kv.minor, 8);
	assert_int_equal(kernel_version_parse("5.4.289", &kv), 0);
	/* Sublevels pass 255: the comparable code must still order them. */
	assert_true(kernel_version_code(&kv) > KV(5, 4, 255));
	assert_true(kernel_version_code(&kv) < KV(5, 5, 0));
	assert_int_equal(kernel_version_parse("4.19.0-27-amd64", &kv), 0);
	assert_true(kernel_version_code(&kv) < KV(5, 10, 0));
}

static void test_garbage(void **state)
{
	struct kernel_version kv;

	(void)state;
	assert_int_equal(kernel_version_parse("", &kv), -EBADMSG);
	assert_int_equal(kernel_version_parse("linux", &kv), -EBADMSG);
	assert_int_equal(kernel_version_parse("6", &kv), -EBADMSG);
	assert_int_equal(kernel_version_parse("0.1.2", &kv), -EBADMSG);
	assert_int_equal(kernel_version_parse("6.99999999.1", &kv), -EBADMSG);
	assert_int_equal(kernel_version_parse(NULL, &kv), -EBADMSG);
}

/* Debian and Ubuntu freeze the sublevel in the release; the real one is elsewhere. */
static void test_refine(void **state)
{
	const char *debian = "Linux version 6.1.0-50-cloud-amd64 (debian-kernel@lists.debian.org) "
			     "(gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for "
			     "Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.158-1 (2025-11-09)\n";
	const char *ubuntu = "Ubuntu 5.15.0-91.101-generic 5.15.131\n";
	struct kernel_version kv;
	char *fixture;

	(void)state;
	kernel_version_parse("6.1.0-50-cloud-amd64", &kv);
	kernel_version_refine(&kv, debian, NULL);
	assert_int_equal(kv.patch, 158);
	assert_string_equal(kv.patch_source, "proc/version");

	kernel_version_parse("5.15.0-91-generic", &kv);
	kernel_version_refine(&kv, "Linux version 5.15.0-91-generic (buildd@lcy02) #101-Ubuntu\n",
			      ubuntu);
	assert_int_equal(kv.patch, 131);
	assert_string_equal(kv.patch_source, "version_signature");

	/* Another major.minor is never taken: the compiler's Debian version, say. */
	kernel_version_parse("6.1.0-50-cloud-amd64", &kv);
	kernel_version_refine(&kv, "Linux version 6.1.0 (gcc-12 (Debian 12.2.0-14) 12.2.0) #1\n", NULL);
	assert_int_equal(kv.patch, 0);
	assert_string_equal(kv.patch_source, "");

	fixture = slurp(TESTDATA "/old-5.10-memlock-64k/proc/version");
	kernel_version_parse("5.10.0-23-amd64", &kv);
	kernel_version_refine(&kv, fixture, NULL);
	assert_int_equal(kv.patch, 179);
	free(fixture);

	/* A vanilla kernel's /proc/version changes nothing. */
	fixture = slurp(TESTDATA "/host-6.18/proc/version");
	kernel_version_parse("6.18.44-fc-v657", &kv);
	kernel_version_refine(&kv, fixture, NULL);
	assert_int_equal(kv.patch, 44);
	assert_string_equal(kv.patch_source, "");
	free(fixture);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_release_strings),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_refine),
	};

	return cmocka_run_group_tests_name("kernel_version", tests, NULL, NULL);
}
