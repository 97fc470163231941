/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_FILE_TYPES_H
#define URINGLINT_FILE_TYPES_H

#include <stddef.h>
#include <sys/types.h>

#include "proc_facts.h"

/* A directory holds this many of the files before its entries are read instead. */
#define FILE_TYPES_DIR_MIN 16

/* A file's type from its mode: a block device, not regular, or as its path said. */
void proc_file_set_type(struct proc_file *f, mode_t mode);

/*
 * The type of pf->files[idx[0..n-1]], all named by absolute paths (live
 * only): a block device, another file that is not regular (a FIFO, a
 * device node), or as the path says. Where at least FILE_TYPES_DIR_MIN of
 * them share a directory, its entries say (d_type), each matched by name,
 * inode number and device, so a directory's worth of files costs a few
 * getdents instead of a statx each; a file the entries do not show as its
 * own (renamed, deleted, a path from another mount namespace, no d_type)
 * is statx'd, as are the rest.
 */
void file_types_resolve(const struct sysroot *sr, struct proc_facts *pf, const size_t *idx,
			size_t n);

#endif
