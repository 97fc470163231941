// SPDX-License-Identifier: GPL-2.0-or-later
/* Probe verdicts on hand-built measurements: each passes and fails. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "checks.h"
#include "testutil.h"
#include "check_run.h"

static struct host_facts hf;
static struct probe_result pr;

/* A clean run on ext4: every mode ran, nothing punted, SQPOLL entered nothing. */
static void setup(void)
{
	unsigned int i;

	memset(&hf, 0, sizeof(hf));
	memset(&pr, 0, sizeof(pr));
	snprintf(pr.dir, sizeof(pr.dir), "/srv/db");
	snprintf(pr.fs, sizeof(pr.fs), "ext4");
	snprintf(pr.device, sizeof(pr.device), "/dev/vda");
	pr.depth = 32;
	pr.bs = 4096;
	pr.fixed_bytes = 32 * 4096;
	pr.memlock_soft = 65536;
	pr.dio_offset_align = pr.dio_mem_align = 512;
	for (i = 0; i < PM__COUNT; i++) {
		pr.modes[i].ran = true;
		pr.modes[i].ios = 100000;
		pr.modes[i].iops = 50000;
		pr.modes[i].punts_tracepoint = true;
		pr.modes[i].syscalls_per_io = i == PM_SQPOLL || i == PM_SQPOLL_FIXED ? 0 : 0.04;
	}
	pr.modes[PM_SQPOLL].sqpoll_thread = true;
	pr.modes[PM_BUFFERED].punts = 50000;	/* the contrast may punt: not judged */
}

static const struct finding *run(const char *id, struct report *r)
{
	return run_check(id, (struct check_ctx){ .host = &hf, .probe = &pr }, "probe", r);
}

#define expect(id, st)                                   \
	do {                                             \
		struct report r_;                        \
		assert_int_equal(run(id, &r_)->status, st); \
		report_free(&r_);                        \
	} while (0)

static void test_fast_path(void **state)
{
	const struct finding *f;
	struct report r;

	(void)state;
	setup();
	expect("probe-fast-path", STATUS_PASS);
	pr.modes[PM_SQPOLL].punts = 50;	/* 0.05%: within the tolerance, and said */
	f = run("probe-fast-path", &r);
	assert_int_equal(f->status, STATUS_PASS);
	assert_contains(f->message, "and 50 of their");
	assert_contains(f->message, "were punted to io-wq, in no mode more than the punt tolerance");
	report_free(&r);
	pr.modes[PM_SQPOLL].punts = 1776;
	snprintf(pr.fs, sizeof(pr.fs), "xfs");
	f = run("probe-fast-path", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "sqpoll 1776 of 100000");
	assert_contains(f->message, "lazytime");
	report_free(&r);
	/* Without the tracepoint a new worker proves a punt, not a share. */
	pr.modes[PM_SQPOLL].punts_tracepoint = false;
	pr.modes[PM_SQPOLL].punts = 1;
	for (unsigned int i = 0; i < PM__COUNT; i++)
		pr.modes[i].punts_tracepoint = false;
	expect("probe-fast-path", STATUS_WARN);
}

static void test_o_direct(void **state)
{

	(void)state;
	setup();
	expect("probe-o-direct", STATUS_PASS);
	pr.memory_fs = true;
	snprintf(pr.fs, sizeof(pr.fs), "tmpfs");
	expect_says("probe-o-direct", STATUS_FAIL, "no-op");
	pr.memory_fs = false;
	pr.odirect_err = -EINVAL;
	expect("probe-o-direct", STATUS_FAIL);
	/* The probe that could not start says why, everywhere. */
	fact_fail(&pr.e, -ENOSPC, "'/srv/db' has 10 MiB free");
	expect("probe-o-direct", STATUS_SKIP);
}

static void test_sqpoll(void **state)
{

	(void)state;
	setup();
	expect("probe-sqpoll", STATUS_PASS);
	pr.modes[PM_SQPOLL].syscalls_per_io = 0.5;
	expect("probe-sqpoll", STATUS_WARN);
	pr.modes[PM_SQPOLL].ran = false;
	fact_fail(&pr.modes[PM_SQPOLL].e, -EPERM, "io_uring_setup() failed: Operation not permitted");
	expect_says("probe-sqpoll", STATUS_FAIL, "not permitted");
	fact_fail(&pr.modes[PM_SQPOLL].e, -ECANCELED, "not selected by --mode");
	expect("probe-sqpoll", STATUS_SKIP);
}

static void test_fixed_and_overflow(void **state)
{
	const struct finding *f;
	struct report r;

	(void)state;
	setup();
	expect("probe-fixed-buffers", STATUS_PASS);
	pr.modes[PM_SQPOLL_FIXED].ran = false;
	pr.fixed_err = -ENOMEM;
	f = run("probe-fixed-buffers", &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(f->message, "RLIMIT_MEMLOCK is 64 KiB");
	assert_contains(finding_fix(f), "LimitMEMLOCK");
	report_free(&r);

	expect("probe-cq-overflow", STATUS_PASS);
	pr.modes[PM_DEFAULT].cq_overflow = true;
	expect("probe-cq-overflow", STATUS_FAIL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fast_path),
		cmocka_unit_test(test_o_direct),
		cmocka_unit_test(test_sqpoll),
		cmocka_unit_test(test_fixed_and_overflow),
	};

	return cmocka_run_group_tests_name("checks_probe", tests, NULL, NULL);
}
