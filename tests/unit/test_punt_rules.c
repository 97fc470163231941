// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The punt-cause table by filesystem and kernel: for each, which requests
 * every one of which is punted (certain), which only under load (state),
 * and which the table does not know.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "checks.h"
#include "procfs.h"
#include "testutil.h"

static const struct kernel_version k61 = { .major = 6, .minor = 1 };
static const struct kernel_version k62 = { .major = 6, .minor = 2 };
static const struct kernel_version k63 = { .major = 6, .minor = 3 };
static const struct kernel_version k66 = { .major = 6, .minor = 6 };
static const struct kernel_version k618 = { .major = 6, .minor = 18 };
static const struct kernel_version k515 = { .major = 5, .minor = 15 };

/* certain: 1, state: 0, no rule: -1 */
static int rule(const char *fs, const struct kernel_version *kv, enum punt_kind kind)
{
	const struct punt_rule *r = punt_rule_find(fs, kv, kind);

	return r ? r->certain : -1;
}

static void test_ext4(void **state)
{
	(void)state;
	assert_int_equal(rule("ext4", &k618, PUNT_BUFFERED_WRITE), 1);
	assert_int_equal(rule("ext4", NULL, PUNT_BUFFERED_WRITE), 1);	/* every kernel alike */
	assert_int_equal(rule("ext4", &k618, PUNT_WRITE), -1);		/* O_DIRECT overwrites: no */
	assert_int_equal(rule("ext4", &k618, PUNT_DIO_EXTEND), 1);
	assert_int_equal(rule("ext4", &k618, PUNT_DIO_HOLE), 1);
	/* Unwritten extents: every write before 6.3, none aligned from 6.3 (ext4_overwrite_io). */
	assert_int_equal(rule("ext4", &k61, PUNT_DIO_UNWRITTEN), 1);
	assert_int_equal(rule("ext4", &k62, PUNT_DIO_UNWRITTEN), 1);
	assert_int_equal(rule("ext4", &k63, PUNT_DIO_UNWRITTEN), 0);
	assert_int_equal(rule("ext4", &k618, PUNT_DIO_UNWRITTEN), 0);
	assert_int_equal(rule("ext4", NULL, PUNT_DIO_UNWRITTEN), -1);
	assert_int_equal(rule("ext4", &k618, PUNT_BUFFERED_READ), -1);
}

static void test_xfs(void **state)
{
	(void)state;
	/* The inode lock and the timestamps: state, from 6.0; every one before. */
	assert_int_equal(rule("xfs", &k618, PUNT_BUFFERED_WRITE), 0);
	assert_int_equal(rule("xfs", &k515, PUNT_BUFFERED_WRITE), 1);
	assert_int_equal(rule("xfs", NULL, PUNT_BUFFERED_WRITE), -1);
	/* Past EOF: a gap to zero or blocks to allocate punt; space preallocated there not. */
	assert_int_equal(rule("xfs", &k618, PUNT_DIO_EXTEND), 0);
	assert_int_equal(rule("xfs", &k618, PUNT_DIO_HOLE), 1);
	assert_int_equal(rule("xfs", &k618, PUNT_DIO_UNWRITTEN), 0);
	assert_int_equal(rule("xfs", &k618, PUNT_WRITE), -1);
}

static void test_btrfs(void **state)
{
	(void)state;
	/* btrfs_write_check(): every write to a copy-on-write file, O_DIRECT included. */
	assert_int_equal(rule("btrfs", &k618, PUNT_WRITE), 1);
	assert_int_equal(rule("btrfs", &k61, PUNT_BUFFERED_WRITE), 1);
	assert_int_equal(rule("btrfs", &k618, PUNT_DIO_HOLE), 1);
	assert_int_equal(rule("btrfs", &k618, PUNT_READ), -1);
	assert_non_null(strstr(punt_rule_find("btrfs", &k618, PUNT_WRITE)->why, "btrfs_write_check"));
}

static void test_tmpfs(void **state)
{
	(void)state;
	/* No FMODE_NOWAIT: from 6.5 every request, reads included; before, buffered writes. */
	assert_int_equal(rule("tmpfs", &k66, PUNT_READ), 1);
	assert_int_equal(rule("tmpfs", &k66, PUNT_WRITE), 1);
	assert_int_equal(rule("tmpfs", &k61, PUNT_READ), -1);
	assert_int_equal(rule("tmpfs", &k61, PUNT_BUFFERED_WRITE), 1);
	assert_int_equal(rule("tmpfs", &k61, PUNT_WRITE), -1);
}

static void test_unknown(void **state)
{
	(void)state;
	assert_int_equal(rule("nfs4", &k618, PUNT_BUFFERED_WRITE), -1);
	assert_int_equal(rule("", &k618, PUNT_WRITE), -1);
	assert_null(punt_rule_find(NULL, &k618, PUNT_WRITE));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ext4),
		cmocka_unit_test(test_xfs),
		cmocka_unit_test(test_btrfs),
		cmocka_unit_test(test_tmpfs),
		cmocka_unit_test(test_unknown),
	};

	return cmocka_run_group_tests_name("punt_rules", tests, NULL, NULL);
}
