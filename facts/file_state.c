// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The state of one open file that decides whether O_DIRECT requests on it
 * can complete inline: holes, unwritten extents, and cached pages (the
 * kernel punts an O_DIRECT write whose range it cannot invalidate without
 * blocking, and a read over dirty pages it must write back first).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "procfs.h"
#include "fiemap.h"
#include "file_state.h"
#include "sysroot.h"

#ifndef __NR_cachestat
#define __NR_cachestat 451	/* 6.5, the same number on every architecture */
#endif

#define EXTENT_MAX 100000u
#define MINCORE_MAX (4ull << 30)

struct cachestat_range {
	uint64_t off, len;
};

struct cachestat {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
};

/* Pages resident in the first MINCORE_MAX bytes: mapping read-only faults nothing in. */
static int mincore_pages(int fd, uint64_t size, struct file_state *st)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len, n, i;
	unsigned char *vec;
	void *map;
	int err = 0;

	len = (size_t)(size < MINCORE_MAX ? size : MINCORE_MAX);
	st->cache_range = len;
	if (!len)
		return 0;
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	n = (len + page - 1) / page;
	vec = malloc(n);
	if (!vec) {
		err = -ENOMEM;
	} else if (mincore(map, len, vec)) {
		err = -errno;
	} else {
		for (i = 0; i < n; i++)
			st->cached += vec[i] & 1;
	}
	free(vec);
	munmap(map, len);
	return err;
}

static void read_cache(int fd, struct file_state *st)
{
	struct cachestat_range range = { 0, 0 };	/* len 0: to the end of the file */
	struct cachestat cs;

	st->cache_err = 0;
	if (!syscall(__NR_cachestat, fd, &range, &cs, 0)) {
		st->cache_how = "cachestat";
		st->cached = cs.nr_cache;
		st->dirty = cs.nr_dirty;
		st->writeback = cs.nr_writeback;
		st->cache_range = st->size;
		return;
	}
	if (errno != ENOSYS) {
		st->cache_err = -errno;
		return;
	}
	st->cache_how = "mincore";
	st->cache_err = mincore_pages(fd, st->size, st);
}

/* f_flags and the mount ID from fd N's fdinfo, through the one fdinfo parser; -1 unread. */
static void read_fdinfo(const struct sysroot *sr, pid_t pid, int fdnum, struct file_state *st)
{
	struct fdinfo_generic g;
	size_t len;
	char *text;
	int err;

	st->flags = -1;
	if (sysroot_read_filef(sr, 64u << 10, &text, &len, "proc/%d/fdinfo/%d", (int)pid, fdnum))
		return;
	err = fdinfo_parse_generic(text, &g);
	free(text);
	if (err)
		return;
	st->flags = (int)g.flags;
	st->mnt_id = g.mnt_id;
	st->mnt_known = true;
}

void file_state_read(const struct sysroot *sr, pid_t pid, int fdnum, struct file_state *st)
{
	char target[4096];
	struct stat sb;
	int fd, err;

	memset(st, 0, sizeof(*st));
	st->ext_err = st->cache_err = -ENODATA;
	read_fdinfo(sr, pid, fdnum, st);
	err = sysroot_readlinkf(sr, target, sizeof(target), "proc/%d/fd/%d", (int)pid, fdnum);
	if (err) {
		st->err = err;
		return;
	}
	st->path = strdup(target);
	if (!st->path) {
		st->err = -ENOMEM;
		return;
	}
	err = sysroot_stat_livef(sr, &sb, "proc/%d/fd/%d", (int)pid, fdnum);
	if (err) {
		st->err = err;
		return;
	}
	st->dev = sb.st_dev;
	st->ino = sb.st_ino;
	st->regular = S_ISREG(sb.st_mode);
	st->size = (uint64_t)sb.st_size;
	st->allocated = (uint64_t)sb.st_blocks * 512;
	if (!st->regular)
		return;
	fd = sysroot_open_regularf(sr, "proc/%d/fd/%d", (int)pid, fdnum);
	if (fd < 0) {
		st->ext_err = st->cache_err = fd;
		return;
	}
	st->ext_err = fiemap_count(fd, EXTENT_MAX, &st->extents, &st->unwritten,
				   &st->extents_truncated);
	read_cache(fd, st);
	close(fd);
}

void file_state_free(struct file_state *st)
{
	free(st->path);
	st->path = NULL;
}

int file_cache_read(const struct sysroot *sr, pid_t pid, int fdnum, uint64_t *cached,
		    uint64_t *dirty)
{
	struct file_state st;
	struct stat sb;
	int fd;

	fd = sysroot_open_regularf(sr, "proc/%d/fd/%d", (int)pid, fdnum);
	if (fd < 0)
		return fd;
	memset(&st, 0, sizeof(st));
	if (!fstat(fd, &sb))
		st.size = (uint64_t)sb.st_size;
	read_cache(fd, &st);
	close(fd);
	if (st.cache_err)
		return st.cache_err;
	*cached = st.cached;
	*dirty = st.dirty + st.writeback;
	return 0;
}
