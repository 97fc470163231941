/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROC_CONTAINER_H
#define URINGLINT_PROC_CONTAINER_H

#include "proc_facts.h"
#include "sysroot.h"

/*
 * Names the container of a process in a PID namespace of its own whose
 * cgroup named none (pf->owner.o.container, pf->owner.ns); needs its status
 * and cgroup read first. See proc_container.c.
 */
void proc_container_collect(const struct sysroot *sr, struct proc_facts *pf);
/*
 * " (a path in the container's root)" for a process whose paths are its
 * container's (a container named, and its mount namespace not uringlint's,
 * or unknown for a container its cgroup named), or "".
 */
const char *proc_container_where(const struct proc_facts *pf);

#endif
