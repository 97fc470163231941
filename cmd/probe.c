// SPDX-License-Identifier: GPL-2.0-or-later
/* uringlint probe: measure, on this filesystem, that the fast path holds. */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "host_facts.h"
#include "parse.h"
#include "net.h"
#include "probe.h"
#include "probe_view.h"
#include "xalloc.h"

enum {
	OPT_DIR = OPT_CMD_BASE,
	OPT_SIZE,
	OPT_DURATION,
	OPT_DEPTH,
	OPT_BS,
	OPT_RW,
	OPT_MODE,
	OPT_SQPOLL_CPU,
	OPT_CONTRAST,
	OPT_NET,
	OPT_WORKERS,
	OPT_CONNECTIONS,
};

/* What the command line asked for: the storage probe, or with --net the network probe. */
struct probe_cli {
	struct probe_opts o;
	struct net_opts n;
	bool net;
	const char *mode;		/* --mode, read once --net is known */
	const char *storage_opt;	/* a storage-only option given, for --net's refusal */
	const char *net_opt;		/* a --net-only option given, without --net */
};

const struct cmd_option probe_options[] = {
	{ "dir", 0, OPT_DIR, ARG_DIR, "DIR", NULL, 0, NULL,
	  "the filesystem to measure, by a directory on it (.)" },
	{ "size", 0, OPT_SIZE, ARG_VALUE, "N", NULL, 0, NULL, "the temporary file's size (256M)" },
	{ "duration", 0, OPT_DURATION, ARG_VALUE, "S", NULL, 0, NULL, "seconds per mode (2)" },
	{ "depth", 0, OPT_DEPTH, ARG_VALUE, "N", NULL, 0, NULL, "requests in flight (32)" },
	{ "bs", 0, OPT_BS, ARG_VALUE, "N", NULL, 0, NULL, "bytes per request (4k)" },
	{ "rw", 0, OPT_RW, ARG_WORDS, "RW", "randrw randread randwrite", 0, NULL,
	  "randrw (default), randread or randwrite" },
	{ "mode", 0, OPT_MODE, ARG_WORDS, "MODE",
	  "default sqpoll sqpoll-fixed all epoll uring multishot send-zc napi", 0, NULL,
	  "default, sqpoll, sqpoll-fixed or all (default); with --net\na comma list of epoll, "
	  "uring, multishot, send-zc, napi, or all" },
	{ "sqpoll-cpu", 0, OPT_SQPOLL_CPU, ARG_VALUE, "N", NULL, 0, NULL,
	  "pin the SQPOLL thread to CPU N" },
	{ "contrast", 0, OPT_CONTRAST, ARG_NONE, NULL, NULL, 0, NULL,
	  "also measure buffered I/O, appends and writes into\nunwritten extents" },
	{ "net", 0, OPT_NET, ARG_NONE, NULL, NULL, 0, NULL,
	  "measure the network path instead: a TCP echo on\n127.0.0.1 and ::1 inside the probe" },
	{ "workers", 0, OPT_WORKERS, ARG_VALUE, "N", NULL, 0, NULL,
	  "--net: server threads, each pinned with its own ring\nand listener (allowed CPUs, up to 4)" },
	{ "connections", 0, OPT_CONNECTIONS, ARG_VALUE, "N", NULL, 0, NULL,
	  "--net: client connections in all (16)" },
	{ NULL },
};

static int parse_opt(int c, const char *arg, struct probe_cli *cli)
{
	struct probe_opts *o = &cli->o;
	uint64_t v;
	double d;
	char *end;

	switch (c) {
	case OPT_DIR:
	case OPT_SIZE:
	case OPT_DEPTH:
	case OPT_BS:
	case OPT_RW:
	case OPT_SQPOLL_CPU:
	case OPT_CONTRAST:
		cli->storage_opt = c == OPT_DIR ? "--dir" : c == OPT_SIZE ? "--size" : c == OPT_DEPTH
				   ? "--depth" : c == OPT_BS ? "--bs" : c == OPT_RW ? "--rw" : c ==
				   OPT_SQPOLL_CPU ? "--sqpoll-cpu" : "--contrast";
		break;
	case OPT_WORKERS:
	case OPT_CONNECTIONS:
		cli->net_opt = c == OPT_WORKERS ? "--workers" : "--connections";
		break;
	}
	switch (c) {
	case OPT_DIR:
		o->dir = arg;
		return 0;
	case OPT_SIZE:
		if (parse_size(arg, &v) || v < (1u << 20) || v > (1ull << 40))
			return usage_error("--size takes 1M to 1T, not '%s'", arg);
		o->size = v;
		return 0;
	case OPT_DURATION:
		d = strtod(arg, &end);
		if (end == arg || *end || !(d >= 0.1 && d <= 600))
			return usage_error("--duration takes seconds from 0.1 to 600, not '%s'", arg);
		o->duration_ms = (unsigned int)(d * 1000);
		cli->n.duration_ms = o->duration_ms;
		return 0;
	case OPT_DEPTH:
		if (parse_u64(arg, 10, &v) || !v || v > 4096)
			return usage_error("--depth takes 1 to 4096, not '%s'", arg);
		o->depth = (unsigned int)v;
		return 0;
	case OPT_BS:
		if (parse_size(arg, &v) || v < 512 || v > (16u << 20) || v % 512)
			return usage_error("--bs takes a multiple of 512 up to 16M, not '%s'", arg);
		o->bs = (unsigned int)v;
		return 0;
	case OPT_RW:
		if (!strcmp(arg, "randrw"))
			o->rw = PROBE_RANDRW;
		else if (!strcmp(arg, "randread"))
			o->rw = PROBE_RANDREAD;
		else if (!strcmp(arg, "randwrite"))
			o->rw = PROBE_RANDWRITE;
		else
			return usage_error("--rw takes randread, randwrite or randrw, not '%s'", arg);
		return 0;
	case OPT_MODE:
		cli->mode = arg;	/* its words depend on --net, which may come later */
		return 0;
	case OPT_SQPOLL_CPU:
		if (parse_u64(arg, 10, &v) || v >= (uint64_t)sysconf(_SC_NPROCESSORS_CONF))
			return usage_error("--sqpoll-cpu takes one CPU of this host, not '%s'", arg);
		o->sqpoll_cpu = (int)v;
		return 0;
	case OPT_CONTRAST:
		o->contrast = true;
		return 0;
	case OPT_NET:
		cli->net = true;
		return 0;
	case OPT_WORKERS:
		if (parse_u64(arg, 10, &v) || !v || v > NET_MAX_WORKERS)
			return usage_error("--workers takes 1 to %d, not '%s'", NET_MAX_WORKERS, arg);
		cli->n.workers = (unsigned int)v;
		return 0;
	case OPT_CONNECTIONS:
		if (parse_u64(arg, 10, &v) || !v || v > NET_MAX_CONNECTIONS)
			return usage_error("--connections takes 1 to %d, not '%s'", NET_MAX_CONNECTIONS,
					   arg);
		cli->n.connections = (unsigned int)v;
		return 0;
	}
	return 0;	/* cmd_getopt returns only this command's rows */
}

int cmd_probe_into_report(const struct probe_opts *po, struct check_ctx *ctx,
			  const struct check_policy *pol, bool histo)
{
	struct probe_opts o = *po;
	struct report *rp = ctx->report;
	struct probe_result *pr = xcalloc(1, sizeof(*pr));
	bool fast_path = false;
	size_t i;
	int ret;

	o.progress = isatty(STDERR_FILENO) && histo;
	ret = probe_run(&o, pr);
	if (ret == -EINVAL) {
		ret = usage_error("%s", pr->e.why);
		goto out;
	}
	if (ret) {
		error_msg("%s", pr->e.why);
		ret = EXIT_CANNOT;
		goto out;
	}
	report_note(rp, "Probe in %s on %s (%s): %llu MiB file, %u-byte %s, depth %u, %.1f s per mode",
		    pr->dir, pr->fs, pr->device, (unsigned long long)(pr->size >> 20), pr->bs,
		    o.rw == PROBE_RANDRW ? "random reads and writes"
		    : o.rw == PROBE_RANDREAD ? "random reads" : "random writes",
		    pr->depth, o.duration_ms / 1000.0);
	if (pr->modes[PM_DEFAULT].ran || pr->modes[PM_SQPOLL].ran || pr->modes[PM_SQPOLL_FIXED].ran)
		report_note(rp, "Punts counted %s%s%s", pr->punts_why[0] ? "as new iou-wrk threads ("
								       : "with the io_uring_queue_async_work tracepoint",
			    pr->punts_why, pr->punts_why[0] ? ")" : "");
	probe_result_notes(rp, pr, histo);
	ctx->probe = pr;
	checks_run_scope(SCOPE_PROBE, ctx, pol);
	ctx->probe = NULL;
	for (i = 0; i < rp->nfindings; i++)
		if (check_find(rp->findings[i].check->id)->flags & CHECK_PROBE_VERDICT)
			fast_path = rp->findings[i].status == STATUS_PASS;
	rp->probe = probe_result_json(pr, fast_path);
	ret = 0;
	if (probe_result_metrics(rp, pr, fast_path)) {
		error_msg("out of memory");
		ret = EXIT_CANNOT;
	}
out:
	free(pr);
	return ret;
}

/* The options that hold only for one probe, and --mode's words for the one chosen. */
static int settle(struct probe_cli *cli)
{
	const char *bad;

	if (cli->net && cli->storage_opt)
		return usage_error("%s is an option of the storage probe, not of --net",
				   cli->storage_opt);
	if (!cli->net && cli->net_opt)
		return usage_error("%s goes with --net", cli->net_opt);
	if (!cli->mode)
		return 0;
	if (cli->net && net_modes_parse(cli->mode, &cli->n.modes, &bad))
		return usage_error("--mode with --net takes a comma list of epoll, uring, multishot, "
				   "send-zc, napi or all, not '%s'", cli->mode);
	if (!cli->net && probe_modes_parse(cli->mode, &cli->o.modes))
		return usage_error("--mode takes default, sqpoll, sqpoll-fixed or all, not '%s'",
				   cli->mode);
	return 0;
}

static unsigned int allowed_cpus(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) ? 1 : (unsigned int)CPU_COUNT(&set);
}

int cmd_probe(int argc, char **argv, struct global_opts *g)
{
	struct probe_cli cli = { 0 };
	struct collect_opts copts = { 0 };
	struct cmd_run run;
	int c, ret;

	probe_opts_default(&cli.o, ".");
	net_opts_default(&cli.n, allowed_cpus());
	while ((c = cmd_getopt(argc, argv, g, &ret)) != -1) {
		ret = parse_opt(c, optarg, &cli);
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	ret = settle(&cli);
	if (ret)
		return ret;
	if (!cli.net && arg_dir(cli.o.dir))
		return EXIT_USAGE;
	cmd_run_begin(&run, g, &g->sr, &copts, NULL, NULL);
	if (cli.net)
		ret = cmd_probe_net_into_report(&cli.n, &run.ctx, &g->policy, g->verbosity >= 0);
	else
		ret = cmd_probe_into_report(&cli.o, &run.ctx, &g->policy, g->verbosity >= 0);
	if (!ret)
		ret = cmd_finish_report(g, &run.r, false);
	cmd_run_end(&run);
	return ret;
}
