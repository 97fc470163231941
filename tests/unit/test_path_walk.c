// SPDX-License-Identifier: GPL-2.0-or-later
/* A path a user names, opened through no link another user owns. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "path_walk.h"
#include "testutil.h"

#define NOBODY 65534

static void at(char *out, const char *dir, const char *rel)
{
	snprintf(out, PATH_MAX, "%s/%s", dir, rel);
}

/* Reads the file an fd holds open: what the walk reached. */
static void assert_reads(int fd, const char *want)
{
	char buf[64] = "";

	assert_true(fd >= 0);
	assert_true(read(fd, buf, sizeof(buf) - 1) >= 0);
	assert_string_equal(buf, want);
	close(fd);
}

static void test_owned_links(void **state)
{
	char *dir = make_tmpdir(), p[PATH_MAX], q[PATH_MAX], cwd[PATH_MAX];
	struct path_refusal r;
	struct path_walk w = { .startfd = AT_FDCWD, .owned_links = true, .refusal = &r };

	(void)state;
	if (geteuid() != 0) {
		rm_rf(dir);
		skip();	/* a link of another user's takes root to make */
	}
	write_file(dir, "real/secret", "root's\n");
	at(p, dir, "mine");
	assert_int_equal(symlink("real", p), 0);
	at(p, dir, "theirs");
	assert_int_equal(symlink("real", p), 0);
	assert_int_equal(lchown(p, NOBODY, NOBODY), 0);
	at(p, dir, "theirs-abs");
	at(q, dir, "real");
	assert_int_equal(symlink(q, p), 0);
	assert_int_equal(lchown(p, NOBODY, NOBODY), 0);

	/* No link at all (openat2's one lookup), and root's own link followed. */
	at(p, dir, "real/secret");
	assert_reads(path_open_owned(p, O_RDONLY | O_CLOEXEC, &r), "root's\n");
	assert_string_equal(r.why, "");
	at(p, dir, "mine/secret");
	assert_reads(path_open_owned(p, O_RDONLY | O_CLOEXEC, &r), "root's\n");
	/* Another user's link, on the way or at the end, relative or absolute. */
	at(p, dir, "theirs/secret");
	assert_int_equal(path_open_owned(p, O_RDONLY | O_CLOEXEC, &r), -EACCES);
	at(q, dir, "theirs");
	assert_non_null(strstr(r.why, q));
	assert_non_null(strstr(r.why, "is a symbolic link owned by uid 65534"));
	at(p, dir, "theirs-abs");
	assert_int_equal(path_open_owned(p, O_PATH | O_DIRECTORY | O_CLOEXEC, &r), -EACCES);
	/* Reached through root's link and "..": named where the walk found it. */
	at(p, dir, "mine/../theirs/secret");
	assert_int_equal(path_open_owned(p, O_RDONLY | O_CLOEXEC, &r), -EACCES);
	at(q, dir, "theirs' is");
	assert_non_null(strstr(r.why, q));

	/* The walk itself, as a kernel before 5.6 takes it, relative to the cwd. */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	w.rootfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_reads(path_walk_open(&w, "real/secret", O_RDONLY | O_CLOEXEC), "root's\n");
	assert_reads(path_walk_open(&w, "mine/./secret", O_RDONLY | O_CLOEXEC), "root's\n");
	assert_reads(path_walk_open(&w, "real/../mine/secret", O_RDONLY | O_CLOEXEC), "root's\n");
	assert_int_equal(path_walk_open(&w, "../x/../theirs/secret", O_RDONLY | O_CLOEXEC), -ENOENT);
	assert_int_equal(path_walk_open(&w, "theirs/secret", O_RDONLY | O_CLOEXEC), -EACCES);
	assert_string_equal(r.why, "'theirs' is a symbolic link owned by uid 65534");
	w.owned_links = false;
	assert_reads(path_walk_open(&w, "theirs/secret", O_RDONLY | O_CLOEXEC), "root's\n");
	close(w.rootfd);
	assert_int_equal(chdir(cwd), 0);
	rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_owned_links),
	};

	return cmocka_run_group_tests_name("path_walk", tests, NULL, NULL);
}
