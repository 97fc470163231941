// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The host against a planned network service (--workers, --worker-cpus,
 * --net-dev): NIC queues against workers, where the queue interrupts are
 * delivered, RPS/XPS/RFS, and the listen backlog limits.
 *
 * Seastar's scripts/perftune.py is the reference for a tuned host. It
 * splits the CPUs into IRQ CPUs and compute CPUs (on a host of up to 4
 * CPUs they are the same CPUs; above, one CPU, one core, or one core in
 * 16 per NUMA node takes the interrupts), sets the RX channels to the
 * number of IRQ CPUs (ethtool -L), gives each queue interrupt one IRQ CPU
 * and bans it in irqbalance (--banirq), sets every RX queue's rps_cpus
 * to all the CPUs it tunes (before its IRQ CPU mask, in its sq and
 * sq_split modes: to the compute CPUs), turns RFS on (32768
 * rps_sock_flow_entries, split evenly into each queue's rps_flow_cnt),
 * spreads the TX queues' xps_cpus over all CPUs, and raises somaxconn
 * and tcp_max_syn_backlog to 4096. Each rule below says which of these
 * it checks, and why it matters to a ring-per-worker service.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "output.h"
#include "checks.h"

#define PERFTUNE_BACKLOG 4096
#define PERFTUNE_RFS_ENTRIES 32768

/* A planned network service, or a skip saying none was described. */
static bool have_service(const struct check *c, struct check_ctx *ctx)
{
	if (ctx->plan->workers)
		return true;
	report_add(ctx->report, &c->info, STATUS_SKIP, "host",
		   "no network service planned: describe it with --workers N or --worker-cpus "
		   "LIST (and --net-dev DEV)");
	return false;
}

/* Calls fn for each device whose facts were read; the others are skips with the reason. */
static void net_devs_each(const struct check *c, struct check_ctx *ctx,
			  void (*fn)(const struct check *c, struct check_ctx *ctx,
				     const struct net_dev *d))
{
	const struct net_facts *nf = &ctx->host->net;
	size_t i;

	if (!have_service(c, ctx))
		return;
	if (!fact_ok(&nf->e)) {
		check_fact_missing(c, ctx, "host", &nf->e);
		return;
	}
	for (i = 0; i < nf->ndevs; i++) {
		const struct net_dev *d = &nf->devs[i];

		if (!fact_ok(&d->e))
			check_fact_missing(c, ctx, d->name, &d->e);
		else
			fn(c, ctx, d);
	}
}

static unsigned int nrxq(const struct net_dev *d)
{
	return d->nrx < NET_QUEUES_MAX ? d->nrx : NET_QUEUES_MAX;
}

static unsigned int ntxq(const struct net_dev *d)
{
	return d->ntx < NET_QUEUES_MAX ? d->ntx : NET_QUEUES_MAX;
}

/* Every RX queue's rps_cpus holds all of set (a queue that could not be read does not). */
static bool rps_covers(const struct net_dev *d, const struct cpuset *set)
{
	struct cpuset missing;
	unsigned int i;

	for (i = 0; i < nrxq(d); i++) {
		if (!fact_ok(&d->rx[i].rps_e))
			return false;
		cpuset_andnot(&missing, set, &d->rx[i].rps);
		if (cpuset_count(&missing))
			return false;
	}
	return nrxq(d) > 0;
}

/* The CPUs the device's queue interrupts are delivered to (effective, else configured). */
static const struct cpuset *irq_cpus(const struct net_irq *ii)
{
	return ii->has_effective ? &ii->effective : &ii->configured;
}

static void dev_evidence(struct finding *f, const struct check_ctx *ctx, const struct net_dev *d)
{
	char list[256];

	json_add_bytes(f->evidence, "device", d->name);
	json_add_bytes(f->evidence, "driver", d->driver[0] ? d->driver : NULL);
	finding_ev_bool(f, "virtual", d->is_virtual);
	finding_ev_int(f, "rx_queues", d->nrx);
	finding_ev_int(f, "tx_queues", d->ntx);
	finding_ev_int(f, "workers", ctx->plan->workers);
	if (ctx->plan->has_worker_cpus) {
		cpus_format(&ctx->plan->worker_cpus, list, sizeof(list));
		finding_ev_str(f, "worker_cpus", list);
	}
}

/* --- net-queues ------------------------------------------------------------------- */

static void queues_one(const struct check *c, struct check_ctx *ctx, const struct net_dev *d)
{
	unsigned int w = ctx->plan->workers;
	struct finding *f;
	char lower[96] = "";
	size_t i;

	if (!fact_ok(&d->queues_e)) {
		check_fact_missing(c, ctx, d->name, &d->queues_e);
		return;
	}
	if (!d->has_device) {
		for (i = 0; i < d->nlower; i++)
			catf(lower, sizeof(lower), "%s%s", i ? ", " : " (below it: ", d->lower[i]);
		if (d->nlower)
			catf(lower, sizeof(lower), ")");
		f = report_add(ctx->report, &c->info, STATUS_SKIP, d->name,
			       "%s: its queues are software, not a NIC's; judge the NIC that carries "
			       "its traffic with --net-dev%s",
			       d->virtual_why, lower);
	} else if (d->nrx >= w && d->ntx >= w) {
		f = report_add(ctx->report, &c->info, STATUS_PASS, d->name,
			       "%u RX and %u TX queues for %u workers: each worker can have a queue "
			       "of its own", d->nrx, d->ntx, w);
	} else if (d->is_virtual && d->nrx == 1) {
		/* Honest about a VM: one queue is the hypervisor's choice, and RPS is the remedy. */
		f = report_add(ctx->report, &c->info, STATUS_SKIP, d->name,
			       "%s with one RX queue: how many queues it has is set by the "
			       "hypervisor, not on this host, so it is not judged against the %u "
			       "workers; one queue's interrupt takes all receive work to one CPU, and "
			       "RPS is what spreads it to the workers (net-rps-xps judges it)",
			       d->virtual_why, w);
	} else if (d->nrx < w && ctx->plan->has_worker_cpus &&
		   rps_covers(d, &ctx->plan->worker_cpus)) {
		f = report_add(ctx->report, &c->info, STATUS_PASS, d->name,
			       "%u RX queues for %u workers, and RPS sends every queue's packets to "
			       "the worker CPUs: perftune.py's model, where the queues match the IRQ "
			       "CPUs and RPS carries the work to the compute CPUs",
			       d->nrx, w);
	} else {
		unsigned int fewer = d->nrx < d->ntx ? d->nrx : d->ntx;

		f = report_add(ctx->report, &c->info, STATUS_WARN, d->name,
			       "%u RX and %u TX queues for %u workers: %u workers have no "
			       "queue of their own, so their packets arrive by another CPU's "
			       "interrupt and their sends share a queue's lock; perftune.py sizes the "
			       "RX channels to its IRQ CPUs and relies on RPS to reach the rest, "
			       "which only works with rps_cpus covering the workers",
			       d->nrx, d->ntx, w, w > fewer ? w - fewer : 0);
		finding_set_fix(f, "ethtool -L %s combined %u (or: ethtool -L %s rx %u tx %u; "
				   "'ethtool -l %s' shows the most the NIC offers%s); or keep fewer "
				   "queues and set RPS to the worker CPUs (net-rps-xps)",
				d->name, w, d->name, w, w, d->name,
				d->is_virtual ? ", and a VM's NIC offers what the hypervisor gives it: "
						"libvirt <driver queues='N'/>"
					      : "");
	}
	dev_evidence(f, ctx, d);
}

void check_net_queues(const struct check *c, struct check_ctx *ctx)
{
	net_devs_each(c, ctx, queues_one);
}

/* --- net-irq-placement ------------------------------------------------------------ */

/* Where a planned interrupt may go: the worker CPUs, else the online CPUs without SQPOLL. */
static void irq_target(const struct check_ctx *ctx, struct cpuset *target)
{
	const struct plan *p = ctx->plan;

	if (p->has_worker_cpus) {
		*target = p->worker_cpus;
	} else {
		*target = ctx->host->cpu.online;
	}
	if (p->has_sqpoll_cpus)
		cpuset_andnot(target, target, &p->sqpoll_cpus);
}

/* The i-th CPU of set (round robin), for spreading queues over CPUs. */
static unsigned int nth_cpu(const struct cpuset *set, unsigned int i)
{
	unsigned int n = cpuset_count(set), cpu, k = 0;

	if (!n)
		return 0;
	i %= n;
	for (cpu = 0; cpu < CPULIST_MAX; cpu++)
		if (cpuset_has(set, cpu) && k++ == i)
			return cpu;
	return 0;
}

struct placement {
	size_t known, on_sqpoll, on_workers, off_workers, unbanned;
	const struct net_irq *unknown;	/* the first whose affinity is unknown */
	size_t nunknown;
	struct cpuset delivered;	/* union of the queue interrupts' CPUs */
	char sqpoll_names[256], unbanned_list[128];
};

static void placement_tally(const struct check_ctx *ctx, const struct net_dev *d,
			    struct placement *pl)
{
	const struct plan *p = ctx->plan;
	const struct net_facts *nf = &ctx->host->net;
	size_t i;
	unsigned int cpu;

	memset(pl, 0, sizeof(*pl));
	for (i = 0; i < d->nirqs; i++) {
		const struct net_irq *ii = &d->irqs[i];
		const struct cpuset *at = irq_cpus(ii);

		if (!fact_ok(&ii->e)) {
			if (!pl->nunknown++)
				pl->unknown = ii;
			continue;
		}
		pl->known++;
		for (cpu = 0; cpu < CPULIST_MAX; cpu++)
			if (cpuset_has(at, cpu))
				cpuset_set(&pl->delivered, cpu);
		if (p->has_sqpoll_cpus && cpuset_intersects(at, &p->sqpoll_cpus)) {
			pl->on_sqpoll++;
			catf(pl->sqpoll_names, sizeof(pl->sqpoll_names), "%sIRQ %u %s",
				pl->on_sqpoll > 1 ? ", " : "", ii->irq, ii->name);
		}
		if (p->has_worker_cpus) {
			if (cpuset_intersects(at, &p->worker_cpus))
				pl->on_workers++;
			else
				pl->off_workers++;
		}
		if (ctx->host->cpu.irqbalance_running && !net_facts_banned(nf, ii->irq)) {
			pl->unbanned++;
			catf(pl->unbanned_list, sizeof(pl->unbanned_list), "%s%u",
				pl->unbanned > 1 ? "," : "", ii->irq);
		}
	}
}

/*
 * Distinct queues among the interrupts whose affinity is known (a virtio
 * queue has one interrupt per direction).
 */
static unsigned int irq_queues(const struct net_dev *d)
{
	struct cpuset seen = { 0 };
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < d->nirqs; i++) {
		int q = d->irqs[i].queue;

		if (!fact_ok(&d->irqs[i].e))
			continue;
		if (q < 0 || q >= CPULIST_MAX)
			n++;
		else if (!cpuset_has(&seen, (unsigned int)q)) {
			cpuset_set(&seen, (unsigned int)q);
			n++;
		}
	}
	return n;
}

/* "echo CPU > /proc/irq/N/smp_affinity_list" for each interrupt, queue i on target CPU i. */
static void spread_fix(const struct net_dev *d, const struct cpuset *target, char *fix, size_t sz)
{
	size_t i;

	for (i = 0; i < d->nirqs && strlen(fix) + 64 < sz; i++) {
		const struct net_irq *ii = &d->irqs[i];
		unsigned int slot = ii->queue >= 0 ? (unsigned int)ii->queue : (unsigned int)i;

		catf(fix, sz, "%secho %u > /proc/irq/%u/smp_affinity_list", i ? "; " : "",
			nth_cpu(target, slot), ii->irq);
	}
	if (i < d->nirqs)
		catf(fix, sz, "; …");
}

static void irq_placement_one(const struct check *c, struct check_ctx *ctx,
			      const struct net_dev *d)
{
	const struct plan *p = ctx->plan;
	struct cpuset target;
	struct placement pl;
	enum check_status st = STATUS_PASS;
	char msg[2048] = "", fix[1536] = "", at[128], tlist[128];
	unsigned int nq = irq_queues(d), ndel;
	bool moved;
	struct finding *f;

	if (!fact_ok(&d->irq_e)) {
		check_fact_missing(c, ctx, d->name, &d->irq_e);
		return;
	}
	placement_tally(ctx, d, &pl);
	if (!pl.known) {
		report_add(ctx->report, &c->info, STATUS_SKIP, d->name,
			   "the affinity of none of the %zu queue interrupts could be read "
			   "(proc/irq/N/effective_affinity_list, smp_affinity_list)", d->nirqs);
		return;
	}
	irq_target(ctx, &target);
	cpus_format(&target, tlist, sizeof(tlist));
	cpus_format(&pl.delivered, at, sizeof(at));
	ndel = cpuset_count(&pl.delivered);
	/* The problems add up; the worst one sets the status. */
	if (pl.on_sqpoll) {
		st = STATUS_FAIL;
		catf(msg, sizeof(msg), "%zu of %zu queue interrupts %s delivered to SQPOLL CPUs "
		     "(%s), where each one stops the polling thread", pl.on_sqpoll, d->nirqs,
		     pl.on_sqpoll == 1 ? "is" : "are", pl.sqpoll_names);
	}
	if (p->has_worker_cpus && pl.on_workers && pl.off_workers) {
		st = st > STATUS_WARN ? st : STATUS_WARN;
		catf(msg, sizeof(msg), "%squeue interrupts split: %zu on worker CPUs, %zu elsewhere "
		     "(on CPUs %s in all), so some workers take NIC interrupt work and others do "
		     "not; perftune.py puts all of a NIC's queue interrupts on one CPU set, the IRQ "
		     "CPUs", msg[0] ? "; " : "", pl.on_workers, pl.off_workers, at);
	} else if (p->has_worker_cpus && pl.on_workers && nq > 1 &&
		   ndel < (nq < cpuset_count(&target) ? nq : cpuset_count(&target))) {
		st = st > STATUS_WARN ? st : STATUS_WARN;
		catf(msg, sizeof(msg), "%sthe interrupts of %u queues are delivered to only %u "
		     "worker CPU%s (%s): those workers run every queue's interrupt and softirq "
		     "work; perftune.py gives each queue interrupt a CPU of its own",
		     msg[0] ? "; " : "", nq, ndel, ndel == 1 ? "" : "s", at);
	}
	if (st != STATUS_PASS)
		spread_fix(d, &target, fix, sizeof(fix));
	else if (p->has_worker_cpus && pl.on_workers)
		catf(msg, sizeof(msg), "the interrupts of %u queues are spread over worker CPUs %s: "
		     "each queue's packets are handled where a worker runs (perftune.py's model "
		     "when IRQ CPUs and compute CPUs are the same)", nq, at);
	else if (p->has_worker_cpus)
		catf(msg, sizeof(msg), "queue interrupts delivered to CPUs %s, none of them a "
		     "worker's: perftune.py's split of IRQ CPUs from compute CPUs, which needs RPS "
		     "to carry the packets to the workers (net-rps-xps)", at);
	else
		catf(msg, sizeof(msg), "queue interrupts delivered to CPUs %s, none of them an "
		     "SQPOLL CPU; without --worker-cpus their placement against the workers is not "
		     "judged", at);
	/* What could not be read is never passed over. */
	if (pl.nunknown) {
		enum check_status ust = fact_status(&pl.unknown->e);

		if (st == STATUS_PASS || ust == STATUS_ERROR)
			st = ust > st ? ust : STATUS_SKIP;
		catf(msg, sizeof(msg), "; the affinity of %zu queue interrupt%s is unknown, the "
		     "first IRQ %u %s (%s), so %s", pl.nunknown, pl.nunknown == 1 ? "" : "s",
		     pl.unknown->irq, pl.unknown->name, pl.unknown->e.why,
		     st == STATUS_SKIP ? "the placement is not judged as a whole"
				       : "the rest is judged without it");
	}
	moved = fix[0] != '\0';
	if (pl.unbanned) {
		if (st == STATUS_PASS)
			st = STATUS_WARN;
		catf(msg, sizeof(msg), "; irqbalance runs (pid %d) and %s IRQ%s %s: it "
			"rebalances them every 10 seconds, so a placement made by hand does not last "
			"(perftune.py bans every NIC interrupt it places)",
			ctx->host->cpu.irqbalance_pid,
			ctx->host->net.banirq_known ? "its command line does not --banirq"
						    : "its command line could not be read to tell "
						      "whether it bans",
			pl.unbanned == 1 ? "" : "s", pl.unbanned_list);
		catf(fix, sizeof(fix), "%sadd --banirq=N for each of IRQs %s to IRQBALANCE_ARGS "
			"in /etc/default/irqbalance and restart irqbalance, or stop it",
			fix[0] ? "; then " : "", pl.unbanned_list);
	} else if (!fact_ok(&ctx->host->cpu.irqbalance_e)) {
		/* Whether irqbalance undoes the placement is not known: no pass on it. */
		if (st == STATUS_PASS)
			st = STATUS_SKIP;
		catf(msg, sizeof(msg), "; whether irqbalance runs and moves them is not known: %s",
		     ctx->host->cpu.irqbalance_e.why);
	} else {
		catf(msg, sizeof(msg), "; %s", ctx->host->cpu.irqbalance_running
							  ? "irqbalance is told to leave them alone"
							  : "irqbalance does not run");
	}
	f = report_add(ctx->report, &c->info, st, d->name, "%s", msg);
	if (st != STATUS_PASS && fix[0])
		finding_set_fix(f, "%s%s", fix,
				moved ? " (a write that fails with EIO is a kernel-managed vector: "
					"isolcpus=managed_irq keeps those off isolated CPUs)"
				      : "");
	dev_evidence(f, ctx, d);
	finding_ev_str(f, "delivered_to", at);
	finding_ev_str(f, "irq_source", d->irq_source);
	finding_ev_int(f, "irqs", (int64_t)d->nirqs);
	finding_ev_int(f, "on_sqpoll_cpus", (int64_t)pl.on_sqpoll);
}

void check_net_irq_placement(const struct check *c, struct check_ctx *ctx)
{
	net_devs_each(c, ctx, irq_placement_one);
}

/* --- net-rps-xps ----------------------------------------------------------------- */

/*
 * The first RX queue whose rps_cpus could not be read or parsed (or whose
 * rps_flow_cnt was garbage), or TX queue whose xps_cpus was garbage.
 */
static const struct fact_err *mask_error(const struct net_dev *d, bool *all_absent_xps)
{
	unsigned int i, absent = 0;

	for (i = 0; i < nrxq(d); i++) {
		if (!fact_ok(&d->rx[i].rps_e))
			return &d->rx[i].rps_e;
		if (d->rx[i].flow_e.err == -EBADMSG)
			return &d->rx[i].flow_e;
	}
	for (i = 0; i < ntxq(d); i++) {
		if (d->tx[i].xps_e.err == -EBADMSG)
			return &d->tx[i].xps_e;
		absent += !fact_ok(&d->tx[i].xps_e);
	}
	*all_absent_xps = absent == ntxq(d);
	return NULL;
}

struct rps_view {
	unsigned int on, differ;	/* queues with RPS; queues unlike rx-0 */
	struct cpuset any;		/* union of every queue's rps_cpus */
	unsigned int flow_zero;		/* queues without an RFS table */
	int64_t flow_min;
};

static void rps_tally(const struct net_dev *d, struct rps_view *v)
{
	unsigned int i, cpu;

	memset(v, 0, sizeof(*v));
	v->flow_min = -1;
	for (i = 0; i < nrxq(d); i++) {
		const struct net_rxq *q = &d->rx[i];

		v->on += cpuset_count(&q->rps) > 0;
		if (memcmp(&q->rps, &d->rx[0].rps, sizeof(q->rps)))
			v->differ++;
		for (cpu = 0; cpu < CPULIST_MAX; cpu++)
			if (cpuset_has(&q->rps, cpu))
				cpuset_set(&v->any, cpu);
		if (fact_ok(&q->flow_e)) {
			v->flow_zero += q->flow_cnt == 0;
			if (v->flow_min < 0 || q->flow_cnt < v->flow_min)
				v->flow_min = q->flow_cnt;
		}
	}
}

/* The CPUs whose sends XPS maps to some TX queue. */
static void xps_union(const struct net_dev *d, struct cpuset *u)
{
	unsigned int i, cpu;

	memset(u, 0, sizeof(*u));
	for (i = 0; i < ntxq(d); i++)
		if (fact_ok(&d->tx[i].xps_e))
			for (cpu = 0; cpu < CPULIST_MAX; cpu++)
				if (cpuset_has(&d->tx[i].xps, cpu))
					cpuset_set(u, cpu);
}

static void rps_xps_one(const struct check *c, struct check_ctx *ctx, const struct net_dev *d)
{
	const struct plan *p = ctx->plan;
	const struct net_facts *nf = &ctx->host->net;
	const struct fact_err *bad;
	struct cpuset want, missing, xps;
	struct rps_view v;
	enum check_status st = STATUS_PASS;
	char msg[1536] = "", fix[1024] = "", list[128], hex[160];
	bool need_rps, xps_absent = false, rfs_known = fact_ok(&nf->rps_sock_flow_entries.e);
	int64_t rfs = nf->rps_sock_flow_entries.value;
	struct finding *f;

#define ISSUE(level, ...)                                                      \
	do {                                                                   \
		if ((level) > st)                                              \
			st = (level);                                          \
		catf(msg, sizeof(msg), "%s", msg[0] ? "; " : "");           \
		catf(msg, sizeof(msg), __VA_ARGS__);                        \
	} while (0)

	if (!fact_ok(&d->queues_e)) {
		check_fact_missing(c, ctx, d->name, &d->queues_e);
		return;
	}
	bad = mask_error(d, &xps_absent);
	if (!bad && nf->rps_sock_flow_entries.e.err == -EBADMSG)
		bad = &nf->rps_sock_flow_entries.e;
	if (bad) {
		check_fact_missing(c, ctx, d->name, bad);
		return;
	}
	rps_tally(d, &v);
	/* Where received packets should be processed: the workers, never SQPOLL CPUs. */
	want = p->has_worker_cpus ? p->worker_cpus : ctx->host->cpu.online;
	if (p->has_sqpoll_cpus)
		cpuset_andnot(&want, &want, &p->sqpoll_cpus);
	cpuset_format_hex(&want, hex, sizeof(hex));
	need_rps = d->nrx < p->workers;

	if (need_rps && v.on < nrxq(d)) {
		char off[32] = "";

		if (v.on)
			snprintf(off, sizeof(off), " on %u of them", nrxq(d) - v.on);
		ISSUE(STATUS_WARN, "%u RX queue%s for %u workers and RPS off%s (rps_cpus 0): all "
		      "receive protocol work runs on the CPUs the queue interrupts are delivered "
		      "to; RPS hands each packet to another CPU by its flow hash", d->nrx,
		      d->nrx == 1 ? "" : "s", p->workers, off);
	}
	if (v.on && p->has_sqpoll_cpus && cpuset_intersects(&v.any, &p->sqpoll_cpus)) {
		cpus_format(&v.any, list, sizeof(list));
		ISSUE(STATUS_FAIL, "rps_cpus (%s) includes SQPOLL CPUs: packets are processed "
		      "there in softirq, stopping the polling thread", list);
	}
	if (v.on && p->has_worker_cpus) {
		cpuset_andnot(&missing, &p->worker_cpus, &v.any);
		if (cpuset_count(&missing)) {
			cpus_format(&missing, list, sizeof(list));
			ISSUE(STATUS_WARN, "rps_cpus leaves out worker CPUs %s: RPS and RFS send "
			      "packets only to CPUs in rps_cpus, so those workers' flows are "
			      "processed elsewhere", list);
		}
	}
	if (v.on && v.differ)
		ISSUE(STATUS_WARN, "the RX queues disagree: %u of %u have RPS, %u differ from "
		      "rx-0's rps_cpus, so a flow's treatment depends on the queue RSS puts it on",
		      v.on, nrxq(d), v.differ);
	if (rfs_known && v.on && rfs == 0)
		ISSUE(STATUS_WARN, "RPS without RFS (net.core.rps_sock_flow_entries 0%s): each "
		      "packet goes to a CPU by hash, not to the worker that reads its socket, so "
		      "the data crosses CPUs; perftune.py sets %d entries",
		      v.flow_min > 0 ? ", whatever the queues' rps_flow_cnt" : "",
		      PERFTUNE_RFS_ENTRIES);
	if (rfs_known && rfs > 0 && v.flow_zero)
		ISSUE(STATUS_WARN, "RFS is on (rps_sock_flow_entries %lld) but %u RX queue%s have "
		      "rps_flow_cnt 0, so their flows are not steered", (long long)rfs,
		      v.flow_zero, v.flow_zero == 1 ? "" : "s");
	if (rfs_known && rfs == 0 && !v.on && v.flow_min > 0)
		ISSUE(STATUS_WARN, "the RX queues have RFS tables (rps_flow_cnt %lld) but "
		      "net.core.rps_sock_flow_entries is 0: RFS is off", (long long)v.flow_min);
	if (d->ntx > 1 && !xps_absent && p->workers > 1) {
		xps_union(d, &xps);
		cpuset_andnot(&missing, &want, &xps);
		if (!cpuset_count(&xps))
			ISSUE(STATUS_WARN, "XPS is off on all %u TX queues: a sending CPU picks a "
			      "queue by the flow hash, so workers share TX queue locks and their "
			      "completions; perftune.py gives each TX queue its own CPUs", d->ntx);
		else if (cpuset_count(&missing)) {
			cpus_format(&missing, list, sizeof(list));
			ISSUE(STATUS_WARN, "XPS maps no TX queue for CPUs %s: their sends fall back "
			      "to the hash", list);
		}
	}

	if (st != STATUS_PASS) {
		unsigned int i, per_q = PERFTUNE_RFS_ENTRIES / (nrxq(d) ? nrxq(d) : 1);

		catf(fix, sizeof(fix), "for q in /sys/class/net/%s/queues/rx-*; do echo %s > "
			"$q/rps_cpus; echo %u > $q/rps_flow_cnt; done; sysctl -w "
			"net.core.rps_sock_flow_entries=%d", d->name, hex, per_q,
			PERFTUNE_RFS_ENTRIES);
		if (d->ntx > 1 && !xps_absent) {
			catf(fix, sizeof(fix), "; XPS, one worker CPU a TX queue:");
			for (i = 0; i < ntxq(d) && strlen(fix) + 96 < sizeof(fix); i++) {
				struct cpuset one = { 0 };
				char h[32];

				cpuset_set(&one, nth_cpu(&want, i));
				cpuset_format_hex(&one, h, sizeof(h));
				catf(fix, sizeof(fix), " echo %s > /sys/class/net/%s/queues/tx-%u/"
					"xps_cpus;", h, d->name, d->tx[i].idx);
			}
		}
		catf(fix, sizeof(fix), " (persist the sysctl in /etc/sysctl.d/, the sysfs "
			"values with a udev rule or a boot unit)");
		f = report_add(ctx->report, &c->info, st, d->name, "%s", msg);
		finding_set_fix(f, "%s", fix);
	} else {
		cpus_format(&v.any, list, sizeof(list));
		if (v.on && rfs_known)
			catf(msg, sizeof(msg), "RPS on every RX queue to CPUs %s%s, with RFS "
				"(%lld socket flow entries)", list,
				p->has_worker_cpus ? ", covering the workers" : "", (long long)rfs);
		else if (v.on)
			catf(msg, sizeof(msg), "RPS on every RX queue to CPUs %s%s; RFS not "
				"judged (%s)", list, p->has_worker_cpus ? ", covering the workers" : "",
				nf->rps_sock_flow_entries.e.why);
		else
			catf(msg, sizeof(msg), "RPS off, with %u RX queues for %u workers: RSS "
				"spreads the flows in the NIC, and with a queue per worker RPS adds "
				"nothing", d->nrx, p->workers);
		catf(msg, sizeof(msg), "; %s", d->ntx == 1 || xps_absent
						       ? "one TX queue: XPS has nothing to choose"
						       : p->workers == 1 ? "one worker: XPS not judged"
									 : "XPS maps every worker CPU "
									   "to a TX queue");
		f = report_add(ctx->report, &c->info, st, d->name, "%s", msg);
	}
#undef ISSUE
	dev_evidence(f, ctx, d);
	finding_ev_int(f, "rps_queues", v.on);
	finding_ev_int(f, "rps_sock_flow_entries", rfs_known ? rfs : -1);
}

void check_net_rps_xps(const struct check *c, struct check_ctx *ctx)
{
	net_devs_each(c, ctx, rps_xps_one);
}

/* --- net-backlog-limits ------------------------------------------------------------ */

void check_net_backlog_limits(const struct check *c, struct check_ctx *ctx)
{
	const struct host_facts *hf = ctx->host;
	char msg[768] = "";
	enum check_status st = STATUS_PASS;
	struct finding *f;

	if (!have_service(c, ctx))
		return;
	if (!fact_ok(&hf->somaxconn.e)) {
		check_fact_missing(c, ctx, "host", &hf->somaxconn.e);
		return;
	}
	if (!fact_ok(&hf->tcp_max_syn_backlog.e)) {
		check_fact_missing(c, ctx, "host", &hf->tcp_max_syn_backlog.e);
		return;
	}
	if (hf->somaxconn.value < PERFTUNE_BACKLOG) {
		st = STATUS_WARN;
		catf(msg, sizeof(msg), "net.core.somaxconn is %lld: listen() silently caps every "
			"backlog there, and a burst of connections beyond it is dropped while the "
			"workers catch up", (long long)hf->somaxconn.value);
	}
	if (hf->tcp_max_syn_backlog.value < PERFTUNE_BACKLOG) {
		st = STATUS_WARN;
		catf(msg, sizeof(msg), "%snet.ipv4.tcp_max_syn_backlog is %lld: past that many "
			"half-open connections a listener answers with SYN cookies (which lose TCP "
			"options) or drops", msg[0] ? "; " : "", (long long)hf->tcp_max_syn_backlog.value);
	}
	if (st == STATUS_PASS)
		f = report_add(ctx->report, &c->info, st, "host",
			       "net.core.somaxconn %lld and net.ipv4.tcp_max_syn_backlog %lld are at "
			       "least perftune.py's %d (read in uringlint's own network namespace)",
			       (long long)hf->somaxconn.value, (long long)hf->tcp_max_syn_backlog.value,
			       PERFTUNE_BACKLOG);
	else
		f = report_add(ctx->report, &c->info, st, "host",
			       "%s; perftune.py sets both to %d (read in uringlint's own network "
			       "namespace)", msg, PERFTUNE_BACKLOG);
	finding_ev_int(f, "somaxconn", hf->somaxconn.value);
	finding_ev_int(f, "tcp_max_syn_backlog", hf->tcp_max_syn_backlog.value);
}
