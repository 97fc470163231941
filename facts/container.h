/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_CONTAINER_H
#define URINGLINT_CONTAINER_H

#include <stdbool.h>

#include "fact.h"
#include "sysroot.h"

/* Whether uringlint runs inside a container, and whose. */
struct container_facts {
	struct fact_err e;
	bool in_container;
	char runtime[32];	/* docker, podman, kubernetes, containerd, lxc, systemd-nspawn, … */
	char evidence[256];	/* what said so: "/.dockerenv", "proc/self/cgroup: …kubepods…" */
};

void container_facts_collect(const struct sysroot *sr, struct container_facts *cf);

#endif
