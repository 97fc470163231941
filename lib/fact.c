// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "fact.h"
#include "parse.h"
#include "sysroot.h"

void fact_fail(struct fact_err *f, int err, const char *fmt, ...)
{
	va_list ap;

	f->err = err;
	va_start(ap, fmt);
	vsnprintf(f->why, sizeof(f->why), fmt, ap);
	va_end(ap);
}

void fact_fail_read(struct fact_err *f, const char *path, int err)
{
	fact_fail(f, err, "cannot read '%s': %s", path, sysroot_strerror(err));
}

void fact_fail_readf(struct fact_err *f, int err, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;

	/* Only a message: a path cut here is cut in why[] anyway, and nothing reads it. */
	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	fact_fail_read(f, path, err);
}

void fact_read_parsed(const struct sysroot *sr, const char *path, struct fact_err *e,
		      int (*parse)(const char *text, void *out), void *out)
{
	size_t len;
	char *text;
	int err;

	err = sysroot_read_file(sr, path, SYSROOT_READ_MAX, &text, &len);
	if (err) {
		fact_fail_read(e, path, err);
		return;
	}
	if (parse(text, out))
		fact_fail(e, -EBADMSG, "cannot parse '%s': unexpected content", path);
	free(text);
}

void fact_read_i64(const struct sysroot *sr, const char *path, struct fact_err *e,
		   int64_t *value)
{
	char line[64];
	int err;

	err = sysroot_read_line(sr, path, line, sizeof(line));
	if (err) {
		fact_fail_read(e, path, err);
		return;
	}
	if (parse_i64(line, 10, value))
		fact_fail(e, -EBADMSG, "cannot parse '%s': '%s' is not a number", path, line);
}

void fact_read_parsedf(const struct sysroot *sr, struct fact_err *e,
		       int (*parse)(const char *text, void *out), void *out, const char *fmt, ...)
{
	FACT_WITH_PATH(e, fmt, fact_read_parsed(sr, path_, e, parse, out));
}

void fact_read_i64f(const struct sysroot *sr, struct fact_err *e, int64_t *value,
		    const char *fmt, ...)
{
	FACT_WITH_PATH(e, fmt, fact_read_i64(sr, path_, e, value));
}
