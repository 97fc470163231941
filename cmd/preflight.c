// SPDX-License-Identifier: GPL-2.0-or-later
/* uringlint preflight: can this host run the planned io_uring service well? */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "array.h"
#include "cmd.h"
#include "config.h"
#include "host_facts.h"
#include "parse.h"
#include "xalloc.h"

enum {
	OPT_DIR = OPT_CMD_BASE,
	OPT_SQPOLL_CPU,
	OPT_DEPTH,
	OPT_RING_ENTRIES,
	OPT_FIXED_BUFFERS,
	OPT_IOPOLL,
};

const struct cmd_option preflight_options[] = {
	{ "dir", 0, OPT_DIR, ARG_DIR, "DIR", NULL, CMDOPT_REPEAT, NULL,
	  "a data directory to judge (default: the current directory)" },
	{ "sqpoll-cpu", 0, OPT_SQPOLL_CPU, ARG_VALUE, "LIST", NULL, 0, NULL,
	  "the CPUs the SQPOLL threads will run on" },
	{ "depth", 0, OPT_DEPTH, ARG_VALUE, "N", NULL, 0, NULL, "the queue depth per ring (128)" },
	{ "ring-entries", 0, OPT_RING_ENTRIES, ARG_VALUE, "N", NULL, 0, NULL,
	  "the SQ entries per ring (4096)" },
	{ "fixed-buffers", 0, OPT_FIXED_BUFFERS, ARG_VALUE, "SIZE", NULL, 0, NULL,
	  "the registered buffers in bytes (64M)" },
	{ "iopoll", 0, OPT_IOPOLL, ARG_NONE, NULL, NULL, 0, NULL, "the service will poll (IOPOLL)" },
	{ NULL },
};

/* io_uring's own ceiling for SQ entries (IORING_MAX_ENTRIES). */

struct preflight_args {
	const char **dirs;
	size_t ndirs, dirs_cap;
	const char *sqpoll_cpu;	/* validated against the host once its root is open */
	struct plan plan;
};

/* Live directories must exist and be directories; a captured host's are looked up in its tree. */
static int check_dirs(const struct global_opts *g, const struct preflight_args *a)
{
	size_t i;

	if (g->root)
		return 0;
	for (i = 0; i < a->ndirs; i++)
		if (arg_dir(a->dirs[i]))
			return EXIT_USAGE;
	return 0;
}

static int parse_option(int c, const char *arg, struct preflight_args *a)
{
	uint64_t bytes;

	switch (c) {
	case OPT_DIR:
		xarray_grow(&a->dirs, &a->dirs_cap, a->ndirs + 1);
		a->dirs[a->ndirs++] = arg;
		return 0;
	case OPT_SQPOLL_CPU:
		if (cpulist_parse(arg, &a->plan.sqpoll_cpus) || !cpuset_count(&a->plan.sqpoll_cpus))
			return usage_error("--sqpoll-cpu takes a CPU list like 2 or 2-3,6, not '%s'",
					   arg);
		a->plan.has_sqpoll_cpus = true;
		a->sqpoll_cpu = arg;
		return 0;
	case OPT_DEPTH:
		return arg_count("--depth", arg, PLAN_ENTRIES_MAX, &a->plan.depth);
	case OPT_RING_ENTRIES:
		return arg_count("--ring-entries", arg, PLAN_ENTRIES_MAX, &a->plan.ring_entries);
	case OPT_FIXED_BUFFERS:
		if (parse_size(arg, &bytes) || bytes > PLAN_FIXED_BUFFERS_MAX)
			return usage_error("--fixed-buffers takes a size like 64M or 1G (at most 1T), "
					   "not '%s'", arg);
		a->plan.fixed_buffer_bytes = bytes;
		return 0;
	case OPT_IOPOLL:
		a->plan.iopoll = true;
		return 0;
	}
	return 0;	/* cmd_getopt returns only this command's rows */
}

/* --sqpoll-cpu names CPUs of this host (or of the captured one). */
static int check_sqpoll_cpus(const struct sysroot *sr, const struct preflight_args *a)
{
	struct cpuset online, off;
	struct fact_err e = { 0 };
	char list[64], offlist[64];

	if (!a->plan.has_sqpoll_cpus || cpu_online_read(sr, &online, &e))
		return 0;	/* unknown online set: the CPU checks say so */
	cpuset_andnot(&off, &a->plan.sqpoll_cpus, &online);
	if (!cpuset_count(&off))
		return 0;
	cpuset_format(&online, list, sizeof(list));
	cpuset_format(&off, offlist, sizeof(offlist));
	/* The plan may come from the policy file: name the source. */
	return usage_error("%s%s names CPUs that are not online here: %s (online: %s)",
			   a->sqpoll_cpu ? "--sqpoll-cpu " : "sqpoll-cpu in the policy file",
			   a->sqpoll_cpu ? a->sqpoll_cpu : "", offlist, list);
}

int cmd_preflight(int argc, char **argv, struct global_opts *g)
{
	struct preflight_args a = { 0 };
	struct host_facts *hf = NULL;
	struct collect_opts copts;
	struct check_ctx ctx;
	struct report r;
	int c, ret;

	plan_defaults(&a.plan);
	config_apply_plan(g->cfg, &a.plan);
	while ((c = cmd_getopt(argc, argv, g, &ret)) != -1) {
		ret = parse_option(c, optarg, &a);
		if (ret)
			goto out_args;
	}
	if (ret)
		goto out_args;
	ret = check_dirs(g, &a);
	if (ret)
		goto out_args;
	ret = check_sqpoll_cpus(&g->sr, &a);
	if (ret)
		goto out_args;

	cmd_dir_opts(g, &g->sr, a.dirs, a.ndirs, &copts);
	copts.ring_entries = a.plan.ring_entries;
	hf = cmd_host_report(&g->sr, &copts, "preflight", &r);
	ctx = (struct check_ctx){ .host = hf, .plan = &a.plan, .th = &g->cfg->th, .report = &r };
	checks_run_scope(SCOPE_HOST, &ctx, &g->policy);
	ret = cmd_finish_report(g, &r, false);
	cmd_host_report_free(hf, &r);
out_args:
	free(a.dirs);
	return ret;
}
