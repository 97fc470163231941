/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROBE_VIEW_H
#define URINGLINT_PROBE_VIEW_H

#include <json-c/json.h>
#include <stdbool.h>

#include "net.h"
#include "probe.h"
#include "report.h"

/* The JSON contract's "probe" object of a storage probe; fast_path: its verdict. */
struct json_object *probe_result_json(const struct probe_result *r, bool fast_path);
/* Its table of modes, the contrast's, and with histo the latency histograms, as notes. */
void probe_result_notes(struct report *r, const struct probe_result *p, bool histo);

/* Its numbers as the report's series (report/metrics.h). 0 or -ENOMEM. */
int probe_result_metrics(struct report *r, const struct probe_result *p, bool fast_path);

/* The "net" object of a network probe (probe --net). */
struct json_object *probe_net_json(const struct net_result *r, bool fast_path);
/* Its table, as notes. */
void probe_net_notes(struct report *rp, const struct net_result *r);
/* Its numbers as the report's series. 0 or -ENOMEM. */
int probe_net_metrics(struct report *rp, const struct net_result *r, bool fast_path);

#endif
