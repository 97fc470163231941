/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_TREE_WRITE_H
#define URINGLINT_TREE_WRITE_H

#include "sysroot.h"

/*
 * Writes what a recording sysroot read into a directory that --root
 * replays: files with the bytes that were read, links with their targets,
 * directories. Every symlink met on the way to a path on the live system
 * is made again in the tree, so a replay resolves the path through the
 * same turns (sys/class/block/sda -> ../../devices/...). Nothing is ever
 * written through a symlink of the tree.
 */
struct tree_writer {
	int outfd;	/* the tree, an empty directory */
	int livefd;	/* the root the record was read from ("/") */
	unsigned int files, links, dirs;
};

/* 0, or -errno: the record could not be written (the capture is then incomplete). */
int tree_write(struct tree_writer *tw, const struct sysroot_read *r);

#endif
