/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_FACT_H
#define URINGLINT_FACT_H

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>

#include "sysroot.h"

/*
 * Why a fact could not be collected. err is 0 when the fact holds a value,
 * else -errno; why is the one-line reason a check shows as its skip or
 * error message ("cannot read 'proc/self/limits': Permission denied").
 * Parse failures use -EBADMSG, so a check can tell "could not read" (skip)
 * from "read garbage" (error).
 */
struct fact_err {
	int err;
	char why[320];
};

__attribute__((format(printf, 3, 4)))
void fact_fail(struct fact_err *f, int err, const char *fmt, ...);
void fact_fail_read(struct fact_err *f, const char *path, int err);
/* fact_fail_read with the path printf-style: the same "cannot read '...': ..." line. */
__attribute__((format(printf, 3, 4)))
void fact_fail_readf(struct fact_err *f, int err, const char *fmt, ...);

/*
 * Reads path through the sysroot and hands the text to parse; a read
 * failure or a parse failure (-EBADMSG) lands in e with its reason.
 */
void fact_read_parsed(const struct sysroot *sr, const char *path, struct fact_err *e,
		      int (*parse)(const char *text, void *out), void *out);

/*
 * Reads a one-number file (a sysctl) through the sysroot into value; a
 * read failure or a value that is not a decimal number lands in e.
 */
void fact_read_i64(const struct sysroot *sr, const char *path, struct fact_err *e,
		   int64_t *value);

/*
 * The same with the path printf-style (util-linux's ul_path_readf): a path
 * that does not fit PATH_MAX lands in e as -ENAMETOOLONG, never read cut.
 */
__attribute__((format(printf, 5, 6)))
void fact_read_parsedf(const struct sysroot *sr, struct fact_err *e,
		       int (*parse)(const char *text, void *out), void *out, const char *fmt, ...);
__attribute__((format(printf, 4, 5)))
void fact_read_i64f(const struct sysroot *sr, struct fact_err *e, int64_t *value,
		    const char *fmt, ...);

/*
 * For a printf-style reader of a fact (one whose last parameter is fmt, then
 * "..."): fmt's path into path_, a PATH_MAX buffer, for call, or
 * -ENAMETOOLONG in e: never read cut. The path is formatted once for both the
 * read and the messages that name it.
 */
#define FACT_WITH_PATH(e, fmt, call)                                              \
	do {                                                                      \
		char path_[PATH_MAX];                                             \
		va_list ap_;                                                      \
		int err_;                                                         \
									  \
		va_start(ap_, fmt);                                               \
		err_ = sysroot_vpathf(path_, sizeof(path_), fmt, ap_);            \
		va_end(ap_);                                                      \
		if (err_)                                                         \
			fact_fail(e, err_, "a path %s", err_ == -ENAMETOOLONG     \
				  ? "longer than PATH_MAX" : "that cannot be formatted"); \
		else                                                              \
			call;                                                     \
	} while (0)

static inline int fact_ok(const struct fact_err *f)
{
	return f->err == 0;
}

#endif
