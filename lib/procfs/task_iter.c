// SPDX-License-Identifier: GPL-2.0-or-later
/* The one walk of proc/ and of proc/PID/task (see procfs.h). */
#include <errno.h>
#include <stdio.h>

#include "parse.h"
#include "procfs.h"

int proc_iter_open(struct task_iter *it, const struct sysroot *sr)
{
	it->err = 0;
	it->d = sysroot_opendir(sr, "proc");
	return it->d ? 0 : -errno;
}

int task_iter_open(struct task_iter *it, const struct sysroot *sr, pid_t pid)
{
	char path[32];

	snprintf(path, sizeof(path), "%sproc/%d/task", sr ? "" : "/", (int)pid);
	it->err = 0;
	it->d = sr ? sysroot_opendir(sr, path) : opendir(path);
	return it->d ? 0 : -errno;
}

pid_t task_iter_next(struct task_iter *it)
{
	struct dirent *de;
	int tid;

	for (;;) {
		errno = 0;
		de = readdir(it->d);
		if (!de) {
			it->err = -errno;
			return 0;
		}
		if (!parse_pid(de->d_name, &tid))
			return (pid_t)tid;
	}
}

void task_iter_close(struct task_iter *it)
{
	if (it->d)
		closedir(it->d);
	it->d = NULL;
}

int task_count(const struct sysroot *sr, pid_t pid)
{
	struct task_iter it;
	int n = 0, err;

	err = task_iter_open(&it, sr, pid);
	if (err)
		return err;
	while (task_iter_next(&it))
		n++;
	task_iter_close(&it);
	return n;
}
