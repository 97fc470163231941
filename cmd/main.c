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
#include "version.h"
#include "xalloc.h"

static const struct command commands[] = {
	{ "preflight", cmd_preflight,
	  "[--dir DIR]... [--sqpoll-cpu LIST] [--depth N] [--ring-entries N]\n"
	  "                               [--fixed-buffers SIZE] [--iopoll]",
	  "check this host before deploying an io_uring service" },
	{ "audit", cmd_audit, "PID... | --all [--data-path GLOB]... [--watch SECONDS]",
	  "find why a running io_uring process is off the fast path" },
	{ "probe", cmd_probe,
	  "[--dir DIR] [--size N] [--duration S] [--depth N] [--bs N] [--rw RW]\n"
	  "                               [--mode default|sqpoll|sqpoll-fixed|all] "
	  "[--sqpoll-cpu N] [--contrast]",
	  "measure that the fast path holds on this filesystem" },
	{ "report", cmd_report, "[--dir DIR]... [--pid PID]... [--all] [--probe] | merge FILE...",
	  "the whole checklist: preflight, every io_uring process, and the probe" },
	{ "capture", cmd_capture, "[--pid PID]... -o DIR",
	  "copy what uringlint reads into a tree that --root DIR replays" },
	{ "checks", cmd_checks, "", "list every check: id, scope, severity, title" },
	{ "explain", cmd_explain, "ID",
	  "what a check looks at, why it matters, how to fix it" },
};

const struct command *command_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static const char global_help[] =
	"Global options (before or after the command):\n"
	"  --format FMT       text (default), json, markdown, junit or prometheus\n"
	"  -o, --output FILE  write the report to FILE instead of standard output\n"
	"  --root DIR         read proc/ and sys/ under DIR (a captured host) instead of\n"
	"                     the live system\n"
	"  --only ID,...      run only these checks\n"
	"  --skip ID,...      report these checks as skipped by policy\n"
	"  --fail-on LEVEL    warn, fail (default) or never: exit 1 when a finding\n"
	"                     reaches LEVEL (an error counts as a failure)\n"
	"  --no-color         no colour (also NO_COLOR=1; colour is used only on a terminal)\n"
	"  --config FILE      policy file (default /etc/uringlint.conf when it exists):\n"
	"                     key = value lines: skip, only, fail-on, data-path,\n"
	"                     sqpoll-cpu, depth, ring-entries, fixed-buffers,\n"
	"                     busy-ratio-idle, busy-ratio-saturated, extent-limit,\n"
	"                     punt-tolerance\n"
	"  -q, --quiet        list only findings that need action\n"
	"  -v, --verbose      add each finding's evidence and reference\n"
	"  -h, --help         this help\n"
	"  -V, --version      versions of uringlint, its libraries and the kernel\n";

static void print_help(FILE *out)
{
	size_t i;

	fputs("Usage: uringlint [GLOBAL] COMMAND [ARGS]\n\n"
	      "Is this host, process or filesystem on io_uring's fast path, and if not, why?\n\n"
	      "Commands:\n",
	      out);
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		char left[64];

		snprintf(left, sizeof(left), "%s %s", commands[i].name, commands[i].args);
		fprintf(out, "  %-28s %s\n", left, commands[i].summary);
	}
	fprintf(out, "\n%s\n", global_help);
	fputs("Exit status: 0 nothing at or above --fail-on; 1 findings at or above it;\n"
	      "2 usage error; 3 could not do the job.\n",
	      out);
}

void print_command_help(FILE *out, const struct command *cmd)
{
	fprintf(out, "Usage: uringlint [GLOBAL] %s %s\n\n%s.\n\n%s", cmd->name, cmd->args,
		cmd->summary, global_help);
}

static void print_version(void)
{
	const char *blkid = "?", *scols = "?";
	struct utsname u;

	blkid_get_library_version(&blkid, NULL);
	scols_get_library_version(&scols);
	printf("uringlint %s\n", uringlint_version);
	printf("liburing %s (built with), libproc2 %s (built with), libblkid %s, "
	       "libsmartcols %s, json-c %s\n",
	       liburing_build_version, libproc2_build_version, blkid, scols, json_c_version());
	if (uname(&u) == 0)
		printf("kernel %s %s\n", u.release, u.machine);
}

static int parse_fail_on(struct global_opts *g, const char *arg)
{
	if (!strcmp(arg, "warn"))
		g->fail_on = STATUS_WARN;
	else if (!strcmp(arg, "fail"))
		g->fail_on = STATUS_FAIL;
	else if (!strcmp(arg, "never"))
		g->fail_never = true;
	else
		return usage_error("--fail-on takes warn, fail or never, not '%s'", arg);
	if (strcmp(arg, "never"))
		g->fail_never = false;
	return 0;
}

int global_opt(struct global_opts *g, int opt, const char *arg, char **argv,
	       const struct command *cmd)
{
	switch (opt) {
	case OPT_FORMAT:
		if (output_format_parse(arg, &g->format))
			return usage_error("unknown format '%s' (text, json, markdown, junit, "
					   "prometheus)", arg);
		if (!output_format_supported(g->format))
			return usage_error("format '%s' is not available in this version "
					   "(text, json)", arg);
		return 0;
	case 'o':
		g->output = arg;
		return 0;
	case OPT_ROOT:
		g->root = arg;
		return 0;
	case OPT_ONLY:
		g->policy.only = arg;
		return 0;
	case OPT_SKIP:
		/* The policy file's suppressions stay: --skip adds to them. */
		if (g->cfg && g->cfg->skip && g->policy.skip == g->cfg->skip) {
			free(g->skip_buf);
			g->skip_buf = xasprintf("%s,%s", g->cfg->skip, arg);
			g->policy.skip = g->skip_buf;
		} else {
			g->policy.skip = arg;
		}
		return 0;
	case OPT_CONFIG:
		return 0;	/* read before the command line, in main() */
	case OPT_FAIL_ON:
		return parse_fail_on(g, arg);
	case OPT_NO_COLOR:
		g->no_color = true;
		return 0;
	case 'q':
		g->verbosity = -1;
		return 0;
	case 'v':
		g->verbosity = 1;
		return 0;
	case 'h':
		if (cmd)
			print_command_help(stdout, cmd);
		else
			print_help(stdout);
		exit(fflush(stdout) ? EXIT_CANNOT : 0);
	case 'V':
		print_version();
		exit(fflush(stdout) ? EXIT_CANNOT : 0);
	case ':':
		return usage_error("option '%s' needs an argument", argv[optind - 1]);
	default:
		return usage_error("unrecognized option '%s'", argv[optind - 1]);
	}
}

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
}

int cmd_open_sysroot(const struct global_opts *g, struct sysroot *sr)
{
	char *bad = NULL;
	int err;

	if (check_policy_validate(&g->policy, &bad)) {
		usage_error("unknown check '%s' (see 'uringlint checks')", bad);
		free(bad);
		return EXIT_USAGE;
	}
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

int cmd_write_output(const struct global_opts *g, int (*write)(FILE *out, const void *data),
		     const void *data)
{
	const char *name = g->output ? g->output : "standard output";
	FILE *out = stdout;
	int err;

	if (g->output) {
		out = fopen(g->output, "we");
		if (!out) {
			error_msg("cannot open '%s': %s", g->output, strerror(errno));
			return EXIT_CANNOT;
		}
	}
	errno = 0;
	err = write(out, data);
	if (fflush(out) != 0 || ferror(out))
		err = errno ? -errno : -EIO;
	if (g->output && fclose(out) != 0 && !err)
		err = errno ? -errno : -EIO;
	if (err) {
		error_msg("cannot write '%s': %s", name, strerror(-err));
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
	return cfg->has_fail_on ? parse_fail_on(g, cfg->fail_on) : 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = { GLOBAL_LONGOPTS, { NULL, 0, NULL, 0 } };
	struct global_opts g = { .format = FORMAT_TEXT, .fail_on = STATUS_FAIL };
	static struct config cfg;
	const struct command *cmd;
	int c, ret;

	ret = load_policy(argc, argv, &g, &cfg);
	if (ret)
		return ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:" GLOBAL_SHORTOPTS, opts, NULL)) != -1) {
		ret = global_opt(&g, c, optarg, argv, NULL);
		if (ret)
			return ret;
	}
	if (optind >= argc)
		return usage_error("no command given");
	cmd = command_find(argv[optind]);
	if (!cmd)
		return usage_error("unknown command '%s'", argv[optind]);

	/* The command parses its own argv; getopt restarts at index 1 of it. */
	argc -= optind;
	argv += optind;
	optind = 0;
	ret = cmd->run(argc, argv, &g);
	free(g.skip_buf);
	config_free(&cfg);
	return ret;
}
