// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uringlint report: the checklist of a deploy. Preflight of the host and
 * every --dir, an audit of the named processes (default: every readable
 * process with an io_uring fd), and with --probe the probe on the first
 * --dir, in one report grouped by area.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "config.h"
#include "host_facts.h"
#include "parse.h"
#include "probe.h"
#include "xalloc.h"

enum {
	OPT_DIR = OPT_CMD_BASE,
	OPT_PID,
	OPT_ALL,
	OPT_PROBE,
	OPT_WATCH,
};

const struct cmd_option report_options[] = {
	{ "dir", 0, OPT_DIR, ARG_DIR, "DIR", NULL, CMDOPT_REPEAT, NULL,
	  "a data directory, as in preflight (the first one is probed)" },
	{ "pid", 0, OPT_PID, ARG_PID, "PID", NULL, CMDOPT_REPEAT, NULL,
	  "audit this process (default: every io_uring process)" },
	{ "all", 0, OPT_ALL, ARG_NONE, NULL, NULL, 0, NULL,
	  "audit every io_uring process (the default without --pid)" },
	{ "probe", 0, OPT_PROBE, ARG_NONE, NULL, NULL, 0, "--probe runs I/O on the live system",
	  "also run the probe on the first --dir" },
	{ "watch", 0, OPT_WATCH, ARG_VALUE, "SECONDS", NULL, 0,
	  "--watch counts punts on the live system",
	  "as audit --watch: 0 never; without it, each process is\nwatched for 2 s when "
	  "what it read needs a watch (root),\nall in one window" },
	{ NULL },
};

struct report_args {
	const char **dirs;
	size_t ndirs, dirs_cap;
	pid_t *pids;
	size_t npids, pids_cap;
	bool probe;
	unsigned int watch;	/* --watch SECONDS, 0: off; WATCH_AUTO: when needed */
};

static int parse_args(int argc, char **argv, struct global_opts *g, struct report_args *a)
{
	size_t i;
	int c, ret;

	while ((c = cmd_getopt(argc, argv, g, &ret)) != -1) {
		switch (c) {
		case OPT_DIR:
			xarray_grow(&a->dirs, &a->dirs_cap, a->ndirs + 1);
			a->dirs[a->ndirs++] = optarg;
			break;
		case OPT_PID:
			xarray_grow(&a->pids, &a->pids_cap, a->npids + 1);
			if (arg_pid(optarg, &a->pids[a->npids]))
				return EXIT_USAGE;
			a->npids++;
			break;
		case OPT_ALL:
			break;	/* the default when no --pid is given */
		case OPT_PROBE:
			a->probe = true;
			break;
		case OPT_WATCH:
			if (arg_watch(optarg, &a->watch))
				return EXIT_USAGE;
			break;
		}
	}
	if (ret)
		return ret;
	for (i = 0; !g->root && i < a->ndirs; i++)
		if (arg_dir(a->dirs[i]))
			return EXIT_USAGE;
	return 0;
}

int cmd_report(int argc, char **argv, struct global_opts *g)
{
	struct report_args a = { .watch = WATCH_AUTO };
	struct collect_opts copts;
	struct audit_opts aopts = { 0 };
	struct cmd_run run = { 0 };
	struct plan plan;
	bool gone = false;
	int ret;

	/* "report merge FILE...", "report diff OLD NEW": commands on JSON reports. */
	for (const struct command *const *s = g->cmd->subs; argc > 1 && s && *s; s++) {
		if (!strcmp(argv[1], (*s)->name)) {
			g->cmd = *s;
			return g->cmd->run(argc - 1, argv + 1, g);
		}
	}
	ret = parse_args(argc, argv, g, &a);
	if (ret)
		goto out_args;
	plan_defaults(&plan);
	config_apply_plan(g->cfg, &plan);
	plan_net_defaults(&plan);
	cmd_dir_opts(g, &g->sr, a.dirs, a.ndirs, &copts);
	copts.ring_entries = plan.ring_entries;
	copts.net_devs = (const char *const *)g->cfg->net_devs;
	copts.nnet_devs = g->cfg->nnet_devs;
	aopts = (struct audit_opts){ .data_paths = (const char *const *)g->cfg->data_paths,
				     .ndata_paths = g->cfg->ndata_paths };
	cmd_run_begin(&run, g, &g->sr, &copts, &plan, &aopts);

	/* The host and its directories. */
	checks_run_scope(SCOPE_HOST, &run.ctx, &g->policy);

	/* The processes: those named, or every one with a ring that can be read. */
	ret = cmd_audit_processes(g, &g->sr, &a.pids, &a.npids, a.watch, &run.ctx, &gone);
	if (ret)
		goto out_report;

	/* The proof, on the first data directory. */
	if (a.probe) {
		struct probe_opts po;

		probe_opts_default(&po, copts.dirs[0]);
		ret = cmd_probe_into_report(&po, &run.ctx, &g->policy, g->verbosity > 0);
		if (ret)
			goto out_report;
	}
	ret = cmd_finish_report(g, &run.r, gone);
out_report:
	cmd_run_end(&run);
out_args:
	free(a.dirs);
	free(a.pids);
	return ret;
}
