// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The global options and the option parsing every command shares: getopt's
 * table, --help and the setup a command's row asks for are made from the
 * rows of struct cmd_option, never written out a second time.
 */
#include <blkid/blkid.h>
#include <json-c/json.h>
#include <libsmartcols/libsmartcols.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "array.h"
#include "cmd.h"
#include "config.h"
#include "version.h"
#include "xalloc.h"

static void print_help(FILE *out);

const struct cmd_option global_options[] = {
	{ "format", 0, OPT_FORMAT, ARG_WORDS, "FMT", "text json markdown junit prometheus html", 0,
	  NULL, "text (default), json, markdown, junit, prometheus or html (a page with a "
	  "drawing of CPUs, threads and rings)" },
	{ "output", 'o', 'o', ARG_FILE, "FILE", NULL, 0, NULL,
	  "write the report to FILE instead of standard output" },
	{ "root", 0, OPT_ROOT, ARG_DIR, "DIR", NULL, 0, NULL,
	  "read proc/ and sys/ under DIR (a captured host) instead of\nthe live system" },
	{ "only", 0, OPT_ONLY, ARG_CHECKS, "ID,...", NULL, 0, NULL, "run only these checks" },
	{ "skip", 0, OPT_SKIP, ARG_CHECKS, "ID,...", NULL, 0, NULL,
	  "report these checks as skipped by policy" },
	{ "fail-on", 0, OPT_FAIL_ON, ARG_WORDS, "LEVEL", "warn fail never", 0, NULL,
	  "warn, fail (default) or never: exit 1 when a finding\nreaches LEVEL (an error counts "
	  "as a failure)" },
	{ "no-color", 0, OPT_NO_COLOR, ARG_NONE, NULL, NULL, 0, NULL,
	  "no colour (also NO_COLOR=1; colour is used only on a terminal)" },
	{ "config", 0, OPT_CONFIG, ARG_FILE, "FILE", NULL, 0, NULL,
	  "policy file (default /etc/uringlint.conf when it exists):\nkey = value lines: skip, "
	  "only, fail-on, data-path,\nsqpoll-cpu, depth, ring-entries, fixed-buffers,\n"
	  "workers, worker-cpus, net-dev,\n"
	  "busy-ratio-idle, busy-ratio-saturated, extent-limit,\npunt-tolerance" },
	{ "quiet", 'q', 'q', ARG_NONE, NULL, NULL, 0, NULL, "list only findings that need action" },
	{ "verbose", 'v', 'v', ARG_NONE, NULL, NULL, 0, NULL,
	  "add each finding's evidence and reference" },
	{ "help", 'h', 'h', ARG_NONE, NULL, NULL, 0, NULL, "this help" },
	{ "version", 'V', 'V', ARG_NONE, NULL, NULL, 0, NULL,
	  "versions of uringlint, its libraries and the kernel" },
	{ NULL },
};

const struct cmd_option no_options[] = { { NULL } };

static void print_version(void)
{
	const char *blkid = "?", *scols = "?";
	struct utsname u;

	blkid_get_library_version(&blkid, NULL);
	scols_get_library_version(&scols);
	printf("uringlint %s\n", uringlint_version);
	printf("liburing %s (built with), libproc2 %s (built with), libblkid %s, "
	       "libsmartcols %s, json-c %s\n", liburing_build_version, libproc2_build_version,
	       blkid, scols, json_c_version());
	if (uname(&u) == 0)
		printf("kernel %s %s\n", u.release, u.machine);
}

int global_opt(struct global_opts *g, int opt, const char *arg, char **argv,
	       const struct command *cmd)
{
	switch (opt) {
	case OPT_FORMAT:
		if (output_format_parse(arg, &g->format))
			return usage_error("unknown format '%s' (text, json, markdown, junit, "
					   "prometheus, html)", arg);
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
		/*
		 * The policy file's suppressions stay: --skip adds to them. A --skip
		 * naming nothing is kept alone, for cmd_policy_check to refuse.
		 */
		if (g->cfg && g->cfg->skip && g->policy.skip == g->cfg->skip &&
		    arg[strspn(arg, " \t,")]) {
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
		return arg_fail_on(g, arg);
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
		/* A short option inside a cluster ("-qo") is named by itself, not its word. */
		if (optopt > 0 && optopt < 0x80 && argv[optind - 1][1] != '-')
			return usage_error("option '-%c' needs an argument", optopt);
		return usage_error("option '%s' needs an argument", argv[optind - 1]);
	default:
		if (optopt > 0 && optopt < 0x80)
			return usage_error("unrecognized option '-%c'", optopt);
		return usage_error("unrecognized option '%s'", argv[optind - 1]);
	}
}

const struct command *command_find(const char *name)
{
	size_t i;

	for (i = 0; i < commands_len; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static const struct cmd_option *option_by_val(const struct cmd_option *opts, int val)
{
	for (; opts && opts->name; opts++)
		if (opts->val == val)
			return opts;
	return NULL;
}

/* getopt_long's table: the command's rows, then the global ones. */
static void fill_longopts(const struct command *cmd, struct option *lo, size_t max)
{
	const struct cmd_option *sets[] = { cmd ? cmd->options : NULL, global_options };
	const struct cmd_option *o;
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(sets); i++)
		for (o = sets[i]; o && o->name; o++) {
			/* The tables are static: overflowing is a programming error. */
			if (n + 1 >= max)
				abort();
			lo[n++] = (struct option){ o->name,
						   o->arg == ARG_NONE ? no_argument
								      : required_argument,
						   NULL, o->val };
		}
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
}

/* What a command's row asks of its arguments, applied once the options are read. */
static int apply_row(int argc, char **argv, struct global_opts *g)
{
	const struct command *cmd = g->cmd;

	if ((cmd->flags & CMD_NO_OPERANDS) && optind < argc)
		return usage_error("%s takes no argument '%s'", argv[0], argv[optind]);
	if ((cmd->flags & CMD_LIVE_ONLY) && arg_live_only(g, cmd->live_only))
		return EXIT_USAGE;
	if (g->live_reason && arg_live_only(g, g->live_reason))
		return EXIT_USAGE;
	if (g->watch_reason && arg_live_only(g, g->watch_reason))
		return EXIT_USAGE;
	/* An unknown id in --only or --skip is refused by every command alike. */
	if (cmd_policy_check(g))
		return EXIT_USAGE;
	if (cmd->flags & CMD_SYSROOT) {
		int ret = cmd_open_sysroot(g, &g->sr);

		if (ret)
			return ret;
		g->sr_open = true;
	}
	return 0;
}

/* ":o:qvhV": the global short options, from their rows. */
const char *global_shortopts(void)
{
	static char s[32];
	const struct cmd_option *o;
	size_t n = 0;

	if (s[0])
		return s;
	s[n++] = ':';	/* a missing argument returns ':', not '?' */
	for (o = global_options; o->name; o++) {
		if (!o->short_name)
			continue;
		s[n++] = o->short_name;
		if (o->arg != ARG_NONE)
			s[n++] = ':';
	}
	s[n] = '\0';
	return s;
}

const struct option *global_longopts(void)
{
	static struct option lo[32];

	if (!lo[0].name)
		fill_longopts(NULL, lo, ARRAY_SIZE(lo));
	return lo;
}

/* A --watch value that turns the watch off: 0 (or 00, ...). */
static bool watch_off(const char *arg)
{
	return *arg && arg[strspn(arg, "0")] == '\0';
}

int cmd_getopt(int argc, char **argv, struct global_opts *g, int *ret)
{
	static struct option lo[64];
	static const struct command *built;
	const struct cmd_option *o;
	int c;

	*ret = 0;
	if (built != g->cmd) {
		fill_longopts(g->cmd, lo, ARRAY_SIZE(lo));
		built = g->cmd;
	}
	while ((c = getopt_long(argc, argv, global_shortopts(), lo, NULL)) != -1) {
		o = g->cmd ? option_by_val(g->cmd->options, c) : NULL;
		if (o) {
			/* --watch 0 asks for no watch: a replay of --root takes it. The last one counts. */
			if (!strcmp(o->name, "watch"))
				g->watch_reason = optarg && watch_off(optarg) ? NULL : o->live_only;
			else if (o->live_only)
				g->live_reason = o->live_only;
			return c;
		}
		*ret = global_opt(g, c, optarg, argv, g->cmd);
		if (*ret)
			return -1;
	}
	if (g->cmd)
		*ret = apply_row(argc, argv, g);
	return -1;
}

/* "--dir DIR", "-o, --output FILE" */
static void option_left(const struct cmd_option *o, char *buf, size_t n)
{
	char s[8] = "";

	if (o->short_name)
		snprintf(s, sizeof(s), "-%c, ", o->short_name);
	snprintf(buf, n, "%s--%s%s%s", s, o->name, o->metavar ? " " : "",
		 o->metavar ? o->metavar : "");
}

static void print_options(FILE *out, const struct cmd_option *o)
{
	for (; o->name; o++) {
		const char *h = o->help, *nl;
		char left[48];

		if (o->flags & CMDOPT_HIDDEN)
			continue;
		option_left(o, left, sizeof(left));
		fprintf(out, "  %-18s", left);
		/* A left column wider than its field puts the text on the next line. */
		if (strlen(left) > 18)
			fprintf(out, "\n  %-18s", "");
		while ((nl = strchr(h, '\n'))) {
			fprintf(out, " %.*s\n  %-18s", (int)(nl - h), h, "");
			h = nl + 1;
		}
		fprintf(out, " %s\n", h);
	}
}

/* The option stands in the alternative ("PID... | --all"), not among the rest. */
bool command_alt_has(const struct command *cmd, const struct cmd_option *o)
{
	const char *p = cmd->alt ? strstr(cmd->alt, o->name) : NULL;

	return p && p - cmd->alt >= 2 && p[-1] == '-' &&
	       (!p[strlen(o->name)] || p[strlen(o->name)] == ' ');
}

void command_usage(FILE *out, const struct command *cmd)
{
	/* Lines break before 80 columns, continuing under the first option. */
	const unsigned int start = (unsigned int)strlen("Usage: uringlint [GLOBAL] ");
	const unsigned int indent = start + (unsigned int)strlen(cmd->name) +
				    (cmd->parent ? (unsigned int)strlen(cmd->parent) + 1 : 0);
	const struct cmd_option *o;
	unsigned int col = indent;

	if (cmd->parent)
		fprintf(out, "%s ", cmd->parent);
	fputs(cmd->name, out);
	if (cmd->alt)
		col += (unsigned int)fprintf(out, " %s", cmd->alt);
	else if (cmd->operands != ARG_NONE)
		col += (unsigned int)fprintf(out, " %s...", cmd->operand_name);
	for (o = cmd->options; o->name; o++) {
		char item[64];

		if ((o->flags & CMDOPT_HIDDEN) || command_alt_has(cmd, o))
			continue;
		snprintf(item, sizeof(item), "[--%s%s%s]%s", o->name, o->metavar ? " " : "",
			 o->metavar ? o->metavar : "", o->flags & CMDOPT_REPEAT ? "..." : "");
		if (col + 1 + strlen(item) > 79) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		}
		col += (unsigned int)fprintf(out, " %s", item);
	}
	for (const struct command *const *s = cmd->subs; s && *s; s++) {
		fprintf(out, "\n   or: uringlint [GLOBAL] %s %s", cmd->name, (*s)->name);
		if ((*s)->operands != ARG_NONE)
			fprintf(out, " %s", (*s)->alt ? (*s)->alt : (*s)->operand_name);
		if ((*s)->operands != ARG_NONE && !(*s)->alt)
			fputs("...", out);
	}
}

static void print_global_help(FILE *out)
{
	fputs("Global options (before or after the command):\n", out);
	print_options(out, global_options);
}

static void print_help(FILE *out)
{
	size_t i;

	fputs("Usage: uringlint [GLOBAL] COMMAND [ARGS]\n\n"
	      "Is this host, process or filesystem on io_uring's fast path, and if not, why?\n\n"
	      "Commands ('uringlint COMMAND --help' for each one's options):\n",
	      out);
	for (i = 0; i < commands_len; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputc('\n', out);
	print_global_help(out);
	fputs("\nExit status: 0 nothing at or above --fail-on; 1 findings at or above it;\n"
	      "2 usage error; 3 could not do the job.\n",
	      out);
}

void print_command_help(FILE *out, const struct command *cmd)
{
	fputs("Usage: uringlint [GLOBAL] ", out);
	command_usage(out, cmd);
	fprintf(out, "\n\n%s.\n\n", cmd->summary);
	if (cmd->options[0].name && !(cmd->options[0].flags & CMDOPT_HIDDEN)) {
		fputs("Options:\n", out);
		print_options(out, cmd->options);
		fputc('\n', out);
	}
	print_global_help(out);
}
