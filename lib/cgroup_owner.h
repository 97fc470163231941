/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_CGROUP_OWNER_H
#define URINGLINT_CGROUP_OWNER_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Who runs a process, from its /proc/PID/cgroup: the systemd unit (a
 * service of the system or of a user's manager, or a scope: a login
 * session, a transient run) and the container (Docker, containerd or CRI-O
 * under Kubernetes, Podman, LXC, systemd-nspawn and other machines), each
 * recognised by the names their managers give cgroup directories. The
 * strings are the cgroup's bytes, unescaped: any user with a delegated
 * subtree names its directories, so writers escape them.
 */
enum cgroup_unit_kind {
	UNIT_NONE,
	UNIT_SYSTEM,		/* a unit of the system manager: NAME.service, NAME.scope */
	UNIT_USER,		/* a unit of user@UID.service, the user's own manager */
	UNIT_SESSION,		/* a login session's scope (session-N.scope): PAM's limits */
};

#define CGROUP_NAME_MAX 256

struct cgroup_owner {
	struct {
		enum cgroup_unit_kind kind;
		char name[CGROUP_NAME_MAX];	/* "fio.service", "session-3.scope" */
		char slice[CGROUP_NAME_MAX];	/* the slice it is in: "system.slice", "" none */
		long uid;			/* UNIT_USER, UNIT_SESSION: the user; -1 unknown */
	} unit;
	struct {
		const char *runtime;		/* "docker", "podman", "containerd", "cri-o",
						   "kubernetes", "lxc", "systemd-nspawn",
						   "machine"; NULL none */
		char id[CGROUP_NAME_MAX];	/* a container id ("" none) */
		char name[CGROUP_NAME_MAX];	/* lxc, nspawn or machine name ("" none) */
		char pod_uid[64];		/* Kubernetes pod UID ("" none) */
		/*
		 * A container under a user's manager (user@UID.service): rootless,
		 * that user's to run (or a scope the user named so); -1 none.
		 */
		long uid;
	} container;
	/* How it was recognised: "cgroup v2 path /system.slice/fio.service" */
	char how[CGROUP_NAME_MAX + 64];
};

/*
 * Parses the text of /proc/PID/cgroup: the v2 line ("0::PATH"), else v1's
 * name=systemd, else a v1 controller line whose path names a container.
 * 0 with o filled (a process in the root cgroup, or in one no manager's
 * names, has neither unit nor container), or -EBADMSG for text that is not
 * a cgroup file.
 */
int cgroup_owner_parse(const char *text, struct cgroup_owner *o);

/*
 * In words, "" when neither: "fio.service", "user 1000's unit x.service",
 * "docker container 0123456789ab", "fio.service in systemd-nspawn guest".
 */
void cgroup_owner_words(const struct cgroup_owner *o, char *buf, size_t n);
/* The container alone, "" when none. */
void cgroup_container_words(const struct cgroup_owner *o, char *buf, size_t n);

#endif
