// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tmpfile.h"

int tmpfile_open(const char *dir, int flags, bool *tmpfile)
{
	char name[PATH_MAX];
	int fd, i;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC | flags, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR)) {
		*tmpfile = true;
		return fd < 0 ? -errno : fd;
	}
	*tmpfile = false;
	for (i = 0; i < 64; i++) {
		snprintf(name, sizeof(name), "%s/.uringlint-%d-%d", dir, (int)getpid(), i);
		fd = open(name, O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC | flags, 0600);
		if (fd >= 0) {
			unlink(name);
			return fd;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

#define CHUNK (1u << 20)

int tmpfile_fill(int fd, uint64_t size, uint32_t align, void (*progress)(uint64_t, uint64_t))
{
	uint64_t off;
	void *buf;
	int err = 0;

	/* Allocation first keeps the file contiguous; where fallocate is missing, write anyway. */
	if (fallocate(fd, 0, 0, (off_t)size) && errno != EOPNOTSUPP)
		return -errno;
	if (posix_memalign(&buf, align > 4096 ? align : 4096, CHUNK))
		return -ENOMEM;
	memset(buf, 0x5a, CHUNK);
	for (off = 0; off < size; off += CHUNK) {
		size_t n = size - off < CHUNK ? (size_t)(size - off) : CHUNK;

		if (pwrite(fd, buf, n, (off_t)off) != (ssize_t)n) {
			err = errno ? -errno : -EIO;
			break;
		}
		if (progress && !(off & ((64u << 20) - 1)))
			progress(off, size);
	}
	free(buf);
	if (!err && fdatasync(fd))
		err = -errno;
	return err;
}
