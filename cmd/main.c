// SPDX-License-Identifier: GPL-2.0-or-later
/* Global options, the command table, and the setup every command shares. */
#include <blkid/blkid.h>
#include <errno.h>
#include <json-c/json.h>
#include <libsmartcols/libsmartcols.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "array.h"
#include "cmd.h"
#include "config.h"
#include "host_facts.h"
#include "host_json.h"
#include "version.h"
#include "xalloc.h"

bool cmd_use_color(const struct global_opts *g)
{
	const char *nc = getenv("NO_COLOR");

	if (g->no_color || g->output || g->format != FORMAT_TEXT)
		return false;
	if (nc && *nc)
		return false;
	return isatty(STDOUT_FILENO);
}

static unsigned int terminal_width(const struct global_opts *g)
{
	struct winsize ws;

	if (g->output || !isatty(STDOUT_FILENO))
		return 0;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	return 80;
}

void cmd_fill_report_host(struct report *r, const struct host_facts *hf,
			  const struct sysroot *sr)
{
	const struct kernel_version *kv = &hf->kernel.v;

	snprintf(r->host.hostname, sizeof(r->host.hostname), "%s", hf->hostname);
	if (fact_ok(&hf->kernel.e))
		snprintf(r->host.kernel, sizeof(r->host.kernel), "%u.%u.%u", kv->major, kv->minor,
			 kv->patch);
	else
		snprintf(r->host.kernel, sizeof(r->host.kernel), "unknown");
	/* Fleets group hosts by the release string, which the parsed version loses. */
	if (fact_ok(&hf->kernel.e))
		snprintf(r->host.kernel_release, sizeof(r->host.kernel_release), "%s",
			 kv->release);
	r->host.cpus = hf->cpus;
	r->host.live = sr->live;
	if (!sr->live)
		snprintf(r->host.root, sizeof(r->host.root), "%s", sr->path);
	json_object_put(r->host.net);
	r->host.net = net_facts_json(&hf->net, hf->somaxconn.value, &hf->somaxconn.e,
				     hf->tcp_max_syn_backlog.value, &hf->tcp_max_syn_backlog.e);
	json_object_put(r->host.cpu);
	r->host.cpu = cpu_facts_json(&hf->cpu);
}

int cmd_policy_check(const struct global_opts *g)
{
	struct check_policy only = { .only = g->policy.only };
	char *bad = NULL;
	int err = check_policy_validate(&g->policy, &bad);

	if (!err)
		return 0;
	if (err == -ENODATA)
		return usage_error("--%s names no check (see 'uringlint checks')",
				   check_policy_validate(&only, &bad) ? "only" : "skip");
	usage_error("unknown check '%s' (see 'uringlint checks')", bad);
	free(bad);
	return EXIT_USAGE;
}

int cmd_open_sysroot(const struct global_opts *g, struct sysroot *sr)
{
	int err = cmd_policy_check(g);

	if (err)
		return err;
	err = sysroot_open(sr, g->root);
	if (err) {
		if (g->root && err == -ENOENT && access(g->root, F_OK) == 0)
			return usage_error("--root '%s' has no proc/ directory", g->root);
		if (g->root)
			return usage_error("cannot use --root '%s': %s", g->root,
					   sysroot_strerror(err));
		error_msg("cannot open '/': %s", strerror(-err));
		return EXIT_CANNOT;
	}
	return 0;
}

struct report_output {
	const struct global_opts *g;
	const struct report *r;
};

static int write_one_report(FILE *out, const void *data)
{
	const struct report_output *ro = data;
	const struct global_opts *g = ro->g;
	struct writer_opts o = {
		.color = cmd_use_color(g),
		.verbosity = g->verbosity,
		.width = terminal_width(g),
	};

	return write_report(out, ro->r, g->format, &o);
}

int cmd_emit_report(const struct global_opts *g, const struct report *r)
{
	struct report_output ro = { g, r };
	int ret;

	ret = cmd_write_output(g, write_one_report, &ro);
	if (ret)
		return ret;
	if (!g->fail_never && report_reaches(r, g->fail_on))
		return EXIT_FINDINGS;
	return 0;
}

/* --config may stand anywhere; it is read first so the command line can override it. */
static const char *config_path(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--config") && i + 1 < argc)
			return argv[i + 1];
		if (!strncmp(argv[i], "--config=", 9))
			return argv[i] + 9;
	}
	return NULL;
}

static int load_policy(int argc, char **argv, struct global_opts *g, struct config *cfg)
{
	int ret = config_load(config_path(argc, argv), cfg);

	if (ret)
		return ret;
	g->cfg = cfg;
	g->policy.only = cfg->only;
	g->policy.skip = cfg->skip;
	return cfg->has_fail_on ? arg_fail_on(g, cfg->fail_on) : 0;
}

int main(int argc, char **argv)
{
	struct global_opts g = { .format = FORMAT_TEXT, .fail_on = STATUS_FAIL };
	static struct config cfg;
	char shortopts[32];
	int c, ret;

	/* For the build: the completion and the man page's sections, from the tables. */
	if (argc == 3 && !strcmp(argv[1], "--generate"))
		return cmd_generate(argv[2]);
	ret = load_policy(argc, argv, &g, &cfg);
	if (ret)
		return ret;

	opterr = 0;
	/* "+": the options before the command only; its own come after its name. */
	snprintf(shortopts, sizeof(shortopts), "+%s", global_shortopts());
	while ((c = getopt_long(argc, argv, shortopts, global_longopts(), NULL)) != -1) {
		ret = global_opt(&g, c, optarg, argv, NULL);
		if (ret)
			return ret;
	}
	if (optind >= argc)
		return usage_error("no command given");
	g.cmd = command_find(argv[optind]);
	if (!g.cmd)
		return usage_error("unknown command '%s'", argv[optind]);

	/* The command parses its own argv; getopt restarts at index 1 of it. */
	argc -= optind;
	argv += optind;
	optind = 0;
	ret = g.cmd->run(argc, argv, &g);
	if (g.sr_open)
		sysroot_close(&g.sr);
	free(g.skip_buf);
	config_free(&cfg);
	return ret;
}
