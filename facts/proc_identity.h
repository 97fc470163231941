/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROC_IDENTITY_H
#define URINGLINT_PROC_IDENTITY_H

#include <stdbool.h>
#include <sys/types.h>

#include "sysroot.h"

/*
 * Whether a process is the host's own daemon of that name, and not any
 * user's program that calls itself so (a comm is whatever its program
 * chose). Wherever another process's word decides a verdict (irqbalance's
 * banned CPUs), it is taken only from a process that:
 *   - runs as root: real, effective, saved and filesystem user IDs all 0
 *     (a set-user-ID program another user started keeps their real ID);
 *   - runs a program file of that name (proc/PID/exe), owned by root and
 *     writable by no one else, as a package installs it.
 * The program file is looked at on the live system only; a captured tree
 * holds the link, not the file, and exe_checked then says it was not. A
 * user who may not read the link (not root) goes by the IDs alone: no
 * other user can start a process whose every ID is root's.
 */
struct daemon_identity {
	bool genuine;
	bool exe_checked;	/* the program file's owner and mode were seen */
	char exe[256];		/* proc/PID/exe's target, "" when unreadable */
	char why[128];		/* !genuine: what gave it away */
};

/* 0 with id filled, or -errno when the process could not be read (gone, not ours). */
int proc_daemon_identity(const struct sysroot *sr, pid_t pid, const char *name,
			 struct daemon_identity *id);

#endif
