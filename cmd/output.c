// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where a command's output goes: standard output, or -o FILE written
 * whole or not at all. A regular file is written to a temporary file in
 * its own directory and renamed over it, so a reader (node_exporter's
 * textfile collector, a fleet's scp) sees the old file or the new one,
 * never half of one, and a failed run leaves the old one in place. A file
 * that is not ours to replace (another owner's, one we may not write, one
 * in a directory we may not write) is written in place, as before.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"

/* What -o names, once links are followed; "" when it does not exist yet. */
static int resolve(const char *path, char *real, struct stat *st)
{
	if (stat(path, st)) {
		if (errno != ENOENT)
			return -errno;
		real[0] = '\0';
		return 0;
	}
	return realpath(path, real) ? 0 : -errno;
}

/*
 * Opens the temporary file beside target (target itself when it exists):
 * ".NAME.XXXXXX" in the same directory, so the rename stays on one
 * filesystem. Its mode is the old file's, or what fopen would have made.
 */
static FILE *open_temp(const char *target, const struct stat *old, char *tmp, size_t tmpsz)
{
	char dir[PATH_MAX], base[PATH_MAX];
	mode_t mask;
	FILE *f;
	int fd;

	snprintf(dir, sizeof(dir), "%s", target);
	snprintf(base, sizeof(base), "%s", target);
	if ((size_t)snprintf(tmp, tmpsz, "%s/.%s.XXXXXX", dirname(dir), basename(base)) >= tmpsz) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (old) {
		fchmod(fd, old->st_mode & 07777);
	} else {
		mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	f = fdopen(fd, "w");
	if (!f) {
		int err = errno;

		close(fd);
		unlink(tmp);
		errno = err;
	}
	return f;
}

int cmd_write_output(const struct global_opts *g, int (*write)(FILE *out, const void *data),
		     const void *data)
{
	const char *name = g->output ? g->output : "standard output";
	char real[PATH_MAX] = "", tmp[PATH_MAX + 16] = "";
	struct stat st;
	bool replace = false;
	FILE *out = stdout;
	int err;

	if (g->output) {
		err = resolve(g->output, real, &st);
		if (err) {
			error_msg("cannot open '%s': %s", g->output, strerror(-err));
			return EXIT_CANNOT;
		}
		/* A device, a FIFO or a socket is written into, never replaced. */
		replace = !real[0] || (S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
				       !access(real, W_OK));
		if (replace) {
			out = open_temp(real[0] ? real : g->output, real[0] ? &st : NULL, tmp,
					sizeof(tmp));
			/* No room for a second file in its directory: in place, as fopen would. */
			if (!out && real[0] && (errno == EACCES || errno == EPERM || errno == EROFS))
				replace = false;
		}
		if (!replace)
			out = fopen(g->output, "we");
		if (!out) {
			error_msg("cannot open '%s': %s", g->output, strerror(errno));
			return EXIT_CANNOT;
		}
	}
	errno = 0;
	err = write(out, data);
	if (fflush(out) != 0 || ferror(out))
		err = errno ? -errno : -EIO;
	if (g->output && fclose(out) != 0 && !err)
		err = errno ? -errno : -EIO;
	if (!err && replace && rename(tmp, real[0] ? real : g->output))
		err = -errno;
	if (err && replace)
		unlink(tmp);
	if (err) {
		error_msg("cannot write '%s': %s", name, strerror(-err));
		return EXIT_CANNOT;
	}
	return 0;
}
