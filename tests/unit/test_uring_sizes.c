// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "array.h"
#include "procfs.h"
#include "testutil.h"
#include "uring_sizes.h"

/*
 * Measured on 6.18 as a user without CAP_IPC_LOCK, by the smallest
 * RLIMIT_MEMLOCK under which io_uring_queue_init(N) succeeds (liburing 2.3:
 * CQ twice the SQ): 1 to 64 entries 8 KiB, 128 16 KiB, 256 28 KiB, 512 52 KiB,
 * 1024 104 KiB, 2048 204 KiB, 4096 404 KiB, 8192 804 KiB, 32768 3204 KiB.
 */
static void test_ring_bytes_match_kernel(void **state)
{
	static const struct {
		uint32_t entries;
		uint64_t bytes;
	} measured[] = {
		{ 1, 8192 },	   { 64, 8192 },	{ 128, 16384 },	    { 256, 28672 },
		{ 512, 53248 },	   { 1024, 106496 },	{ 2048, 208896 },   { 4096, 413696 },
		{ 8192, 823296 },  { 16384, 1642496 },	{ 32768, 3280896 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(measured); i++) {
		assert_int_equal(uring_ring_bytes(measured[i].entries, 2 * measured[i].entries, 4096),
				 measured[i].bytes);
		assert_int_equal(uring_ring_charge(KV(6, 18, 44), measured[i].entries,
						   2 * measured[i].entries, 4096),
				 measured[i].bytes);
	}
	/* Entries round up to a power of two, as io_uring_setup() does. */
	assert_int_equal(uring_ring_bytes(3000, 6000, 4096), 404 << 10);
	assert_int_equal(uring_roundup_entries(0), 1);
	assert_int_equal(uring_roundup_entries(33), 64);
	/* 64 KiB pages (arm64): each region is one page at least. */
	assert_int_equal(uring_ring_bytes(1, 2, 65536), 128 << 10);
}

/*
 * 5.10 and 5.11 charged ring_pages(): each region rounded up to a power of
 * two of pages, so a 4096-entry ring cost 512 KiB there (256 KiB of SQEs,
 * and 148 KiB of rings rounded to 256 KiB).
 */
static void test_charge_by_version(void **state)
{
	(void)state;
	assert_int_equal(uring_ring_charge(KV(5, 10, 179), 4096, 8192, 4096), 512 << 10);
	assert_int_equal(uring_ring_charge(KV(5, 10, 179), 1, 2, 4096), 8 << 10);
	assert_int_equal(uring_ring_charge(KV(5, 11, 0), 256, 512, 4096), 32 << 10);
	assert_int_equal(uring_ring_charge(KV(6, 1, 158), 4096, 8192, 4096), 0);
	assert_int_equal(uring_ring_charge(KV(6, 13, 12), 1, 2, 4096), 0);
	assert_int_equal(uring_ring_charge(KV(6, 14, 0), 256, 512, 4096), 28 << 10);
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
		cmocka_unit_test(test_charge_by_version),
		cmocka_unit_test(test_accounting_by_version),
	};

	return cmocka_run_group_tests_name("uring_sizes", tests, NULL, NULL);
}
