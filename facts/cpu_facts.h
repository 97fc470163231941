/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_CPU_FACTS_H
#define URINGLINT_CPU_FACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "procfs.h"
#include "cpulist.h"
#include "fact.h"
#include "sysroot.h"

#define NUMA_NODES_MAX 64

struct irq_info {
	struct irq_line line;
	enum irq_class cls;
	char device[64];
	struct cpuset affinity;	/* effective affinity, else the configured one */
	bool effective;		/* affinity came from effective_affinity_list */
	struct fact_err e;	/* affinity unreadable */
};

struct cpu_governor {
	unsigned int cpu;
	char governor[32];	/* empty: no cpufreq for this CPU */
};

/* CPU isolation, IRQ placement, frequency and NUMA layout of the host. */
struct cpu_facts {
	struct fact_err online_e;
	struct cpuset online;
	struct cpuset possible;

	/* sys/devices/system/cpu/isolated and nohz_full: what the kernel applied */
	struct fact_err isolated_e, nohz_e;
	struct cpuset isolated, nohz_full;

	/* proc/cmdline: what was asked for */
	struct fact_err cmdline_e;
	bool has_isolcpus, has_rcu_nocbs, has_nohz_full;
	struct isolcpus isolcpus;
	struct cpuset rcu_nocbs, nohz_full_arg;

	struct fact_err irq_e;
	struct irq_info *irqs;
	size_t nirqs;

	struct fact_err gov_e;		/* -ENOENT: no cpufreq at all */
	struct cpu_governor *governors;
	size_t ngovernors;

	struct fact_err numa_e;
	unsigned int nnodes;
	struct {
		unsigned int node;
		struct cpuset cpus;
	} nodes[NUMA_NODES_MAX];

	/*
	 * irqbalance: running (a process of that comm that is the daemon: see
	 * proc_identity.h), and its banned CPUs; the processes of that name that
	 * are not the daemon, whose environment is not taken.
	 */
	struct fact_err irqbalance_e;
	bool irqbalance_running;
	bool irqbalance_exe_checked;
	int irqbalance_pid;
#define IMPOSTORS_MAX 4
	struct {
		int pid;
		char why[128];
	} impostors[IMPOSTORS_MAX];
	size_t nimpostors;		/* all of them; the first IMPOSTORS_MAX listed */
	bool banned_known;
	struct cpuset banned;
	char banned_source[96];
};

/* The online CPUs alone, for validating --sqpoll-cpu before the real work; 0 or -errno. */
int cpu_online_read(const struct sysroot *sr, struct cpuset *online, struct fact_err *e);

/* With irqbalance only when asked: otherwise irqbalance_e says it was not read. */
void cpu_facts_collect(const struct sysroot *sr, bool irqbalance, struct cpu_facts *cf);
void cpu_facts_free(struct cpu_facts *cf);

/* The node whose CPU list holds cpu, or -1. */
int cpu_facts_node_of(const struct cpu_facts *cf, unsigned int cpu);

#endif
