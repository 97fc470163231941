// SPDX-License-Identifier: GPL-2.0-or-later
/* Shared by the per-directory checks: subject, evidence, and the loop over --dir. */
#include <stdarg.h>
#include <stdio.h>

#include "checks.h"
#include "xalloc.h"

struct finding *dir_add(const struct check *c, struct check_ctx *ctx, const struct dir_facts *df,
			enum check_status st, const char *fmt, ...)
{
	char dev[160];
	struct finding *f;
	va_list ap;

	va_start(ap, fmt);
	f = report_vadd(ctx->report, &c->info, st, df->resolved, fmt, ap);
	va_end(ap);
	finding_ev_str(f, "dir", df->resolved);
	if (fact_ok(&df->mount.e)) {
		finding_ev_str(f, "fs", df->mount.m.fstype);
		finding_ev_str(f, "mount_point", df->mount.m.mount_point);
		finding_ev_str(f, "device", dir_facts_device(df, dev, sizeof(dev)));
	}
	return f;
}

void dir_checks_each(const struct check *c, struct check_ctx *ctx,
		     void (*fn)(const struct check *c, struct check_ctx *ctx,
				const struct dir_facts *df))
{
	const struct host_facts *hf = ctx->host;
	size_t i;

	if (!hf->ndirs) {
		report_add(ctx->report, &c->info, STATUS_SKIP, "host",
			   "no --dir given: name the data directories of the captured host");
		return;
	}
	for (i = 0; i < hf->ndirs; i++) {
		const struct dir_facts *df = &hf->dirs[i];

		if (!fact_ok(&df->e))
			check_fact_missing(c, ctx, df->path, &df->e);
		else if (!fact_ok(&df->mount.e))
			check_fact_missing(c, ctx, df->path, &df->mount.e);
		else
			fn(c, ctx, df);
	}
}
