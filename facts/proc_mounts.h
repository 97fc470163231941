/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROC_MOUNTS_H
#define URINGLINT_PROC_MOUNTS_H

#include "proc_facts.h"
#include "sysroot.h"

/* Each file's filesystem and device, by mnt_id in the process's own mount table. */
void proc_mounts_collect(const struct sysroot *sr, struct proc_facts *pf);
/* The block devices under the files' mounts, each read from sysfs once. */
void proc_devices_collect(const struct sysroot *sr, struct proc_facts *pf);

#endif
