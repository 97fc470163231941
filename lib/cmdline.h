/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_CMDLINE_H
#define URINGLINT_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "cpulist.h"

/*
 * Finds param=value in a kernel command line (/proc/cmdline). The kernel
 * lets a later occurrence override an earlier one, so the last one wins;
 * parameters after a lone "--" go to init and are ignored. Returns 0,
 * -ENOENT, or -EOVERFLOW when the value does not fit.
 */
int cmdline_get(const char *cmdline, const char *param, char *out, size_t outsz);

/* isolcpus=[nohz,domain,managed_irq,]LIST */
struct isolcpus {
	struct cpuset cpus;
	bool domain;		/* scheduler domain isolation (also the default with no flag) */
	bool nohz;
	bool managed_irq;	/* kernel-managed IRQs (NVMe queues) kept off these CPUs */
};

/* 0 or -EBADMSG. */
int cmdline_parse_isolcpus(const char *value, struct isolcpus *iso);

/* rcu_nocbs and nohz_full take a plain cpulist; "all" is allowed for rcu_nocbs. */
int cmdline_parse_cpulist(const char *value, const struct cpuset *possible, struct cpuset *set);

#endif
