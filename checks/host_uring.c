// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Can this host create io_uring rings, and if not, why. The live result of
 * io_uring_setup() is triaged against the kernel's own order of tests
 * (io_uring_allowed(): sysctl 2, then sysctl 0 or CAP_SYS_ADMIN, then the
 * group, then the LSM hook), seccomp and memlock accounting.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "output.h"
#include "uring_sizes.h"

/* uringlint's credentials stand for the service's; NULL when proc/self/status is unreadable. */
static const struct proc_status *self_status(const struct host_facts *hf)
{
	return fact_ok(&hf->self_status.e) ? &hf->self_status.st : NULL;
}

static const struct proc_limits *self_limits(const struct host_facts *hf)
{
	return fact_ok(&hf->self_limits.e) ? &hf->self_limits.lim : NULL;
}

/*
 * The one-entry ring worked; the ring of the planned size (--ring-entries)
 * may not: RLIMIT_MEMLOCK that holds a small ring but not the service's.
 */
static struct finding *judge_planned(const struct check *c, struct check_ctx *ctx)
{
	const struct host_facts *hf = ctx->host;
	const struct uring_setup_result *u = &hf->uring_setup.r;
	char why[512];
	struct finding *f;

	if (!u->planned_entries)
		return report_add(ctx->report, &c->info, STATUS_PASS, "host",
				  "io_uring_setup() created a ring (features 0x%x)", u->features);
	if (!u->planned_err)
		return report_add(ctx->report, &c->info, STATUS_PASS, "host",
				  "io_uring_setup() created a one-entry ring (features 0x%x) and a "
				  "%u-entry ring (--ring-entries)",
				  u->features, u->planned_entries);
	if (u->planned_err == -ENOMEM) {
		ring_enomem_why(hf, self_status(hf), self_limits(hf), u->planned_entries, why,
				sizeof(why));
		f = report_add(ctx->report, &c->info, STATUS_FAIL, "host",
			       "io_uring_setup() created a one-entry ring but returned ENOMEM for a "
			       "%u-entry ring (--ring-entries): %s",
			       u->planned_entries, why);
		finding_set_fix(f, "%s", FIX_MEMLOCK_TEXT);
	} else {
		f = report_add(ctx->report, &c->info, STATUS_FAIL, "host",
			       "io_uring_setup() created a one-entry ring but returned %s for a "
			       "%u-entry ring (--ring-entries)",
			       strerrorname_np(-u->planned_err) ? strerrorname_np(-u->planned_err)
								 : strerror(-u->planned_err),
			       u->planned_entries);
	}
	return f;
}

static void judge_live(const struct check *c, struct check_ctx *ctx)
{
	const struct host_facts *hf = ctx->host;
	const struct proc_status *st = &hf->self_status.st;
	int err = hf->uring_setup.r.err;
	enum uring_eperm_cause cause;
	char buf[512];
	struct finding *f;

	if (!err) {
		f = judge_planned(c, ctx);
		finding_ev_str(f, "tested", "live");
		finding_ev_int(f, "features", hf->uring_setup.r.features);
		if (fact_ok(&hf->self_status.e))
			finding_ev_int(f, "uid", st->euid);
		if (hf->uring_setup.r.planned_entries) {
			finding_ev_int(f, "planned_entries", hf->uring_setup.r.planned_entries);
			finding_ev_int(f, "planned_ring_memlock_bytes",
				       (int64_t)ring_memlock_charge(hf, hf->uring_setup.r.planned_entries,
							   2 * hf->uring_setup.r.planned_entries));
			finding_ev_str(f, "planned_error",
				       hf->uring_setup.r.planned_err
					       ? strerrorname_np(-hf->uring_setup.r.planned_err)
					       : NULL);
		}
		return;
	}

	switch (-err) {
	case ENOSYS:
		if (fact_ok(&hf->self_status.e) && st->seccomp == 2)
			f = report_add(ctx->report, &c->info, STATUS_FAIL, "host",
				       "io_uring_setup() returned ENOSYS while a seccomp filter is "
				       "active: the filter may answer ENOSYS for io_uring, or the "
				       "kernel has no CONFIG_IO_URING");
		else
			f = report_add(ctx->report, &c->info, STATUS_FAIL, "host",
				       "io_uring_setup() returned ENOSYS: this kernel is built "
				       "without CONFIG_IO_URING");
		finding_set_fix(f, "boot a kernel built with CONFIG_IO_URING=y (every distribution "
				   "kernel since 5.1 has it); inside a sandbox, allow the io_uring "
				   "system calls in its seccomp profile");
		break;
	case EPERM:
		cause = uring_eperm_cause(hf, self_status(hf), buf, sizeof(buf));
		if (cause != EPERM_NONE) {
			f = report_add(ctx->report, &c->info, STATUS_FAIL, "host",
				       "io_uring_setup() returned EPERM: %s", buf);
			finding_set_fix(f, "%s", uring_eperm_fix(cause));
		} else {
			f = report_add(ctx->report, &c->info, STATUS_FAIL, "host",
				       "io_uring_setup() returned EPERM, and neither the sysctls nor "
				       "seccomp explain it: a Linux security module denied it "
				       "(SELinux io_uring class, or the io_uring_allowed LSM hook)");
			finding_set_fix(f, "check the audit log for an AVC or LSM denial of "
					   "io_uring and allow it for the service's domain");
		}
		break;
	case ENOMEM:
		ring_enomem_why(hf, self_status(hf), self_limits(hf), 1, buf, sizeof(buf));
		f = report_add(ctx->report, &c->info, STATUS_FAIL, "host",
			       "io_uring_setup() returned ENOMEM for a one-entry ring: %s", buf);
		finding_set_fix(f, "%s", FIX_MEMLOCK_TEXT);
		break;
	default:
		f = report_add(ctx->report, &c->info, STATUS_FAIL, "host",
			       "io_uring_setup() failed: %s", strerror(-err));
		break;
	}
	finding_ev_str(f, "tested", "live");
	finding_ev_int(f, "errno", -err);
	finding_ev_str(f, "error", strerror(-err));
}

/*
 * Under --root nothing can be tried: name a cause the captured files prove,
 * and pass only when the tree proves io_uring is built in (the sysctl exists
 * from 6.6 on exactly when it is).
 */
static void judge_captured(const struct check *c, struct check_ctx *ctx)
{
	const struct host_facts *hf = ctx->host;
	const struct proc_status *st = &hf->self_status.st;
	const struct proc_limits *lim = &hf->self_limits.lim;
	enum uring_eperm_cause cause;
	char buf[512], a[BYTES_STR_MAX], b[BYTES_STR_MAX];
	struct finding *f;
	uint64_t ring, planned;

	if (!fact_ok(&hf->kernel.e)) {
		check_fact_missing(c, ctx, "host", &hf->kernel.e);
		return;
	}
	if (kernel_version_code(&hf->kernel.v) < KV(5, 1, 0)) {
		f = report_add(ctx->report, &c->info, STATUS_FAIL, "host",
			       "Linux %u.%u has no io_uring (added in 5.1); judged from the "
			       "captured tree",
			       hf->kernel.v.major, hf->kernel.v.minor);
		finding_set_fix(f, "upgrade the kernel; 6.1 or later is recommended");
		goto out;
	}
	cause = uring_eperm_cause(hf, self_status(hf), buf, sizeof(buf));
	if (cause == EPERM_SYSCTL || cause == EPERM_GROUP) {
		f = report_add(ctx->report, &c->info, STATUS_FAIL, "host",
			       "io_uring_setup() would return EPERM: %s; judged from the captured "
			       "tree, not tested live",
			       buf);
		finding_set_fix(f, "%s", uring_eperm_fix(cause));
		goto out;
	}
	ring = uring_ring_charge(kernel_version_code(&hf->kernel.v), 1, 2, hf->page_size);
	if (fact_ok(&hf->self_limits.e) && fact_ok(&hf->self_status.e) && ring &&
	    !proc_status_has_cap(st, CAP_BIT_IPC_LOCK) && lim->memlock.soft < ring) {
		f = report_add(ctx->report, &c->info, STATUS_FAIL, "host",
			       "io_uring_setup() would return ENOMEM: RLIMIT_MEMLOCK is %s and "
			       "even a one-entry ring needs %s on this kernel; judged from the "
			       "captured tree, not tested live",
			       format_bytes(lim->memlock.soft, a), format_bytes(ring, b));
		finding_set_fix(f, "raise RLIMIT_MEMLOCK (systemd: LimitMEMLOCK=infinity) or grant "
				   "CAP_IPC_LOCK");
		goto out;
	}
	/* As live, the service's ring too: a limit may hold a small ring and not that one. */
	planned = ctx->plan ? uring_ring_charge(kernel_version_code(&hf->kernel.v),
						ctx->plan->ring_entries, 2 * ctx->plan->ring_entries,
						hf->page_size)
			    : 0;
	if (fact_ok(&hf->self_limits.e) && fact_ok(&hf->self_status.e) && planned &&
	    !proc_status_has_cap(st, CAP_BIT_IPC_LOCK) && lim->memlock.soft < planned) {
		f = report_add(ctx->report, &c->info, STATUS_FAIL, "host",
			       "io_uring_setup() would return ENOMEM for a %u-entry ring "
			       "(--ring-entries): RLIMIT_MEMLOCK is %s and such a ring needs %s on "
			       "this kernel, which charges ring memory to it; judged from the "
			       "captured tree, not tested live",
			       ctx->plan->ring_entries, format_bytes(lim->memlock.soft, a),
			       format_bytes(planned, b));
		finding_set_fix(f, "%s", FIX_MEMLOCK_TEXT);
		goto out;
	}
	if (cause == EPERM_SECCOMP) {
		f = report_add(ctx->report, &c->info, STATUS_WARN, "host",
			       "%s; whether this filter blocks io_uring can only be tested live",
			       buf);
		finding_set_fix(f, "%s", uring_eperm_fix(cause));
		goto out;
	}
	if (!fact_ok(&hf->self_status.e) || !fact_ok(&hf->uring_disabled.e)) {
		const struct fact_err *e = !fact_ok(&hf->uring_disabled.e) ? &hf->uring_disabled.e
									   : &hf->self_status.e;

		if (fact_status(e) == STATUS_ERROR) {
			f = check_fact_missing(c, ctx, "host", e);
		} else {
			f = report_add(ctx->report, &c->info, STATUS_SKIP, "host",
				       "no cause found in the captured tree, but it cannot show that "
				       "io_uring is built in (%s); run live to test",
				       e->why);
		}
		goto out;
	}
	f = report_add(ctx->report, &c->info, STATUS_PASS, "host",
		       "judged from the captured tree, not tested live: io_uring is built in "
		       "(kernel.io_uring_disabled exists) and no sysctl, group, seccomp or "
		       "memlock cause blocks io_uring_setup()");
out:
	finding_ev_str(f, "tested", "captured-tree");
}

void check_io_uring_available(const struct check *c, struct check_ctx *ctx)
{
	if (fact_ok(&ctx->host->uring_setup.e))
		judge_live(c, ctx);
	else
		judge_captured(c, ctx);
}

void check_io_uring_disabled_sysctl(const struct check *c, struct check_ctx *ctx)
{
	const struct host_facts *hf = ctx->host;
	const struct kernel_version *kv = &hf->kernel.v;
	int64_t v = hf->uring_disabled.value, g = hf->uring_group.value;
	struct finding *f;

	if (hf->uring_disabled.e.err == -ENOENT && fact_ok(&hf->kernel.e)) {
		if (kernel_version_code(kv) < KV(6, 6, 0))
			report_add(ctx->report, &c->info, STATUS_SKIP, "host",
				   "kernel.io_uring_disabled does not exist before Linux 6.6 "
				   "(this kernel: %u.%u.%u)",
				   kv->major, kv->minor, kv->patch);
		else
			report_add(ctx->report, &c->info, STATUS_SKIP, "host",
				   "%s: Linux %u.%u has this sysctl whenever io_uring is built in, "
				   "so io_uring is likely not built in",
				   hf->uring_disabled.e.why, kv->major, kv->minor);
		return;
	}
	if (!fact_ok(&hf->uring_disabled.e)) {
		check_fact_missing(c, ctx, "host", &hf->uring_disabled.e);
		return;
	}

	switch (v) {
	case 0:
		f = report_add(ctx->report, &c->info, STATUS_PASS, "host",
			       "kernel.io_uring_disabled = 0: every process may create rings");
		break;
	case 1:
		if (!fact_ok(&hf->uring_group.e))
			f = report_add(ctx->report, &c->info, STATUS_WARN, "host",
				       "kernel.io_uring_disabled = 1: only CAP_SYS_ADMIN processes "
				       "and members of kernel.io_uring_group may create rings (%s)",
				       hf->uring_group.e.why);
		else if (g < 0)
			f = report_add(ctx->report, &c->info, STATUS_WARN, "host",
				       "kernel.io_uring_disabled = 1 and kernel.io_uring_group = %lld: "
				       "only CAP_SYS_ADMIN processes may create rings",
				       (long long)g);
		else
			f = report_add(ctx->report, &c->info, STATUS_WARN, "host",
				       "kernel.io_uring_disabled = 1: only CAP_SYS_ADMIN processes and "
				       "members of group %lld (kernel.io_uring_group) may create rings",
				       (long long)g);
		finding_set_fix(f, "%s", FIX_GROUP);
		break;
	case 2:
		f = report_add(ctx->report, &c->info, STATUS_FAIL, "host",
			       "kernel.io_uring_disabled = 2: io_uring_setup() fails with EPERM for "
			       "every process, root included (rings created before keep working)");
		finding_set_fix(f, "%s", FIX_SYSCTL_ZERO);
		break;
	default:
		f = report_add(ctx->report, &c->info, STATUS_ERROR, "host",
			       "kernel.io_uring_disabled = %lld is outside the kernel's range 0-2",
			       (long long)v);
		break;
	}
	finding_ev_int(f, "io_uring_disabled", v);
	if (fact_ok(&hf->uring_group.e))
		finding_ev_int(f, "io_uring_group", g);
}
