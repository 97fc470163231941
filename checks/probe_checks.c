// SPDX-License-Identifier: GPL-2.0-or-later
/* Verdicts on what the probe measured: the fast path held, or where it broke. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "output.h"

/* Modes whose requests are O_DIRECT on a written file: the ones that must not punt. */
static bool direct_mode(enum probe_mode m)
{
	return m < PM_CONTRAST_FIRST;
}

static const char *subject_of(const struct probe_result *r, char *buf, size_t bufsz)
{
	snprintf(buf, bufsz, "%s", r->dir);
	return buf;
}

static bool probe_usable(const struct check *c, struct check_ctx *ctx)
{
	const struct probe_result *r = ctx->probe;

	if (fact_ok(&r->e))
		return true;
	check_fact_missing(c, ctx, r->dir, &r->e);
	return false;
}

void check_probe_o_direct(const struct check *c, struct check_ctx *ctx)
{
	const struct probe_result *r = ctx->probe;
	char subject[PATH_MAX];
	struct finding *f;

	if (!probe_usable(c, ctx))
		return;
	subject_of(r, subject, sizeof(subject));
	if (r->odirect_err) {
		f = report_add(ctx->report, &c->info, STATUS_FAIL, subject,
			       "%s refuses O_DIRECT (%s): every probe mode needs it", r->fs,
			       strerror(-r->odirect_err));
	} else if (r->memory_fs) {
		f = report_add(ctx->report, &c->info, STATUS_FAIL, subject,
			       "%s accepts O_DIRECT only as a no-op (6.6+): nothing reaches a device, "
			       "so there is no fast path to measure", r->fs);
	} else {
		f = report_add(ctx->report, &c->info, STATUS_PASS, subject,
			       "O_DIRECT accepted on %s (%s)%s%u-byte offsets, %u-byte buffers",
			       r->fs, r->device, r->dio_offset_align ? ": " : "",
			       r->dio_offset_align, r->dio_mem_align);
	}
	if (f->status == STATUS_FAIL)
		finding_set_fix(f, "probe a directory on XFS or ext4 on a block device");
	finding_ev_str(f, "fs", r->fs);
	finding_ev_str(f, "device", r->device);
	finding_ev_bool(f, "o_tmpfile", r->o_tmpfile);
}

/* The likeliest cause of punts in an O_DIRECT overwrite workload, by filesystem. */
static const char *punt_cause(const struct probe_result *r)
{
	if (!strcmp(r->fs, "xfs"))
		return "on XFS, timestamp updates and extent work under NOWAIT return EAGAIN: mount "
		       "with lazytime, and keep files written once";
	if (!strcmp(r->fs, "ext4"))
		return "on ext4 O_DIRECT overwrites of written blocks should not punt: check for "
		       "stacked devices (dm, md, loop) and the queue depth against nr_requests";
	return "this filesystem or its device lacks NOWAIT for some requests";
}

void check_probe_fast_path(const struct check *c, struct check_ctx *ctx)
{
	const struct probe_result *r = ctx->probe;
	char subject[PATH_MAX], bad[512] = "";
	unsigned int i, ran = 0, nbad = 0;
	uint64_t punts = 0, ios = 0;
	bool tracepoint = false;
	struct finding *f;

	if (!probe_usable(c, ctx))
		return;
	subject_of(r, subject, sizeof(subject));
	for (i = 0; i < PM__COUNT; i++) {
		const struct probe_mode_result *m = &r->modes[i];

		if (!direct_mode((enum probe_mode)i) || !m->ran)
			continue;
		ran++;
		tracepoint |= m->punts_tracepoint;
		punts += m->punts;
		ios += m->ios;
		/* More punts than the tolerance, or any new worker when only threads tell. */
		if (m->punts_tracepoint ? punt_status(ctx, m->punts, m->ios) == STATUS_FAIL
					: m->punts > 0) {
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad), "%s%s %llu of %llu",
				 nbad ? ", " : "", probe_mode_name((enum probe_mode)i),
				 (unsigned long long)m->punts, (unsigned long long)m->ios);
			nbad++;
		}
	}
	if (!ran) {
		report_add(ctx->report, &c->info, STATUS_SKIP, subject, "no O_DIRECT mode ran");
		return;
	}
	if (nbad && tracepoint) {
		f = report_add(ctx->report, &c->info, STATUS_FAIL, subject,
			       "O_DIRECT requests were punted to io-wq: %s; %s", bad, punt_cause(r));
	} else if (nbad) {
		f = report_add(ctx->report, &c->info, STATUS_WARN, subject,
			       "new io-wq workers appeared (%s): at least that many punts; without the "
			       "tracepoint (%s) their share is unknown",
			       bad, r->punts_why);
	} else if (punts) {
		f = report_add(ctx->report, &c->info, STATUS_PASS, subject,
			       "%u O_DIRECT modes ran and %llu of their %llu requests were punted to "
			       "io-wq, in no mode more than the punt tolerance of %g%% allows "
			       "(punt-tolerance; counted with the io_uring_queue_async_work "
			       "tracepoint)", ran, (unsigned long long)punts, (unsigned long long)ios,
			       100 * check_thresholds(ctx)->punt_tolerance);
	} else {
		f = report_add(ctx->report, &c->info, STATUS_PASS, subject,
			       "%u O_DIRECT modes ran and no request was punted to io-wq (%s)", ran,
			       tracepoint ? "counted with the io_uring_queue_async_work tracepoint"
					  : "no new iou-wrk thread; the tracepoint needs root");
	}
	if (nbad)
		finding_set_fix(f, "%s", punt_cause(r));
	finding_ev_str(f, "punts_source", tracepoint ? "tracepoint" : "threads");
}

void check_probe_sqpoll(const struct check *c, struct check_ctx *ctx)
{
	const struct probe_result *r = ctx->probe;
	const struct probe_mode_result *m = &r->modes[PM_SQPOLL];
	char subject[PATH_MAX];
	struct finding *f;

	if (!probe_usable(c, ctx))
		return;
	subject_of(r, subject, sizeof(subject));
	if (m->e.err == -ECANCELED || (m->e.err == -EOPNOTSUPP && !m->ran)) {
		report_add(ctx->report, &c->info, STATUS_SKIP, subject, "%s", m->e.why);
		return;
	}
	if (!m->ran) {
		f = report_add(ctx->report, &c->info, STATUS_FAIL, subject, "the SQPOLL ring did not run: %s",
			       m->e.why);
		finding_set_fix(f, "SQPOLL needs root before 5.11 and CAP_SYS_NICE in 5.11 and 5.12; "
				   "upgrade, or grant the capability");
		return;
	}
	if (m->sqpoll_thread && m->syscalls_per_io < 0.05)
		f = report_add(ctx->report, &c->info, STATUS_PASS, subject,
			       "the SQPOLL thread came up and io_uring_enter fell to %.4f per I/O "
			       "(default ring: %.3f)",
			       m->syscalls_per_io, r->modes[PM_DEFAULT].syscalls_per_io);
	else
		f = report_add(ctx->report, &c->info, STATUS_WARN, subject,
			       "SQPOLL ran, but %s: %.3f io_uring_enter per I/O",
			       m->sqpoll_thread ? "submissions still entered the kernel"
						: "no iou-sqp thread was seen",
			       m->syscalls_per_io);
	finding_ev_int(f, "enters", (int64_t)m->enters);
	json_object_object_add(f->evidence, "syscalls_per_io",
			       json_object_new_double(m->syscalls_per_io));
	finding_ev_str(f, "syscalls_source", m->enters_tracepoint ? "tracepoint" : "calls");
}

void check_probe_fixed_buffers(const struct check *c, struct check_ctx *ctx)
{
	const struct probe_result *r = ctx->probe;
	const struct probe_mode_result *m = &r->modes[PM_SQPOLL_FIXED];
	char subject[PATH_MAX], need[BYTES_STR_MAX], lim[BYTES_STR_MAX];
	struct finding *f;

	if (!probe_usable(c, ctx))
		return;
	subject_of(r, subject, sizeof(subject));
	if (m->ran) {
		report_add(ctx->report, &c->info, STATUS_PASS, subject,
			   "%u registered buffers (%s) and the registered file worked", r->depth,
			   format_bytes(r->fixed_bytes, need));
		return;
	}
	if (!r->fixed_err) {
		report_add(ctx->report, &c->info, STATUS_SKIP, subject, "%s", m->e.why);
		return;
	}
	f = report_add(ctx->report, &c->info, r->fixed_err == -ENOMEM ? STATUS_WARN : STATUS_FAIL, subject,
		       "registering %s of buffers failed (%s)%s%s; the other modes ran without them",
		       format_bytes(r->fixed_bytes, need), strerror(-r->fixed_err),
		       r->fixed_err == -ENOMEM ? ": RLIMIT_MEMLOCK is " : "",
		       r->fixed_err == -ENOMEM ? format_bytes(r->memlock_soft, lim) : "");
	finding_set_fix(f, "%s", r->fixed_err == -ENOMEM ? FIX_MEMLOCK_TEXT
						      : "see the error; registered buffers need "
							"Linux 5.1");
}

void check_probe_cq_overflow(const struct check *c, struct check_ctx *ctx)
{
	const struct probe_result *r = ctx->probe;
	char subject[PATH_MAX], which[256] = "";
	unsigned int i, ran = 0;
	struct finding *f;

	if (!probe_usable(c, ctx))
		return;
	subject_of(r, subject, sizeof(subject));
	for (i = 0; i < PM__COUNT; i++) {
		ran += r->modes[i].ran;
		if (r->modes[i].ran && r->modes[i].cq_overflow)
			snprintf(which + strlen(which), sizeof(which) - strlen(which), "%s%s",
				 which[0] ? ", " : "", probe_mode_name((enum probe_mode)i));
	}
	if (!ran) {
		report_add(ctx->report, &c->info, STATUS_SKIP, subject, "no mode ran");
		return;
	}
	if (which[0]) {
		f = report_add(ctx->report, &c->info, STATUS_FAIL, subject,
			       "the CQ overflowed in %s although the probe reaps every completion", which);
		finding_set_fix(f, "report this: a CQ twice the queue depth should never overflow");
	} else {
		report_add(ctx->report, &c->info, STATUS_PASS, subject, "no CQ overflow in %u modes", ran);
	}
}
