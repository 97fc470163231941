// SPDX-License-Identifier: GPL-2.0-or-later
/* uringlint preflight: can this host run an io_uring service well? */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "host_facts.h"
#include "xalloc.h"

enum { OPT_DIR = OPT_CMD_BASE };

struct preflight_args {
	const char **dirs;
	size_t ndirs;
};

static void fill_report_host(struct report *r, const struct host_facts *hf,
			     const struct sysroot *sr)
{
	const struct kernel_version *kv = &hf->kernel.v;

	snprintf(r->host.hostname, sizeof(r->host.hostname), "%s", hf->hostname);
	if (fact_ok(&hf->kernel.e))
		snprintf(r->host.kernel, sizeof(r->host.kernel), "%u.%u.%u", kv->major, kv->minor,
			 kv->patch);
	else
		snprintf(r->host.kernel, sizeof(r->host.kernel), "unknown");
	r->host.cpus = hf->cpus;
	r->host.live = sr->live;
	if (!sr->live)
		snprintf(r->host.root, sizeof(r->host.root), "%s", sr->path);
}

/* Data directories are judged by later checks; they must at least exist. */
static int check_dirs(const struct global_opts *g, const struct preflight_args *a)
{
	struct stat st;
	size_t i;

	if (g->root)
		return 0;
	for (i = 0; i < a->ndirs; i++) {
		if (stat(a->dirs[i], &st) < 0) {
			error_msg("cannot use --dir '%s': %s", a->dirs[i], strerror(errno));
			return EXIT_CANNOT;
		}
		if (!S_ISDIR(st.st_mode))
			return usage_error("--dir '%s' is not a directory", a->dirs[i]);
	}
	return 0;
}

int cmd_preflight(int argc, char **argv, struct global_opts *g)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, OPT_DIR },
		GLOBAL_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct preflight_args a = { 0 };
	struct host_facts *hf = NULL;
	struct check_ctx ctx;
	struct sysroot sr;
	struct report r;
	int c, ret;

	while ((c = getopt_long(argc, argv, ":" GLOBAL_SHORTOPTS, opts, NULL)) != -1) {
		if (c == OPT_DIR) {
			a.dirs = xreallocarray(a.dirs, a.ndirs + 1, sizeof(*a.dirs));
			a.dirs[a.ndirs++] = optarg;
			continue;
		}
		ret = global_opt(g, c, optarg, argv, command_find("preflight"));
		if (ret)
			goto out_args;
	}
	if (optind < argc) {
		ret = usage_error("preflight takes no argument '%s'", argv[optind]);
		goto out_args;
	}
	ret = check_dirs(g, &a);
	if (ret)
		goto out_args;
	ret = cmd_open_sysroot(g, &sr);
	if (ret)
		goto out_args;

	hf = xcalloc(1, sizeof(*hf));
	host_facts_collect(&sr, hf);
	report_init(&r, "preflight");
	fill_report_host(&r, hf, &sr);
	ctx = (struct check_ctx){ .host = hf, .report = &r };
	checks_run_scope(SCOPE_HOST, &ctx, &g->policy);
	ret = cmd_emit_report(g, &r);

	report_free(&r);
	free(hf);
	sysroot_close(&sr);
out_args:
	free(a.dirs);
	return ret;
}
