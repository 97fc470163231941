// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input_file.h"

int input_file_open(const char *path, struct path_refusal *refusal)
{
	struct stat st;
	int fd, err;

	fd = path_open_owned(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, refusal);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st)) {
		err = -errno;
		close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	/* A regular file never blocks; the flag goes so that reads see no EAGAIN. */
	if (fcntl(fd, F_SETFL, O_RDONLY)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

FILE *input_file_fopen(const char *path, struct path_refusal *refusal)
{
	int fd = input_file_open(path, refusal);
	FILE *f;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, "re");
	if (!f) {
		int err = errno;

		close(fd);
		errno = err;
	}
	return f;
}

const char *input_file_strerror(int err, const struct path_refusal *refusal)
{
	if (err == -EACCES && refusal->why[0])
		return refusal->why;
	return err == -EINVAL ? "not a regular file" : strerror(-err);
}
