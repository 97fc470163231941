// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "kernel_version.h"
#include "testutil.h"
#include "uring_sizes.h"

/*
 * Measured on 6.18 as nobody with `ulimit -l N`: a one-entry ring needs
 * 8 KiB (7 fails), a 4096-entry ring 404 KiB (403 fails).
 */
static void test_ring_bytes_match_kernel(void **state)
{
	(void)state;
	assert_int_equal(uring_ring_bytes(1, 2, 4096), 8 << 10);
	assert_int_equal(uring_ring_bytes(4096, 8192, 4096), 404 << 10);
	/* Entries round up to a power of two, as io_uring_setup() does. */
	assert_int_equal(uring_ring_bytes(3000, 6000, 4096), 404 << 10);
	assert_int_equal(uring_roundup_entries(0), 1);
	assert_int_equal(uring_roundup_entries(33), 64);
	/* 64 KiB pages (arm64): each region is one page at least. */
	assert_int_equal(uring_ring_bytes(1, 2, 65536), 128 << 10);
}

static void test_accounting_by_version(void **state)
{
	(void)state;
	assert_true(uring_rings_charged_to_memlock(KV(5, 10, 179)));
	assert_true(uring_rings_charged_to_memlock(KV(5, 11, 22)));
	assert_false(uring_rings_charged_to_memlock(KV(5, 12, 0)));
	assert_false(uring_rings_charged_to_memlock(KV(6, 1, 158)));
	assert_false(uring_rings_charged_to_memlock(KV(6, 13, 12)));
	assert_true(uring_rings_charged_to_memlock(KV(6, 14, 0)));
	assert_true(uring_rings_charged_to_memlock(KV(6, 18, 44)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_bytes_match_kernel),
		cmocka_unit_test(test_accounting_by_version),
	};

	return cmocka_run_group_tests_name("uring_sizes", tests, NULL, NULL);
}
