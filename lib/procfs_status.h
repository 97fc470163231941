/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROCFS_STATUS_H
#define URINGLINT_PROCFS_STATUS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define STATUS_MAX_GROUPS 256

/* Capability bit numbers (linux/capability.h) that io_uring cares about. */
#define CAP_BIT_IPC_LOCK 14
#define CAP_BIT_SYS_ADMIN 21
#define CAP_BIT_SYS_NICE 23

/* What uringlint needs from /proc/PID/status. */
struct proc_status {
	char name[64];
	pid_t tgid;
	uid_t uids[4];		/* real, effective, saved, filesystem */
	gid_t gids[4];
	uid_t euid;
	gid_t egid;
	gid_t groups[STATUS_MAX_GROUPS];
	unsigned int ngroups;
	bool groups_truncated;
	uint64_t cap_eff;
	int seccomp;		/* 0 off, 1 strict, 2 filter; -1 when the kernel has no line */
	int seccomp_filters;	/* -1 when absent (before 5.9) */
	int threads;
	uint64_t vm_lck_kb, vm_pin_kb;
	char cpus_allowed_list[256];
};

/* 0, or -EBADMSG when a line the kernel always prints is missing or garbled. */
int proc_status_parse(const char *text, struct proc_status *st);

/* Every one of the four user IDs is root's: started by root, not a set-user-ID program. */
bool proc_status_all_root(const struct proc_status *st);

bool proc_status_has_cap(const struct proc_status *st, unsigned int bit);
bool proc_status_in_group(const struct proc_status *st, gid_t gid);

#endif
