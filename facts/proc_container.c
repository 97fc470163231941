// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A process in a container its cgroup does not name: systemd-nspawn run
 * without machined (its payload stays in the caller's scope), a runtime
 * with a cgroup layout of its own, or any process made in PID and mount
 * namespaces of its own (unshare). Its PID namespace shows in status's
 * NSpid (a second field: a namespace below the reader's); its mount
 * namespace in ns/mnt against the reader's; the manager in what the managers
 * leave in the container's root: /run/host/container-manager and
 * container-uuid (systemd's container interface: nspawn), /run/.containerenv
 * (Podman), /.dockerenv (Docker). Those files are the container's, so they
 * are read as the process could (read_as), never as root.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "proc_container.h"
#include "read_as.h"

/* The managers whose names the cgroup parser also gives, as static strings. */
static const char *const managers[] = {
	"systemd-nspawn", "podman", "docker", "lxc", "containerd", "cri-o", "kubernetes",
};

/* The first line of a small file in the process's root, "" when absent. */
static void first_line(struct read_as *ra, const char *path, FILE *out)
{
	char *text = NULL;
	size_t n;

	if (read_as_file(ra, path, &text)) {
		fputc('\n', out);
		return;
	}
	n = strcspn(text, "\n");
	fprintf(out, "%.*s\n", (int)(n < 64 ? n : 64), text);
	free(text);
}

static bool exists(struct read_as *ra, const char *path)
{
	char *text = NULL;
	int err = read_as_file(ra, path, &text);

	free(text);
	/* A file there, empty or not: -EINVAL is a non-regular one, still a mark. */
	return !err || err == -EINVAL || err == -EFBIG;
}

/* Whether the process's root is uringlint's own: its marks would then be ours. */
static bool same_root(const struct read_as *ra)
{
	struct stat a, b;

	if (ra->rootfd < 0)
		return false;
	return !fstat(ra->rootfd, &a) && !stat("/", &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/*
 * In the child, as the process: manager, uuid, and the two marks, a line
 * each; nothing from a root that is uringlint's own (a process unshared on
 * a host that is itself a container would take the host's marks).
 */
static int read_marks(struct read_as *ra, FILE *out, void *arg)
{
	(void)arg;
	if (same_root(ra)) {
		fputs("\n\n0\n0\n", out);
		return 0;
	}
	first_line(ra, "/run/host/container-manager", out);
	first_line(ra, "/run/host/container-uuid", out);
	fprintf(out, "%d\n%d\n", exists(ra, "/run/.containerenv"), exists(ra, "/.dockerenv"));
	return 0;
}

/*
 * One line of the child's answer into out, only [A-Za-z0-9._-] of it: the
 * files are the container's, written by its root, and the words reach the
 * operator's terminal (a runtime's name and a UUID need no more).
 */
static void take_line(char **p, char *out, size_t n)
{
	size_t len = strcspn(*p, "\n"), i, k = 0;

	for (i = 0; i < len && k + 1 < n; i++) {
		char c = (*p)[i];

		if (isalnum((unsigned char)c) || c == '.' || c == '_' || c == '-')
			out[k++] = c;
	}
	out[k] = '\0';
	*p += len;
	if (**p == '\n')
		(*p)++;
}

static const char *manager_of(const char *said, bool containerenv, bool dockerenv)
{
	size_t i;

	for (i = 0; i < sizeof(managers) / sizeof(managers[0]); i++)
		if (!strcmp(said, managers[i]))
			return managers[i];
	if (said[0])
		return "other";
	return containerenv ? "podman" : dockerenv ? "docker" : "namespaces";
}

/*
 * Whether its mount namespace is not the reader's: 1, 0, or -errno when
 * unreadable (a captured tree: not recorded). The reader's, as NSpid's
 * levels are, not PID 1's: another process's ns links need ptrace access
 * to it, which an init in a user namespace of its own refuses (EACCES).
 */
static int other_mnt(const struct sysroot *sr, pid_t pid)
{
	char mine[64], init[64];
	int err = sysroot_readlinkf(sr, mine, sizeof(mine), "proc/%d/ns/mnt", (int)pid);

	if (!err)
		err = sr->live ? sysroot_readlinkf(sr, init, sizeof(init), "proc/self/ns/mnt") : -ENOENT;
	return err ? err : strcmp(mine, init) != 0;
}

void proc_container_collect(const struct sysroot *sr, struct proc_facts *pf)
{
	struct proc_container *pc = &pf->owner.ns;
	struct cgroup_owner *o = &pf->owner.o;
	char *buf = NULL, *p, said[72];
	int marks[2] = { 0, 0 }, err;
	size_t len;

	memset(pc, 0, sizeof(*pc));
	/* Read for every process (live: a readlink each): its paths are its root's when it differs. */
	pc->other_mnt = other_mnt(sr, pf->pid);
	if (!fact_ok(&pf->status.e) || pf->status.st.ns_levels < 2)
		return;
	pc->other_pid = true;
	pc->nspid = pf->status.st.nspid;
	if (!fact_ok(&pf->owner.e) || o->container.runtime)
		return;
	said[0] = '\0';
	err = read_as_run(sr, pf, read_marks, NULL, 256, &buf, &len);
	if (!err && buf) {
		p = buf;
		take_line(&p, said, sizeof(said));
		take_line(&p, pc->uuid, sizeof(pc->uuid));
		if (sscanf(p, "%d %d", &marks[0], &marks[1]) != 2)
			marks[0] = marks[1] = 0;
	}
	free(buf);
	snprintf(pc->manager_said, sizeof(pc->manager_said), "%s", said);
	o->container.runtime = manager_of(said, marks[0], marks[1]);
	o->container.uid = -1;
	snprintf(o->container.id, sizeof(o->container.id), "%s", pc->uuid);
	pc->named_by_ns = true;
	snprintf(o->how, sizeof(o->how), "a PID namespace of its own (NSpid: %d inside)%s%s%s%s%s%s",
		 (int)pc->nspid, pc->other_mnt == 1 ? " and a mount namespace of its own" : "",
		 said[0] ? "; /run/host/container-manager in its root says " : "", said,
		 !said[0] && marks[0] ? "; /run/.containerenv in its root"
		 : !said[0] && marks[1] ? "; /.dockerenv in its root" : "",
		 /* Not read: no manager seen is then no proof of none. */
		 err ? "; its manager's marks in its root could not be read: " : "",
		 err ? strerror(-err) : "");
}

const char *proc_container_where(const struct proc_facts *pf)
{
	const char *mark = " (a path in the container's root)";
	int mnt = pf->owner.ns.other_mnt;

	if (!fact_ok(&pf->owner.e) || !pf->owner.o.container.runtime || mnt == 0)
		return "";
	/* Its own mount namespace seen, or unknown (a captured tree) in a container a cgroup named. */
	return mnt == 1 || !pf->owner.ns.named_by_ns ? mark : "";
}
