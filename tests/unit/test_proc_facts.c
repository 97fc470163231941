// SPDX-License-Identifier: GPL-2.0-or-later
/* The process collector on trees built from real captures (6.18 and 6.1), and live. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>

#include "proc_facts.h"
#include "proc_json.h"
#include "proc_scan.h"
#include "testutil.h"

static void collect(const char *root, pid_t pid, struct proc_facts *pf)
{
	struct sysroot sr;

	assert_int_equal(sysroot_open(&sr, root), 0);
	proc_facts_collect(&sr, pid, pf);
	sysroot_close(&sr);
}

static const struct proc_file *file_fd(const struct proc_facts *pf, int fd)
{
	size_t i;

	for (i = 0; i < pf->nfiles; i++)
		if (pf->files[i].fd == fd)
			return &pf->files[i];
	return NULL;
}

static void test_sample_6_18(void **state)
{
	const struct proc_file *f;
	struct proc_facts pf;

	(void)state;
	collect(TESTDATA "/proc-6.18", 31435, &pf);
	assert_int_equal(pf.e.err, 0);
	assert_string_equal(pf.comm, "cap");
	assert_false(pf.kernel_thread);
	assert_int_equal(pf.nrings, 2);
	assert_int_equal(pf.rings[0].fd + pf.rings[1].fd, 7);
	f = file_fd(&pf, 5);
	assert_non_null(f);
	assert_string_equal(f->path, "/srv/data/data.bin");
	assert_true(f->gen.flags & O_DIRECT);
	assert_true(f->registered);
	f = file_fd(&pf, 6);
	assert_true(f->gen.flags & O_APPEND);
	assert_true(f->registered);
	/* Under --root nothing is stat'ed or mapped. */
	assert_int_equal(f->ext_err, -EOPNOTSUPP);
	assert_int_equal(pf.threads.n, 3);
	assert_int_equal(pf.threads.iou_sqp, 1);
	assert_int_equal(pf.threads.iou_wrk, 1);
	assert_int_equal(pf.limits.lim.memlock.soft, 8388608);
	assert_int_equal(pf.status.st.vm_pin_kb, 8);
	proc_facts_free(&pf);
}

static void test_sample_6_1(void **state)
{
	struct proc_facts pf;
	size_t i;
	int sq = 0;

	(void)state;
	collect(TESTDATA "/proc-6.1", 100, &pf);
	assert_int_equal(pf.nrings, 2);
	for (i = 0; i < pf.nrings; i++)
		sq += pf.rings[i].u.sq_thread == 101;
	assert_int_equal(sq, 1);
	/* 6.1 prints basenames: data.bin and log.txt still match. */
	assert_true(file_fd(&pf, 5)->registered);
	assert_true(file_fd(&pf, 6)->registered);
	assert_int_equal(pf.threads.iou_wrk, 4);
	proc_facts_free(&pf);
}

/* Captured inside Debian 12's 6.1.192 under qemu (make check-kernels). */
static void test_qemu_6_1(void **state)
{
	struct proc_facts pf;
	char line[256];
	pid_t sqp = 0;
	size_t i;

	(void)state;
	/* attached: four rings, all naming the one idle SQPOLL thread. */
	collect(TESTDATA "/debian12-6.1-qemu", 223, &pf);
	assert_int_equal(pf.nrings, 4);
	assert_int_equal(pf.threads.iou_sqp, 1);
	for (i = 0; i < pf.threads.n; i++)
		if (pf.threads.v[i].kind == THREAD_IOU_SQP)
			sqp = pf.threads.v[i].tid;
	for (i = 0; i < pf.nrings; i++)
		assert_int_equal(pf.rings[i].u.sq_thread, sqp);
	proc_facts_summary(&pf, line, sizeof(line));
	assert_non_null(strstr(line, "4 rings (4 SQPOLL)"));
	proc_facts_free(&pf);
	/* clean: the busy SQPOLL thread holds its lock, so 6.1 prints SqThread -1. */
	collect(TESTDATA "/debian12-6.1-qemu", 231, &pf);
	assert_int_equal(pf.nrings, 1);
	assert_int_equal(pf.rings[0].u.sq_thread, -1);
	assert_int_equal(pf.threads.iou_sqp, 1);
	assert_int_equal(pf.rings[0].u.user_files, 1);
	assert_int_equal(pf.rings[0].u.user_bufs, 1);
	assert_true(file_fd(&pf, 3)->registered);	/* "clean.dat", a basename on 6.1 */
	proc_facts_summary(&pf, line, sizeof(line));
	assert_non_null(strstr(line, "1 ring (0 SQPOLL, and a SQPOLL thread no ring names)"));
	proc_facts_free(&pf);
}

static void test_missing_pid(void **state)
{
	struct proc_facts pf;

	(void)state;
	collect(TESTDATA "/proc-6.18", 99999, &pf);
	assert_int_equal(pf.e.err, -ESRCH);
	assert_string_equal(pf.e.why, "pid 99999: no such process");
	proc_facts_free(&pf);
}

/* Live: this test process has no ring; a kernel thread is said to be one. */
static void test_live(void **state)
{
	struct proc_facts pf;

	(void)state;
	collect(NULL, getpid(), &pf);
	assert_int_equal(pf.e.err, 0);
	assert_int_equal(pf.nrings, 0);
	assert_true(pf.nfds >= 3);
	assert_true(pf.threads.n >= 1);
	proc_facts_free(&pf);
	collect(NULL, 2, &pf);	/* kthreadd */
	if (pf.e.err == 0)
		assert_true(pf.kernel_thread);
	proc_facts_free(&pf);
}

static void test_scan(void **state)
{
	unsigned int unreadable;
	struct sysroot sr;
	pid_t *pids;
	size_t n;

	(void)state;
	assert_int_equal(sysroot_open(&sr, TESTDATA "/proc-6.18"), 0);
	assert_int_equal(uring_pids_find(&sr, &pids, &n, &unreadable), 0);
	assert_int_equal(n, 1);
	assert_int_equal(pids[0], 31435);
	free(pids);
	sysroot_close(&sr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample_6_18),
		cmocka_unit_test(test_sample_6_1),
		cmocka_unit_test(test_qemu_6_1),
		cmocka_unit_test(test_missing_pid),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_scan),
	};

	return cmocka_run_group_tests_name("proc_facts", tests, NULL, NULL);
}
