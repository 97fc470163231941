// SPDX-License-Identifier: GPL-2.0-or-later
/* Whether an exec leaves its task non-dumpable (see exec_secure.h). */
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "exec_secure.h"
#include "sysroot.h"

/* execvp's lookup: the first executable regular file of that name in path. */
static int resolve(const char *prog, const char *path, char *out, size_t outsz, struct stat *st)
{
	const char *p, *end;
	int err = -ENOENT;

	if (strchr(prog, '/')) {
		if ((size_t)snprintf(out, outsz, "%s", prog) >= outsz)
			return -ENAMETOOLONG;
		return stat(out, st) ? -errno : 0;
	}
	if (!path)
		path = "/bin:/usr/bin";
	for (p = path; ; p = end + 1) {
		end = strchrnul(p, ':');
		if ((size_t)snprintf(out, outsz, "%.*s%s%s", (int)(end - p), p, end > p ? "/" : "",
				     prog) < outsz &&
		    !stat(out, st) && S_ISREG(st->st_mode) && !access(out, X_OK))
			return 0;
		if (!*end)
			break;
	}
	return err;
}

static bool may_read(const struct stat *st, uid_t uid, gid_t gid)
{
	if (uid == 0)
		return true;
	if (st->st_uid == uid)
		return st->st_mode & S_IRUSR;
	if (st->st_gid == gid)
		return st->st_mode & S_IRGRP;
	return st->st_mode & S_IROTH;
}

int exec_secure_why(const char *prog, const char *path_env, uid_t uid, gid_t gid, char *why,
		    size_t whysz)
{
	char path[PATH_MAX];
	struct statvfs vfs;
	struct stat st;
	bool nosuid;
	int err;

	err = resolve(prog, path_env ? path_env : getenv("PATH"), path, sizeof(path), &st);
	if (err)
		return err;
	nosuid = !statvfs(path, &vfs) && (vfs.f_flag & ST_NOSUID);
	if (!nosuid && (st.st_mode & S_ISUID) && st.st_uid != uid) {
		snprintf(why, whysz, "%s is set-user-ID (owner uid %u)", path, (unsigned int)st.st_uid);
		return 1;
	}
	/* Without group execute, S_ISGID marks mandatory locking, not a set-group-ID program. */
	if (!nosuid && (st.st_mode & S_ISGID) && (st.st_mode & S_IXGRP) && st.st_gid != gid) {
		snprintf(why, whysz, "%s is set-group-ID (group %u)", path, (unsigned int)st.st_gid);
		return 1;
	}
	if (uid != 0 && !nosuid && getxattr(path, "security.capability", NULL, 0) > 0) {
		snprintf(why, whysz, "%s has file capabilities", path);
		return 1;
	}
	if (!may_read(&st, uid, gid)) {
		snprintf(why, whysz, "%s may be run but not read by uid %u", path, (unsigned int)uid);
		return 1;
	}
	return 0;
}

int proc_at_secure(const struct sysroot *sr, pid_t pid)
{
	/* auxv: (type, value) pairs of native words, to AT_NULL. */
	struct {
		unsigned long type, val;
	} a;
	char rel[64], *buf;
	size_t len, i;
	int err;

	err = sysroot_pathf(rel, sizeof(rel), "proc/%d/auxv", (int)pid);
	if (!err)
		err = sysroot_read_bytes(sr, rel, 64 * 1024, &buf, &len);
	if (err)
		return err;
	err = -ENOENT;
	for (i = 0; i + sizeof(a) <= len; i += sizeof(a)) {
		memcpy(&a, buf + i, sizeof(a));
		if (a.type == AT_NULL)
			break;
		if (a.type == AT_SECURE) {
			err = a.val != 0;
			break;
		}
	}
	free(buf);
	return err;
}
