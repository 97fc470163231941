// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net-rps-xps, a host check against a planned network service (host_net.c
 * holds the others and the helpers they share): RPS, RFS and XPS on each
 * device's queues, judged the way Seastar's perftune.py tunes them (RPS to
 * the CPUs it tunes, RFS with 32768 rps_sock_flow_entries split evenly into
 * each queue's rps_flow_cnt, the TX queues' xps_cpus over all CPUs).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "output.h"
#include "checks.h"

#define PERFTUNE_RFS_ENTRIES 32768

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

/* The problems found so far: the worst one sets the status, their messages join with "; ". */
struct rps_verdict {
	enum check_status st;
	char msg[1536];
};

#define ISSUE(vd, level, ...)                                                  \
	do {                                                                   \
		if ((level) > (vd)->st)                                        \
			(vd)->st = (level);                                    \
		catf((vd)->msg, sizeof((vd)->msg), "%s", (vd)->msg[0] ? "; " : ""); \
		catf((vd)->msg, sizeof((vd)->msg), __VA_ARGS__);               \
	} while (0)

/*
 * RPS on the RX queues: on when the queues are fewer than the workers, off
 * the SQPOLL CPUs, covering the worker CPUs, the same on every queue.
 */
static void rps_judge(const struct plan *p, const struct net_dev *d, const struct rps_view *v,
		      struct rps_verdict *vd)
{
	struct cpuset missing;
	char list[128];

	if (d->nrx < p->workers && v->on < nrxq(d)) {
		char off[32] = "";

		if (v->on)
			snprintf(off, sizeof(off), " on %u of them", nrxq(d) - v->on);
		ISSUE(vd, STATUS_WARN, "%u RX queue%s for %u workers and RPS off%s (rps_cpus 0): "
		      "all receive protocol work runs on the CPUs the queue interrupts are "
		      "delivered to; RPS hands each packet to another CPU by its flow hash", d->nrx,
		      d->nrx == 1 ? "" : "s", p->workers, off);
	}
	if (v->on && p->has_sqpoll_cpus && cpuset_intersects(&v->any, &p->sqpoll_cpus)) {
		cpus_format(&v->any, list, sizeof(list));
		ISSUE(vd, STATUS_FAIL, "rps_cpus (%s) includes SQPOLL CPUs: packets are processed "
		      "there in softirq, stopping the polling thread", list);
	}
	if (v->on && p->has_worker_cpus) {
		cpuset_andnot(&missing, &p->worker_cpus, &v->any);
		if (cpuset_count(&missing)) {
			cpus_format(&missing, list, sizeof(list));
			ISSUE(vd, STATUS_WARN, "rps_cpus leaves out worker CPUs %s: RPS and RFS send "
			      "packets only to CPUs in rps_cpus, so those workers' flows are "
			      "processed elsewhere", list);
		}
	}
	if (v->on && v->differ)
		ISSUE(vd, STATUS_WARN, "the RX queues disagree: %u of %u have RPS, %u differ from "
		      "rx-0's rps_cpus, so a flow's treatment depends on the queue RSS puts it on",
		      v->on, nrxq(d), v->differ);
}

/* RFS: the socket flow table and the queues' flow tables, on together or off together. */
static void rfs_judge(const struct net_facts *nf, const struct rps_view *v, struct rps_verdict *vd)
{
	bool rfs_known = fact_ok(&nf->rps_sock_flow_entries.e);
	int64_t rfs = nf->rps_sock_flow_entries.value;

	if (rfs_known && v->on && rfs == 0)
		ISSUE(vd, STATUS_WARN, "RPS without RFS (net.core.rps_sock_flow_entries 0%s): each "
		      "packet goes to a CPU by hash, not to the worker that reads its socket, so "
		      "the data crosses CPUs; perftune.py sets %d entries",
		      v->flow_min > 0 ? ", whatever the queues' rps_flow_cnt" : "",
		      PERFTUNE_RFS_ENTRIES);
	if (rfs_known && rfs > 0 && v->flow_zero)
		ISSUE(vd, STATUS_WARN, "RFS is on (rps_sock_flow_entries %lld) but %u RX queue%s "
		      "have rps_flow_cnt 0, so their flows are not steered", (long long)rfs,
		      v->flow_zero, v->flow_zero == 1 ? "" : "s");
	if (rfs_known && rfs == 0 && !v->on && v->flow_min > 0)
		ISSUE(vd, STATUS_WARN, "the RX queues have RFS tables (rps_flow_cnt %lld) but "
		      "net.core.rps_sock_flow_entries is 0: RFS is off", (long long)v->flow_min);
}

/* XPS: with several TX queues and workers, every CPU in want sends through a queue of its own. */
static void xps_judge(const struct plan *p, const struct net_dev *d, const struct cpuset *want,
		      bool xps_absent, struct rps_verdict *vd)
{
	struct cpuset missing, xps;
	char list[128];

	if (d->ntx <= 1 || xps_absent || p->workers <= 1)
		return;
	xps_union(d, &xps);
	cpuset_andnot(&missing, want, &xps);
	if (!cpuset_count(&xps))
		ISSUE(vd, STATUS_WARN, "XPS is off on all %u TX queues: a sending CPU picks a "
		      "queue by the flow hash, so workers share TX queue locks and their "
		      "completions; perftune.py gives each TX queue its own CPUs", d->ntx);
	else if (cpuset_count(&missing)) {
		cpus_format(&missing, list, sizeof(list));
		ISSUE(vd, STATUS_WARN, "XPS maps no TX queue for CPUs %s: their sends fall back "
		      "to the hash", list);
	}
}

#undef ISSUE

/* perftune.py's settings: RPS to want with RFS on every RX queue, one CPU of want a TX queue. */
static void rps_fix(const struct net_dev *d, const struct cpuset *want, bool xps_absent,
		    char *fix, size_t sz)
{
	unsigned int i, per_q = PERFTUNE_RFS_ENTRIES / (nrxq(d) ? nrxq(d) : 1);
	char hex[160];

	cpuset_format_hex(want, hex, sizeof(hex));
	catf(fix, sz, "for q in /sys/class/net/%s/queues/rx-*; do echo %s > $q/rps_cpus; echo "
	     "%u > $q/rps_flow_cnt; done; sysctl -w net.core.rps_sock_flow_entries=%d", d->name,
	     hex, per_q, PERFTUNE_RFS_ENTRIES);
	if (d->ntx > 1 && !xps_absent) {
		catf(fix, sz, "; XPS, one worker CPU a TX queue:");
		for (i = 0; i < ntxq(d) && strlen(fix) + 96 < sz; i++) {
			struct cpuset one = { 0 };
			char h[32];

			cpuset_set(&one, nth_cpu(want, i));
			cpuset_format_hex(&one, h, sizeof(h));
			catf(fix, sz, " echo %s > /sys/class/net/%s/queues/tx-%u/xps_cpus;", h,
			     d->name, d->tx[i].idx);
		}
	}
	catf(fix, sz, " (persist the sysctl in /etc/sysctl.d/, the sysfs values with a udev rule "
	     "or a boot unit)");
}

/* What a pass says: where RPS sends the packets, whether RFS steers them, how XPS stands. */
static void rps_pass_text(const struct plan *p, const struct net_facts *nf,
			  const struct net_dev *d, const struct rps_view *v, bool xps_absent,
			  char *msg, size_t sz)
{
	const char *workers = p->has_worker_cpus ? ", covering the workers" : "";
	char list[128];

	cpus_format(&v->any, list, sizeof(list));
	if (v->on && fact_ok(&nf->rps_sock_flow_entries.e))
		catf(msg, sz, "RPS on every RX queue to CPUs %s%s, with RFS (%lld socket flow "
		     "entries)", list, workers, (long long)nf->rps_sock_flow_entries.value);
	else if (v->on)
		catf(msg, sz, "RPS on every RX queue to CPUs %s%s; RFS not judged (%s)", list,
		     workers, nf->rps_sock_flow_entries.e.why);
	else
		catf(msg, sz, "RPS off, with %u RX queues for %u workers: RSS spreads the flows in "
		     "the NIC, and with a queue per worker RPS adds nothing", d->nrx, p->workers);
	catf(msg, sz, "; %s", d->ntx == 1 || xps_absent ? "one TX queue: XPS has nothing to choose"
			      : p->workers == 1	       ? "one worker: XPS not judged"
							: "XPS maps every worker CPU to a TX queue");
}

static void rps_xps_one(const struct check *c, struct check_ctx *ctx, const struct net_dev *d)
{
	const struct plan *p = ctx->plan;
	const struct net_facts *nf = &ctx->host->net;
	struct rps_verdict vd = { .st = STATUS_PASS };
	const struct fact_err *bad;
	bool xps_absent = false;
	char fix[1024] = "";
	struct cpuset want;
	struct rps_view v;
	struct finding *f;

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
	rps_judge(p, d, &v, &vd);
	rfs_judge(nf, &v, &vd);
	xps_judge(p, d, &want, xps_absent, &vd);
	if (vd.st != STATUS_PASS) {
		rps_fix(d, &want, xps_absent, fix, sizeof(fix));
		f = report_add(ctx->report, &c->info, vd.st, d->name, "%s", vd.msg);
		finding_set_fix(f, "%s", fix);
	} else {
		rps_pass_text(p, nf, d, &v, xps_absent, vd.msg, sizeof(vd.msg));
		f = report_add(ctx->report, &c->info, vd.st, d->name, "%s", vd.msg);
	}
	dev_evidence(f, ctx, d);
	finding_ev_int(f, "rps_queues", v.on);
	finding_ev_int(f, "rps_sock_flow_entries",
		       fact_ok(&nf->rps_sock_flow_entries.e) ? nf->rps_sock_flow_entries.value : -1);
}

void check_net_rps_xps(const struct check *c, struct check_ctx *ctx)
{
	net_devs_each(c, ctx, rps_xps_one);
}
