// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "proc_scan.h"
#include "procfs.h"

/* 1: has a ring; 0: none; -errno: fds unreadable. */
static int has_ring(const struct sysroot *sr, pid_t pid)
{
	char target[64];
	struct dirent *de;
	int found = 0;
	DIR *d;

	d = sysroot_opendirf(sr, "proc/%d/fd", (int)pid);
	if (!d)
		return -errno;
	while (!found && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		/* Longer targets fail with ENAMETOOLONG, and are not rings either. */
		if (!sysroot_readlinkf(sr, target, sizeof(target), "proc/%d/fd/%s", (int)pid,
				       de->d_name) &&
		    !strcmp(target, "anon_inode:[io_uring]"))
			found = 1;
	}
	closedir(d);
	return found;
}

static int push(pid_t **pids, size_t *n, size_t *cap, pid_t pid)
{
	if (array_grow(pids, cap, *n + 1))
		return -ENOMEM;
	(*pids)[(*n)++] = pid;
	return 0;
}

/*
 * The candidate list: the PIDs under proc/, through the sysroot live and in a
 * captured tree alike (one road: a capture replays the processes a live run
 * listed).
 */
static int list_processes(const struct sysroot *sr, pid_t **all, size_t *nall, size_t *cap)
{
	struct task_iter it;
	pid_t pid;
	int err;

	err = proc_iter_open(&it, sr);
	if (err)
		return err;
	while ((pid = task_iter_next(&it)))
		if (push(all, nall, cap, pid)) {
			task_iter_close(&it);
			return -ENOMEM;
		}
	task_iter_close(&it);
	return it.err;
}

int uring_pids_find(const struct sysroot *sr, pid_t **pids, size_t *n, unsigned int *unreadable)
{
	pid_t *all = NULL, self = getpid();
	size_t nall = 0, all_cap = 0, pids_cap = 0, i;
	int err;

	*pids = NULL;
	*n = 0;
	*unreadable = 0;
	err = list_processes(sr, &all, &nall, &all_cap);
	if (err) {
		free(all);
		return err;
	}
	for (i = 0; i < nall; i++) {
		int r;

		if (sr->live && all[i] == self)
			continue;
		r = has_ring(sr, all[i]);
		if (r == -EACCES || r == -EPERM)
			(*unreadable)++;
		else if (r == 1 && push(pids, n, &pids_cap, all[i])) {
			free(all);
			return -ENOMEM;
		}
	}
	free(all);
	return 0;
}

/* The direct children of every thread of pid, appended to kids (at most max). */
static int children_of(const struct sysroot *sr, pid_t pid, pid_t *kids, size_t max, size_t *n)
{
	struct task_iter it;
	pid_t tid;
	int err;

	err = task_iter_open(&it, sr, pid);
	if (err)
		return err;
	while ((tid = task_iter_next(&it)) && *n < max) {
		char *text, *p, *end;
		size_t len;

		if (sysroot_read_filef(sr, 64 * 1024, &text, &len, "proc/%d/task/%d/children",
				       (int)pid, (int)tid))
			continue;	/* the thread exited, or no CONFIG_PROC_CHILDREN */
		for (p = text; *p && *n < max; p = end) {
			long v = strtol(p, &end, 10);

			if (end == p)
				break;
			if (v > 0 && v <= 0x7fffffff)
				kids[(*n)++] = (pid_t)v;
		}
		free(text);
	}
	task_iter_close(&it);
	return 0;
}

int uring_children_find(const struct sysroot *sr, pid_t pid, pid_t *out, size_t max, size_t *n)
{
	pid_t queue[4 * URING_CHILDREN_MAX];
	size_t head = 0, tail = 0;
	int err;

	*n = 0;
	err = children_of(sr, pid, queue, ARRAY_SIZE(queue), &tail);
	if (err)
		return err;
	for (; head < tail && *n < max; head++) {
		if (has_ring(sr, queue[head]) == 1)
			out[(*n)++] = queue[head];
		children_of(sr, queue[head], queue, ARRAY_SIZE(queue), &tail);
	}
	return 0;
}
