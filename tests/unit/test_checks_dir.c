// SPDX-License-Identifier: GPL-2.0-or-later
/* Filesystem and block device checks on hand-built facts: each passes and fails. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "checks.h"
#include "testutil.h"
#include "check_run.h"

static struct plan plan;
static struct host_facts hf;
static struct dir_facts dir;

/* /srv/db: XFS (lazytime) on nvme0n1p1, O_DIRECT tried and working. */
static void setup(void)
{
	memset(&hf, 0, sizeof(hf));
	memset(&dir, 0, sizeof(dir));
	plan_defaults(&plan);
	hf.live = true;
	hf.page_size = 4096;
	snprintf(dir.path, sizeof(dir.path), "/srv/db");
	snprintf(dir.resolved, sizeof(dir.resolved), "/srv/db");
	snprintf(dir.mount.m.fstype, sizeof(dir.mount.m.fstype), "xfs");
	snprintf(dir.mount.m.mount_point, sizeof(dir.mount.m.mount_point), "/srv/db");
	snprintf(dir.mount.m.options, sizeof(dir.mount.m.options), "rw,noatime,lazytime");
	snprintf(dir.mount.m.source, sizeof(dir.mount.m.source), "/dev/nvme0n1p1");
	snprintf(dir.blk.name, sizeof(dir.blk.name), "nvme0n1p1");
	snprintf(dir.blk.disk, sizeof(dir.blk.disk), "nvme0n1");
	dir.blk.partition = true;
	dir.blk.logical_block_size = 512;
	dir.blk.physical_block_size = 4096;
	dir.blk.nr_requests = 1023;
	dir.blk.dma_alignment = 3;
	dir.blk.io_poll = 1;
	dir.blk.rotational = 0;
	dir.blk.poll_queues = 2;
	snprintf(dir.blk.poll_driver, sizeof(dir.blk.poll_driver), "nvme");
	snprintf(dir.blk.scheduler, sizeof(dir.blk.scheduler), "none");
	dir.odirect.tmpfile = true;
	dir.odirect.io_size = 4096;
	dir.odirect.dioalign = true;
	dir.odirect.mem_align = 4;
	dir.odirect.offset_align = 512;
	hf.dirs = &dir;
	hf.ndirs = 1;
}

static const struct finding *run(const char *id, struct report *r)
{
	return run_check(id, (struct check_ctx){ .host = &hf, .plan = &plan }, "preflight", r);
}

#define ev_str(f, key) json_object_get_string(json_object_object_get((f)->evidence, key))

static void test_fs_type(void **state)
{
	const struct finding *f;
	struct report r;

	(void)state;
	setup();
	f = run("fs-type", &r);
	assert_int_equal(f->status, STATUS_PASS);
	assert_string_equal(f->subject, "/srv/db");
	assert_string_equal(ev_str(f, "fs"), "xfs");
	assert_string_equal(ev_str(f, "device"), "nvme0n1p1 on nvme0n1");
	report_free(&r);

	snprintf(dir.mount.m.fstype, sizeof(dir.mount.m.fstype), "tmpfs");
	f = run("fs-type", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	report_free(&r);

	snprintf(dir.mount.m.fstype, sizeof(dir.mount.m.fstype), "fuse.sshfs");
	expect_says("fs-type", STATUS_WARN, "FUSE");

	snprintf(dir.mount.m.fstype, sizeof(dir.mount.m.fstype), "reiserfs");
	expect_says("fs-type", STATUS_WARN, "uringlint probe --dir /srv/db");

	/* No --dir at all (a captured tree): skip with the reason. */
	hf.ndirs = 0;
	expect_says("fs-type", STATUS_SKIP, "no --dir");
}

static void test_o_direct(void **state)
{
	const struct finding *f;
	struct report r;

	(void)state;
	setup();
	f = run("fs-o-direct", &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);

	dir.odirect.open_err = -EINVAL;
	expect_says("fs-o-direct", STATUS_FAIL, "Invalid argument");

	dir.odirect.open_err = 0;
	snprintf(dir.mount.m.fstype, sizeof(dir.mount.m.fstype), "tmpfs");
	expect_says("fs-o-direct", STATUS_FAIL, "no-op");

	fact_fail(&dir.odirect.e, -EACCES, "cannot create a file in '/srv/db': Permission denied");
	f = run("fs-o-direct", &r);
	assert_int_equal(f->status, STATUS_SKIP);
	report_free(&r);
}

static void test_alignment(void **state)
{
	const struct finding *f;
	struct report r;

	(void)state;
	setup();
	f = run("dio-alignment", &r);
	assert_int_equal(f->status, STATUS_PASS);
	assert_string_equal(ev_str(f, "source"), "statx(STATX_DIOALIGN)");
	report_free(&r);

	/* Without statx: the block device's sizes. */
	dir.odirect.dioalign = false;
	dir.blk.logical_block_size = 4096;
	expect_says("dio-alignment", STATUS_PASS, "multiples of 4096 bytes, buffers aligned to 4 bytes");

	dir.blk.logical_block_size = 16384;
	f = run("dio-alignment", &r);
	assert_int_equal(f->status, STATUS_WARN);
	report_free(&r);

	dir.odirect.dioalign = true;
	dir.odirect.offset_align = 0;
	f = run("dio-alignment", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	report_free(&r);

	dir.odirect.dioalign = false;
	fact_fail(&dir.blk.e, -ENODEV, "tmpfs has no block device");
	f = run("dio-alignment", &r);
	assert_int_equal(f->status, STATUS_SKIP);
	report_free(&r);
}

static void test_mount_options(void **state)
{
	const struct finding *f;
	struct report r;

	(void)state;
	setup();
	f = run("mount-options", &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);

	snprintf(dir.mount.m.options, sizeof(dir.mount.m.options), "rw,relatime");
	expect_says("mount-options", STATUS_WARN, "lazytime");

	snprintf(dir.mount.m.fstype, sizeof(dir.mount.m.fstype), "ext4");
	f = run("mount-options", &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);

	snprintf(dir.mount.m.options, sizeof(dir.mount.m.options), "rw,sync,relatime");
	expect_says("mount-options", STATUS_WARN, "mounted sync");
}

static void test_blk(void **state)
{
	const struct finding *f;
	struct report r;

	(void)state;
	setup();
	f = run("blk-queue-depth", &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);
	plan.depth = 2048;
	expect_says("blk-queue-depth", STATUS_WARN, "blk_mq_get_tag");

	f = run("blk-scheduler", &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);
	snprintf(dir.blk.scheduler, sizeof(dir.blk.scheduler), "bfq");
	f = run("blk-scheduler", &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(finding_fix(f), "echo none > /sys/block/nvme0n1/queue/scheduler");
	report_free(&r);

	f = run("blk-stacked", &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);
	snprintf(dir.blk.slaves, sizeof(dir.blk.slaves), "nvme0n1,nvme1n1");
	snprintf(dir.blk.disk, sizeof(dir.blk.disk), "dm-0");
	expect_says("blk-stacked", STATUS_WARN, "device-mapper");

	fact_fail(&dir.blk.e, -ENODEV, "tmpfs has no block device (source 'tmpfs')");
	expect_says("blk-stacked", STATUS_SKIP, "no block device");
}

static void test_iopoll(void **state)
{
	const struct finding *f;
	struct report r;

	(void)state;
	setup();
	f = run("blk-iopoll", &r);
	assert_int_equal(f->status, STATUS_SKIP);
	report_free(&r);

	plan.iopoll = true;
	f = run("blk-iopoll", &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);

	dir.blk.io_poll = 0;
	dir.blk.poll_queues = 0;
	f = run("blk-iopoll", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(finding_fix(f), "nvme.poll_queues=N");
	report_free(&r);
	/* virtio-blk has poll queues too, from its own module parameter. */
	snprintf(dir.blk.poll_driver, sizeof(dir.blk.poll_driver), "virtio_blk");
	f = run("blk-iopoll", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "virtio_blk.poll_queues = 0");
	assert_contains(finding_fix(f), "virtio_blk.poll_queues=N");
	report_free(&r);

	dir.blk.poll_queues = -1;
	f = run("blk-iopoll", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(finding_fix(f), "drop IORING_SETUP_IOPOLL");
	report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fs_type),
		cmocka_unit_test(test_o_direct),
		cmocka_unit_test(test_alignment),
		cmocka_unit_test(test_mount_options),
		cmocka_unit_test(test_blk),
		cmocka_unit_test(test_iopoll),
	};

	return cmocka_run_group_tests_name("checks_dir", tests, NULL, NULL);
}
