/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROC_SCAN_H
#define URINGLINT_PROC_SCAN_H

#include <stddef.h>
#include <sys/types.h>

#include "sysroot.h"

/*
 * Every process with at least one io_uring fd: the PIDs under the sysroot's
 * proc/ (the live /proc, or a captured tree's), then each fd link is read. *unreadable counts processes whose fds could not be listed (not
 * root). 0 or -errno; *pids is a heap array.
 */
int uring_pids_find(const struct sysroot *sr, pid_t **pids, size_t *n, unsigned int *unreadable);

/*
 * The descendants of pid that hold an io_uring fd, breadth first through
 * each thread's proc/PID/task/TID/children (a forking server's workers own
 * the rings its parent never had): at most max in out, *n of them.
 * 0, or -errno when pid's own children could not be listed.
 */
#define URING_CHILDREN_MAX 64
int uring_children_find(const struct sysroot *sr, pid_t pid, pid_t *out, size_t max, size_t *n);

#endif
