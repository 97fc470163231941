// SPDX-License-Identifier: GPL-2.0-or-later
/* Verdicts on the network probe: sockets on io_uring's fast path, and what this kernel offers. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"

#define SUBJECT "loopback echo"

/* Appends "sep item" to a list in buf. */
static void list_add(char *buf, size_t sz, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void list_add(char *buf, size_t sz, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len >= sz - 1)
		return;
	if (len)
		len += (size_t)snprintf(buf + len, sz - len, "; ");
	va_start(ap, fmt);
	if (len < sz)
		vsnprintf(buf + len, sz - len, fmt, ap);
	va_end(ap);
}

static bool net_usable(const struct check *c, struct check_ctx *ctx)
{
	const struct net_result *r = ctx->probe_net;

	if (fact_ok(&r->e))
		return true;
	check_fact_missing(c, ctx, SUBJECT, &r->e);
	return false;
}

void check_probe_net_punts(const struct check *c, struct check_ctx *ctx)
{
	const struct net_result *r = ctx->probe_net;
	char bad[512] = "", ok[512] = "";
	unsigned int i, ran = 0;
	bool tp = false;
	struct finding *f;

	if (!net_usable(c, ctx))
		return;
	for (i = 0; i < NM__COUNT; i++) {
		const struct net_mode_result *m = &r->modes[i];

		if (!net_mode_uring((enum net_mode)i) || !m->ran)
			continue;
		ran++;
		tp |= m->tracepoints;
		if (m->tracepoints ? m->punts > 0 : m->iou_wrk > 0)
			list_add(bad, sizeof(bad), "%s %llu %s for %llu messages", net_mode_name(i),
				 (unsigned long long)(m->tracepoints ? m->punts : m->iou_wrk),
				 m->tracepoints ? "punts" : "io-wq workers", (unsigned long long)m->echoes);
		else
			list_add(ok, sizeof(ok), "%s %.2f poll arms a message", net_mode_name(i),
				 net_per_msg(m, m->poll_arms));
	}
	if (!ran) {
		report_add(ctx->report, &c->info, STATUS_SKIP, SUBJECT, "no io_uring mode ran");
		return;
	}
	if (bad[0] && tp)
		f = report_add(ctx->report, &c->info, STATUS_FAIL, SUBJECT,
			       "socket requests were punted to io-wq: %s", bad);
	else if (bad[0])
		f = report_add(ctx->report, &c->info, STATUS_WARN, SUBJECT,
			       "io-wq workers were alive at the end of a mode (%s): at least one punt; "
			       "without the tracepoint (%s) the count is unknown", bad, r->tp_why);
	else if (tp)
		f = report_add(ctx->report, &c->info, STATUS_PASS, SUBJECT,
			       "%u io_uring modes ran and no socket request was punted to io-wq "
			       "(io_uring_queue_async_work counted on every thread): %s", ran, ok);
	else
		f = report_add(ctx->report, &c->info, STATUS_PASS, SUBJECT,
			       "%u io_uring modes ran and no io-wq worker was alive at their end; "
			       "the punt count needs the tracepoint (%s)", ran, r->tp_why);
	if (bad[0])
		finding_set_fix(f, "socket requests punt when IOSQE_ASYNC is set, the file cannot "
				   "be polled, or a request keeps getting -EAGAIN after its poll "
				   "wakeups; the probe sets no IOSQE_ASYNC: run it again, and report "
				   "a punt that stays with the kernel version");
	finding_ev_str(f, "punts_source", tp ? "tracepoint" : "threads");
}

void check_probe_net_features(const struct check *c, struct check_ctx *ctx)
{
	const struct net_result *r = ctx->probe_net;
	char lacking[768] = "", failed[768] = "", ran[256] = "";
	unsigned int i, selected = 0;
	struct finding *f;

	if (!net_usable(c, ctx))
		return;
	for (i = 0; i < NM__COUNT; i++) {
		const struct net_mode_result *m = &r->modes[i];

		if (!net_mode_uring((enum net_mode)i) || m->e.err == -ECANCELED)
			continue;
		selected++;
		if (m->ran)
			list_add(ran, sizeof(ran), "%s", net_mode_name(i));
		else if (m->needs)
			list_add(lacking, sizeof(lacking), "%s: %s", net_mode_name(i), m->e.why);
		else
			list_add(failed, sizeof(failed), "%s: %s", net_mode_name(i), m->e.why);
	}
	if (!selected) {
		report_add(ctx->report, &c->info, STATUS_SKIP, SUBJECT, "no io_uring mode selected by --mode");
		return;
	}
	if (failed[0]) {
		f = report_add(ctx->report, &c->info, STATUS_FAIL, SUBJECT, "%s%s%s", failed,
			       lacking[0] ? "; " : "", lacking);
		finding_set_fix(f, "see the error of each mode: ENOMEM is RLIMIT_MEMLOCK (6.14+ "
				   "charges rings and buffer rings to it), EPERM is "
				   "kernel.io_uring_disabled or a seccomp filter");
	} else if (lacking[0]) {
		f = report_add(ctx->report, &c->info, STATUS_WARN, SUBJECT, "%s%s%s", lacking,
			       ran[0] ? "; ran: " : "", ran);
		finding_set_fix(f, "a service that needs these features needs the kernel named; "
				   "otherwise it must fall back (single-shot recv, plain send)");
	} else {
		report_add(ctx->report, &c->info, STATUS_PASS, SUBJECT,
			   "every io_uring mode selected ran on this kernel: %s", ran);
	}
}

void check_probe_net_echo(const struct check *c, struct check_ctx *ctx)
{
	const struct net_result *r = ctx->probe_net;
	char bad[512] = "";
	unsigned int i, ran = 0;
	struct finding *f;

	if (!net_usable(c, ctx))
		return;
	for (i = 0; i < NM__COUNT; i++) {
		const struct net_mode_result *m = &r->modes[i];

		if (!m->ran)
			continue;
		ran++;
		if (m->errors)
			list_add(bad, sizeof(bad), "%s %llu errors (first: %s)", net_mode_name(i),
				 (unsigned long long)m->errors, strerror(-m->first_error));
	}
	if (!ran) {
		report_add(ctx->report, &c->info, STATUS_SKIP, SUBJECT, "no mode ran");
		return;
	}
	if (bad[0]) {
		f = report_add(ctx->report, &c->info, STATUS_FAIL, SUBJECT,
			       "requests failed or echoes came back wrong: %s", bad);
		finding_set_fix(f, "the numbers of those modes are suspect; report it with the "
				   "kernel version");
	} else {
		report_add(ctx->report, &c->info, STATUS_PASS, SUBJECT,
			   "%u modes: every request succeeded and every echo matched what was sent", ran);
	}
}

void check_probe_net_enobufs(const struct check *c, struct check_ctx *ctx)
{
	const struct net_result *r = ctx->probe_net;
	const struct net_mode_result *m = &r->modes[NM_MULTISHOT];
	struct finding *f;

	if (!net_usable(c, ctx))
		return;
	if (!m->ran) {
		report_add(ctx->report, &c->info, STATUS_SKIP, SUBJECT, "the multishot mode did not run: %s",
			   m->e.why);
		return;
	}
	if (m->enobufs) {
		f = report_add(ctx->report, &c->info, STATUS_WARN, SUBJECT,
			       "%llu multishot recvs ended with ENOBUFS in %llu messages although the "
			       "buffer ring held two buffers a connection",
			       (unsigned long long)m->enobufs, (unsigned long long)m->echoes);
		finding_set_fix(f, "give buffers back to the ring as soon as the data is copied or "
				   "sent, and size the ring for the connections a thread holds");
	} else {
		f = report_add(ctx->report, &c->info, STATUS_PASS, SUBJECT,
			       "no ENOBUFS in %llu messages; multishot recv and accept were armed "
			       "again %llu times", (unsigned long long)m->echoes,
			       (unsigned long long)m->rearms);
	}
	finding_ev_int(f, "enobufs", (int64_t)m->enobufs);
	finding_ev_int(f, "rearms", (int64_t)m->rearms);
}

void check_probe_net_napi(const struct check *c, struct check_ctx *ctx)
{
	const struct net_result *r = ctx->probe_net;
	const struct net_mode_result *m = &r->modes[NM_NAPI];

	if (!net_usable(c, ctx))
		return;
	if (!m->ran) {
		report_add(ctx->report, &c->info, m->needs || m->e.err == -ECANCELED ||
				   m->e.err == -EOPNOTSUPP ? STATUS_SKIP : STATUS_FAIL,
			   SUBJECT, "%s", m->e.why);
		return;
	}
	report_add(ctx->report, &c->info, STATUS_PASS, SUBJECT,
		   "IORING_REGISTER_NAPI accepted a 50 us busy-poll timeout on every worker's ring%s; "
		   "loopback sockets carry no NAPI id, so no busy polling took place: the napi "
		   "mode's numbers are the uring mode's path with NAPI registered, not busy "
		   "polling's gain",
		   m->napi_fdinfo ? " (fdinfo: NAPI enabled)" : "");
}
