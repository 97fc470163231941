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
#include "units.h"
#include "uring_sizes.h"

#define FIX_SYSCTL_ZERO                                                                    \
	"sysctl -w kernel.io_uring_disabled=0, and persist it: echo "                      \
	"'kernel.io_uring_disabled = 0' > /etc/sysctl.d/90-io_uring.conf"
#define FIX_GROUP                                                                          \
	"add the service's user to a group and allow that group: sysctl -w "               \
	"kernel.io_uring_group=GID (persist in /etc/sysctl.d/90-io_uring.conf), or allow " \
	"everyone: " FIX_SYSCTL_ZERO
#define FIX_SECCOMP                                                                        \
	"run the service with a seccomp profile that allows io_uring_setup, "              \
	"io_uring_enter and io_uring_register (Docker: --security-opt seccomp=PROFILE.json; " \
	"Kubernetes: a Localhost seccompProfile); the runtime default profiles of Docker 25+ " \
	"and containerd 2.0+ block them"

enum eperm_cause {
	CAUSE_NONE,
	CAUSE_SYSCTL,	/* kernel.io_uring_disabled = 2 */
	CAUSE_GROUP,	/* = 1, without CAP_SYS_ADMIN, not in kernel.io_uring_group */
	CAUSE_SECCOMP,	/* a filter is active: a likely cause, not a proven one */
};

static const char *const cause_fix[] = {
	[CAUSE_SYSCTL] = FIX_SYSCTL_ZERO,
	[CAUSE_GROUP] = FIX_GROUP,
	[CAUSE_SECCOMP] = FIX_SECCOMP,
};

/* Why a process with these credentials would get EPERM, described in buf. */
static enum eperm_cause eperm_cause(const struct host_facts *hf, char *buf, size_t len)
{
	const struct proc_status *st = &hf->self_status.st;
	bool have_status = fact_ok(&hf->self_status.e);

	if (fact_ok(&hf->uring_disabled.e) && hf->uring_disabled.value == 2) {
		snprintf(buf, len,
			 "kernel.io_uring_disabled = 2 refuses every io_uring_setup(), root included");
		return CAUSE_SYSCTL;
	}
	if (fact_ok(&hf->uring_disabled.e) && hf->uring_disabled.value == 1 && have_status &&
	    !proc_status_has_cap(st, CAP_BIT_SYS_ADMIN)) {
		int64_t g = fact_ok(&hf->uring_group.e) ? hf->uring_group.value : -1;

		if (g < 0 || g > 0xfffffffe || !proc_status_in_group(st, (gid_t)g)) {
			if (g < 0)
				snprintf(buf, len,
					 "kernel.io_uring_disabled = 1 allows only CAP_SYS_ADMIN and "
					 "kernel.io_uring_group, which is %lld (no group); uid %u lacks "
					 "CAP_SYS_ADMIN",
					 (long long)g, st->euid);
			else
				snprintf(buf, len,
					 "kernel.io_uring_disabled = 1 allows only CAP_SYS_ADMIN and "
					 "members of kernel.io_uring_group %lld; uid %u is in neither",
					 (long long)g, st->euid);
			return CAUSE_GROUP;
		}
	}
	if (have_status && st->seccomp == 2) {
		snprintf(buf, len,
			 "a seccomp filter is active (Seccomp: 2, %d filter(s) in proc/self/status) "
			 "and container runtimes' default profiles deny io_uring",
			 st->seccomp_filters);
		return CAUSE_SECCOMP;
	}
	return CAUSE_NONE;
}

static void judge_live(const struct check *c, struct check_ctx *ctx)
{
	const struct host_facts *hf = ctx->host;
	const struct proc_status *st = &hf->self_status.st;
	int err = hf->uring_setup.r.err;
	enum eperm_cause cause;
	char buf[512], lim[BYTES_STR_MAX];
	struct finding *f;

	if (!err) {
		f = report_add(ctx->report, c, STATUS_PASS, "host",
			       "io_uring_setup() created a ring (features 0x%x)",
			       hf->uring_setup.r.features);
		finding_ev_str(f, "tested", "live");
		finding_ev_int(f, "features", hf->uring_setup.r.features);
		if (fact_ok(&hf->self_status.e))
			finding_ev_int(f, "uid", st->euid);
		return;
	}

	switch (-err) {
	case ENOSYS:
		if (fact_ok(&hf->self_status.e) && st->seccomp == 2)
			f = report_add(ctx->report, c, STATUS_FAIL, "host",
				       "io_uring_setup() returned ENOSYS while a seccomp filter is "
				       "active: the filter may answer ENOSYS for io_uring, or the "
				       "kernel has no CONFIG_IO_URING");
		else
			f = report_add(ctx->report, c, STATUS_FAIL, "host",
				       "io_uring_setup() returned ENOSYS: this kernel is built "
				       "without CONFIG_IO_URING");
		finding_set_fix(f, "boot a kernel built with CONFIG_IO_URING=y (every distribution "
				   "kernel since 5.1 has it); inside a sandbox, allow the io_uring "
				   "system calls in its seccomp profile");
		break;
	case EPERM:
		cause = eperm_cause(hf, buf, sizeof(buf));
		if (cause != CAUSE_NONE) {
			f = report_add(ctx->report, c, STATUS_FAIL, "host",
				       "io_uring_setup() returned EPERM: %s", buf);
			finding_set_fix(f, "%s", cause_fix[cause]);
		} else {
			f = report_add(ctx->report, c, STATUS_FAIL, "host",
				       "io_uring_setup() returned EPERM, and neither the sysctls nor "
				       "seccomp explain it: a Linux security module denied it "
				       "(SELinux io_uring class, or the io_uring_allowed LSM hook)");
			finding_set_fix(f, "check the audit log for an AVC or LSM denial of "
					   "io_uring and allow it for the service's domain");
		}
		break;
	case ENOMEM:
		if (!fact_ok(&hf->self_limits.e))
			snprintf(lim, sizeof(lim), "unknown");
		else
			format_bytes(hf->self_limits.lim.memlock.soft, lim);
		f = report_add(ctx->report, c, STATUS_FAIL, "host",
			       "io_uring_setup() returned ENOMEM for a one-entry ring: "
			       "RLIMIT_MEMLOCK is %s and %s",
			       lim,
			       fact_ok(&hf->kernel.e) &&
					       !uring_rings_charged_to_memlock(
						       kernel_version_code(&hf->kernel.v))
				       ? "this kernel charges rings to the memory cgroup, so the "
					 "cgroup's memory limit is exhausted"
				       : "this kernel charges ring memory to it");
		finding_set_fix(f, "raise RLIMIT_MEMLOCK for the service (systemd: "
				   "LimitMEMLOCK=infinity; limits.conf: '<user> - memlock "
				   "unlimited') or grant it CAP_IPC_LOCK");
		break;
	default:
		f = report_add(ctx->report, c, STATUS_FAIL, "host",
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
	enum eperm_cause cause;
	char buf[512], a[BYTES_STR_MAX], b[BYTES_STR_MAX];
	struct finding *f;
	uint64_t ring;

	if (!fact_ok(&hf->kernel.e)) {
		check_fact_missing(c, ctx, "host", &hf->kernel.e);
		return;
	}
	if (kernel_version_code(&hf->kernel.v) < KV(5, 1, 0)) {
		f = report_add(ctx->report, c, STATUS_FAIL, "host",
			       "Linux %u.%u has no io_uring (added in 5.1); judged from the "
			       "captured tree",
			       hf->kernel.v.major, hf->kernel.v.minor);
		finding_set_fix(f, "upgrade the kernel; 6.1 or later is recommended");
		goto out;
	}
	cause = eperm_cause(hf, buf, sizeof(buf));
	if (cause == CAUSE_SYSCTL || cause == CAUSE_GROUP) {
		f = report_add(ctx->report, c, STATUS_FAIL, "host",
			       "io_uring_setup() would return EPERM: %s; judged from the captured "
			       "tree, not tested live",
			       buf);
		finding_set_fix(f, "%s", cause_fix[cause]);
		goto out;
	}
	ring = uring_ring_charge(kernel_version_code(&hf->kernel.v), 1, 2, hf->page_size);
	if (fact_ok(&hf->self_limits.e) && fact_ok(&hf->self_status.e) && ring &&
	    !proc_status_has_cap(st, CAP_BIT_IPC_LOCK) && lim->memlock.soft < ring) {
		f = report_add(ctx->report, c, STATUS_FAIL, "host",
			       "io_uring_setup() would return ENOMEM: RLIMIT_MEMLOCK is %s and "
			       "even a one-entry ring needs %s on this kernel; judged from the "
			       "captured tree, not tested live",
			       format_bytes(lim->memlock.soft, a), format_bytes(ring, b));
		finding_set_fix(f, "raise RLIMIT_MEMLOCK (systemd: LimitMEMLOCK=infinity) or grant "
				   "CAP_IPC_LOCK");
		goto out;
	}
	if (cause == CAUSE_SECCOMP) {
		f = report_add(ctx->report, c, STATUS_WARN, "host",
			       "%s; whether this filter blocks io_uring can only be tested live",
			       buf);
		finding_set_fix(f, "%s", cause_fix[cause]);
		goto out;
	}
	if (!fact_ok(&hf->self_status.e) || !fact_ok(&hf->uring_disabled.e)) {
		const struct fact_err *e = !fact_ok(&hf->uring_disabled.e) ? &hf->uring_disabled.e
									   : &hf->self_status.e;

		if (e->err == -EBADMSG) {
			f = check_fact_missing(c, ctx, "host", e);
		} else {
			f = report_add(ctx->report, c, STATUS_SKIP, "host",
				       "no cause found in the captured tree, but it cannot show that "
				       "io_uring is built in (%s); run live to test",
				       e->why);
		}
		goto out;
	}
	f = report_add(ctx->report, c, STATUS_PASS, "host",
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
			report_add(ctx->report, c, STATUS_SKIP, "host",
				   "kernel.io_uring_disabled does not exist before Linux 6.6 "
				   "(this kernel: %u.%u.%u)",
				   kv->major, kv->minor, kv->patch);
		else
			report_add(ctx->report, c, STATUS_SKIP, "host",
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
		f = report_add(ctx->report, c, STATUS_PASS, "host",
			       "kernel.io_uring_disabled = 0: every process may create rings");
		break;
	case 1:
		if (!fact_ok(&hf->uring_group.e))
			f = report_add(ctx->report, c, STATUS_WARN, "host",
				       "kernel.io_uring_disabled = 1: only CAP_SYS_ADMIN processes "
				       "and members of kernel.io_uring_group may create rings (%s)",
				       hf->uring_group.e.why);
		else if (g < 0)
			f = report_add(ctx->report, c, STATUS_WARN, "host",
				       "kernel.io_uring_disabled = 1 and kernel.io_uring_group = %lld: "
				       "only CAP_SYS_ADMIN processes may create rings",
				       (long long)g);
		else
			f = report_add(ctx->report, c, STATUS_WARN, "host",
				       "kernel.io_uring_disabled = 1: only CAP_SYS_ADMIN processes and "
				       "members of group %lld (kernel.io_uring_group) may create rings",
				       (long long)g);
		finding_set_fix(f, "%s", FIX_GROUP);
		break;
	case 2:
		f = report_add(ctx->report, c, STATUS_FAIL, "host",
			       "kernel.io_uring_disabled = 2: io_uring_setup() fails with EPERM for "
			       "every process, root included (rings created before keep working)");
		finding_set_fix(f, "%s", FIX_SYSCTL_ZERO);
		break;
	default:
		f = report_add(ctx->report, c, STATUS_ERROR, "host",
			       "kernel.io_uring_disabled = %lld is outside the kernel's range 0-2",
			       (long long)v);
		break;
	}
	finding_ev_int(f, "io_uring_disabled", v);
	if (fact_ok(&hf->uring_group.e))
		finding_ev_int(f, "io_uring_group", g);
}
