// SPDX-License-Identifier: GPL-2.0-or-later
/* Whether a process is the daemon it is named after (see proc_identity.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "proc_identity.h"
#include "procfs.h"

/* The last component of a program path, without the " (deleted)" of a replaced file. */
static bool exe_named(const char *exe, const char *name)
{
	const char *base = strrchr(exe, '/');
	size_t n = strlen(name);

	base = base ? base + 1 : exe;
	return !strncmp(base, name, n) && (!base[n] || !strcmp(base + n, " (deleted)"));
}

int proc_daemon_identity(const struct sysroot *sr, pid_t pid, const char *name,
			 struct daemon_identity *id)
{
	struct proc_status ps;
	struct stat st;
	char *text;
	size_t len;
	int err;

	memset(id, 0, sizeof(*id));
	err = sysroot_read_filef(sr, SYSROOT_READ_MAX, &text, &len, "proc/%d/status", (int)pid);
	if (err)
		return err;
	err = proc_status_parse(text, &ps);
	free(text);
	if (err)
		return err;
	if (!proc_status_all_root(&ps)) {
		snprintf(id->why, sizeof(id->why), "runs as user %u (real), %u (effective), not root",
			 (unsigned int)ps.uids[0], (unsigned int)ps.uids[1]);
		return 0;
	}
	err = sysroot_readlinkf(sr, id->exe, sizeof(id->exe), "proc/%d/exe", (int)pid);
	if (err == -EACCES || err == -EPERM) {
		/* Not root: only root's own programs run with every ID root's. */
		id->exe[0] = '\0';
		id->genuine = true;
		return 0;
	}
	if (err) {
		id->exe[0] = '\0';
		snprintf(id->why, sizeof(id->why), "its program file cannot be read (%s)",
			 strerror(-err));
		return 0;
	}
	if (!exe_named(id->exe, name)) {
		snprintf(id->why, sizeof(id->why), "runs a program not named %s", name);
		return 0;
	}
	err = sysroot_stat_livef(sr, &st, "proc/%d/exe", (int)pid);
	if (err == -EOPNOTSUPP) {
		id->genuine = true;	/* a captured tree: the IDs and the name are what it holds */
		return 0;
	}
	if (err) {
		snprintf(id->why, sizeof(id->why), "its program file cannot be looked at (%s)",
			 strerror(-err));
		return 0;
	}
	id->exe_checked = true;
	if (st.st_uid != 0 || (st.st_mode & 022)) {
		snprintf(id->why, sizeof(id->why),
			 "its program file belongs to user %u with mode %04o, not to root alone",
			 (unsigned int)st.st_uid, (unsigned int)(st.st_mode & 07777));
		return 0;
	}
	id->genuine = true;
	return 0;
}
