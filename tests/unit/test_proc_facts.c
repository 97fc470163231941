// SPDX-License-Identifier: GPL-2.0-or-later
/* The process collector on trees built from real captures (6.18 and 6.1), and live. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>

#include "file_types.h"
#include "proc_facts.h"
#include "proc_json.h"
#include "proc_scan.h"
#include "testutil.h"

static void collect(const char *root, pid_t pid, struct proc_facts *pf)
{
	struct sysroot sr;

	assert_int_equal(sysroot_open(&sr, root), 0);
	proc_facts_collect(&sr, pid, NULL, pf);
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

static enum proc_file_need need_type(const struct proc_facts *pf, const struct proc_file *f,
				     void *arg)
{
	(void)pf;
	(void)f;
	(void)arg;
	return PFILE_NEED_TYPE;
}

/*
 * Live: the types read from a directory's entries are statx's. Enough files
 * in one directory for it to be read, FIFOs among them, and a file and a
 * FIFO deleted after they were opened (their paths now name nothing).
 */
static void test_live_types(void **state)
{
	const struct proc_collect how = { .need = need_type };
	static const int deleted[] = { 0, 6 };	/* a FIFO and a file */
	char dir[] = "/tmp/uringlint-types-XXXXXX", path[64];
	int fds[FILE_TYPES_DIR_MIN + 4], i, n = FILE_TYPES_DIR_MIN + 4;
	struct proc_facts all, typed;
	struct sysroot sr;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%02d", dir, i);
		if (i % 5 == 0)
			assert_int_equal(mkfifo(path, 0600), 0);
		fds[i] = open(path, (i % 5 == 0 ? O_RDWR : O_RDWR | O_CREAT) | O_CLOEXEC, 0600);
		assert_true(fds[i] >= 0);
	}
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/f%02d", dir, deleted[i]);
		assert_int_equal(unlink(path), 0);
	}
	assert_int_equal(sysroot_open(&sr, NULL), 0);
	proc_facts_collect(&sr, getpid(), NULL, &all);
	/* Each read pins the process with a pidfd of its own: one open at a time, as in an audit. */
	if (all.pinned)
		close(all.pidfd);
	all.pinned = false;
	proc_facts_collect(&sr, getpid(), &how, &typed);
	sysroot_close(&sr);
	assert_int_equal(all.nfiles, typed.nfiles);
	for (i = 0; i < n; i++) {
		const struct proc_file *a = file_fd(&all, fds[i]), *t = file_fd(&typed, fds[i]);

		assert_non_null(a);
		assert_non_null(t);
		assert_int_equal(t->type, i % 5 == 0 ? PFILE_OTHER : PFILE_REGULAR);
		assert_int_equal(t->type, a->type);
		assert_true(a->size_known == (i % 5 != 0));
		assert_false(t->size_known);
		assert_int_equal(t->ext_err, -ECANCELED);
	}
	proc_facts_free(&all);
	proc_facts_free(&typed);
	for (i = 0; i < n; i++) {
		close(fds[i]);
		snprintf(path, sizeof(path), "%s/f%02d", dir, i);
		unlink(path);
	}
	assert_int_equal(rmdir(dir), 0);
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

/*
 * A thread's id names its process, unless that process's own task is a
 * zombie (its main thread exited while others run) or is not in the tree.
 */
static void test_thread_names_process(void **state)
{
	char *dir = make_tmpdir();
	struct sysroot sr;
	pid_t tgid = 0;

	(void)state;
	write_file(dir, "proc/71/status", "Name:\tsvc\nTgid:\t70\nUid:\t0\t0\t0\t0\n"
					  "Gid:\t0\t0\t0\t0\nGroups:\t\nThreads:\t2\n"
					  "CapEff:\t0\nCpus_allowed_list:\t0-1\n");
	write_file(dir, "proc/70/stat", "70 (a) b) S 1 70 70 0 -1\n");
	write_file(dir, "proc/80/stat", "80 (svc) Z 1 80 80 0 -1\n");
	assert_int_equal(sysroot_open(&sr, dir), 0);
	assert_int_equal(proc_tgid(&sr, 71, &tgid), 0);
	assert_int_equal(tgid, 70);
	assert_int_equal(proc_tgid(&sr, 72, &tgid), -ENOENT);
	/* The state after the comm's last ')': the comm may hold one. */
	assert_true(proc_leader_alive(&sr, 70));
	assert_false(proc_leader_alive(&sr, 80));
	assert_false(proc_leader_alive(&sr, 90));
	sysroot_close(&sr);
	rm_rf(dir);
}

/*
 * A MariaDB server's option files, read inside its root in the server's
 * order: /etc/my.cnf, then /etc/mysql/my.cnf and the directory it
 * includes (its .cnf files in name order); then its command line. In a
 * captured tree what capture copied is read (on the live host, as the
 * server's own user could: tests/e2e/security.sh).
 */
static void test_mariadb_config(void **state)
{
	char *dir = make_tmpdir(), path[4200];
	struct proc_facts pf;

	(void)state;
	write_file(dir, "proc/90/stat", "90 (mariadbd) S 1 90 90 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 "
					  "1 0 100 0 0\n");
	write_file(dir, "proc/90/status", "Name:\tmariadbd\nTgid:\t90\nUid:\t4242\t4242\t4242\t4242\n"
					    "Gid:\t4242\t4242\t4242\t4242\nGroups:\t \nCapEff:\t0\n"
					    "Threads:\t1\n");
	write_file(dir, "proc/90/cmdline", "/usr/sbin/mariadbd");
	snprintf(path, sizeof(path), "%s/proc/90/exe", dir);
	assert_int_equal(symlink("/usr/sbin/mariadbd", path), 0);
	write_file(dir, "proc/90/root/etc/my.cnf", "[mysqld]\ninnodb_flush_method = O_DIRECT\n");
	write_file(dir, "proc/90/root/etc/mysql/my.cnf", "[client-server]\n"
		   "!includedir /etc/mysql/mariadb.conf.d/\n");
	write_file(dir, "proc/90/root/etc/mysql/mariadb.conf.d/50-server.cnf",
		   "[mysqld]\ninnodb_flush_method = fsync\n");
	write_file(dir, "proc/90/root/etc/mysql/mariadb.conf.d/60-later.cnf",
		   "[mysqld]\ninnodb_linux_aio = aio\n");
	write_file(dir, "proc/90/root/etc/mysql/mariadb.conf.d/README", "[mysqld]\ninnodb_flush_method = nosync\n");
	collect(dir, 90, &pf);
	assert_non_null(pf.mariadb);
	assert_string_equal(pf.mariadb->flush_method.value, "fsync");
	assert_string_equal(pf.mariadb->flush_method.from, "/etc/mysql/mariadb.conf.d/50-server.cnf");
	assert_string_equal(pf.mariadb->linux_aio.value, "aio");
	assert_false(pf.mariadb->unread);
	proc_facts_free(&pf);
	/* Its command line last; --no-defaults reads no file. */
	write_file(dir, "proc/90/cmdline", "/usr/sbin/mariadbd\0--no-defaults\0--innodb-flush-method=O_DSYNC");
	snprintf(path, sizeof(path), "%s/proc/90/cmdline", dir);
	{
		static const char argv[] = "/usr/sbin/mariadbd\0--no-defaults\0--innodb-flush-method=O_DSYNC";
		FILE *f = fopen(path, "we");

		assert_non_null(f);
		assert_int_equal(fwrite(argv, 1, sizeof(argv), f), sizeof(argv));
		assert_int_equal(fclose(f), 0);
	}
	collect(dir, 90, &pf);
	assert_string_equal(pf.mariadb->flush_method.value, "O_DSYNC");
	assert_string_equal(pf.mariadb->flush_method.from, "its command line");
	assert_false(pf.mariadb->unread);
	proc_facts_free(&pf);
	rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample_6_18),
		cmocka_unit_test(test_sample_6_1),
		cmocka_unit_test(test_qemu_6_1),
		cmocka_unit_test(test_missing_pid),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_live_types),
		cmocka_unit_test(test_scan),
		cmocka_unit_test(test_thread_names_process),
		cmocka_unit_test(test_mariadb_config),
	};

	return cmocka_run_group_tests_name("proc_facts", tests, NULL, NULL);
}
