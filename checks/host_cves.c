// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The io_uring CVEs of docs/kernel-facts.md (section 6) against the kernel
 * version. Only the version is known: distributions backport fixes without
 * changing it, so
 * the verdict says "in an affected range" and asks for the vendor's word.
 */
#include <stdio.h>
#include <string.h>

#include "array.h"
#include "checks.h"

struct stable_fix {
	unsigned int major, minor, patch;	/* fixed from this sublevel of that branch */
};

struct uring_cve {
	const char *id;
	const char *what;
	uint32_t introduced;	/* first affected version */
	uint32_t fixed;		/* fixed in mainline from here on */
	struct stable_fix stable[4];
};

static const struct uring_cve cves[] = {
	{ "CVE-2021-41073", "loop_rw_iter type confusion, local privilege escalation",
	  KV(5, 10, 0), KV(5, 14, 7), { { 0 } } },
	{ "CVE-2022-29582", "timeout race, use-after-free", KV(5, 1, 0), KV(5, 17, 3), { { 0 } } },
	{ "CVE-2022-2602", "registered file and garbage-collection race, use-after-free",
	  KV(5, 1, 0), KV(6, 1, 0), { { 0 } } },
	{ "CVE-2023-0240", "identity of async work, use-after-free (5.10 only)", KV(5, 10, 0),
	  KV(5, 10, 162), { { 0 } } },
	/* Introduced with huge-page coalescing of registered buffers in 6.3. */
	{ "CVE-2023-2598", "registered buffers past their pages, out-of-bounds access",
	  KV(6, 3, 0), KV(6, 4, 0), { { 0 } } },
	{ "CVE-2023-46862", "NULL dereference reading fdinfo while the SQ thread exits",
	  KV(5, 1, 0), KV(6, 5, 10), { { 0 } } },
	{ "CVE-2024-0582", "provided buffer ring mmap, use-after-free", KV(6, 4, 0), KV(6, 6, 5),
	  { { 0 } } },
	{ "CVE-2024-53187", "overflow check when pinning pages", KV(5, 1, 0), KV(6, 13, 0),
	  { { 6, 11, 11 }, { 6, 12, 2 } } },
	{ "CVE-2025-38106", "use-after-free of sq->thread reading fdinfo", KV(6, 9, 0),
	  KV(6, 16, 0), { { 6, 12, 34 }, { 6, 15, 3 } } },
};

static bool affected(const struct uring_cve *cve, const struct kernel_version *kv)
{
	uint32_t code = kernel_version_code(kv);
	size_t i;

	if (code < cve->introduced || code >= cve->fixed)
		return false;
	for (i = 0; i < ARRAY_SIZE(cve->stable) && cve->stable[i].major; i++)
		if (kv->major == cve->stable[i].major && kv->minor == cve->stable[i].minor &&
		    kv->patch >= cve->stable[i].patch)
			return false;
	return true;
}

void check_kernel_cves(const struct check *c, struct check_ctx *ctx)
{
	const struct kernel_version *kv = &ctx->host->kernel.v;
	struct json_object *list;
	char ids[512] = "";
	size_t i, n = 0, used = 0;
	struct finding *f;

	if (!fact_ok(&ctx->host->kernel.e)) {
		check_fact_missing(c, ctx, "host", &ctx->host->kernel.e);
		return;
	}
	list = json_object_new_array();
	for (i = 0; i < ARRAY_SIZE(cves); i++) {
		int w;

		if (!affected(&cves[i], kv))
			continue;
		json_object_array_add(list, json_object_new_string(cves[i].id));
		w = snprintf(ids + used, sizeof(ids) - used, "%s%s (%s)", n ? ", " : "", cves[i].id,
			     cves[i].what);
		if (w > 0 && (size_t)w < sizeof(ids) - used)
			used += (size_t)w;
		n++;
	}
	if (!n) {
		f = report_add(ctx->report, &c->info, STATUS_PASS, "host",
			       "Linux %u.%u.%u is outside the affected ranges of the %zu io_uring CVEs "
			       "uringlint knows",
			       kv->major, kv->minor, kv->patch, ARRAY_SIZE(cves));
	} else {
		f = report_add(ctx->report, &c->info, STATUS_WARN, "host",
			       "Linux %u.%u.%u%s is in the affected range of %zu io_uring CVE%s: %s. "
			       "Distribution kernels backport fixes without changing the version, so "
			       "this is a range, not a finding of the bug",
			       kv->major, kv->minor, kv->patch,
			       kv->patch_source[0] || kv->patch ? "" : " (sublevel unknown)", n,
			       n == 1 ? "" : "s", ids);
		finding_set_fix(f, "check your distribution's security tracker for these CVEs and "
				   "this kernel package; upgrade if a fix is not listed, or suppress "
				   "with --skip %s once verified",
				c->info.id);
	}
	json_object_object_add(f->evidence, "cves", list);
	finding_ev_int(f, "known", (int64_t)(ARRAY_SIZE(cves)));
}
