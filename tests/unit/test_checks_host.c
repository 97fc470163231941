// SPDX-License-Identifier: GPL-2.0-or-later
/* Every host check on hand-built facts: a pass, a fail, and the in-betweens. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "checks.h"
#include "testutil.h"
#include "check_run.h"

/* A healthy live 6.18 host; tests break one fact at a time. */
static void healthy(struct host_facts *hf)
{
	memset(hf, 0, sizeof(*hf));
	hf->live = true;
	hf->tool_is_root = true;
	hf->page_size = 4096;
	hf->cpus = 2;
	snprintf(hf->hostname, sizeof(hf->hostname), "db1");
	kernel_version_parse("6.18.44", &hf->kernel.v);
	hf->uring_disabled.value = 0;
	hf->uring_group.value = -1;
	snprintf(hf->self_status.st.name, sizeof(hf->self_status.st.name), "svc");
	hf->self_status.st.euid = 1000;
	hf->self_status.st.egid = 1000;
	hf->self_status.st.seccomp = 0;
	hf->self_limits.lim.memlock.soft = LIMIT_INFINITY;
	hf->self_limits.lim.memlock.hard = LIMIT_INFINITY;
	hf->uring_setup.r.features = 0x3ffff;
	hf->self_limits.lim.nproc.soft = hf->self_limits.lim.nproc.hard = 4096;
	hf->self_limits.lim.nofile.soft = hf->self_limits.lim.nofile.hard = 65536;
}

static struct plan plan;

/* Runs one check with the current plan and returns its only finding. */
static const struct finding *run(const char *id, const struct host_facts *hf, struct report *r)
{
	return run_check(id, (struct check_ctx){ .host = hf, .plan = &plan }, "preflight", r);
}

static int reset_plan(void **state)
{
	(void)state;
	plan_defaults(&plan);
	return 0;
}


static void test_kernel_version(void **state)
{
	struct host_facts hf;
	const struct finding *f;
	struct report r;

	(void)state;
	healthy(&hf);
	f = run("kernel-version", &hf, &r);
	assert_int_equal(f->status, STATUS_PASS);
	assert_string_equal(json_object_get_string(json_object_object_get(f->evidence, "version")),
			    "6.18.44");
	report_free(&r);

	kernel_version_parse("5.15.0-91-generic", &hf.kernel.v);
	f = run("kernel-version", &hf, &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(f->message, "DEFER_TASKRUN");
	report_free(&r);

	kernel_version_parse("5.4.0-150-generic", &hf.kernel.v);
	f = run("kernel-version", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "older than 5.10");
	assert_non_null(finding_fix(f));
	report_free(&r);

	fact_fail(&hf.kernel.e, -EBADMSG, "cannot parse 'proc/sys/kernel/osrelease'");
	f = run("kernel-version", &hf, &r);
	assert_int_equal(f->status, STATUS_ERROR);
	report_free(&r);

	fact_fail(&hf.kernel.e, -ENOENT, "cannot read 'proc/sys/kernel/osrelease': No such file");
	f = run("kernel-version", &hf, &r);
	assert_int_equal(f->status, STATUS_SKIP);
	assert_contains(f->message, "osrelease");
	report_free(&r);
}

static void test_available_live(void **state)
{
	struct host_facts hf;
	const struct finding *f;
	struct report r;

	(void)state;
	healthy(&hf);
	f = run("io-uring-available", &hf, &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);

	hf.uring_setup.r.err = -EPERM;
	hf.uring_disabled.value = 2;
	f = run("io-uring-available", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "kernel.io_uring_disabled = 2");
	assert_contains(finding_fix(f), "sysctl -w kernel.io_uring_disabled=0");
	report_free(&r);

	/* 1, not in the group, no CAP_SYS_ADMIN: the group is the cause. */
	hf.uring_disabled.value = 1;
	hf.uring_group.value = 995;
	f = run("io-uring-available", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "kernel.io_uring_group 995");
	assert_contains(finding_fix(f), "kernel.io_uring_group=GID");
	report_free(&r);

	/* In the group: the sysctl is not the cause; a seccomp filter is. */
	hf.self_status.st.groups[hf.self_status.st.ngroups++] = 995;
	hf.self_status.st.seccomp = 2;
	hf.self_status.st.seccomp_filters = 1;
	f = run("io-uring-available", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "seccomp");
	assert_contains(finding_fix(f), "io_uring_setup");
	report_free(&r);

	/* Nothing visible explains EPERM: say so, name the LSM. */
	hf.self_status.st.seccomp = 0;
	f = run("io-uring-available", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "security module");
	report_free(&r);

	hf.uring_setup.r.err = -ENOSYS;
	f = run("io-uring-available", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "CONFIG_IO_URING");
	report_free(&r);

	hf.uring_setup.r.err = -ENOMEM;
	hf.self_limits.lim.memlock.soft = 0;
	f = run("io-uring-available", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "RLIMIT_MEMLOCK is 0 B and a 1-entry ring needs 8 KiB");
	assert_contains(f->message, "charges ring memory");
	report_free(&r);

	/* 6.1 charges rings to the memory cgroup: the limit is not named as the cause. */
	kernel_version_parse("6.1.158", &hf.kernel.v);
	f = run("io-uring-available", &hf, &r);
	assert_contains(f->message, "memory cgroup");
	assert_null(strstr(f->message, "RLIMIT_MEMLOCK is"));
	report_free(&r);
}

/* A one-entry ring fits the limit, the service's ring (--ring-entries) does not. */
static void test_available_planned_ring(void **state)
{
	struct host_facts hf;
	const struct finding *f;
	struct report r;

	(void)state;
	healthy(&hf);
	hf.uring_setup.r.planned_entries = 4096;
	f = run("io-uring-available", &hf, &r);
	assert_int_equal(f->status, STATUS_PASS);
	assert_contains(f->message, "a 4096-entry ring (--ring-entries)");
	report_free(&r);

	hf.self_limits.lim.memlock.soft = 64 << 10;
	hf.uring_setup.r.planned_err = -ENOMEM;
	f = run("io-uring-available", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "RLIMIT_MEMLOCK is 64 KiB and a 4096-entry ring needs 404 KiB");
	assert_contains(finding_fix(f), "LimitMEMLOCK");
	assert_int_equal(json_object_get_int64(json_object_object_get(f->evidence,
								    "planned_ring_memlock_bytes")),
			 413696);
	report_free(&r);

	/* The limit holds the ring: the rest of the user's charge is in the way. */
	hf.self_limits.lim.memlock.soft = 8 << 20;
	f = run("io-uring-available", &hf, &r);
	assert_contains(f->message, "per user");
	report_free(&r);

	hf.self_status.st.cap_eff = 1ull << CAP_BIT_IPC_LOCK;
	f = run("io-uring-available", &hf, &r);
	assert_contains(f->message, "CAP_IPC_LOCK");
	report_free(&r);

	hf.uring_setup.r.planned_err = -EINVAL;
	f = run("io-uring-available", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "EINVAL for a 4096-entry ring");
	report_free(&r);
}

static void test_available_captured(void **state)
{
	struct host_facts hf;
	const struct finding *f;
	struct report r;

	(void)state;
	healthy(&hf);
	hf.live = false;
	fact_fail(&hf.uring_setup.e, -EOPNOTSUPP, "not tried");
	f = run("io-uring-available", &hf, &r);
	assert_int_equal(f->status, STATUS_PASS);
	assert_contains(f->message, "not tested live");
	report_free(&r);

	hf.uring_disabled.value = 2;
	f = run("io-uring-available", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "kernel.io_uring_disabled = 2");
	assert_contains(f->message, "captured tree");
	report_free(&r);

	/* 6.18 charges rings: memlock 4 KiB cannot hold even one entry. */
	hf.uring_disabled.value = 0;
	hf.self_limits.lim.memlock.soft = 4096;
	f = run("io-uring-available", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "ENOMEM");
	report_free(&r);

	/* 64 KiB holds a one-entry ring but not the planned 4096 entries (404 KiB). */
	hf.self_limits.lim.memlock.soft = 64 << 10;
	f = run("io-uring-available", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "ENOMEM for a 4096-entry ring (--ring-entries)");
	assert_contains(f->message, "needs 404 KiB");
	report_free(&r);
	plan.ring_entries = 256;
	f = run("io-uring-available", &hf, &r);
	plan_defaults(&plan);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);

	/* 6.1 does not charge rings, and has no sysctl to prove io_uring is built in. */
	kernel_version_parse("6.1.0-50-cloud-amd64", &hf.kernel.v);
	fact_fail(&hf.uring_disabled.e, -ENOENT, "cannot read 'x': No such file or directory");
	f = run("io-uring-available", &hf, &r);
	assert_int_equal(f->status, STATUS_SKIP);
	assert_contains(f->message, "run live");
	report_free(&r);

	/* A seccomp filter in a capture is a warning: only a live run can tell. */
	hf.self_status.st.seccomp = 2;
	f = run("io-uring-available", &hf, &r);
	assert_int_equal(f->status, STATUS_WARN);
	report_free(&r);

	kernel_version_parse("4.19.0", &hf.kernel.v);
	f = run("io-uring-available", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "no io_uring");
	report_free(&r);
}

static void test_disabled_sysctl(void **state)
{
	struct host_facts hf;
	const struct finding *f;
	struct report r;

	(void)state;
	healthy(&hf);
	f = run("io-uring-disabled-sysctl", &hf, &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);

	hf.uring_disabled.value = 1;
	f = run("io-uring-disabled-sysctl", &hf, &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(f->message, "only CAP_SYS_ADMIN");
	report_free(&r);

	hf.uring_disabled.value = 2;
	f = run("io-uring-disabled-sysctl", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_int_equal(json_object_get_int(json_object_object_get(f->evidence,
								    "io_uring_disabled")), 2);
	report_free(&r);

	hf.uring_disabled.value = 7;
	f = run("io-uring-disabled-sysctl", &hf, &r);
	assert_int_equal(f->status, STATUS_ERROR);
	report_free(&r);

	/* Absent before 6.6: skip with that reason, not pass, not error. */
	kernel_version_parse("6.1.0", &hf.kernel.v);
	fact_fail(&hf.uring_disabled.e, -ENOENT,
		  "cannot read 'proc/sys/kernel/io_uring_disabled': No such file or directory");
	f = run("io-uring-disabled-sysctl", &hf, &r);
	assert_int_equal(f->status, STATUS_SKIP);
	assert_contains(f->message, "before Linux 6.6");
	report_free(&r);

	kernel_version_parse("6.8.0", &hf.kernel.v);
	f = run("io-uring-disabled-sysctl", &hf, &r);
	assert_int_equal(f->status, STATUS_SKIP);
	assert_contains(f->message, "not built in");
	report_free(&r);

	fact_fail(&hf.uring_disabled.e, -EACCES, "cannot read 'x': Permission denied");
	f = run("io-uring-disabled-sysctl", &hf, &r);
	assert_int_equal(f->status, STATUS_SKIP);
	assert_contains(f->message, "Permission denied");
	report_free(&r);
}

static void test_memlock(void **state)
{
	struct host_facts hf;
	const struct finding *f;
	struct report r;

	(void)state;
	healthy(&hf);
	f = run("memlock-limit", &hf, &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);

	hf.self_limits.lim.memlock.soft = 8 << 20;
	hf.self_limits.lim.memlock.hard = 8 << 20;
	f = run("memlock-limit", &hf, &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(f->message, "8 MiB");
	assert_contains(f->message, "6.14 and later charge ring memory");
	report_free(&r);

	/* The hard limit allows it: the fix says the service can raise its own. */
	hf.self_limits.lim.memlock.hard = LIMIT_INFINITY;
	f = run("memlock-limit", &hf, &r);
	assert_contains(finding_fix(f), "setrlimit");
	report_free(&r);

	hf.self_limits.lim.memlock.soft = 65536;
	f = run("memlock-limit", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "404 KiB");
	report_free(&r);

	/* The plan decides: a small ring and no buffers fit in 64 KiB. */
	plan.ring_entries = 64;
	plan.fixed_buffer_bytes = 0;
	f = run("memlock-limit", &hf, &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);
	plan_defaults(&plan);

	/* 6.1 does not charge rings: 64 KiB is short for buffers only. */
	kernel_version_parse("6.1.0", &hf.kernel.v);
	f = run("memlock-limit", &hf, &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(f->message, "only registered buffers");
	report_free(&r);

	hf.self_limits.lim.memlock.soft = 128ull << 20;
	f = run("memlock-limit", &hf, &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);

	fact_fail(&hf.self_limits.e, -EBADMSG, "cannot parse 'proc/self/limits': unexpected content");
	f = run("memlock-limit", &hf, &r);
	assert_int_equal(f->status, STATUS_ERROR);
	report_free(&r);
}

static void test_known_cves(void **state)
{
	struct host_facts hf;
	const struct finding *f;
	struct report r;

	(void)state;
	healthy(&hf);
	f = run("kernel-known-cves", &hf, &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);

	/* 6.12.33: in CVE-2025-38106's range; 6.12.34 carries the stable fix. */
	kernel_version_parse("6.12.33", &hf.kernel.v);
	f = run("kernel-known-cves", &hf, &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(f->message, "CVE-2025-38106");
	assert_contains(f->message, "backport");
	report_free(&r);
	kernel_version_parse("6.12.34", &hf.kernel.v);
	f = run("kernel-known-cves", &hf, &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);

	/* 6.5: CVE-2024-0582 (6.4 to 6.6.4) and CVE-2023-46862 (through 6.5.9). */
	kernel_version_parse("6.5.3", &hf.kernel.v);
	f = run("kernel-known-cves", &hf, &r);
	assert_contains(f->message, "CVE-2024-0582");
	assert_contains(f->message, "CVE-2023-46862");
	assert_null(strstr(f->message, "CVE-2023-2598"));
	assert_int_equal(json_object_array_length(json_object_object_get(f->evidence, "cves")), 3);
	report_free(&r);
}

static void add_feature(struct host_facts *hf, const char *name, enum uring_feature_need need,
			int err)
{
	struct uring_feature *u = &hf->features.items[hf->features.n++];

	u->name = name;
	u->kind = FEATURE_SETUP;
	u->need = need;
	u->since = "6.1";
	u->err = err;
}

static void test_features(void **state)
{
	struct host_facts hf;
	const struct finding *f;
	struct report r;

	(void)state;
	healthy(&hf);
	add_feature(&hf, "SQPOLL", NEED_CORE, 0);
	add_feature(&hf, "DEFER_TASKRUN", NEED_USEFUL, 0);
	f = run("io-uring-features", &hf, &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);

	hf.features.items[1].err = -EINVAL;
	f = run("io-uring-features", &hf, &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(f->message, "DEFER_TASKRUN (EINVAL, since 6.1)");
	report_free(&r);

	hf.features.items[0].err = -EPERM;
	f = run("io-uring-features", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "SQPOLL (EPERM");
	assert_int_equal(json_object_array_length(json_object_object_get(f->evidence, "features")), 2);
	report_free(&r);

	fact_fail(&hf.features.e, -EOPNOTSUPP, "nothing tried: --root judges a captured tree");
	f = run("io-uring-features", &hf, &r);
	assert_int_equal(f->status, STATUS_SKIP);
	report_free(&r);
}

/* ENOMEM names RLIMIT_MEMLOCK and what the tries needed, never a kernel that lacks them. */
static void test_features_enomem(void **state)
{
	struct host_facts hf;
	const struct finding *f;
	struct report r;

	(void)state;
	healthy(&hf);
	hf.self_limits.lim.memlock.soft = 8 << 10;
	add_feature(&hf, "SQPOLL", NEED_CORE, 0);
	add_feature(&hf, "DEFER_TASKRUN", NEED_USEFUL, -ENOMEM);
	f = run("io-uring-features", &hf, &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(f->message, "DEFER_TASKRUN could not be tried");
	assert_contains(f->message, "RLIMIT_MEMLOCK is 8 KiB");
	assert_contains(f->message, "16 KiB at once");
	assert_null(strstr(f->message, "missing"));
	assert_contains(finding_fix(f), "LimitMEMLOCK");
	assert_null(strstr(finding_fix(f), "kernel"));
	report_free(&r);

	hf.features.items[0].err = -ENOMEM;
	hf.features.items[0].kind = FEATURE_REGISTER;
	f = run("io-uring-features", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "SQPOLL, DEFER_TASKRUN could not be tried");
	report_free(&r);

	/* 6.1: rings go to the memory cgroup; only the buffer is RLIMIT_MEMLOCK's. */
	kernel_version_parse("6.1.158", &hf.kernel.v);
	f = run("io-uring-features", &hf, &r);
	assert_contains(f->message, "one-page registered buffer needs 4 KiB");
	assert_contains(f->message, "memory cgroup");
	report_free(&r);

	/* With CAP_IPC_LOCK nothing is charged: the memory itself ran out. */
	hf.self_status.st.cap_eff = 1ull << CAP_BIT_IPC_LOCK;
	f = run("io-uring-features", &hf, &r);
	assert_contains(f->message, "CAP_IPC_LOCK");
	report_free(&r);

	/* A feature really missing keeps its verdict and its fix beside the ENOMEM. */
	hf.features.items[0].err = -EINVAL;
	f = run("io-uring-features", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "missing what the fast path rests on: SQPOLL (EINVAL");
	assert_contains(f->message, "DEFER_TASKRUN could not be tried");
	assert_contains(finding_fix(f), "and for the ENOMEM");
	report_free(&r);
}

static void test_container_seccomp(void **state)
{
	struct host_facts hf;
	const struct finding *f;
	struct report r;

	(void)state;
	healthy(&hf);
	f = run("container-seccomp", &hf, &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);

	hf.container.in_container = true;
	snprintf(hf.container.runtime, sizeof(hf.container.runtime), "docker");
	snprintf(hf.container.evidence, sizeof(hf.container.evidence), "/.dockerenv exists");
	hf.self_status.st.seccomp = 2;
	hf.uring_setup.r.err = -EPERM;
	f = run("container-seccomp", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "Docker 25");
	assert_contains(finding_fix(f), "--security-opt seccomp=");
	report_free(&r);

	/* A filter that lets io_uring through is fine. */
	hf.uring_setup.r.err = 0;
	f = run("container-seccomp", &hf, &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);

	hf.live = false;
	fact_fail(&hf.uring_setup.e, -EOPNOTSUPP, "not tried");
	f = run("container-seccomp", &hf, &r);
	assert_int_equal(f->status, STATUS_WARN);
	report_free(&r);
}

static void test_nproc_nofile(void **state)
{
	struct host_facts hf;
	const struct finding *f;
	struct report r;

	(void)state;
	healthy(&hf);
	hf.self_limits.lim.nproc.soft = hf.self_limits.lim.nproc.hard = 4096;
	hf.self_limits.lim.nofile.soft = hf.self_limits.lim.nofile.hard = 65536;
	f = run("nproc-limit", &hf, &r);
	assert_int_equal(f->status, STATUS_PASS);
	assert_int_equal(json_object_get_int(json_object_object_get(f->evidence,
								    "bounded_workers_per_ring")), 8);
	report_free(&r);
	hf.self_limits.lim.nproc.soft = LIMIT_INFINITY;
	f = run("nproc-limit", &hf, &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(f->message, "unlimited");
	report_free(&r);
	hf.self_limits.lim.nproc.soft = 4;
	f = run("nproc-limit", &hf, &r);
	assert_int_equal(f->status, STATUS_FAIL);
	report_free(&r);

	f = run("nofile-limit", &hf, &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);
	hf.self_limits.lim.nofile.soft = 1024;
	f = run("nofile-limit", &hf, &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(finding_fix(f), "65536");
	report_free(&r);
}

/* The runner: policy skip, live-only and root-only gates. */
static void test_runner_gates(void **state)
{
	struct check_policy pol = { .only = "kernel-version,memlock-limit", .skip = "memlock-limit" };
	struct host_facts hf;
	struct check_ctx ctx;
	struct report r;

	(void)state;
	healthy(&hf);
	report_init(&r, "preflight");
	ctx = (struct check_ctx){ .host = &hf, .plan = &plan, .report = &r };
	checks_run_scope(SCOPE_HOST, &ctx, &pol);
	assert_int_equal(r.nfindings, 2);
	assert_string_equal(r.findings[0].check->id, "kernel-version");
	assert_int_equal(r.findings[1].status, STATUS_SKIP);
	assert_contains(r.findings[1].message, "suppressed by policy");
	assert_false(report_reaches(&r, STATUS_WARN));
	report_free(&r);
}

static void test_gate_thresholds(void **state)
{
	struct report r;

	(void)state;
	report_init(&r, "preflight");
	report_add(&r, &check_table[0].info, STATUS_WARN, "host", "w");
	assert_true(report_reaches(&r, STATUS_WARN));
	assert_false(report_reaches(&r, STATUS_FAIL));
	report_add(&r, &check_table[0].info, STATUS_ERROR, "host", "e");
	assert_true(report_reaches(&r, STATUS_FAIL));
	report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_version),
		cmocka_unit_test(test_available_live),
		cmocka_unit_test(test_available_planned_ring),
		cmocka_unit_test(test_available_captured),
		cmocka_unit_test(test_disabled_sysctl),
		cmocka_unit_test(test_memlock),
		cmocka_unit_test(test_known_cves),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_features_enomem),
		cmocka_unit_test(test_container_seccomp),
		cmocka_unit_test(test_nproc_nofile),
		cmocka_unit_test(test_runner_gates),
		cmocka_unit_test(test_gate_thresholds),
	};

	return cmocka_run_group_tests_name("checks_host", tests, reset_plan, NULL);
}
