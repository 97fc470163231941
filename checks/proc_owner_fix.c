// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A process's limits are set by what starts it: its systemd unit, its
 * container runtime, or PAM for a login session. A fix aimed there names
 * the unit or container and the exact setting, instead of "the service's
 * user" in general.
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"

static int short_id(const char *id)
{
	return strlen(id) > 12 ? 12 : (int)strlen(id);
}

/*
 * Each runtime's own way into a container: by its id (Docker, Podman: the
 * first 12 characters, as docker ps shows it) or by its name (LXC, nspawn
 * under machined).
 */
static const struct {
	const char *runtime, *fmt;
	bool by_name;
} enter_cmds[] = {
	{ "docker", "docker exec -it %.12s sh", false },
	{ "podman", "podman exec -it %.12s sh", false },
	{ "lxc", "lxc-attach -n %s", true },
	{ "systemd-nspawn", "machinectl shell %s", true },
};

const char *proc_container_enter(const struct proc_facts *pf, char *buf, size_t n)
{
	const struct cgroup_owner *o = &pf->owner.o;
	const char *rt = o->container.runtime;
	size_t i;

	buf[0] = '\0';
	if (!fact_ok(&pf->owner.e) || !rt)
		return buf;
	for (i = 0; i < sizeof(enter_cmds) / sizeof(enter_cmds[0]); i++) {
		const char *key = enter_cmds[i].by_name ? o->container.name : o->container.id;

		if (strcmp(rt, enter_cmds[i].runtime) || !key[0])
			continue;
		/* An id read from the container's own marks (its namespaces) is no runtime's id. */
		if (!enter_cmds[i].by_name && pf->owner.ns.named_by_ns)
			continue;
		snprintf(buf, n, enter_cmds[i].fmt, key);
	}
	return buf;
}

/*
 * A unit of the system manager; or of a user's, which can raise a limit
 * only up to the hard limit its manager (user@UID.service) has, and cannot
 * grant capabilities.
 */
static void unit_fix(const struct cgroup_owner *o, bool transient, char *buf, size_t n,
		     const char *where)
{
	bool user = o->unit.kind == UNIT_USER;
	char tail[160];

	if (user)
		snprintf(tail, sizeof(tail), ". A user's unit is bounded by the hard limit of "
			 "user@%ld.service: raise that as root the same way", o->unit.uid);
	else
		snprintf(tail, sizeof(tail), ". Or grant it CAP_IPC_LOCK (%sAmbientCapabilities="
			 "CAP_IPC_LOCK), which io_uring does not charge", transient ? "-p " : "");
	if (transient)
		snprintf(buf, n, "%s is a transient unit (systemd-run): start it again with "
			 "systemd-run %s-p LimitMEMLOCK=infinity --unit=%s ...%s%s", o->unit.name,
			 user ? "--user " : "", o->unit.name, where, tail);
	else
		snprintf(buf, n, "systemctl %sedit %s%s, and in the drop-in: [Service] "
			 "LimitMEMLOCK=infinity (or a size); then systemctl %srestart %s%s",
			 user ? "--user " : "", o->unit.name, where, user ? "--user " : "",
			 o->unit.name, tail);
}

const char *proc_memlock_fix(const struct proc_facts *pf, char *buf, size_t n)
{
	const struct cgroup_owner *o = &pf->owner.o;
	/*
	 * A container named from the namespaces (proc_container.c) has no name or
	 * id a runtime's command takes: the limit comes from whatever starts it,
	 * its unit when the cgroup names one, as for a process of no container.
	 */
	const char *rt = pf->owner.ns.named_by_ns ? NULL : o->container.runtime;
	char where[CGROUP_NAME_MAX + 64] = "", enter[CGROUP_NAME_MAX + 32];

	if (!fact_ok(&pf->owner.e) || (!rt && o->unit.kind == UNIT_NONE))
		return FIX_MEMLOCK_TEXT;
	/* A unit inside a container by name: its own init's, entered by the runtime's command. */
	if (rt && o->container.name[0] && proc_container_enter(pf, enter, sizeof(enter))[0])
		snprintf(where, sizeof(where), " (inside the container: %s)", enter);
	/* A unit inside a container of its own init is that init's to change. */
	if (o->unit.kind == UNIT_SYSTEM || o->unit.kind == UNIT_USER) {
		if (!(rt && !where[0])) {
			unit_fix(o, pf->owner.transient, buf, n, where);
			return buf;
		}
	}
	if (!rt) {
		/* A login session: PAM's limits, for the session's user. */
		snprintf(buf, n, "%s is a login session: its limits come from PAM; set '<user> - "
			 "memlock unlimited' for uid %ld in /etc/security/limits.d/io_uring.conf and log "
			 "in again, or run the program as a systemd unit with LimitMEMLOCK=infinity",
			 o->unit.name, o->unit.uid);
		return buf;
	}
	if (!strcmp(rt, "docker"))
		snprintf(buf, n, "start container %.*s with docker run --ulimit memlock=-1:-1 (compose: "
			 "ulimits: memlock: -1), or --cap-add IPC_LOCK, which io_uring does not charge",
			 short_id(o->container.id), o->container.id);
	else if (!strcmp(rt, "podman"))
		snprintf(buf, n, "start container %.*s with podman run --ulimit memlock=-1:-1, or "
			 "--cap-add IPC_LOCK, which io_uring does not charge",
			 short_id(o->container.id), o->container.id);
	else if (!strcmp(rt, "containerd") || !strcmp(rt, "cri-o") || !strcmp(rt, "kubernetes"))
		snprintf(buf, n, "Kubernetes sets no rlimit per pod: containers inherit the node's "
			 "runtime default. Add IPC_LOCK to the container's securityContext.capabilities "
			 "(pod %s), which io_uring does not charge; or raise the node's default: %s",
			 o->container.pod_uid[0] ? o->container.pod_uid : "unknown",
			 !strcmp(rt, "cri-o") ? "default_ulimits = [\"memlock=-1:-1\"] in [crio.runtime] "
						"of /etc/crio/crio.conf"
					      : "systemctl edit containerd.service, [Service] "
						"LimitMEMLOCK=infinity, and restart containerd");
	else if (!strcmp(rt, "lxc"))
		snprintf(buf, n, "lxc.prlimit.memlock = unlimited in the config of container %s, and "
			 "restart it", o->container.name);
	else if (!strcmp(rt, "systemd-nspawn"))
		snprintf(buf, n, "LimitMEMLOCK=infinity in [Exec] of /etc/systemd/nspawn/%s.nspawn "
			 "(systemd-nspawn --rlimit=RLIMIT_MEMLOCK=infinity), and restart the container",
			 o->container.name);
	else
		snprintf(buf, n, "raise RLIMIT_MEMLOCK where %s %s is started, or grant it "
			 "CAP_IPC_LOCK, which io_uring does not charge", rt, o->container.name);
	return buf;
}
