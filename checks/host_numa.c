// SPDX-License-Identifier: GPL-2.0-or-later
/* The device under each --dir and the planned SQPOLL CPUs on one NUMA node. */
#include <stdio.h>

#include "checks.h"

static void numa_one(const struct check *c, struct check_ctx *ctx, const struct dir_facts *df)
{
	const struct cpu_facts *cf = &ctx->host->cpu;
	const struct cpuset *plan = &ctx->plan->sqpoll_cpus;
	char node_cpus[64], away[64];
	struct cpuset off;
	const struct cpuset *local = NULL;
	struct finding *f;
	unsigned int i;

	if (cf->nnodes <= 1) {
		f = dir_add(c, ctx, df, STATUS_PASS, "single NUMA node: nothing can be remote");
		finding_ev_int(f, "nodes", cf->nnodes);
		return;
	}
	if (!fact_ok(&df->blk.e)) {
		check_fact_missing(c, ctx, df->path, &df->blk.e);
		return;
	}
	if (df->blk.numa_node < 0) {
		f = dir_add(c, ctx, df, STATUS_SKIP,
			    "%s reports no NUMA node (a virtual or non-PCI device)", df->blk.disk);
		finding_ev_int(f, "nodes", cf->nnodes);
		return;
	}
	for (i = 0; i < cf->nnodes; i++)
		if (cf->nodes[i].node == (unsigned int)df->blk.numa_node)
			local = &cf->nodes[i].cpus;
	if (!local) {
		f = dir_add(c, ctx, df, STATUS_ERROR, "%s reports NUMA node %d, which is not online",
			    df->blk.disk, df->blk.numa_node);
		return;
	}
	cpus_format(local, node_cpus, sizeof(node_cpus));
	if (!ctx->plan->has_sqpoll_cpus) {
		f = dir_add(c, ctx, df, STATUS_SKIP,
			    "%s is on node %d (CPUs %s); no --sqpoll-cpu planned to compare",
			    df->blk.disk, df->blk.numa_node, node_cpus);
	} else {
		cpuset_andnot(&off, plan, local);
		if (cpuset_count(&off)) {
			cpus_format(&off, away, sizeof(away));
			f = dir_add(c, ctx, df, STATUS_FAIL,
				    "%s is on NUMA node %d (CPUs %s) but SQPOLL CPU%s %s %s on another "
				    "node: every submission and completion crosses the interconnect",
				    df->blk.disk, df->blk.numa_node, node_cpus,
				    cpuset_count(&off) == 1 ? "" : "s", away,
				    cpuset_count(&off) == 1 ? "is" : "are");
			finding_set_fix(f, "plan the SQPOLL threads on node %d's CPUs (%s) with "
					   "IORING_SETUP_SQ_AFF, and run the service there (numactl "
					   "--cpunodebind=%d --membind=%d)",
					df->blk.numa_node, node_cpus, df->blk.numa_node,
					df->blk.numa_node);
		} else {
			f = dir_add(c, ctx, df, STATUS_PASS,
				    "%s and the SQPOLL CPUs are on NUMA node %d (CPUs %s)", df->blk.disk,
				    df->blk.numa_node, node_cpus);
		}
	}
	finding_ev_int(f, "nodes", cf->nnodes);
	finding_ev_int(f, "device_node", df->blk.numa_node);
}

void check_numa_locality(const struct check *c, struct check_ctx *ctx)
{
	if (!fact_ok(&ctx->host->cpu.numa_e)) {
		check_fact_missing(c, ctx, "host", &ctx->host->cpu.numa_e);
		return;
	}
	dir_checks_each(c, ctx, numa_one);
}
