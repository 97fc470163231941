/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_HOST_FACTS_H
#define URINGLINT_HOST_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "container.h"
#include "cpu_facts.h"
#include "dir_facts.h"
#include "fact.h"
#include "procfs.h"
#include "net_napi.h"
#include "net_facts.h"
#include "sysroot.h"
#include "uring_features.h"
#include "uring_probe.h"

/*
 * Everything host checks judge, collected once. Each part carries its own
 * fact_err so a check can skip or error with the exact reason while the
 * other parts stay usable.
 */
struct host_facts {
	bool live;			/* false under --root: judged from files */
	bool tool_is_root;		/* euid of uringlint itself, for NEEDS_ROOT checks */
	uint64_t page_size;
	char hostname[256];
	unsigned int cpus;		/* online CPUs, 0 when unknown */

	struct {
		struct fact_err e;
		struct kernel_version v;
	} kernel;

	/* kernel.io_uring_disabled and kernel.io_uring_group (6.6+) */
	struct {
		struct fact_err e;
		int64_t value;
	} uring_disabled, uring_group;

	/*
	 * net.ipv4.tcp_migrate_req (5.14+), net.core.somaxconn and
	 * net.ipv4.tcp_max_syn_backlog: per network namespace, read in the one
	 * uringlint runs in, whose inode netns is (0 unknown: a captured tree).
	 * net.core.busy_read and busy_poll are global, and only the initial
	 * namespace shows them.
	 */
	struct {
		struct fact_err e;
		int64_t value;
	} tcp_migrate_req, somaxconn, tcp_max_syn_backlog, busy_read, busy_poll;
	uint64_t netns;

	/* /sys/class/net: each device's napi_defer_hard_irqs and gro_flush_timeout */
	struct net_devs netdevs;

	/*
	 * proc/self of the process that runs uringlint, standing for the
	 * service's credentials and limits (a captured tree keeps those of the
	 * shell that captured it).
	 */
	struct {
		struct fact_err e;
		struct proc_status st;
	} self_status;

	struct {
		struct fact_err e;
		struct proc_limits lim;
	} self_limits;

	/* A real io_uring_setup(): live only; e.err says why it was not tried. */
	struct {
		struct fact_err e;
		struct uring_setup_result r;
	} uring_setup;

	/* Setup flags, register operations and opcodes, tried live. */
	struct uring_features features;

	struct cpu_facts cpu;
	struct container_facts container;
	/* The service's network devices: queues, RPS/XPS/RFS, queue IRQs. */
	struct net_facts net;

	/* One entry per --dir, in the order given. */
	struct dir_facts *dirs;
	size_t ndirs;
};

/*
 * What to collect beyond the cheap reads. The tries create rings, SQPOLL
 * threads and a temporary file: only when a selected check needs them.
 */
struct collect_opts {
	const char *const *dirs;
	size_t ndirs;
	bool try_features;	/* io_uring setup flags, registrations, opcodes */
	bool try_odirect;	/* a temporary O_DIRECT file in each directory */
	/*
	 * Every process's comm, for irqbalance: 400 system calls on a host of
	 * 130 processes, which an audit of one does not need.
	 */
	bool read_irqbalance;
	unsigned int ring_entries;	/* also try a ring this large (the plan's); 0: not */
	const char *const *net_devs;	/* --net-dev; none: the default route's devices */
	size_t nnet_devs;
};

/* Collects every fact, and each directory's; never fails as a whole. */
void host_facts_collect(const struct sysroot *sr, const struct collect_opts *opts,
			struct host_facts *hf);
void host_facts_free(struct host_facts *hf);

#endif
