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
	OPT_WORKERS,
	OPT_WORKER_CPUS,
	OPT_NET_DEV,
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
	{ "workers", 0, OPT_WORKERS, ARG_VALUE, "N", NULL, 0, NULL,
	  "the network service's worker threads (default: one on\neach --worker-cpus CPU)" },
	{ "worker-cpus", 0, OPT_WORKER_CPUS, ARG_VALUE, "LIST", NULL, 0, NULL,
	  "the CPUs the network workers will run on" },
	{ "net-dev", 0, OPT_NET_DEV, ARG_VALUE, "DEV", NULL, CMDOPT_REPEAT, NULL,
	  "a network device the service will use (default: the\ndevices of the default route)" },
	{ NULL },
};

/* io_uring's own ceiling for SQ entries (IORING_MAX_ENTRIES). */

struct preflight_args {
	const char **dirs;
	size_t ndirs, dirs_cap;
	const char *sqpoll_cpu;	/* validated against the host once its root is open */
	const char *worker_cpus;
	const char **net_devs;
	size_t nnet_devs, net_devs_cap;
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
	case OPT_WORKERS:
		return arg_count("--workers", arg, PLAN_WORKERS_MAX, &a->plan.workers);
	case OPT_WORKER_CPUS:
		if (cpulist_parse(arg, &a->plan.worker_cpus) || !cpuset_count(&a->plan.worker_cpus))
			return usage_error("--worker-cpus takes a CPU list like 2-7 or 2-3,6, not '%s'",
					   arg);
		a->plan.has_worker_cpus = true;
		a->worker_cpus = arg;
		return 0;
	case OPT_NET_DEV:
		if (!config_net_dev_valid(arg))
			return usage_error("--net-dev takes a network interface name like eth0, not "
					   "'%s'", arg);
		xarray_grow(&a->net_devs, &a->net_devs_cap, a->nnet_devs + 1);
		a->net_devs[a->nnet_devs++] = arg;
		return 0;
	}
	return 0;	/* cmd_getopt returns only this command's rows */
}

/* A planned CPU list names CPUs of this host (or of the captured one). */
static int check_online(const struct cpuset *online, const struct cpuset *plan, const char *opt,
			const char *arg, const char *key)
{
	struct cpuset off;
	char list[64], offlist[64];

	cpuset_andnot(&off, plan, online);
	if (!cpuset_count(&off))
		return 0;
	cpuset_format(online, list, sizeof(list));
	cpuset_format(&off, offlist, sizeof(offlist));
	/* The plan may come from the policy file: name the source. */
	return usage_error("%s%s%s names CPUs that are not online here: %s (online: %s)",
			   arg ? opt : key, arg ? " " : " in the policy file", arg ? arg : "",
			   offlist, list);
}

static int check_plan_cpus(const struct sysroot *sr, const struct preflight_args *a)
{
	struct cpuset online;
	struct fact_err e = { 0 };

	if (cpu_online_read(sr, &online, &e))
		return 0;	/* unknown online set: the CPU checks say so */
	if (a->plan.has_sqpoll_cpus &&
	    check_online(&online, &a->plan.sqpoll_cpus, "--sqpoll-cpu", a->sqpoll_cpu, "sqpoll-cpu"))
		return EXIT_USAGE;
	if (a->plan.has_worker_cpus &&
	    check_online(&online, &a->plan.worker_cpus, "--worker-cpus", a->worker_cpus,
			 "worker-cpus"))
		return EXIT_USAGE;
	return 0;
}

/* A --net-dev the host does not have is a typo, not a finding. */
static int check_net_devs(const struct sysroot *sr, const struct preflight_args *a)
{
	size_t i;
	DIR *d;

	for (i = 0; i < a->nnet_devs; i++) {
		d = sysroot_opendirf(sr, "sys/class/net/%s", a->net_devs[i]);
		if (d) {
			closedir(d);
			continue;
		}
		if (errno == ENOENT)
			return usage_error("--net-dev %s: no such network interface here "
					   "(sys/class/net/%s)", a->net_devs[i], a->net_devs[i]);
	}
	return 0;
}

int cmd_preflight(int argc, char **argv, struct global_opts *g)
{
	struct preflight_args a = { 0 };
	struct cmd_run run;
	struct collect_opts copts;
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
	ret = check_plan_cpus(&g->sr, &a);
	if (!ret)
		ret = check_net_devs(&g->sr, &a);
	if (ret)
		goto out_args;
	plan_net_defaults(&a.plan);
	if (!a.nnet_devs) {	/* the policy file's, when the command line names none */
		a.net_devs = (const char **)g->cfg->net_devs;
		a.nnet_devs = g->cfg->nnet_devs;
		a.net_devs_cap = 0;
	}

	cmd_dir_opts(g, &g->sr, a.dirs, a.ndirs, &copts);
	copts.ring_entries = a.plan.ring_entries;
	copts.net_devs = a.net_devs;
	copts.nnet_devs = a.nnet_devs;
	cmd_run_begin(&run, g, &g->sr, &copts, &a.plan, NULL);
	checks_run_scope(SCOPE_HOST, &run.ctx, &g->policy);
	ret = cmd_finish_report(g, &run.r, false);
	cmd_run_end(&run);
out_args:
	free(a.dirs);
	if (a.net_devs_cap)
		free(a.net_devs);
	return ret;
}
