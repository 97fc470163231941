// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CPU facts as the JSON report's host.cpu object: which CPUs are
 * online, isolated and nohz_full, the NUMA nodes, and where the storage and
 * network devices' interrupts land, which a drawing of the thread model
 * (--format html) and a reader of the JSON place threads and rings against.
 */
#include <json-c/json.h>
#include <stdio.h>

#include "host_json.h"
#include "output.h"

/* A CPU set as the kernel's list ("0-3,8"), "" for none; null when it was not read. */
static struct json_object *cpus_or_null(const struct fact_err *e, const struct cpuset *set)
{
	char list[1024];

	if (!fact_ok(e))
		return NULL;
	cpuset_format(set, list, sizeof(list));
	return json_object_new_string(list);
}

struct json_object *cpu_facts_json(const struct cpu_facts *cf)
{
	struct json_object *o = json_object_new_object(), *nodes, *irqs;
	unsigned int n;
	size_t i;

	json_object_object_add(o, "online", cpus_or_null(&cf->online_e, &cf->online));
	json_object_object_add(o, "isolated", cpus_or_null(&cf->isolated_e, &cf->isolated));
	json_object_object_add(o, "nohz_full", cpus_or_null(&cf->nohz_e, &cf->nohz_full));
	nodes = fact_ok(&cf->numa_e) ? json_object_new_array() : NULL;
	for (n = 0; nodes && n < cf->nnodes; n++) {
		struct json_object *node = json_object_new_object();

		json_object_object_add(node, "node", json_object_new_int((int)cf->nodes[n].node));
		json_object_object_add(node, "cpus", cpus_or_null(&cf->numa_e, &cf->nodes[n].cpus));
		json_object_array_add(nodes, node);
	}
	json_object_object_add(o, "numa_nodes", nodes);
	/* The devices' interrupts only: timers and IPIs land everywhere and say nothing. */
	irqs = fact_ok(&cf->irq_e) ? json_object_new_array() : NULL;
	for (i = 0; irqs && i < cf->nirqs; i++) {
		const struct irq_info *q = &cf->irqs[i];
		struct json_object *one;

		if (q->cls == IRQ_OTHER)
			continue;
		one = json_object_new_object();
		json_object_object_add(one, "irq", json_object_new_int((int)q->line.irq));
		json_add_bytes(one, "name", q->line.name);
		json_add_bytes(one, "device", q->device[0] ? q->device : NULL);
		json_object_object_add(one, "class", json_object_new_string(irq_class_name(q->cls)));
		json_object_object_add(one, "cpus", cpus_or_null(&q->e, &q->affinity));
		json_object_object_add(one, "effective", fact_ok(&q->e) ?
				       json_object_new_boolean(q->effective) : NULL);
		json_object_array_add(irqs, one);
	}
	json_object_object_add(o, "irqs", irqs);
	return o;
}
