// SPDX-License-Identifier: GPL-2.0-or-later
/* The network facts as the JSON report's host.net object. */
#include <json-c/json.h>
#include <stdio.h>

#include "output.h"
#include "host_json.h"

/* A CPU set as the kernel's list ("0-3,8"), "" for none. */
static struct json_object *cpus_json(const struct cpuset *set)
{
	char list[512];

	cpuset_format(set, list, sizeof(list));
	return json_object_new_string(list);
}

static struct json_object *i64_or_null(const struct fact_err *e, int64_t v)
{
	return fact_ok(e) ? json_object_new_int64(v) : NULL;
}

static struct json_object *queues_json(const struct net_dev *d)
{
	struct json_object *o = json_object_new_object();
	struct json_object *rx = json_object_new_array(), *tx = json_object_new_array();
	size_t i;

	for (i = 0; i < d->nrx && i < NET_QUEUES_MAX; i++) {
		const struct net_rxq *q = &d->rx[i];
		struct json_object *r = json_object_new_object();

		json_object_object_add(r, "queue", json_object_new_int64(q->idx));
		json_object_object_add(r, "rps_cpus", fact_ok(&q->rps_e) ? cpus_json(&q->rps) : NULL);
		json_object_object_add(r, "rps_flow_cnt", i64_or_null(&q->flow_e, q->flow_cnt));
		json_object_array_add(rx, r);
	}
	for (i = 0; i < d->ntx && i < NET_QUEUES_MAX; i++) {
		const struct net_txq *q = &d->tx[i];
		struct json_object *t = json_object_new_object();

		json_object_object_add(t, "queue", json_object_new_int64(q->idx));
		json_object_object_add(t, "xps_cpus", fact_ok(&q->xps_e) ? cpus_json(&q->xps) : NULL);
		json_object_array_add(tx, t);
	}
	json_object_object_add(o, "rx", rx);
	json_object_object_add(o, "tx", tx);
	return o;
}

static struct json_object *irqs_json(const struct net_dev *d)
{
	struct json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < d->nirqs; i++) {
		const struct net_irq *ii = &d->irqs[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "irq", json_object_new_int64(ii->irq));
		json_add_bytes(o, "name", ii->name);
		json_object_object_add(o, "queue", ii->queue >= 0 ? json_object_new_int(ii->queue)
								  : NULL);
		json_object_object_add(o, "effective_affinity",
				       ii->has_effective ? cpus_json(&ii->effective) : NULL);
		json_object_object_add(o, "smp_affinity",
				       ii->has_configured ? cpus_json(&ii->configured) : NULL);
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *dev_json(const struct net_dev *d)
{
	struct json_object *o = json_object_new_object(), *lower = json_object_new_array();
	size_t i;

	json_add_bytes(o, "name", d->name);
	if (!fact_ok(&d->e)) {
		json_add_bytes(o, "error", d->e.why);
		json_object_put(lower);
		return o;
	}
	json_add_bytes(o, "device", d->has_device ? d->busdev : NULL);
	json_add_bytes(o, "driver", d->driver[0] ? d->driver : NULL);
	json_object_object_add(o, "virtual", json_object_new_boolean(d->is_virtual));
	for (i = 0; i < d->nlower; i++)
		json_object_array_add(lower, json_bytes_string(d->lower[i]));
	json_object_object_add(o, "lower", lower);
	json_object_object_add(o, "rx_queues", json_object_new_int64(d->nrx));
	json_object_object_add(o, "tx_queues", json_object_new_int64(d->ntx));
	json_object_object_add(o, "queues", fact_ok(&d->queues_e) ? queues_json(d) : NULL);
	json_add_bytes(o, "queues_error", fact_ok(&d->queues_e) ? NULL : d->queues_e.why);
	json_add_bytes(o, "irq_source", d->irq_source[0] ? d->irq_source : NULL);
	json_object_object_add(o, "irqs", irqs_json(d));
	json_add_bytes(o, "irqs_error", fact_ok(&d->irq_e) ? NULL : d->irq_e.why);
	return o;
}

struct json_object *net_facts_json(const struct net_facts *nf, int64_t somaxconn,
				   const struct fact_err *somaxconn_e, int64_t syn_backlog,
				   const struct fact_err *syn_backlog_e)
{
	struct json_object *o = json_object_new_object(), *devs = json_object_new_array();
	size_t i;

	json_object_object_add(o, "somaxconn", i64_or_null(somaxconn_e, somaxconn));
	json_object_object_add(o, "tcp_max_syn_backlog", i64_or_null(syn_backlog_e, syn_backlog));
	json_object_object_add(o, "rps_sock_flow_entries",
			       i64_or_null(&nf->rps_sock_flow_entries.e,
					   nf->rps_sock_flow_entries.value));
	json_add_bytes(o, "chosen_by", nf->chosen_by);
	json_add_bytes(o, "error", fact_ok(&nf->e) ? NULL : nf->e.why);
	for (i = 0; i < nf->ndevs; i++)
		json_object_array_add(devs, dev_json(&nf->devs[i]));
	json_object_object_add(o, "devices", devs);
	return o;
}
