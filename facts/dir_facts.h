/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_DIR_FACTS_H
#define URINGLINT_DIR_FACTS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "blockdev.h"
#include "fact.h"
#include "procfs.h"
#include "sysroot.h"

/* Everything preflight knows about one --dir: its mount, filesystem and device. */
struct dir_facts {
	char path[1024];		/* as given */
	char resolved[PATH_MAX];	/* realpath (live), which may fill PATH_MAX; as given under --root */
	struct fact_err e;		/* the directory itself */

	struct {
		struct fact_err e;
		struct mount_entry m;
	} mount;

	struct blockdev_facts blk;

	/* statfs(2), live only */
	struct {
		struct fact_err e;
		uint64_t f_type;
		uint64_t f_bsize;
		uint64_t avail_bytes;
	} statfs;

	/* libblkid on the device node, live only (needs read access to /dev/NAME) */
	struct {
		struct fact_err e;
		char type[32];
		uint64_t logical, physical, minimum_io, optimal_io, alignment_offset;
	} blkid;

	/*
	 * A real O_DIRECT temporary file in the directory, live only: open,
	 * statx(STATX_DIOALIGN), one aligned write and read, then gone.
	 */
	struct {
		struct fact_err e;	/* could not even try (permissions, read-only fs) */
		bool tmpfile;		/* O_TMPFILE worked, else created and unlinked at once */
		int open_err;		/* 0 or -errno of the O_DIRECT open */
		int io_err;		/* 0 or -errno of the aligned write/read */
		uint32_t io_size;
		bool dioalign;		/* statx reported STATX_DIOALIGN */
		uint32_t mem_align, offset_align;
	} odirect;
};

/* Collects one directory; the mount table is parsed once by the caller. */
void dir_facts_collect(const struct sysroot *sr, const struct mount_entry *mounts, size_t nmounts,
		       const char *path, bool try_odirect, struct dir_facts *df);

/* The device name the findings should show: "vda1 on vda", "tmpfs", … */
const char *dir_facts_device(const struct dir_facts *df, char *buf, size_t bufsz);

#endif
