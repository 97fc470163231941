// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fact.h"
#include "sysroot.h"
#include "procfs.h"
#include "testutil.h"

static void test_live_reads_proc(void **state)
{
	struct sysroot sr;
	char line[256];

	(void)state;
	assert_int_equal(sysroot_open(&sr, NULL), 0);
	assert_true(sr.live);
	assert_int_equal(sysroot_read_line(&sr, "proc/sys/kernel/osrelease", line, sizeof(line)), 0);
	assert_true(line[0] >= '1' && line[0] <= '9');
	/* A leading slash means the same as relative: always under the root. */
	assert_int_equal(sysroot_read_line(&sr, "/proc/sys/kernel/ostype", line, sizeof(line)), 0);
	assert_string_equal(line, "Linux");
	sysroot_close(&sr);
}

static void test_captured_tree(void **state)
{
	struct sysroot sr;
	char line[256];

	(void)state;
	assert_int_equal(sysroot_open(&sr, TESTDATA "/uring-disabled-2"), 0);
	assert_false(sr.live);
	assert_int_equal(sysroot_read_line(&sr, "proc/sys/kernel/io_uring_disabled", line,
					   sizeof(line)), 0);
	assert_string_equal(line, "2");
	assert_int_equal(sysroot_read_line(&sr, "proc/sys/kernel/nosuch", line, sizeof(line)),
			 -ENOENT);
	sysroot_close(&sr);
}

static void test_bad_roots(void **state)
{
	struct sysroot sr;
	char *dir = make_tmpdir();

	(void)state;
	assert_int_equal(sysroot_open(&sr, "/nonexistent/uringlint"), -ENOENT);
	/* A directory without proc/ is not a captured host. */
	assert_int_equal(sysroot_open(&sr, dir), -ENOENT);
	write_file(dir, "proc", "not a directory\n");
	assert_int_equal(sysroot_open(&sr, dir), -ENOTDIR);
	rm_rf(dir);
}

/* The tree tests run twice: with openat2, and with the walk of kernels before 5.6. */
static bool walk_on = true;

static int open_tree(struct sysroot *sr, const char *dir, void **state)
{
	int err = sysroot_open(sr, dir);

	if (!err && *state)
		sr->walk = *(bool *)*state;
	return err;
}

/* Symlinks inside a captured tree resolve inside it, never on the host. */
static void test_links_stay_in_root(void **state)
{
	char *dir = make_tmpdir(), path[4200], line[64];
	struct sysroot sr;

	write_file(dir, "proc/sys/kernel/osrelease", "6.1.0\n");
	write_file(dir, "etc/hostname", "inside\n");
	snprintf(path, sizeof(path), "%s/proc/abs", dir);
	assert_int_equal(symlink("/etc/hostname", path), 0);
	snprintf(path, sizeof(path), "%s/proc/up", dir);
	assert_int_equal(symlink("../../../../../../../../etc/hostname", path), 0);
	snprintf(path, sizeof(path), "%s/proc/loop", dir);
	assert_int_equal(symlink("loop", path), 0);
	snprintf(path, sizeof(path), "%s/proc/shadow", dir);
	assert_int_equal(symlink("/etc/shadow", path), 0);
	snprintf(path, sizeof(path), "%s/proc/dirlink", dir);
	assert_int_equal(symlink("/etc/../../etc", path), 0);

	assert_int_equal(open_tree(&sr, dir, state), 0);
	assert_int_equal(sysroot_read_line(&sr, "proc/dirlink/hostname", line, sizeof(line)), 0);
	assert_string_equal(line, "inside");
	assert_int_equal(sysroot_read_line(&sr, "proc/sys/../../etc/./hostname", line,
					   sizeof(line)), 0);
	assert_string_equal(line, "inside");
	assert_int_equal(sysroot_read_line(&sr, "etc/hostname/x", line, sizeof(line)), -ENOTDIR);
	assert_int_equal(sysroot_read_line(&sr, "proc/abs", line, sizeof(line)), 0);
	assert_string_equal(line, "inside");
	assert_int_equal(sysroot_read_line(&sr, "proc/up", line, sizeof(line)), 0);
	assert_string_equal(line, "inside");
	assert_int_equal(sysroot_read_line(&sr, "../../../../etc/hostname", line, sizeof(line)), 0);
	assert_string_equal(line, "inside");
	assert_int_equal(sysroot_read_line(&sr, "proc/loop", line, sizeof(line)), -ELOOP);
	assert_int_equal(sysroot_read_line(&sr, "proc/shadow", line, sizeof(line)), -ENOENT);
	sysroot_close(&sr);
	rm_rf(dir);
}

static void test_hostile_files(void **state)
{
	char *dir = make_tmpdir(), path[4200], *buf;
	struct sysroot sr;
	size_t len;
	char line[8];
	FILE *f;
	int i;

	write_file(dir, "proc/nul", "1\0002");
	snprintf(path, sizeof(path), "%s/proc/nul", dir);
	f = fopen(path, "we");
	assert_non_null(f);
	fwrite("1\0002\n", 1, 4, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/proc/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	snprintf(path, sizeof(path), "%s/proc/big", dir);
	f = fopen(path, "we");
	assert_non_null(f);
	for (i = 0; i < 300; i++)
		fputs("0123456789", f);
	fclose(f);
	write_file(dir, "proc/long", "0123456789abcdef\n");

	assert_int_equal(open_tree(&sr, dir, state), 0);
	assert_int_equal(sysroot_read_file(&sr, "proc/nul", 1024, &buf, &len), -EILSEQ);
	assert_null(buf);
	/* A FIFO must neither block nor be read. */
	assert_int_equal(sysroot_read_file(&sr, "proc/fifo", 1024, &buf, &len), -EINVAL);
	assert_int_equal(sysroot_read_file(&sr, "proc", 1024, &buf, &len), -EISDIR);
	assert_int_equal(sysroot_read_file(&sr, "proc/big", 1024, &buf, &len), -EFBIG);
	assert_int_equal(sysroot_read_file(&sr, "proc/big", 3000, &buf, &len), 0);
	assert_int_equal(len, 3000);
	free(buf);
	assert_int_equal(sysroot_read_line(&sr, "proc/long", line, sizeof(line)), -EOVERFLOW);
	assert_string_equal(sysroot_strerror(-EFBIG), "file too large");
	sysroot_close(&sr);
	rm_rf(dir);
}

/* Run as nobody (root reads mode 000 files): EACCES comes back as an error. */
static void test_unreadable_file(void **state)
{
	char *dir = make_tmpdir(), path[4200], line[16];
	struct sysroot sr;
	int status;
	pid_t pid;

	(void)state;
	write_file(dir, "proc/secret", "x\n");
	snprintf(path, sizeof(path), "%s/proc/secret", dir);
	assert_int_equal(chmod(path, 0), 0);
	assert_int_equal(chmod(dir, 0755), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int rc = 0;

		/* The child frees what it was given: valgrind checks it for leaks too. */
		if (geteuid() == 0 && (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
				       setresuid(65534, 65534, 65534)))
			rc = 2;
		else if (sysroot_open(&sr, dir))
			rc = 3;
		else if (sysroot_read_line(&sr, "proc/secret", line, sizeof(line)) != -EACCES)
			rc = 1;
		free(dir);
		_exit(rc);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	rm_rf(dir);
}

/* The one walk of proc/PID/task: TIDs only, whatever else a tree plants there. */
/* Entries by name: from the directory's fd live, by whole path in a tree or a recording. */
static void test_dir_by_name(void **state)
{
	char *dir = make_tmpdir(), path[4200], name[16], buf[4096], small[8], longp[201];
	struct sysroot_record rec = { 0 };
	struct sysroot_dir d;
	struct sysroot sr;
	size_t len;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "%s/held", dir);
	fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	snprintf(name, sizeof(name), "%d", fd);
	assert_int_equal(sysroot_open(&sr, NULL), 0);
	assert_int_equal(sysroot_dir_open(&sr, "proc/self/fd", &d), 0);
	assert_true(d.dirfd >= 0);
	assert_int_equal(sysroot_dir_readlink(&d, name, buf, sizeof(buf)), 0);
	assert_string_equal(buf, path);
	/* One name, never a path through the directory. */
	assert_int_equal(sysroot_dir_readlink(&d, "..", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(sysroot_dir_readlink(&d, ".", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(sysroot_dir_readlink(&d, "", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(sysroot_dir_readlink(&d, "../self/fd/0", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(sysroot_dir_readlink(&d, "999999", buf, sizeof(buf)), -ENOENT);
	sysroot_dir_close(&d);
	assert_int_equal(sysroot_dir_open(&sr, "proc/self/fdinfo", &d), 0);
	assert_int_equal(sysroot_dir_read_into(&d, name, buf, sizeof(buf), &len), 0);
	assert_true(len > 0 && !strncmp(buf, "pos:", 4));
	assert_int_equal(sysroot_dir_read_into(&d, name, small, sizeof(small), &len), -EFBIG);
	assert_int_equal(sysroot_dir_read_into(&d, "../fd", buf, sizeof(buf), &len), -EINVAL);
	sysroot_dir_close(&d);
	/* A directory that is not there fails, and still reads by path (failing the same). */
	assert_int_equal(sysroot_dir_open(&sr, "proc/self/nosuch", &d), -ENOENT);
	assert_int_equal(sysroot_dir_read_into(&d, "1", buf, sizeof(buf), &len), -ENOENT);
	/* Outside proc/ and sys/ (files of any type): by path, through the root's checks. */
	write_file(dir, "plain", "text\n");
	assert_int_equal(sysroot_dir_open(&sr, dir, &d), 0);
	assert_int_equal(d.dirfd, -1);
	assert_int_equal(sysroot_dir_read_into(&d, "plain", buf, sizeof(buf), &len), 0);
	assert_string_equal(buf, "text\n");
	sysroot_dir_close(&d);
	/* A directory path that does not fit: it and every read of it fail, none of a cut path. */
	memset(longp, 'a', sizeof(longp) - 1);
	memcpy(longp, "proc/", 5);
	longp[sizeof(longp) - 1] = '\0';
	assert_int_equal(sysroot_dir_open(&sr, longp, &d), -ENAMETOOLONG);
	assert_int_equal(sysroot_dir_read_into(&d, "1", buf, sizeof(buf), &len), -ENAMETOOLONG);
	assert_int_equal(sysroot_dir_readlink(&d, "1", buf, sizeof(buf)), -ENAMETOOLONG);
	sysroot_dir_close(&d);
	/* Recorded: every entry by its whole path, as capture writes it. */
	sysroot_record_start(&sr, &rec);
	assert_int_equal(sysroot_dir_open(&sr, "proc/self/fd", &d), 0);
	assert_int_equal(d.dirfd, -1);
	assert_int_equal(sysroot_dir_readlink(&d, name, buf, sizeof(buf)), 0);
	assert_string_equal(buf, path);
	assert_int_equal(rec.n, 1);
	snprintf(path, sizeof(path), "proc/self/fd/%s", name);
	assert_string_equal(rec.v[0].rel, path);
	sysroot_dir_close(&d);
	sysroot_record_free(&rec);
	sysroot_close(&sr);
	close(fd);

	/* A captured tree: by path through its root, its links kept inside. */
	write_file(dir, "proc/7/fdinfo/3", "pos:\t0\nflags:\t02\nmnt_id:\t1\nino:\t5\n");
	write_file(dir, "etc/hostname", "inside\n");
	snprintf(path, sizeof(path), "%s/proc/7/fdinfo/4", dir);
	assert_int_equal(symlink("/etc/hostname", path), 0);
	assert_int_equal(sysroot_open(&sr, dir), 0);
	assert_int_equal(sysroot_dir_open(&sr, "proc/7/fdinfo", &d), 0);
	assert_int_equal(d.dirfd, -1);
	assert_int_equal(sysroot_dir_read_into(&d, "3", buf, sizeof(buf), &len), 0);
	assert_true(!strncmp(buf, "pos:", 4));
	assert_int_equal(sysroot_dir_read_into(&d, "4", buf, sizeof(buf), &len), 0);
	assert_string_equal(buf, "inside\n");
	sysroot_dir_close(&d);
	sysroot_close(&sr);
	rm_rf(dir);
}

static void test_task_iter(void **state)
{
	char *dir = make_tmpdir();
	struct task_iter it;
	struct sysroot sr;
	pid_t tid, sum = 0;
	int n = 0;

	(void)state;
	write_file(dir, "proc/42/task/7/stat", "");
	write_file(dir, "proc/42/task/9/stat", "");
	write_file(dir, "proc/42/task/12x/stat", "");
	write_file(dir, "proc/42/task/0/stat", "");
	write_file(dir, "proc/42/task/-3/stat", "");
	write_file(dir, "proc/42/task/99999999999/stat", "");
	assert_int_equal(sysroot_open(&sr, dir), 0);
	assert_int_equal(task_iter_open(&it, &sr, 42), 0);
	while ((tid = task_iter_next(&it))) {
		sum += tid;
		n++;
	}
	task_iter_close(&it);
	assert_int_equal(n, 2);
	assert_int_equal(sum, 16);
	assert_int_equal(task_iter_open(&it, &sr, 43), -ENOENT);
	/* The processes: 42 only; "self", "12x" and "0" are not processes. */
	write_file(dir, "proc/self/stat", "");
	write_file(dir, "proc/12x/stat", "");
	write_file(dir, "proc/0/stat", "");
	write_file(dir, "proc/cmdline", "");
	assert_int_equal(proc_iter_open(&it, &sr), 0);
	n = 0;
	sum = 0;
	while ((tid = task_iter_next(&it))) {
		sum += tid;
		n++;
	}
	task_iter_close(&it);
	assert_int_equal(it.err, 0);
	assert_int_equal(n, 1);
	assert_int_equal(sum, 42);
	/* Without a sysroot: the live /proc, where this test's own thread is. */
	assert_int_equal(task_iter_open(&it, NULL, getpid()), 0);
	n = 0;
	while ((tid = task_iter_next(&it)))
		n += tid == getpid();
	task_iter_close(&it);
	assert_int_equal(n, 1);
	sysroot_close(&sr);
	rm_rf(dir);
}

static int parse_word(const char *text, void *out)
{
	return sscanf(text, "%31s", (char *)out) == 1 ? 0 : -EBADMSG;
}

/* The printf-style fact readers: the path formatted, read, parsed; too long: said, not cut. */
static void test_fact_readers_f(void **state)
{
	char *dir = make_tmpdir(), word[32] = "", *longname;
	struct fact_err e = { 0 };
	struct sysroot sr;
	int64_t v = 0;

	(void)state;
	write_file(dir, "proc/7/status", "Name: x\n");
	write_file(dir, "proc/sys/kernel/n7", "42\n");
	assert_int_equal(sysroot_open(&sr, dir), 0);
	fact_read_parsedf(&sr, &e, parse_word, word, "proc/%d/status", 7);
	assert_int_equal(e.err, 0);
	assert_string_equal(word, "Name:");
	fact_read_i64f(&sr, &e, &v, "proc/sys/kernel/n%d", 7);
	assert_int_equal(e.err, 0);
	assert_int_equal(v, 42);
	fact_read_i64f(&sr, &e, &v, "proc/sys/kernel/n%d", 8);
	assert_int_equal(e.err, -ENOENT);
	assert_non_null(strstr(e.why, "proc/sys/kernel/n8"));
	longname = malloc(PATH_MAX + 16);
	assert_non_null(longname);
	memset(longname, 'a', PATH_MAX + 15);
	longname[PATH_MAX + 15] = '\0';
	memset(&e, 0, sizeof(e));
	fact_read_parsedf(&sr, &e, parse_word, word, "proc/%s", longname);
	assert_int_equal(e.err, -ENAMETOOLONG);
	free(longname);
	sysroot_close(&sr);
	rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_reads_proc),
		cmocka_unit_test(test_captured_tree),
		cmocka_unit_test(test_bad_roots),
		cmocka_unit_test(test_links_stay_in_root),
		cmocka_unit_test(test_hostile_files),
		cmocka_unit_test_prestate(test_links_stay_in_root, &walk_on),
		cmocka_unit_test_prestate(test_hostile_files, &walk_on),
		cmocka_unit_test(test_unreadable_file),
		cmocka_unit_test(test_task_iter),
		cmocka_unit_test(test_fact_readers_f),
		cmocka_unit_test(test_dir_by_name),
	};

	return cmocka_run_group_tests_name("sysroot", tests, NULL, NULL);
}
