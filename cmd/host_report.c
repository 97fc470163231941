// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What preflight, audit, probe and report share around their checks: the
 * host's facts read once and the report begun with its host block, then the
 * report written and everything freed.
 */
#include <stdlib.h>

#include "cmd.h"
#include "config.h"
#include "host_facts.h"
#include "xalloc.h"

void cmd_dir_opts(const struct global_opts *g, const struct sysroot *sr, const char *const *dirs,
		  size_t ndirs, struct collect_opts *co)
{
	static const char *const here[] = { "." };
	unsigned int tries = check_policy_tries(&g->policy);

	/* The live default is the current directory; a captured host has no "here". */
	*co = (struct collect_opts){
		.dirs = !ndirs && sr->live ? here : dirs,
		.ndirs = !ndirs && sr->live ? 1 : ndirs,
		/* The live tries cost a ring and a file each: only for checks that run. */
		.try_features = tries & CHECK_TRY_FEATURES,
		.try_odirect = tries & CHECK_TRY_ODIRECT,
		.read_irqbalance = tries & CHECK_READ_PROCESSES,
	};
}

void cmd_run_begin(struct cmd_run *run, const struct global_opts *g, const struct sysroot *sr,
		   const struct collect_opts *co, const struct plan *plan,
		   const struct audit_opts *audit)
{
	run->hf = xcalloc(1, sizeof(*run->hf));
	host_facts_collect(sr, co, run->hf);
	report_init(&run->r, g->cmd->name);
	cmd_fill_report_host(&run->r, run->hf, sr);
	run->ctx = (struct check_ctx){ .host = run->hf, .plan = plan, .audit = audit,
				       .th = &g->cfg->th, .report = &run->r };
}

int cmd_finish_report(const struct global_opts *g, const struct report *r, bool gone)
{
	int ret = cmd_emit_report(g, r);

	/* A process the user named went away: the report is written, and says so by exit 3. */
	if (gone && ret != EXIT_USAGE)
		ret = EXIT_CANNOT;
	return ret;
}

void cmd_run_end(struct cmd_run *run)
{
	report_free(&run->r);
	if (run->hf)
		host_facts_free(run->hf);
	free(run->hf);
	run->hf = NULL;
}
