// SPDX-License-Identifier: GPL-2.0-or-later
/* What io_uring offers on this kernel (tried), and whether a container's seccomp blocks it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "array.h"
#include "checks.h"
#include "output.h"

static const char *errno_name(int err)
{
	const char *n = strerrorname_np(err < 0 ? -err : err);

	return n ? n : "unknown errno";
}

static void append(char *buf, size_t bufsz, const char *name)
{
	size_t used = strlen(buf);

	snprintf(buf + used, bufsz - used, "%s%s", used ? ", " : "", name);
}

/*
 * Why the probe's rings and its one-page buffer were refused memory: the
 * probe holds one ring open and adds a second (two for ATTACH_WQ), or
 * registers the page, so these are the totals it needed at once.
 */
static void enomem_why(const struct host_facts *hf, bool rings, char *buf, size_t len)
{
	const struct proc_status *st = fact_ok(&hf->self_status.e) ? &hf->self_status.st : NULL;
	uint64_t ring = ring_memlock_charge(hf, URING_FEATURES_RING_ENTRIES,
					      2 * URING_FEATURES_RING_ENTRIES);
	char l[BYTES_STR_MAX], r1[BYTES_STR_MAX], r2[BYTES_STR_MAX], r3[BYTES_STR_MAX];
	char b[BYTES_STR_MAX], note[160] = "";

	if (st && proc_status_has_cap(st, CAP_BIT_IPC_LOCK)) {
		snprintf(buf, len, "uringlint has CAP_IPC_LOCK, which io_uring does not charge, so "
			 "memory itself (or its cgroup's limit) ran out");
		return;
	}
	if (!fact_ok(&hf->self_limits.e)) {
		snprintf(buf, len, "registered buffers%s are charged to RLIMIT_MEMLOCK, which could "
			 "not be read (%s)", ring ? " and rings" : "", hf->self_limits.e.why);
		return;
	}
	format_bytes(hf->self_limits.lim.memlock.soft, l);
	format_bytes(2 * ring, r2);
	format_bytes(3 * ring, r3);
	format_bytes(ring + hf->page_size, b);
	format_bytes(ring, r1);
	if (st && hf->self_limits.lim.memlock.soft >= 3 * ring + hf->page_size)
		snprintf(note, sizeof(note), "; the limit holds that, so other processes of uid %u "
			 "hold the rest: the charge is per user", st->euid);
	if (ring)
		snprintf(buf, len, "RLIMIT_MEMLOCK is %s, and trying them needs %s at once for a "
			 "second %u-entry ring next to the probe's own (%s each; %s for ATTACH_WQ's "
			 "two), and %s for a one-page registered buffer next to it%s",
			 l, r2, URING_FEATURES_RING_ENTRIES, r1, r3, b, note);
	else
		snprintf(buf, len, "RLIMIT_MEMLOCK is %s, and a one-page registered buffer needs "
			 "%s of it%s%s", l, format_bytes(hf->page_size, b),
			 rings ? "; this kernel charges rings to the memory cgroup, not to "
				 "RLIMIT_MEMLOCK, so a setup flag's ENOMEM is the cgroup's memory limit"
			       : "", note);
}

void check_io_uring_features(const struct check *c, struct check_ctx *ctx)
{
	const struct uring_features *uf = &ctx->host->features;
	char core[512] = "", useful[512] = "", nomem[512] = "", why[512] = "", item[96];
	const char *table_fix = c->info.fix;
	bool nomem_core = false, nomem_rings = false;
	struct json_object *table;
	struct finding *f;
	size_t i, ok = 0;

	if (!fact_ok(&uf->e)) {
		/* Not being able to create any ring is io-uring-available's verdict, not ours. */
		check_fact_missing(c, ctx, "host", &uf->e);
		return;
	}
	table = json_object_new_array();
	for (i = 0; i < uf->n; i++) {
		const struct uring_feature *u = &uf->items[i];
		struct json_object *row = json_object_new_object();

		json_object_object_add(row, "name", json_object_new_string(u->name));
		json_object_object_add(row, "kind",
				       json_object_new_string(uring_feature_kind_name(u->kind)));
		json_object_object_add(row, "supported", json_object_new_boolean(!u->err));
		json_object_object_add(row, "errno",
				       u->err ? json_object_new_string(errno_name(u->err)) : NULL);
		json_object_object_add(row, "since", json_object_new_string(u->since));
		json_object_array_add(table, row);
		if (!u->err) {
			ok++;
			continue;
		}
		/* ENOMEM is the memory the try was charged, not a feature the kernel lacks. */
		if (u->err == -ENOMEM) {
			append(nomem, sizeof(nomem), u->name);
			nomem_core |= u->need == NEED_CORE;
			nomem_rings |= u->kind == FEATURE_SETUP;
			continue;
		}
		snprintf(item, sizeof(item), "%s (%s, since %s)", u->name, errno_name(u->err),
			 u->since);
		append(u->need == NEED_CORE ? core : useful,
		       u->need == NEED_CORE ? sizeof(core) : sizeof(useful), item);
	}
	if (nomem[0]) {
		enomem_why(ctx->host, nomem_rings, why, sizeof(why));
		snprintf(nomem + strlen(nomem), sizeof(nomem) - strlen(nomem),
			 " could not be tried: io_uring refused them memory (ENOMEM), which says "
			 "nothing of the kernel's features; ");
	}
	if (core[0])
		f = report_add(ctx->report, &c->info, STATUS_FAIL, "host",
			       "%zu of %zu features work; missing what the fast path rests on: %s%s%s"
			       "%s%s%s",
			       ok, uf->n, core, useful[0] ? "; also missing: " : "", useful,
			       nomem[0] ? "; " : "", nomem, why);
	else if (nomem[0])
		f = report_add(ctx->report, &c->info, nomem_core ? STATUS_FAIL : STATUS_WARN, "host",
			       "%zu of %zu features work; %s%s%s%s", ok, uf->n, nomem, why,
			       useful[0] ? "; missing: " : "", useful);
	else if (useful[0])
		f = report_add(ctx->report, &c->info, STATUS_WARN, "host",
			       "%zu of %zu features work; missing: %s", ok, uf->n, useful);
	else
		f = report_add(ctx->report, &c->info, STATUS_PASS, "host",
			       "all %zu features tried work: SQPOLL with SQ_AFF, ATTACH_WQ, "
			       "COOP_TASKRUN, SINGLE_ISSUER, DEFER_TASKRUN, registered buffers and "
			       "files, IOWQ_MAX_WORKERS, and the storage and network opcodes",
			       uf->n);
	if (nomem[0])
		finding_set_fix(f, "%s%s%s", core[0] || useful[0] ? table_fix : "",
				core[0] || useful[0] ? "; and for the ENOMEM: " : "", FIX_MEMLOCK_TEXT);
	json_object_object_add(f->evidence, "features", table);
}

/* What each runtime's default profile does, for the message and the fix. */
static const struct {
	const char *runtime, *what, *fix;
} runtimes[] = {
	{ "docker", "Docker's default seccomp profile blocks io_uring since Docker 25 (moby #46762)",
	  "run with a profile that allows io_uring_setup, io_uring_enter and io_uring_register: "
	  "docker run --security-opt seccomp=/path/profile.json (the default profile plus those "
	  "three syscalls)" },
	{ "kubernetes", "the RuntimeDefault seccomp profile of containerd 2.0+ blocks io_uring",
	  "give the pod a Localhost seccompProfile that allows io_uring_setup, io_uring_enter and "
	  "io_uring_register (securityContext.seccompProfile.type: Localhost)" },
	{ "containerd", "containerd 2.0+'s default seccomp profile blocks io_uring (containerd #9320)",
	  "use a seccomp profile that allows io_uring_setup, io_uring_enter and io_uring_register" },
	{ "podman", "the container's seccomp profile denies the io_uring system calls",
	  "podman run --security-opt seccomp=/path/profile.json with io_uring_setup, "
	  "io_uring_enter and io_uring_register allowed" },
};

void check_container_seccomp(const struct check *c, struct check_ctx *ctx)
{
	const struct host_facts *hf = ctx->host;
	const struct container_facts *cf = &hf->container;
	const char *what = "the container's seccomp profile denies the io_uring system calls";
	const char *fix = NULL;
	const char *where = cf->in_container ? cf->runtime : "no container";
	int seccomp, err = hf->uring_setup.r.err;
	struct finding *f;
	size_t i;

	if (!fact_ok(&hf->self_status.e)) {
		check_fact_missing(c, ctx, "host", &hf->self_status.e);
		return;
	}
	seccomp = hf->self_status.st.seccomp;
	for (i = 0; i < ARRAY_SIZE(runtimes); i++)
		if (cf->in_container && !strcmp(cf->runtime, runtimes[i].runtime)) {
			what = runtimes[i].what;
			fix = runtimes[i].fix;
		}

	if (seccomp != 2) {
		f = report_add(ctx->report, &c->info, STATUS_PASS, "host",
			       cf->in_container ? "inside a container (%s: %s) with no seccomp filter"
						: "%s found and no seccomp filter on this process%s",
			       where, cf->in_container ? cf->evidence : "");
	} else if (!fact_ok(&hf->uring_setup.e)) {
		f = report_add(ctx->report, &c->info, STATUS_WARN, "host",
			       "a seccomp filter is active (%s); whether it blocks io_uring can only "
			       "be tested live",
			       cf->in_container ? cf->runtime : "no container detected");
		if (fix)
			finding_set_fix(f, "%s", fix);
	} else if (err == -EPERM || err == -ENOSYS) {
		f = report_add(ctx->report, &c->info, STATUS_FAIL, "host",
			       "io_uring_setup() returned %s under an active seccomp filter%s%s%s: %s",
			       err == -EPERM ? "EPERM" : "ENOSYS",
			       cf->in_container ? " in a " : "", cf->in_container ? cf->runtime : "",
			       cf->in_container ? " container" : "", what);
		if (fix)
			finding_set_fix(f, "%s", fix);
	} else {
		f = report_add(ctx->report, &c->info, STATUS_PASS, "host",
			       "a seccomp filter is active%s%s and io_uring_setup() works through it",
			       cf->in_container ? " in a " : "", cf->in_container ? cf->runtime : "");
	}
	finding_ev_bool(f, "in_container", cf->in_container);
	finding_ev_str(f, "runtime", cf->in_container ? cf->runtime : NULL);
	finding_ev_str(f, "container_evidence", cf->in_container ? cf->evidence : NULL);
	finding_ev_int(f, "seccomp", seccomp);
}
