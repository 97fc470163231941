/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_FILE_STATE_H
#define URINGLINT_FILE_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * What a file's own metadata says about why O_DIRECT I/O on it might punt:
 * its size and allocation (holes), its extents (unwritten), and its pages
 * in the page cache. Read through /proc/PID/fd/N without reading, faulting
 * in or evicting any of the file's data.
 */
struct file_state {
	int err;			/* -errno: nothing below is known */
	char *path;			/* the readlink target, NULL when unknown */
	dev_t dev;
	ino_t ino;
	bool regular;
	int flags;			/* open flags from fdinfo, -1 unknown */
	bool mnt_known;			/* mnt_id was read */
	uint32_t mnt_id;		/* its mount's ID in mountinfo, from fdinfo */
	uint64_t size;
	uint64_t allocated;		/* st_blocks * 512 */
	int ext_err;			/* FIEMAP: 0 or -errno */
	uint32_t extents, unwritten;
	bool extents_truncated;
	int cache_err;			/* 0, or -errno when the page cache was not read */
	const char *cache_how;		/* "cachestat" (6.5+) or "mincore" */
	uint64_t cached, dirty, writeback;	/* pages; dirty and writeback: cachestat only */
	uint64_t cache_range;		/* bytes looked at (mincore looks at the first 4 GiB) */
};


struct sysroot;
/* Reads fd N of pid (live sr). Always fills st; st->err says whether it worked. */
void file_state_read(const struct sysroot *sr, pid_t pid, int fd, struct file_state *st);
void file_state_free(struct file_state *st);
/* Only the page cache of fd N of pid, into cached and dirty (+ writeback); 0 or -errno. */
int file_cache_read(const struct sysroot *sr, pid_t pid, int fd, uint64_t *cached,
		    uint64_t *dirty);

#endif
