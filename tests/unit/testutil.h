/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the unit tests; cmocka must be included before this. */
#ifndef URINGLINT_TESTUTIL_H
#define URINGLINT_TESTUTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Tests run from the repository root (the Makefile does so). */
#define TESTDATA "testdata"

#define assert_contains(hay, needle) assert_non_null(strstr((hay), (needle)))

/*
 * The check tests: runs check ID through the file's own run(id, &report) and
 * asserts the first finding's status and a phrase of its message.
 */
#define expect_says(id, st, needle)                                   \
	do {                                                          \
		struct report r_;                                     \
		const struct finding *f_ = run((id), &r_);            \
		assert_int_equal(f_->status, (st));                   \
		assert_contains(f_->message, (needle));               \
		report_free(&r_);                                     \
	} while (0)

/*
 * args, one argument a line, into buf as proc/PID/cmdline holds them: a NUL
 * after each. Returns their length, the last NUL included.
 */
static inline size_t cmdline_of(char *buf, size_t bufsz, const char *args)
{
	size_t n = strlen(args), i;

	assert_true(n < bufsz);
	for (i = 0; i < n; i++)
		buf[i] = args[i] == '\n' ? '\0' : args[i];
	buf[n] = '\0';
	return n + 1;
}

/* Reads a whole fixture file; the test fails when it cannot. */
static inline char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

/* mkdtemp under TMPDIR; the caller removes it with rm_rf(). */
static inline char *make_tmpdir(void)
{
	const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char *path;

	assert_true(asprintf(&path, "%s/uringlint-test-XXXXXX", base) > 0);
	assert_non_null(mkdtemp(path));
	return path;
}

static inline void write_file(const char *dir, const char *rel, const char *content)
{
	char path[4096], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "we");
	assert_non_null(f);
	fputs(content, f);
	assert_int_equal(fclose(f), 0);
}

static inline void rm_rf(char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(dir);
}

#endif
