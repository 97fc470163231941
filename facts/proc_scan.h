/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROC_SCAN_H
#define URINGLINT_PROC_SCAN_H

#include <stddef.h>
#include <sys/types.h>

#include "sysroot.h"

/*
 * Every process with at least one io_uring fd: libproc2 lists the processes
 * on the live system (the sysroot's proc/ under --root), then each fd link is
 * read. *unreadable counts processes whose fds could not be listed (not
 * root). 0 or -errno; *pids is a heap array.
 */
int uring_pids_find(const struct sysroot *sr, pid_t **pids, size_t *n, unsigned int *unreadable);

#endif
