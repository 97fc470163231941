// SPDX-License-Identifier: GPL-2.0-or-later
/* The fact-to-status rule: could not read is a skip, read garbage is an error. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "array.h"
#include "checks.h"
#include "testutil.h"

static enum check_status status_of(int err)
{
	struct fact_err e = { 0 };

	fact_fail(&e, err, "reason");
	return fact_status(&e);
}

static void test_garbage_is_error(void **state)
{
	(void)state;
	assert_int_equal(status_of(-EBADMSG), STATUS_ERROR);
	/* The sysroot's garbage: a NUL byte in text, a file or a line past any real one. */
	assert_int_equal(status_of(-EILSEQ), STATUS_ERROR);
	assert_int_equal(status_of(-EFBIG), STATUS_ERROR);
	assert_int_equal(status_of(-EOVERFLOW), STATUS_ERROR);
}

static void test_could_not_read_is_skip(void **state)
{
	/* No permission, no file, the process gone, no device, no feature. */
	static const int errs[] = { -EACCES, -EPERM, -ENOENT, -ESRCH, -ENODEV,
				    -EOPNOTSUPP, -ENOSYS, -ENODATA, -ENOTDIR };
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(errs); i++)
		assert_int_equal(status_of(errs[i]), STATUS_SKIP);
}

static void test_other_errnos_are_skip(void **state)
{
	(void)state;
	/* io_uring_setup()'s ENOMEM is RLIMIT_MEMLOCK: a host property, not garbage. */
	assert_int_equal(status_of(-ENOMEM), STATUS_SKIP);
	assert_int_equal(status_of(-EIO), STATUS_SKIP);
	assert_int_equal(status_of(-ESTALE), STATUS_SKIP);
	assert_int_equal(status_of(-ERANGE), STATUS_SKIP);
	/* An errno no one planned for is unknown: skip, never pass. */
	assert_int_equal(status_of(-4095), STATUS_SKIP);
}

static void test_fact_that_holds_is_error(void **state)
{
	struct fact_err e = { 0 };

	(void)state;
	/* A caller that asks about a fact with a value has a bug: shown as error. */
	assert_int_equal(fact_status(&e), STATUS_ERROR);
}

static const struct check test_check = {
	.info = { .id = "test-check", .title = "a test check" },
	.scope = SCOPE_PROCESS,
};

static void test_missing_findings(void **state)
{
	struct proc_facts pf = { .pid = 42 };
	struct report r;
	struct check_ctx ctx = { .proc = &pf, .report = &r };
	struct fact_err e = { 0 };
	struct finding *f;

	(void)state;
	report_init(&r, "audit");
	fact_fail_read(&e, "proc/42/limits", -EACCES);
	f = check_fact_missing(&test_check, &ctx, "host", &e);
	assert_int_equal(f->status, STATUS_SKIP);
	assert_string_equal(f->message, "cannot read 'proc/42/limits': Permission denied");
	assert_int_equal(f->pid, 0);
	fact_fail(&e, -EBADMSG, "cannot parse 'proc/42/limits': unexpected content");
	f = proc_fact_missing(&test_check, &ctx, "pid 42", &e);
	assert_int_equal(f->status, STATUS_ERROR);
	assert_string_equal(f->message, "cannot parse 'proc/42/limits': unexpected content");
	assert_string_equal(f->subject, "pid 42");
	assert_int_equal(f->pid, 42);
	report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_garbage_is_error),
		cmocka_unit_test(test_could_not_read_is_skip),
		cmocka_unit_test(test_other_errnos_are_skip),
		cmocka_unit_test(test_fact_that_holds_is_error),
		cmocka_unit_test(test_missing_findings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
