// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Latency outliers: per ring and opcode, the slowest requests against the
 * ring's own median, from submit to first completion as the watch joined
 * them. Informational: a tail is a fact about the device and the load,
 * not a fault of the setup by itself; the histogram is there to read.
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"

/* Requests an opcode needs before its p99.9 means something: a thousand, so ten above it. */
#define LAT_MIN_REQS 1000
/* A p99.9 this many times the median, and at least LAT_TAIL_MIN_NS, is an outlier tail. */
#define LAT_TAIL_RATIO 10
#define LAT_TAIL_MIN_NS 1000000ULL

static void format_ns(uint64_t ns, char *buf, size_t n)
{
	if (ns >= 1000000000ULL)
		snprintf(buf, n, "%.1f s", (double)ns / 1e9);
	else if (ns >= 1000000ULL)
		snprintf(buf, n, "%.1f ms", (double)ns / 1e6);
	else
		snprintf(buf, n, "%.0f us", (double)ns / 1e3);
}

/*
 * The histogram from the median's power of two up, one entry per power of
 * two ("<=64 us 812"), as many as fit.
 */
static void histogram(const struct ut_ring_op *op, uint64_t p50, char *buf, size_t n)
{
	size_t used = 0;
	uint64_t count = 0;
	unsigned int b;

	buf[0] = '\0';
	for (b = 0; b < UT_LAT_BUCKETS; b++) {
		uint64_t top = uring_trace_lat_bucket_top(b);
		char edge[24];
		int w;

		count += op->latency[b];
		/* Close a bin at each power of two (the last of its four buckets), from the median on. */
		if (top & (top - 1) || top < p50 || !count)
			continue;
		format_ns(top, edge, sizeof(edge));
		w = snprintf(buf + used, n - used, "%s<=%s %llu", used ? ", " : "", edge,
			     (unsigned long long)count);
		if (w < 0 || (size_t)w >= n - used)
			break;
		used += (size_t)w;
		count = 0;
	}
}

void check_ring_latency(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_watch *w;
	unsigned int judged = 0, tails = 0, unknown = 0;
	uint64_t open_reqs = 0;
	char subject[64], buf[24], a[24], b[24], d[24], hist[512];
	size_t i;

	w = ringmap_watch(c, ctx);
	if (!w)
		return;
	for (i = 0; i < w->ut.nrings; i++) {
		const struct ut_ring *r = &w->ut.rings[i];
		unsigned int k;

		for (k = 0; k < r->nops; k++) {
			const struct ut_ring_op *op = &r->ops[k];
			uint64_t p50, p99, p999;
			struct finding *fi;

			if (op->latency_n < LAT_MIN_REQS)
				continue;
			/*
			 * Requests still open when sampling stopped are the slow ones
			 * most likely: past 1 in 1000 of them, the p99.9 is unknown.
			 */
			if (!uring_trace_latency_known(op, 0.999)) {
				unknown++;
				open_reqs += op->latency_censored;
				continue;
			}
			judged++;
			p50 = uring_trace_latency(op, 0.5);
			p99 = uring_trace_latency(op, 0.99);
			p999 = uring_trace_latency(op, 0.999);
			if (p999 < LAT_TAIL_RATIO * p50 || p999 < LAT_TAIL_MIN_NS)
				continue;
			tails++;
			format_ns(p50, a, sizeof(a));
			format_ns(p99, b, sizeof(b));
			format_ns(p999, d, sizeof(d));
			histogram(op, p50, hist, sizeof(hist));
			ringmap_subject(pf, i, subject, sizeof(subject));
			/* What the device and the application's load make: advice, not a setting. */
			fi = proc_add(c, ctx, STATUS_INFO, subject,
				      "%s: p99.9 %s over %llu requests, %.0f times the median of %s "
				      "(p99 %s; bucket edges, high by 25%% at most; from the median up: "
				      "%s; %llu still open when sampling stopped)",
				      uring_trace_op_name(&w->ut, op->opcode, buf, sizeof(buf)),
				      d, (unsigned long long)op->latency_n, (double)p999 / (double)p50,
				      a, b, hist, (unsigned long long)op->latency_censored);
			finding_ev_int(fi, "p50_ns", (int64_t)p50);
			finding_ev_int(fi, "p999_ns", (int64_t)p999);
		}
	}
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!judged && unknown)
		proc_add(c, ctx, STATUS_SKIP, subject, "the p99.9 of %u opcode%s is unknown: %llu "
			 "requests were still open when sampling stopped, more than 1 in 1000, and "
			 "they could be the slow ones (the watch samples a few milliseconds a second "
			 "at this rate)", unknown, unknown == 1 ? "" : "s",
			 (unsigned long long)open_reqs);
	else if (!judged)
		proc_add(c, ctx, STATUS_SKIP, subject, "no opcode of any ring had %d requests joined "
			 "to their completions in the %s watched: too few for a p99.9",
			 LAT_MIN_REQS, punt_watch_span(w).s);
	else if (!tails)
		proc_add(c, ctx, STATUS_PASS, subject, "the p99.9 of each of %u opcode%s stayed under "
			 "%d times its ring's median (or under 1 ms) in the %s watched%s",
			 judged, judged == 1 ? "" : "s", LAT_TAIL_RATIO, punt_watch_span(w).s,
			 unknown ? "; others had too many requests still open to know theirs" : "");
}
