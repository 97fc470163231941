// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whether a process is alone in its cgroup v2 directory (proc_cgroup.h):
 * /proc/PID/cgroup names the cgroup, uringlint's own mount table says where
 * the hierarchy is mounted, and cgroup.procs, cgroup.type and each child's
 * cgroup.events say who else is there.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs.h"
#include "proc_cgroup.h"

#define SMALL_MAX (64 * 1024)

/* The "0::PATH" line of /proc/PID/cgroup, the cgroup v2 one. */
static int cgroup_path(const struct sysroot *sr, pid_t pid, char *out, size_t outsz)
{
	char *text, *line, *end;
	size_t len;
	int err;

	err = sysroot_read_filef(sr, SMALL_MAX, &text, &len, "proc/%d/cgroup", (int)pid);
	if (err)
		return err;
	err = -ENOENT;
	for (line = text; line && *line; line = end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		if (strncmp(line, "0::", 3))
			continue;
		line += 3;
		len = end ? (size_t)(end - line) : strlen(line);
		/* "/.." leads out of uringlint's cgroup namespace: not a directory it can name. */
		if (*line != '/' || !strncmp(line, "/..", 3))
			break;
		if (len >= outsz) {
			err = -ENAMETOOLONG;
			break;
		}
		memcpy(out, line, len);
		out[len] = '\0';
		err = 0;
		break;
	}
	free(text);
	return err;
}

/* Where the cgroup v2 directory of path is under the sysroot: a cgroup2 mount whose root holds it. */
static int cgroup_rel(const struct sysroot *sr, const char *path, char *rel, size_t relsz)
{
	const struct mount_entry *found = NULL;
	struct mount_entry *m;
	size_t n, i, rootlen = 0;
	int err;

	err = mountinfo_read(sr, "proc/self/mountinfo", &m, &n);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		size_t r = strlen(m[i].root);

		if (strcmp(m[i].fstype, "cgroup2"))
			continue;
		if (!strcmp(m[i].root, "/"))
			r = 0;
		else if (strncmp(path, m[i].root, r) || (path[r] && path[r] != '/'))
			continue;
		found = &m[i];
		rootlen = r;
	}
	err = found ? sysroot_pathf(rel, relsz, "%s%s", found->mount_point + 1, path + rootlen)
		    : -ENOENT;
	free(m);
	return err;
}

/* 0 when cgroup.procs lists pid and nothing else; -EBUSY another; -ESRCH neither. */
static int procs_alone(const struct sysroot *sr, const char *rel, pid_t pid)
{
	char *text, *p, *end;
	size_t len;
	bool self = false, other = false;
	int err;

	err = sysroot_read_filef(sr, SYSROOT_READ_MAX, &text, &len, "%s/cgroup.procs", rel);
	if (err)
		return err;
	for (p = text; *p; p = end) {
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		self |= v == pid;
		other |= v != pid;
		while (*end == '\n')
			end++;
	}
	free(text);
	return other ? -EBUSY : self ? 0 : -ESRCH;
}

/* 0 when no cgroup below rel holds a process (each child's cgroup.events says "populated 0"). */
static int children_empty(const struct sysroot *sr, const char *rel)
{
	struct dirent *de;
	int err = 0;
	DIR *d;

	d = sysroot_opendirf(sr, "%s", rel);
	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		char *text;
		size_t len;

		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if (sysroot_read_filef(sr, SMALL_MAX, &text, &len, "%s/%s/cgroup.events", rel,
				       de->d_name))
			continue;	/* not a cgroup, or gone since */
		if (strstr(text, "populated 1"))
			err = -EBUSY;
		free(text);
	}
	closedir(d);
	return err;
}

int proc_cgroup_still_alone(const struct sysroot *sr, pid_t pid, const struct proc_cgroup *c)
{
	char type[64];
	int err;

	err = procs_alone(sr, c->rel, pid);
	if (err)
		return err;
	/* A threaded cgroup's process may keep threads in its siblings. */
	if (!sysroot_read_linef(sr, type, sizeof(type), "%s/cgroup.type", c->rel) &&
	    strcmp(type, "domain") && strcmp(type, "domain threaded"))
		return -EMEDIUMTYPE;
	return children_empty(sr, c->rel);
}

int proc_cgroup_find(const struct sysroot *sr, pid_t pid, struct proc_cgroup *c)
{
	int err;

	err = cgroup_path(sr, pid, c->path, sizeof(c->path));
	return err ? err : cgroup_rel(sr, c->path, c->rel, sizeof(c->rel));
}

int proc_cgroup_alone(const struct sysroot *sr, pid_t pid, struct proc_cgroup *c)
{
	int err;

	err = proc_cgroup_find(sr, pid, c);
	return err ? err : proc_cgroup_still_alone(sr, pid, c);
}
