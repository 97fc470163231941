// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sysroot's printf-style readers: the path formatted into a PATH_MAX
 * buffer (SYSROOT_WITH_PATH), a path that does not fit refused with
 * -ENAMETOOLONG, never cut and read; then the reader of the same name
 * without the f (sysroot.c).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>

#include "sysroot.h"

int sysroot_vpathf(char *out, size_t outsz, const char *fmt, va_list ap)
{
	int n = vsnprintf(out, outsz, fmt, ap);

	return n < 0 ? -EINVAL : (size_t)n >= outsz ? -ENAMETOOLONG : 0;
}

int sysroot_pathf(char *out, size_t outsz, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = sysroot_vpathf(out, outsz, fmt, ap);
	va_end(ap);
	return err;
}

int sysroot_read_filef(const struct sysroot *sr, size_t max, char **buf, size_t *len,
		       const char *fmt, ...)
{
	*buf = NULL;
	*len = 0;
	SYSROOT_WITH_PATH(fmt, sysroot_read_file(sr, rel_, max, buf, len));
}

int sysroot_read_bytesf(const struct sysroot *sr, size_t max, char **buf, size_t *len,
			const char *fmt, ...)
{
	*buf = NULL;
	*len = 0;
	SYSROOT_WITH_PATH(fmt, sysroot_read_bytes(sr, rel_, max, buf, len));
}

int sysroot_read_linef(const struct sysroot *sr, char *out, size_t outsz, const char *fmt, ...)
{
	SYSROOT_WITH_PATH(fmt, sysroot_read_line(sr, rel_, out, outsz));
}

int sysroot_read_namef(const struct sysroot *sr, char *out, size_t outsz, const char *fmt, ...)
{
	SYSROOT_WITH_PATH(fmt, sysroot_read_name(sr, rel_, out, outsz));
}

int sysroot_readlinkf(const struct sysroot *sr, char *out, size_t outsz, const char *fmt, ...)
{
	SYSROOT_WITH_PATH(fmt, sysroot_readlink(sr, rel_, out, outsz));
}

int sysroot_stat_livef(const struct sysroot *sr, struct stat *st, const char *fmt, ...)
{
	SYSROOT_WITH_PATH(fmt, sysroot_stat_live(sr, rel_, st));
}

int sysroot_statxf(const struct sysroot *sr, unsigned int mask, struct statx *stx,
		   const char *fmt, ...)
{
	SYSROOT_WITH_PATH(fmt, sysroot_statx(sr, rel_, mask, stx));
}

int sysroot_open_regularf(const struct sysroot *sr, const char *fmt, ...)
{
	SYSROOT_WITH_PATH(fmt, sysroot_open_regular(sr, rel_));
}

int sysroot_open_path_dirf(const struct sysroot *sr, const char *fmt, ...)
{
	SYSROOT_WITH_PATH(fmt, sysroot_open_path_dir(sr, rel_));
}

bool sysroot_existsf(const struct sysroot *sr, const char *fmt, ...)
{
	/* A path that does not fit names nothing there. */
	SYSROOT_WITH_PATH_ELSE(fmt, sysroot_exists(sr, rel_), return false);
}

DIR *sysroot_opendirf(const struct sysroot *sr, const char *fmt, ...)
{
	SYSROOT_WITH_PATH_ELSE(fmt, sysroot_opendir(sr, rel_), errno = -err_; return NULL);
}

int sysroot_dir_openf(const struct sysroot *sr, struct sysroot_dir *d, const char *fmt, ...)
{
	/* A path that does not fit: every read fails the same, as in sysroot_dir_open. */
	d->sr = sr;
	d->dirfd = -1;
	d->err = -ENAMETOOLONG;
	SYSROOT_WITH_PATH(fmt, sysroot_dir_open(sr, rel_, d));
}
