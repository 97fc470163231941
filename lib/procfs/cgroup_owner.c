// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The unit and container of a process from the names systemd and the
 * container runtimes give its cgroup directories:
 *
 *   /system.slice/fio.service                                 system unit
 *   /user.slice/user-1000.slice/user@1000.service/app.slice/x.service
 *                                                             user unit (uid 1000)
 *   /user.slice/user-1000.slice/session-3.scope               login session
 *   /system.slice/docker-ID.scope, /docker/ID                 Docker
 *   /machine.slice/libpod-ID.scope, /libpod_parent/libpod-ID  Podman
 *   /kubepods.slice/kubepods-burstable.slice/kubepods-burstable-podUID.slice/
 *       cri-containerd-ID.scope (or crio-ID.scope)             Kubernetes (systemd driver)
 *   /kubepods/burstable/podUID/ID                             Kubernetes (cgroupfs driver)
 *   /lxc.payload.NAME, /lxc/NAME                              LXC
 *   /machine.slice/systemd-nspawn@NAME.service/payload/...    systemd-nspawn
 *   /machine.slice/machine-NAME.scope                         other machined guests
 *
 * A unit inside a container (nspawn's payload runs its own systemd) is the
 * container's unit; the container's own scope or service is not a unit of
 * the process. The conmon monitors of Podman and CRI-O are not containers.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs.h"

static bool has_prefix(const char *s, size_t n, const char *p)
{
	size_t pn = strlen(p);

	return n >= pn && !memcmp(s, p, pn);
}

static bool has_suffix(const char *s, size_t n, const char *x)
{
	size_t xn = strlen(x);

	return n >= xn && !memcmp(s + n - xn, x, xn);
}

static void copy(char *dst, size_t dstsz, const char *s, size_t n)
{
	if (n >= dstsz)
		n = dstsz - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* systemd's unit name escape for '-' in a machine name ("qemu\x2d1\x2dvm" is "qemu-1-vm"). */
static void unescape_unit(char *dst, size_t dstsz, const char *s, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i < n && o + 1 < dstsz; i++) {
		if (s[i] == '\\' && i + 3 < n && s[i + 1] == 'x' && isxdigit((unsigned char)s[i + 2]) &&
		    isxdigit((unsigned char)s[i + 3])) {
			char hex[3] = { s[i + 2], s[i + 3], 0 };

			dst[o++] = (char)strtol(hex, NULL, 16);
			i += 3;
		} else {
			dst[o++] = s[i];
		}
	}
	dst[o] = '\0';
}

/* A number that is all digits, as user-UID.slice and user@UID.service carry. */
static long uid_of(const char *s, size_t n)
{
	long v = 0;
	size_t i;

	if (!n || n > 10)
		return -1;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* A Kubernetes pod UID from a systemd slice name: underscores stand for its dashes. */
static void pod_uid(struct cgroup_owner *o, const char *s, size_t n)
{
	size_t i;

	copy(o->container.pod_uid, sizeof(o->container.pod_uid), s, n);
	for (i = 0; o->container.pod_uid[i]; i++)
		if (o->container.pod_uid[i] == '_')
			o->container.pod_uid[i] = '-';
}

static void container(struct cgroup_owner *o, const char *runtime, const char *id, size_t idn,
		      const char *name, size_t namen, long uid)
{
	o->container.runtime = runtime;
	o->container.uid = uid;
	copy(o->container.id, sizeof(o->container.id), id ? id : "", id ? idn : 0);
	copy(o->container.name, sizeof(o->container.name), name ? name : "", name ? namen : 0);
	/* A unit outside the container is not the process's: the container's units follow. */
	memset(&o->unit, 0, sizeof(o->unit));
	o->unit.uid = -1;
}

struct walk {
	const char *prev;		/* the component before, and its length */
	size_t prevn;
	bool kube, user_manager, docker_dir, lxc_dir, kube_pod_dir;
	long uid;			/* from user-UID.slice or user@UID.service */
	char slice[CGROUP_NAME_MAX];
};

/* Whether component c names a container; sets it in o. */
static bool container_component(struct cgroup_owner *o, struct walk *w, const char *c, size_t n)
{
	/* Under a user's manager it is that user's, whatever it is named. */
	long uid = w->user_manager ? w->uid : -1;

	if (w->docker_dir) {
		container(o, "docker", c, n, NULL, 0, uid);
		return true;
	}
	if (w->lxc_dir) {
		container(o, "lxc", NULL, 0, c, n, uid);
		return true;
	}
	if (w->kube_pod_dir) {
		container(o, "kubernetes", c, n, NULL, 0, uid);
		return true;
	}
	if (has_prefix(c, n, "docker-") && has_suffix(c, n, ".scope")) {
		container(o, "docker", c + 7, n - 7 - 6, NULL, 0, uid);
		return true;
	}
	if (has_prefix(c, n, "libpod-conmon-") || has_prefix(c, n, "crio-conmon-"))
		return false;
	if (has_prefix(c, n, "libpod-")) {
		container(o, "podman", c + 7, n - 7 - (has_suffix(c, n, ".scope") ? 6 : 0), NULL, 0, uid);
		return true;
	}
	if (has_prefix(c, n, "cri-containerd-") && has_suffix(c, n, ".scope")) {
		container(o, "containerd", c + 15, n - 15 - 6, NULL, 0, uid);
		return true;
	}
	if (has_prefix(c, n, "crio-") && has_suffix(c, n, ".scope")) {
		container(o, "cri-o", c + 5, n - 5 - 6, NULL, 0, uid);
		return true;
	}
	if (has_prefix(c, n, "lxc.payload.") && n > 12) {
		container(o, "lxc", NULL, 0, c + 12, n - 12, uid);
		return true;
	}
	if (has_prefix(c, n, "systemd-nspawn@") && has_suffix(c, n, ".service") && n > 15 + 8) {
		char name[CGROUP_NAME_MAX];

		unescape_unit(name, sizeof(name), c + 15, n - 15 - 8);
		container(o, "systemd-nspawn", NULL, 0, name, strlen(name), uid);
		return true;
	}
	if (w->prev && w->prevn == 13 && !memcmp(w->prev, "machine.slice", 13) &&
	    has_prefix(c, n, "machine-") && has_suffix(c, n, ".scope") && n > 8 + 6) {
		char name[CGROUP_NAME_MAX];

		unescape_unit(name, sizeof(name), c + 8, n - 8 - 6);
		container(o, "machine", NULL, 0, name, strlen(name), uid);
		return true;
	}
	return false;
}

static void component(struct cgroup_owner *o, struct walk *w, const char *c, size_t n)
{
	bool kube_pod = false, docker_dir = false, lxc_dir = false;

	if (has_prefix(c, n, "kubepods"))
		w->kube = true;
	if (w->kube && has_suffix(c, n, ".slice")) {
		const char *pod = memmem(c, n, "-pod", 4);

		if (pod)
			pod_uid(o, pod + 4, (size_t)(c + n - 6 - (pod + 4)));
	} else if (w->kube && has_prefix(c, n, "pod") && n > 3) {
		pod_uid(o, c + 3, n - 3);
		kube_pod = true;
	}
	if (!container_component(o, w, c, n)) {
		if (n == 6 && !memcmp(c, "docker", 6))
			docker_dir = true;
		else if (n == 3 && !memcmp(c, "lxc", 3))
			lxc_dir = true;
		if (has_prefix(c, n, "user-") && has_suffix(c, n, ".slice"))
			w->uid = uid_of(c + 5, n - 5 - 6);
		if (has_suffix(c, n, ".slice")) {
			copy(w->slice, sizeof(w->slice), c, n);
		} else if (has_prefix(c, n, "user@") && has_suffix(c, n, ".service") &&
			   !w->user_manager) {
			/* The user's manager: a system unit, and the units under it are the user's. */
			o->unit.kind = UNIT_SYSTEM;
			copy(o->unit.name, sizeof(o->unit.name), c, n);
			copy(o->unit.slice, sizeof(o->unit.slice), w->slice, strlen(w->slice));
			o->unit.uid = uid_of(c + 5, n - 5 - 8);
			w->uid = o->unit.uid;
			w->user_manager = true;
			w->slice[0] = '\0';
		} else if (has_suffix(c, n, ".service") || has_suffix(c, n, ".scope")) {
			o->unit.kind = w->user_manager ? UNIT_USER
				       : has_prefix(c, n, "session-") ? UNIT_SESSION : UNIT_SYSTEM;
			copy(o->unit.name, sizeof(o->unit.name), c, n);
			copy(o->unit.slice, sizeof(o->unit.slice), w->slice, strlen(w->slice));
			o->unit.uid = o->unit.kind == UNIT_SYSTEM ? -1 : w->uid;
		}
	} else {
		w->slice[0] = '\0';
		w->user_manager = false;
		w->uid = -1;
	}
	w->docker_dir = docker_dir;
	w->lxc_dir = lxc_dir;
	w->kube_pod_dir = kube_pod;
	w->prev = c;
	w->prevn = n;
}

static void classify(const char *path, size_t len, struct cgroup_owner *o)
{
	struct walk w = { .uid = -1 };
	const char *p = path, *end = path + len;

	while (p < end) {
		const char *slash = memchr(p, '/', (size_t)(end - p));
		size_t n = (size_t)((slash ? slash : end) - p);

		if (n)
			component(o, &w, p, n);
		p += n + 1;
	}
}

/* One line "ID:CONTROLLERS:PATH"; false for a line that is not one. */
static bool split_line(const char *line, size_t n, long *id, const char **ctl, size_t *ctln,
		       const char **path, size_t *pathn)
{
	const char *c1 = memchr(line, ':', n), *c2;

	if (!c1 || c1 == line)
		return false;
	*id = uid_of(line, (size_t)(c1 - line));
	if (*id < 0)
		return false;
	c2 = memchr(c1 + 1, ':', (size_t)(line + n - c1 - 1));
	if (!c2 || c2 + 1 >= line + n || c2[1] != '/')
		return false;
	*ctl = c1 + 1;
	*ctln = (size_t)(c2 - c1 - 1);
	*path = c2 + 1;
	*pathn = (size_t)(line + n - c2 - 1);
	return true;
}

int cgroup_owner_parse(const char *text, struct cgroup_owner *o)
{
	const char *p = text, *v2 = NULL, *sd = NULL, *ctr_path = NULL;
	size_t v2n = 0, sdn = 0, ctrn = 0;
	unsigned char seen[64] = { 0 };
	struct cgroup_owner probe;
	int lines = 0;

	memset(o, 0, sizeof(*o));
	o->unit.uid = -1;
	o->container.uid = -1;
	while (*p) {
		size_t n = strcspn(p, "\n"), ctln, pathn;
		const char *ctl, *path;
		long id;

		if (!split_line(p, n, &id, &ctl, &ctln, &path, &pathn))
			return -EBADMSG;
		/*
		 * The kernel prints each hierarchy once, and a path raw: a second
		 * line of one hierarchy is a directory name holding a newline, and
		 * what follows it could be anything its creator wrote.
		 */
		if (id < (long)sizeof(seen)) {
			if (seen[id]++)
				return -EBADMSG;
		}
		/* The kernel prints the v2 line last: a line after it is forged too. */
		if (v2)
			return -EBADMSG;
		if (id == 0 && !ctln) {
			v2 = path;
			v2n = pathn;
		} else if (ctln == 12 && !memcmp(ctl, "name=systemd", 12)) {
			sd = path;
			sdn = pathn;
		} else if (!ctr_path) {
			memset(&probe, 0, sizeof(probe));
			classify(path, pathn, &probe);
			if (probe.container.runtime) {
				ctr_path = path;
				ctrn = pathn;
			}
		}
		lines++;
		p += n + (p[n] == '\n');
	}
	/*
	 * The kernel lists no hierarchy until one is mounted (cgroup2 stays
	 * hidden until its first mount: proc_cgroup_show, cgrp_dfl_visible): an
	 * init that mounts none, as a minimal guest's. No unit, no container.
	 */
	if (!lines) {
		snprintf(o->how, sizeof(o->how), "no cgroup hierarchy mounted (an empty cgroup file)");
		return 0;
	}
	/* The unified path, unless systemd keeps its own hierarchy (v1, hybrid). */
	if (v2 && (v2n > 1 || !sd)) {
		classify(v2, v2n, o);
		snprintf(o->how, sizeof(o->how), "cgroup v2 path %.*s", (int)(v2n > 255 ? 255 : v2n),
			 v2);
	} else if (sd) {
		classify(sd, sdn, o);
		snprintf(o->how, sizeof(o->how), "cgroup v1 name=systemd path %.*s",
			 (int)(sdn > 255 ? 255 : sdn), sd);
	}
	if (!o->unit.kind && !o->container.runtime && ctr_path) {
		classify(ctr_path, ctrn, o);
		snprintf(o->how, sizeof(o->how), "cgroup v1 path %.*s", (int)(ctrn > 255 ? 255 : ctrn),
			 ctr_path);
	}
	return 0;
}

/*
 * Docker and crictl show a container by the first 12 characters of its id;
 * a UUID (systemd's container-uuid) is shown whole, as machinectl does.
 */
static int short_id(const char *id)
{
	if (strchr(id, '-'))
		return (int)strlen(id);
	return strlen(id) > 12 ? 12 : (int)strlen(id);
}

void cgroup_container_words(const struct cgroup_owner *o, char *buf, size_t n)
{
	const char *rt = o->container.runtime;

	buf[0] = '\0';
	if (!rt)
		return;
	if (o->container.name[0])
		snprintf(buf, n, "%s %s", rt, o->container.name);
	else if (o->container.pod_uid[0])
		snprintf(buf, n, "%s container %.*s of pod %s", rt, short_id(o->container.id),
			 o->container.id, o->container.pod_uid);
	else if (o->container.id[0])
		snprintf(buf, n, "%s container %.*s", rt, short_id(o->container.id), o->container.id);
	/* Named from its namespaces alone (unshare): no manager, so no name or id. */
	else if (!strcmp(rt, "namespaces"))
		snprintf(buf, n, "namespaces of its own");
	else
		snprintf(buf, n, "a %s container", rt);
	if (o->container.uid >= 0 && strlen(buf) + 40 < n)
		snprintf(buf + strlen(buf), n - strlen(buf), " (rootless, user %ld)",
			 o->container.uid);
}

void cgroup_owner_words(const struct cgroup_owner *o, char *buf, size_t n)
{
	char ctr[CGROUP_NAME_MAX + 128];

	cgroup_container_words(o, ctr, sizeof(ctr));
	if (o->unit.kind == UNIT_USER)
		snprintf(buf, n, "user %ld's unit %s%s%s", o->unit.uid, o->unit.name,
			 ctr[0] ? " in " : "", ctr);
	else if (o->unit.kind != UNIT_NONE)
		snprintf(buf, n, "%s%s%s", o->unit.name, ctr[0] ? " in " : "", ctr);
	else
		snprintf(buf, n, "%s", ctr);
}
