// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernel version gates: a generic runner parameterised from the table. */
#include <stdio.h>

#include "checks.h"

static void version_evidence(struct finding *f, const struct kernel_version *kv)
{
	char v[64];

	snprintf(v, sizeof(v), "%u.%u.%u", kv->major, kv->minor, kv->patch);
	finding_ev_str(f, "version", v);
	finding_ev_str(f, "release", kv->release);
	finding_ev_int(f, "major", kv->major);
	finding_ev_int(f, "minor", kv->minor);
	finding_ev_int(f, "patch", kv->patch);
	if (kv->patch_source[0])
		finding_ev_str(f, "patch_source", kv->patch_source);
}

void check_kernel_min(const struct check *c, struct check_ctx *ctx)
{
	const struct kernel_version *kv = &ctx->host->kernel.v;
	uint32_t code = kernel_version_code(kv);
	char where[192] = "";
	struct finding *f;

	if (!fact_ok(&ctx->host->kernel.e)) {
		check_fact_missing(c, ctx, "host", &ctx->host->kernel.e);
		return;
	}
	if (kv->patch_source[0])
		snprintf(where, sizeof(where), " (release %s; sublevel from %s)", kv->release,
			 kv->patch_source);
	else
		snprintf(where, sizeof(where), " (release %s)", kv->release);

	if (code < c->param.kernel_min.fail_below)
		f = report_add(ctx->report, &c->info, STATUS_FAIL, "host", "Linux %u.%u.%u%s: %s",
			       kv->major, kv->minor, kv->patch, where, c->param.kernel_min.fail_why);
	else if (code < c->param.kernel_min.warn_below)
		f = report_add(ctx->report, &c->info, STATUS_WARN, "host", "Linux %u.%u.%u%s: %s",
			       kv->major, kv->minor, kv->patch, where, c->param.kernel_min.warn_why);
	else
		f = report_add(ctx->report, &c->info, STATUS_PASS, "host", "Linux %u.%u.%u%s",
			       kv->major, kv->minor, kv->patch, where);
	version_evidence(f, kv);
}
