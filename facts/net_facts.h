/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_NET_FACTS_H
#define URINGLINT_NET_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu_facts.h"
#include "fact.h"
#include "procfs.h"
#include "sysroot.h"


#define NET_DEVS_MAX 8		/* --net-dev given, or default routes: a handful */
#define NET_QUEUES_MAX 1024	/* per direction: past this the rest is not read */
#define NET_IRQS_MAX 1024
#define NET_LOWER_MAX 4

/* One receive queue: sys/class/net/DEV/queues/rx-N. */
struct net_rxq {
	unsigned int idx;
	struct fact_err rps_e;		/* rps_cpus unreadable or not a mask */
	struct cpuset rps;		/* none: RPS off for this queue */
	struct fact_err flow_e;
	int64_t flow_cnt;		/* rps_flow_cnt: this queue's RFS table */
};

/* One transmit queue: tx-N. */
struct net_txq {
	unsigned int idx;
	struct fact_err xps_e;		/* -ENOENT on a single-queue device */
	struct cpuset xps;
};

/* One of the device's interrupts, with both of its affinities. */
struct net_irq {
	unsigned int irq;
	char name[96];			/* as /proc/interrupts names it */
	int queue;			/* from the name; -1 unknown */
	bool fast_path;			/* a queue's vector, not config or async */
	struct fact_err e;		/* neither affinity readable */
	bool has_effective;
	struct cpuset effective;	/* effective_affinity_list: where it is delivered */
	bool has_configured;
	struct cpuset configured;	/* smp_affinity_list: what was asked for */
};

struct net_dev {
	char name[NET_IFNAME_MAX];
	struct fact_err e;		/* no such interface: nothing else is known */

	/*
	 * sys/class/net/DEV/device: a bus device (PCI "0000:3b:00.0", virtio
	 * "virtio2") and its driver; none for software devices (lo, veth,
	 * bridges, bonds, VLANs), whose lower devices are listed.
	 */
	bool has_device;
	char busdev[64];
	char driver[32];
	bool is_virtual;		/* software, or a paravirtual driver of a VM */
	char virtual_why[96];
	char lower[NET_LOWER_MAX][NET_IFNAME_MAX];
	size_t nlower;

	struct fact_err queues_e;
	unsigned int nrx, ntx;		/* counted; the arrays hold the first NET_QUEUES_MAX */
	struct net_rxq *rx;
	struct net_txq *tx;

	struct fact_err irq_e;		/* how the device's IRQs were looked for, when none */
	char irq_source[96];		/* where the IRQ numbers came from */
	struct net_irq *irqs;
	size_t nirqs;
	size_t rx_cap, tx_cap, irqs_cap;	/* what the arrays have room for */
};

struct net_facts {
	struct fact_err e;		/* the devices could not be chosen */
	char chosen_by[96];		/* "--net-dev", "the IPv4 default route (proc/net/route)" */
	struct net_dev devs[NET_DEVS_MAX];
	size_t ndevs;

	/* net.core.rps_sock_flow_entries: RFS's global socket flow table (0: RFS off) */
	struct {
		struct fact_err e;
		int64_t value;
	} rps_sock_flow_entries;

	/* irqbalance's --banirq IRQs, from its command line (known: it was read) */
	bool banirq_known;
	unsigned int banirq[NET_IRQS_MAX];
	size_t nbanirq;
};

/*
 * Collects the named devices, or without names those of the IPv4 default
 * route; the device IRQs are matched against the lines cf read of
 * proc/interrupts. Never fails as a whole.
 */
void net_facts_collect(const struct sysroot *sr, const char *const *names, size_t nnames,
		       const struct cpu_facts *cf, struct net_facts *nf);
void net_facts_free(struct net_facts *nf);

/* Whether irqbalance was told to leave irq alone. */
bool net_facts_banned(const struct net_facts *nf, unsigned int irq);

#endif
