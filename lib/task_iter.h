/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_TASK_ITER_H
#define URINGLINT_TASK_ITER_H

#include <dirent.h>
#include <sys/types.h>

#include "sysroot.h"

/*
 * The processes under proc/ and the threads of a process, from
 * proc/PID/task: through a sysroot (a captured tree, or the live /proc:
 * one road, so a capture replays the processes and threads a live run
 * saw), or, for threads only, with sr NULL straight from the live /proc
 * (the probe's own threads). Entries that are not a PID are passed over,
 * so a planted "12x" or "." never becomes process 12 or 0.
 */
struct task_iter {
	DIR *d;
	int err;	/* after the end: 0, or -errno when the listing broke off */
};

/* Every process under proc/: 0, or -errno when proc/ cannot be listed. */
int proc_iter_open(struct task_iter *it, const struct sysroot *sr);
/* 0, or -errno: the process is gone (-ENOENT) or not readable. */
int task_iter_open(struct task_iter *it, const struct sysroot *sr, pid_t pid);
/* The next PID or TID in directory order; 0 at the end (see err). */
pid_t task_iter_next(struct task_iter *it);
void task_iter_close(struct task_iter *it);
/* The number of threads of pid there now, or -errno as task_iter_open. */
int task_count(const struct sysroot *sr, pid_t pid);

#endif
