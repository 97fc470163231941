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
void net_devs_each(const struct check *c, struct check_ctx *ctx,
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

unsigned int nrxq(const struct net_dev *d)
{
	return d->nrx < NET_QUEUES_MAX ? d->nrx : NET_QUEUES_MAX;
}

unsigned int ntxq(const struct net_dev *d)
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

void dev_evidence(struct finding *f, const struct check_ctx *ctx, const struct net_dev *d)
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
unsigned int nth_cpu(const struct cpuset *set, unsigned int i)
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

/* A device's interrupts as placement_tally() found them, and the finding built from them. */
struct irq_verdict {
	struct placement pl;
	struct cpuset target;		/* where they may go: irq_target() */
	unsigned int nq, ndel;		/* queues; CPUs their interrupts are delivered to */
	enum check_status st;
	char msg[2048], fix[1536], at[128];
};

/*
 * The placement's problems: interrupts on SQPOLL CPUs, split between worker
 * CPUs and others, or crowded on fewer workers than queues. They add up;
 * the worst one sets the status.
 */
static void irq_judge_spread(const struct plan *p, const struct net_dev *d,
			     struct irq_verdict *v)
{
	const struct placement *pl = &v->pl;
	unsigned int ntarget = cpuset_count(&v->target);

	if (pl->on_sqpoll) {
		v->st = STATUS_FAIL;
		catf(v->msg, sizeof(v->msg), "%zu of %zu queue interrupts %s delivered to SQPOLL "
		     "CPUs (%s), where each one stops the polling thread", pl->on_sqpoll,
		     d->nirqs, pl->on_sqpoll == 1 ? "is" : "are", pl->sqpoll_names);
	}
	if (p->has_worker_cpus && pl->on_workers && pl->off_workers) {
		v->st = v->st > STATUS_WARN ? v->st : STATUS_WARN;
		catf(v->msg, sizeof(v->msg), "%squeue interrupts split: %zu on worker CPUs, %zu "
		     "elsewhere (on CPUs %s in all), so some workers take NIC interrupt work and "
		     "others do not; perftune.py puts all of a NIC's queue interrupts on one CPU "
		     "set, the IRQ CPUs", v->msg[0] ? "; " : "", pl->on_workers, pl->off_workers,
		     v->at);
	} else if (p->has_worker_cpus && pl->on_workers && v->nq > 1 &&
		   v->ndel < (v->nq < ntarget ? v->nq : ntarget)) {
		v->st = v->st > STATUS_WARN ? v->st : STATUS_WARN;
		catf(v->msg, sizeof(v->msg), "%sthe interrupts of %u queues are delivered to only "
		     "%u worker CPU%s (%s): those workers run every queue's interrupt and softirq "
		     "work; perftune.py gives each queue interrupt a CPU of its own",
		     v->msg[0] ? "; " : "", v->nq, v->ndel, v->ndel == 1 ? "" : "s", v->at);
	}
}

/* A placement with problems gets the commands that spread it; one without, what it is. */
static void irq_spread_text(const struct plan *p, const struct net_dev *d, struct irq_verdict *v)
{
	if (v->st != STATUS_PASS)
		spread_fix(d, &v->target, v->fix, sizeof(v->fix));
	else if (p->has_worker_cpus && v->pl.on_workers)
		catf(v->msg, sizeof(v->msg), "the interrupts of %u queues are spread over worker "
		     "CPUs %s: each queue's packets are handled where a worker runs (perftune.py's "
		     "model when IRQ CPUs and compute CPUs are the same)", v->nq, v->at);
	else if (p->has_worker_cpus)
		catf(v->msg, sizeof(v->msg), "queue interrupts delivered to CPUs %s, none of them a "
		     "worker's: perftune.py's split of IRQ CPUs from compute CPUs, which needs RPS "
		     "to carry the packets to the workers (net-rps-xps)", v->at);
	else
		catf(v->msg, sizeof(v->msg), "queue interrupts delivered to CPUs %s, none of them "
		     "an SQPOLL CPU; without --worker-cpus their placement against the workers is "
		     "not judged", v->at);
}

/* What could not be read is never passed over. */
static void irq_judge_unknown(struct irq_verdict *v)
{
	const struct placement *pl = &v->pl;
	enum check_status ust;

	if (!pl->nunknown)
		return;
	ust = fact_status(&pl->unknown->e);
	if (v->st == STATUS_PASS || ust == STATUS_ERROR)
		v->st = ust > v->st ? ust : STATUS_SKIP;
	catf(v->msg, sizeof(v->msg), "; the affinity of %zu queue interrupt%s is unknown, the "
	     "first IRQ %u %s (%s), so %s", pl->nunknown, pl->nunknown == 1 ? "" : "s",
	     pl->unknown->irq, pl->unknown->name, pl->unknown->e.why,
	     v->st == STATUS_SKIP ? "the placement is not judged as a whole"
				  : "the rest is judged without it");
}

/* irqbalance moves interrupts it was not told to leave alone, undoing a placement by hand. */
static void irq_judge_irqbalance(const struct check_ctx *ctx, struct irq_verdict *v)
{
	const struct cpu_facts *cpu = &ctx->host->cpu;
	const struct placement *pl = &v->pl;

	if (pl->unbanned) {
		if (v->st == STATUS_PASS)
			v->st = STATUS_WARN;
		catf(v->msg, sizeof(v->msg), "; irqbalance runs (pid %d) and %s IRQ%s %s: it "
			"rebalances them every 10 seconds, so a placement made by hand does not last "
			"(perftune.py bans every NIC interrupt it places)",
			cpu->irqbalance_pid,
			ctx->host->net.banirq_known ? "its command line does not --banirq"
						    : "its command line could not be read to tell "
						      "whether it bans",
			pl->unbanned == 1 ? "" : "s", pl->unbanned_list);
		catf(v->fix, sizeof(v->fix), "%sadd --banirq=N for each of IRQs %s to "
			"IRQBALANCE_ARGS in /etc/default/irqbalance and restart irqbalance, or "
			"stop it", v->fix[0] ? "; then " : "", pl->unbanned_list);
	} else if (!fact_ok(&cpu->irqbalance_e)) {
		/* Whether irqbalance undoes the placement is not known: no pass on it. */
		if (v->st == STATUS_PASS)
			v->st = STATUS_SKIP;
		catf(v->msg, sizeof(v->msg), "; whether irqbalance runs and moves them is not "
		     "known: %s", cpu->irqbalance_e.why);
	} else {
		catf(v->msg, sizeof(v->msg), "; %s", cpu->irqbalance_running
							  ? "irqbalance is told to leave them alone"
							  : "irqbalance does not run");
	}
}

static void irq_placement_one(const struct check *c, struct check_ctx *ctx,
			      const struct net_dev *d)
{
	struct irq_verdict v = { .st = STATUS_PASS };
	struct finding *f;
	bool moved;

	if (!fact_ok(&d->irq_e)) {
		check_fact_missing(c, ctx, d->name, &d->irq_e);
		return;
	}
	placement_tally(ctx, d, &v.pl);
	if (!v.pl.known) {
		report_add(ctx->report, &c->info, STATUS_SKIP, d->name,
			   "the affinity of none of the %zu queue interrupts could be read "
			   "(proc/irq/N/effective_affinity_list, smp_affinity_list)", d->nirqs);
		return;
	}
	irq_target(ctx, &v.target);
	cpus_format(&v.pl.delivered, v.at, sizeof(v.at));
	v.nq = irq_queues(d);
	v.ndel = cpuset_count(&v.pl.delivered);
	irq_judge_spread(ctx->plan, d, &v);
	irq_spread_text(ctx->plan, d, &v);
	irq_judge_unknown(&v);
	moved = v.fix[0] != '\0';
	irq_judge_irqbalance(ctx, &v);
	f = report_add(ctx->report, &c->info, v.st, d->name, "%s", v.msg);
	if (v.st != STATUS_PASS && v.fix[0])
		finding_set_fix(f, "%s%s", v.fix,
				moved ? " (a write that fails with EIO is a kernel-managed vector: "
					"isolcpus=managed_irq keeps those off isolated CPUs)"
				      : "");
	dev_evidence(f, ctx, d);
	finding_ev_str(f, "delivered_to", v.at);
	finding_ev_str(f, "irq_source", d->irq_source);
	finding_ev_int(f, "irqs", (int64_t)d->nirqs);
	finding_ev_int(f, "on_sqpoll_cpus", (int64_t)v.pl.on_sqpoll);
}

void check_net_irq_placement(const struct check *c, struct check_ctx *ctx)
{
	net_devs_each(c, ctx, irq_placement_one);
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
