// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The probes' results as a report carries them: the JSON contract's
 * "probe" object (its "net" part for --net) and the tables and latency
 * histograms the text report prints as notes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "probe_view.h"

static struct json_object *mode_json(const struct probe_result *r, enum probe_mode m)
{
	const struct probe_mode_result *x = &r->modes[m];
	struct json_object *o = json_object_new_object(), *lat = json_object_new_object();

	json_object_object_add(o, "mode", json_object_new_string(probe_mode_name(m)));
	json_object_object_add(o, "iops", json_object_new_int64((int64_t)llround(x->iops)));
	json_object_object_add(lat, "p50", json_object_new_double(x->p50_us));
	json_object_object_add(lat, "p99", json_object_new_double(x->p99_us));
	json_object_object_add(lat, "p999", json_object_new_double(x->p999_us));
	json_object_object_add(o, "lat_us", lat);
	json_object_object_add(o, "punts", json_object_new_int64((int64_t)x->punts));
	json_object_object_add(o, "punts_source",
			       json_object_new_string(x->punts_tracepoint ? "tracepoint" : "threads"));
	json_object_object_add(o, "new_iou_wrk", json_object_new_int64((int64_t)x->new_iou_wrk));
	json_object_object_add(o, "syscalls_per_io", json_object_new_double(x->syscalls_per_io));
	json_object_object_add(o, "syscalls_source",
			       json_object_new_string(x->enters_tracepoint ? "tracepoint" : "calls"));
	json_object_object_add(o, "vcsw_per_io", json_object_new_double(x->vcsw_per_io));
	json_object_object_add(o, "cq_overflow", json_object_new_boolean(x->cq_overflow));
	json_object_object_add(o, "ios", json_object_new_int64((int64_t)x->ios));
	json_object_object_add(o, "errors", json_object_new_int64((int64_t)x->errors));
	json_object_object_add(o, "seconds", json_object_new_double(x->seconds));
	return o;
}

struct json_object *probe_result_json(const struct probe_result *r, bool fast_path)
{
	struct json_object *o = json_object_new_object(), *modes = json_object_new_array(),
			   *contrast = json_object_new_array(), *skipped = json_object_new_array();
	unsigned int i;

	json_add_bytes(o, "dir", r->dir);
	json_add_bytes(o, "fs", r->fs);
	json_add_bytes(o, "device", r->device);
	json_object_object_add(o, "size", json_object_new_int64((int64_t)r->size));
	json_object_object_add(o, "bs", json_object_new_int((int)r->bs));
	json_object_object_add(o, "depth", json_object_new_int((int)r->depth));
	json_object_object_add(o, "o_tmpfile", json_object_new_boolean(r->o_tmpfile));
	for (i = 0; i < PM__COUNT; i++) {
		const struct probe_mode_result *m = &r->modes[i];

		if (m->ran) {
			json_object_array_add(i < PM_CONTRAST_FIRST ? modes : contrast,
					      mode_json(r, (enum probe_mode)i));
		} else if (m->e.err != -ECANCELED) {
			struct json_object *s = json_object_new_object();

			json_object_object_add(s, "mode", json_object_new_string(probe_mode_name(i)));
			json_add_bytes(s, "reason", m->e.why);
			json_object_array_add(skipped, s);
		}
	}
	json_object_object_add(o, "modes", modes);
	json_object_object_add(o, "contrast", contrast);
	json_object_object_add(o, "skipped", skipped);
	json_object_object_add(o, "fast_path", json_object_new_boolean(fast_path));
	return o;
}

static void table(struct report *r, const struct probe_result *p, bool contrast)
{
	unsigned int i, first = contrast ? PM_CONTRAST_FIRST : 0, last = contrast ? PM__COUNT : PM_CONTRAST_FIRST;
	bool any = false;

	for (i = first; i < last; i++)
		any |= p->modes[i].ran;
	if (!any)
		return;
	report_note(r, "%s", "");
	if (contrast)
		report_note(r, "Contrast: the classic mistakes, measured here");
	report_note(r, "  %-14s %9s %8s %8s %9s %9s %8s %9s %8s", "MODE", "IOPS", "p50 us",
		    "p99 us", "p99.9 us", "PUNTS", "NEW WRK", "ENTER/IO", "VCSW/IO");
	for (i = first; i < last; i++) {
		const struct probe_mode_result *m = &p->modes[i];

		if (!m->ran)
			continue;
		report_note(r, "  %-14s %9.0f %8.1f %8.1f %9.1f %9llu %8llu %9.4f %8.4f",
			    probe_mode_name((enum probe_mode)i), m->iops, m->p50_us, m->p99_us,
			    m->p999_us, (unsigned long long)m->punts,
			    (unsigned long long)m->new_iou_wrk, m->syscalls_per_io, m->vcsw_per_io);
	}
}

/* One log2 latency histogram per mode, bars scaled to the mode's busiest bucket. */
static void histograms(struct report *r, const struct probe_result *p)
{
	static const char bar[] = "########################################";
	unsigned int i, b;

	report_note(r, "%s", "");
	report_note(r, "Completion latency (share of requests per microsecond range)");
	for (i = 0; i < PM__COUNT; i++) {
		const struct probe_mode_result *m = &p->modes[i];
		uint64_t max = 0;

		if (!m->ran || !m->ios)
			continue;
		for (b = 0; b < PROBE_HIST_BUCKETS; b++)
			max = m->hist[b] > max ? m->hist[b] : max;
		report_note(r, "  %s", probe_mode_name((enum probe_mode)i));
		for (b = 0; b < PROBE_HIST_BUCKETS; b++) {
			uint64_t lo = b ? 1ull << (b - 1) : 0, hi = 1ull << b;
			int w;
			double total = 0;
			unsigned int k;

			if (!m->hist[b])
				continue;
			for (k = 0; k < PROBE_HIST_BUCKETS; k++)
				total += (double)m->hist[k];
			w = (int)((double)m->hist[b] * 40 / (double)max);
			report_note(r, "    %7llu-%-7llu %-40.*s %5.1f%%", (unsigned long long)lo,
				    (unsigned long long)hi, w ? w : 1, bar,
				    100.0 * (double)m->hist[b] / total);
		}
	}
}

void probe_result_notes(struct report *r, const struct probe_result *p, bool histo)
{
	table(r, p, false);
	table(r, p, true);
	if (histo)
		histograms(r, p);
}

static const char *const quantile_keys[] = { "0.5", "0.99", "0.999" };

static double quantile_us(double p50, double p99, double p999, int q)
{
	return q == 0 ? p50 : q == 1 ? p99 : p999;
}

/*
 * One probe's modes as columns for the metric families: whether each mode
 * has a sample (ran, and for punts was counted), its name, and the values.
 * Both probes fill it, so their families are written by one code path.
 */
#define MODES_MAX 16
_Static_assert(PM__COUNT <= MODES_MAX && NM__COUNT <= MODES_MAX, "a probe has more modes than columns");

struct mode_cols {
	unsigned int n;
	const char *name[MODES_MAX];
	bool ran[MODES_MAX], counted[MODES_MAX];
	double rate[MODES_MAX], punts[MODES_MAX], per_msg[MODES_MAX];
	double p50_us[MODES_MAX], p99_us[MODES_MAX], p999_us[MODES_MAX];
};

/* A gauge family with one sample per mode that has one (counted: only those counted). */
static int per_mode(struct metrics *m, const char *fam, const char *help, const struct mode_cols *c,
		    const double *v, bool counted)
{
	int err = metrics_family(m, fam, METRIC_GAUGE, help);
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (c->ran[i] && (!counted || c->counted[i]))
			err |= metrics_sample(m, fam, v[i], "mode=\"%s\"", c->name[i]);
	return err;
}

/* Latency quantiles per mode, quantile by quantile, scaled from microseconds. */
static int quantiles(struct metrics *m, const char *fam, const struct mode_cols *c, double scale)
{
	unsigned int i;
	int q, err = 0;

	for (q = 0; q < 3; q++)
		for (i = 0; i < c->n; i++)
			if (c->ran[i])
				err |= metrics_sample(m, fam,
						      quantile_us(c->p50_us[i], c->p99_us[i],
								  c->p999_us[i], q) * scale,
						      "mode=\"%s\",quantile=\"%s\"", c->name[i],
						      quantile_keys[q]);
	return err;
}

/*
 * The series of the storage probe: per mode (the contrast's after the
 * probe's own), IOPS, latency quantiles and punts, and the verdict.
 */
int probe_result_metrics(struct report *r, const struct probe_result *p, bool fast_path)
{
	struct metrics *m = &r->metrics;
	struct mode_cols c = { .n = PM__COUNT };
	unsigned int i;
	int err = 0;

	for (i = 0; i < PM__COUNT; i++) {
		c.name[i] = probe_mode_name(i);
		c.ran[i] = p->modes[i].ran;
		c.rate[i] = (double)llround(p->modes[i].iops);
		c.punts[i] = (double)p->modes[i].punts;
		c.p50_us[i] = p->modes[i].p50_us;
		c.p99_us[i] = p->modes[i].p99_us;
		c.p999_us[i] = p->modes[i].p999_us;
	}
	err |= per_mode(m, "uringlint_probe_iops", "IOPS the probe measured per mode.", &c, c.rate,
			false);
	/*
	 * The first latency family predates the naming conventions and stays as
	 * it was, since names are never renamed; the second is the same in the
	 * base unit, typed as the quantiles it holds (a summary may omit _sum
	 * and _count).
	 */
	err |= metrics_family(m, "uringlint_probe_latency_microseconds", METRIC_GAUGE,
			      "Completion latency per mode.");
	err |= metrics_family(m, "uringlint_probe_latency_seconds", METRIC_SUMMARY,
			      "Completion latency per mode.");
	err |= quantiles(m, "uringlint_probe_latency_microseconds", &c, 1);
	err |= quantiles(m, "uringlint_probe_latency_seconds", &c, 1e-6);
	err |= per_mode(m, "uringlint_probe_punts",
			"Requests punted to io-wq during the probe, per mode.", &c, c.punts, false);
	err |= metrics_family(m, "uringlint_probe_fast_path", METRIC_GAUGE,
			      "1 when no O_DIRECT request of the probe was punted to io-wq, else 0.");
	err |= metrics_sample(m, "uringlint_probe_fast_path", fast_path, "%s", "");
	return err ? -ENOMEM : 0;
}

/* --- probe --net ------------------------------------------------------------------- */

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

static struct json_object *net_mode_json(const struct net_mode_result *m, enum net_mode mode)
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

struct json_object *probe_net_json(const struct net_result *r, bool fast_path)
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
			json_object_array_add(modes, net_mode_json(m, (enum net_mode)i));
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

/*
 * The series of the network probe: per mode, messages a second, round-trip
 * quantiles, punts (where the tracepoints counted them: unknown is no
 * sample, not zero), io_uring_enter calls per message, and the verdict.
 */
int probe_net_metrics(struct report *rp, const struct net_result *r, bool fast_path)
{
	struct metrics *m = &rp->metrics;
	struct mode_cols c = { .n = NM__COUNT };
	unsigned int i;
	int err = 0;

	for (i = 0; i < NM__COUNT; i++) {
		c.name[i] = net_mode_name(i);
		c.ran[i] = r->modes[i].ran;
		c.counted[i] = r->modes[i].tracepoints;
		c.rate[i] = (double)llround(r->modes[i].msgs_per_sec);
		c.punts[i] = (double)r->modes[i].punts;
		c.per_msg[i] = r->modes[i].ran ? net_per_msg(&r->modes[i], r->modes[i].enters) : 0;
		c.p50_us[i] = r->modes[i].p50_us;
		c.p99_us[i] = r->modes[i].p99_us;
		c.p999_us[i] = r->modes[i].p999_us;
	}
	err |= per_mode(m, "uringlint_probe_net_messages_per_second",
			"Echoed messages per second the network probe measured per mode.", &c, c.rate,
			false);
	err |= metrics_family(m, "uringlint_probe_net_latency_seconds", METRIC_SUMMARY,
			      "Round-trip time of the network probe per mode.");
	err |= quantiles(m, "uringlint_probe_net_latency_seconds", &c, 1e-6);
	err |= per_mode(m, "uringlint_probe_net_punts",
			"Socket requests punted to io-wq during the network probe, per mode.", &c,
			c.punts, true);
	err |= per_mode(m, "uringlint_probe_net_enters_per_message",
			"io_uring_enter calls per echoed message, per mode.", &c, c.per_msg, false);
	err |= metrics_family(m, "uringlint_probe_net_fast_path", METRIC_GAUGE,
			      "1 when no socket request of the network probe was punted to io-wq, "
			      "else 0.");
	err |= metrics_sample(m, "uringlint_probe_net_fast_path", fast_path, "%s", "");
	return err ? -ENOMEM : 0;
}

/* "12.3" or "-" where the tracepoint was not counted. */
static const char *net_counted(char *buf, size_t sz, const struct net_mode_result *m, uint64_t v,
			   const char *fmt)
{
	if (!m->tracepoints)
		return "-";
	snprintf(buf, sz, fmt, net_per_msg(m, v));
	return buf;
}

void probe_net_notes(struct report *rp, const struct net_result *r)
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
			    net_per_msg(m, m->enters), net_counted(arms, sizeof(arms), m, m->poll_arms, "%.3f"),
			    net_counted(punts, sizeof(punts), m, m->punts, "%.4f"),
			    net_per_msg(m, m->vcsw), net_per_msg(m, m->ivcsw),
			    m->echoes ? m->cpu_us / (double)m->echoes : 0,
			    (unsigned long long)m->enobufs);
	}
	for (i = 0; i < NM__COUNT; i++)
		if (!r->modes[i].ran && r->modes[i].e.err != -ECANCELED)
			report_note(rp, "  %-10s not run: %s", net_mode_name(i), r->modes[i].e.why);
}

