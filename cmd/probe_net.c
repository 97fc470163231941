// SPDX-License-Identifier: GPL-2.0-or-later
/* uringlint probe --net: the network probe's run, table and JSON. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "json_bytes.h"
#include "net.h"
#include "xalloc.h"

static void put_ratio(struct json_object *o, const char *key, const struct net_mode_result *m,
		      uint64_t count)
{
	json_object_object_add(o, key, json_object_new_double(net_per_msg(m, count)));
}

/* A tracepoint's count, or null where it was not counted: unknown is not zero. */
static void put_counted(struct json_object *o, const char *key, const struct net_mode_result *m,
			uint64_t count)
{
	char per[64];

	snprintf(per, sizeof(per), "%s_per_msg", key);
	json_object_object_add(o, key, m->tracepoints ? json_object_new_int64((int64_t)count) : NULL);
	json_object_object_add(o, per, m->tracepoints
				       ? json_object_new_double(net_per_msg(m, count)) : NULL);
}

static struct json_object *mode_json(const struct net_mode_result *m, enum net_mode mode)
{
	struct json_object *o = json_object_new_object(), *lat = json_object_new_object(),
			   *hist = json_object_new_array(), *conns = json_object_new_array();
	unsigned int b;

	json_object_object_add(o, "mode", json_object_new_string(net_mode_name(mode)));
	json_object_object_add(o, "messages", json_object_new_int64((int64_t)m->messages));
	json_object_object_add(o, "seconds", json_object_new_double(m->seconds));
	json_object_object_add(o, "msgs_per_sec", json_object_new_int64(llround(m->msgs_per_sec)));
	json_object_object_add(lat, "p50", json_object_new_double(m->p50_us));
	json_object_object_add(lat, "p99", json_object_new_double(m->p99_us));
	json_object_object_add(lat, "p999", json_object_new_double(m->p999_us));
	json_object_object_add(o, "lat_us", lat);
	for (b = 0; b < PROBE_HIST_BUCKETS; b++)
		json_object_array_add(hist, json_object_new_int64((int64_t)m->hist[b]));
	json_object_object_add(o, "lat_hist_log2_us", hist);
	json_object_object_add(o, "echoes", json_object_new_int64((int64_t)m->echoes));
	json_object_object_add(o, "errors", json_object_new_int64((int64_t)m->errors));
	json_object_object_add(o, "enters", json_object_new_int64((int64_t)m->enters));
	put_ratio(o, "enters_per_msg", m, m->enters);
	json_object_object_add(o, "enters_source", json_object_new_string(
				       m->tracepoints ? "tracepoint" : "calls"));
	put_counted(o, "poll_arms", m, m->poll_arms);
	put_counted(o, "punts", m, m->punts);
	json_object_object_add(o, "punts_source", json_object_new_string(
				       m->tracepoints ? "tracepoint" : "threads"));
	json_object_object_add(o, "iou_wrk", json_object_new_int((int)m->iou_wrk));
	json_object_object_add(o, "enobufs", json_object_new_int64((int64_t)m->enobufs));
	json_object_object_add(o, "rearms", json_object_new_int64((int64_t)m->rearms));
	put_ratio(o, "vcsw_per_msg", m, m->vcsw);
	put_ratio(o, "ivcsw_per_msg", m, m->ivcsw);
	json_object_object_add(o, "cpu_us_per_msg", json_object_new_double(
				       m->echoes ? m->cpu_us / (double)m->echoes : 0));
	json_object_object_add(o, "process_cpu_us_per_msg", json_object_new_double(
				       m->echoes ? m->process_cpu_us / (double)m->echoes : 0));
	if (mode == NM_SEND_ZC) {
		json_object_object_add(o, "zc_notifs", json_object_new_int64((int64_t)m->zc_notifs));
		json_object_object_add(o, "zc_copied", m->zc_usage
					       ? json_object_new_int64((int64_t)m->zc_copied) : NULL);
	}
	if (mode == NM_NAPI)
		json_object_object_add(o, "napi_fdinfo", json_object_new_boolean(m->napi_fdinfo));
	json_object_array_add(conns, json_object_new_int((int)m->conns_min));
	json_object_array_add(conns, json_object_new_int((int)m->conns_max));
	json_object_object_add(o, "conns_per_worker", conns);
	return o;
}

static struct json_object *net_json(const struct net_result *r, bool fast_path)
{
	struct json_object *o = json_object_new_object(), *modes = json_object_new_array(),
			   *skipped = json_object_new_array(), *cpus = json_object_new_array(),
			   *addrs = json_object_new_array();
	unsigned int i;

	json_object_object_add(o, "workers", json_object_new_int((int)r->workers));
	for (i = 0; i < r->workers; i++)
		json_object_array_add(cpus, json_object_new_int(r->cpus[i]));
	json_object_object_add(o, "cpus", cpus);
	json_object_object_add(o, "connections", json_object_new_int((int)r->connections));
	json_object_object_add(o, "msg_size", json_object_new_int((int)r->msg_size));
	json_object_object_add(o, "duration", json_object_new_double(r->duration_ms / 1000.0));
	json_object_array_add(addrs, json_object_new_string("127.0.0.1"));
	if (r->ipv6)
		json_object_array_add(addrs, json_object_new_string("::1"));
	json_object_object_add(o, "addresses", addrs);
	if (!r->ipv6)
		json_add_bytes(o, "ipv6_why", r->ipv6_why);
	json_object_object_add(o, "tracepoints", json_object_new_boolean(!r->tp_why[0]));
	if (r->tp_why[0])
		json_add_bytes(o, "tracepoints_why", r->tp_why);
	for (i = 0; i < NM__COUNT; i++) {
		const struct net_mode_result *m = &r->modes[i];

		if (m->ran) {
			json_object_array_add(modes, mode_json(m, (enum net_mode)i));
		} else if (m->e.err != -ECANCELED) {
			struct json_object *s = json_object_new_object();

			json_object_object_add(s, "mode", json_object_new_string(net_mode_name(i)));
			json_add_bytes(s, "reason", m->e.why);
			json_object_object_add(s, "needs", m->needs ? json_object_new_string(m->needs)
								    : NULL);
			json_object_array_add(skipped, s);
		}
	}
	json_object_object_add(o, "modes", modes);
	json_object_object_add(o, "skipped", skipped);
	json_object_object_add(o, "fast_path", json_object_new_boolean(fast_path));
	return o;
}

/* "12.3" or "-" where the tracepoint was not counted. */
static const char *counted(char *buf, size_t sz, const struct net_mode_result *m, uint64_t v,
			   const char *fmt)
{
	if (!m->tracepoints)
		return "-";
	snprintf(buf, sz, fmt, net_per_msg(m, v));
	return buf;
}

static void table(struct report *rp, const struct net_result *r)
{
	char cpus[256] = "", arms[32], punts[32];
	unsigned int i;

	for (i = 0; i < r->workers; i++)
		snprintf(cpus + strlen(cpus), sizeof(cpus) - strlen(cpus), "%s%d", i ? "," : "",
			 r->cpus[i]);
	report_note(rp, "Network probe: TCP echo on %s, %u workers pinned to CPUs %s, %u connections "
		    "in ping-pong, %u-byte messages, %.1f s per mode",
		    r->ipv6 ? "127.0.0.1 and ::1" : "127.0.0.1", r->workers, cpus, r->connections,
		    r->msg_size, r->duration_ms / 1000.0);
	report_note(rp, "Per message echoed: io_uring_enter calls, poll arms and punts %s; "
		    "context switches and CPU of the server threads",
		    r->tp_why[0] ? "(no tracepoints: enters are the servers' own calls)"
				 : "counted with tracepoints on every thread");
	report_note(rp, "  %-10s %9s %8s %8s %9s %9s %9s %9s %8s %8s %8s %7s", "MODE", "MSG/S",
		    "p50 us", "p99 us", "p99.9 us", "ENTER/MSG", "ARMS/MSG", "PUNTS/MSG", "VCSW/MSG",
		    "IVCS/MSG", "CPU us", "ENOBUFS");
	for (i = 0; i < NM__COUNT; i++) {
		const struct net_mode_result *m = &r->modes[i];

		if (!m->ran)
			continue;
		report_note(rp, "  %-10s %9.0f %8.1f %8.1f %9.1f %9.3f %9s %9s %8.3f %8.3f %8.2f %7llu",
			    net_mode_name(i), m->msgs_per_sec, m->p50_us, m->p99_us, m->p999_us,
			    net_per_msg(m, m->enters), counted(arms, sizeof(arms), m, m->poll_arms, "%.3f"),
			    counted(punts, sizeof(punts), m, m->punts, "%.4f"),
			    net_per_msg(m, m->vcsw), net_per_msg(m, m->ivcsw),
			    m->echoes ? m->cpu_us / (double)m->echoes : 0,
			    (unsigned long long)m->enobufs);
	}
	for (i = 0; i < NM__COUNT; i++)
		if (!r->modes[i].ran && r->modes[i].e.err != -ECANCELED)
			report_note(rp, "  %-10s not run: %s", net_mode_name(i), r->modes[i].e.why);
}

int cmd_probe_net_into_report(const struct net_opts *no, struct check_ctx *ctx,
			      const struct check_policy *pol, bool progress)
{
	struct net_opts o = *no;
	struct report *rp = ctx->report;
	struct net_result *r = xcalloc(1, sizeof(*r));
	struct json_object *probe;
	bool fast_path = false;
	size_t i;
	int ret;

	o.progress = isatty(STDERR_FILENO) && progress;
	ret = net_run(&o, r);
	if (ret) {
		error_msg("%s", r->e.why);
		free(r);
		return EXIT_CANNOT;
	}
	table(rp, r);
	ctx->probe_net = r;
	checks_run_scope(SCOPE_PROBE, ctx, pol);
	ctx->probe_net = NULL;
	for (i = 0; i < rp->nfindings; i++)
		if (!strcmp(rp->findings[i].check->id, "probe-net-punts"))
			fast_path = rp->findings[i].status == STATUS_PASS;
	probe = rp->probe ? rp->probe : json_object_new_object();
	json_object_object_add(probe, "net", net_json(r, fast_path));
	rp->probe = probe;
	free(r);
	return 0;
}
