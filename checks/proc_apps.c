// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Findings in the application's own words: which known application a
 * process is (lib/app_fixes.tbl), which of its files it drives through
 * io_uring, and its setting that fixes a finding, next to the
 * syscall-level fix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_fixes.h"
#include "checks.h"

static const struct app_fixes *table(void)
{
	static struct app_fixes t;
	static int err = 1;

	/* Parsed once: the table is compiled in and the same for every process. */
	if (err > 0)
		err = app_fixes_builtin(&t);
	return err ? NULL : &t;
}

const struct app_entry *proc_app(const struct proc_facts *pf)
{
	const struct app_fixes *t = table();

	if (!t)
		return NULL;
	return app_fixes_match(t, pf->comm, pf->exe[0] ? pf->exe : NULL,
			       (const char *const *)pf->maps.libs, pf->maps.nlibs);
}

void check_ctx_set_proc(struct check_ctx *ctx, const struct proc_facts *pf)
{
	ctx->proc = pf;
	ctx->app_of = pf;
	ctx->app = pf ? proc_app(pf) : NULL;
}

const struct app_entry *check_ctx_app(const struct check_ctx *ctx)
{
	if (!ctx->proc)
		return NULL;
	return ctx->app_of == ctx->proc ? ctx->app : proc_app(ctx->proc);
}

void proc_app_fix(const struct check_ctx *ctx, struct finding *fi, enum app_fix_kind kind)
{
	const struct app_entry *app = check_ctx_app(ctx);
	const struct app_fix *fix;
	char *old;

	if (!app || !(fix = app_fixes_find(table(), app, kind)))
		return;
	old = finding_fix(fi) ? strdup(finding_fix(fi)) : NULL;
	finding_set_fix(fi, "%s%sin %s: %s (%s)", old ? old : "", old ? "; " : "", app->name,
			fix->setting, fix->reference);
	free(old);
	finding_ev_str(fi, "application", app->id);
	finding_ev_str(fi, "application_setting", fix->setting);
}
