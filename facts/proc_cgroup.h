/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROC_CGROUP_H
#define URINGLINT_PROC_CGROUP_H

#include <limits.h>
#include <sys/types.h>

#include "sysroot.h"

/*
 * A process's cgroup v2 directory, when that cgroup and those below it
 * hold that process alone: then events opened on the cgroup (perf's
 * PERF_FLAG_PID_CGROUP) see every thread of the process, those it starts
 * while they are open included, and nothing else. A systemd service or a
 * container is the usual home of such a process.
 */
struct proc_cgroup {
	char path[1024];	/* as /proc/PID/cgroup names it: "/system.slice/x.service" */
	char rel[PATH_MAX];	/* under the sysroot: "sys/fs/cgroup/system.slice/x.service" */
};

/*
 * 0 with c filled when the process is alone in its cgroup. Otherwise
 * -EBUSY: another process is in it or below it; -ESRCH: the process is
 * not in it (it moved, or exited); -EMEDIUMTYPE: a threaded
 * cgroup, whose process may have threads in others; -ENOENT: no cgroup v2
 * hierarchy, or the cgroup is outside uringlint's cgroup namespace; or
 * another -errno of the reads. A captured tree answers too, from its
 * files: only a live one has a cgroup to open.
 */
int proc_cgroup_alone(const struct sysroot *sr, pid_t pid, struct proc_cgroup *c);

/*
 * A process's cgroup v2 directory, whoever else is in it: 0 with c filled,
 * or -ENOENT (no cgroup v2 hierarchy, or outside uringlint's namespace) or
 * another -errno of the reads.
 */
int proc_cgroup_find(const struct sysroot *sr, pid_t pid, struct proc_cgroup *c);

/* The same question again, of the cgroup found before (at a watch's end). */
int proc_cgroup_still_alone(const struct sysroot *sr, pid_t pid, const struct proc_cgroup *c);

#endif
