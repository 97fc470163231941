/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_CMD_H
#define URINGLINT_CMD_H

#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "checks.h"
#include "report.h"
#include "sysroot.h"
#include "writer.h"

/* Exit statuses of the CLI contract. */
#define EXIT_FINDINGS 1
#define EXIT_USAGE 2
#define EXIT_CANNOT 3

struct config;

struct command;

struct global_opts {
	const struct command *cmd;	/* the command being run */
	const char *live_reason;	/* a live-only option was given: why */
	const char *watch_reason;	/* the last --watch asks for a watch: why it is live-only */
	enum output_format format;
	const char *output;	/* -o FILE, NULL: stdout */
	const char *root;	/* --root DIR, NULL: live */
	struct check_policy policy;
	enum check_status fail_on;
	bool fail_never;
	bool fail_on_given;	/* --fail-on (or the policy file's) was asked for */
	bool no_color;
	int verbosity;
	struct config *cfg;	/* the policy file, applied before the command line */
	struct sysroot sr;	/* CMD_SYSROOT: opened once the options are read, closed by main */
	bool sr_open;
	char *skip_buf;		/* --skip joined to the file's skip list */
	struct watch_trace *trace;	/* audit --trace FILE: the watches' spans go here */
	bool no_scene;			/* audit --no-scene: no scene read, none judged */
};

enum {
	OPT_FORMAT = 0x100,
	OPT_ROOT,
	OPT_ONLY,
	OPT_SKIP,
	OPT_FAIL_ON,
	OPT_NO_COLOR,
	OPT_CONFIG,
	OPT_CMD_BASE = 0x200,	/* commands number their own options from here */
};

/* How an option's value or a command's operands are completed and shown. */
enum arg_kind {
	ARG_NONE,	/* a flag */
	ARG_VALUE,	/* a number, a size, a list: nothing to complete */
	ARG_WORDS,	/* one of .words */
	ARG_DIR,
	ARG_FILE,
	ARG_JSON_FILE,
	ARG_PID,
	ARG_CHECK,	/* a check id */
	ARG_CHECKS,	/* check ids, comma-separated */
};

#define CMDOPT_REPEAT (1u << 0)	/* may be given more than once */
#define CMDOPT_HIDDEN (1u << 1)	/* for the build, not in help, man page or completion */

/*
 * One option of a command or of the global set. getopt's table, --help, the
 * man page's SYNOPSIS and COMMANDS and the bash completion are all made from
 * these rows, so none of them can name an option the others lack.
 */
struct cmd_option {
	const char *name;	/* long name, without "--" */
	char short_name;	/* 0: none */
	int val;		/* what getopt_long returns for it */
	enum arg_kind arg;
	const char *metavar;	/* DIR, N, LIST, ... (ARG_NONE: NULL) */
	const char *words;	/* ARG_WORDS: the values, space-separated */
	unsigned int flags;	/* CMDOPT_* */
	const char *live_only;	/* non-NULL: refuses --root, and this says why */
	const char *help;	/* one sentence; "\n" starts an indented line in --help */
};

/* Setup main applies from a command's row, as git's run_builtin does. */
#define CMD_LIVE_ONLY (1u << 0)	/* acts on the live system: --root is refused */
#define CMD_NO_OPERANDS (1u << 1)	/* takes no arguments after its options */
#define CMD_SYSROOT (1u << 2)	/* reads the host: the policy checked, --root or / opened */

struct command {
	const char *name;
	int (*run)(int argc, char **argv, struct global_opts *g);
	const char *summary;
	unsigned int flags;
	const char *live_only;	/* CMD_LIVE_ONLY: why, for the refusal */
	const struct cmd_option *options;	/* ends with a row without a name */
	enum arg_kind operands;
	const char *operand_name;	/* "PID", "ID", "FILE" */
	const char *alt;	/* usage shown before the options ("PID... | --all") or NULL */
	const char *man;	/* the COMMANDS paragraph, roff */
	const struct command *const *subs;	/* "report merge", "report diff": commands under
						   this one, NULL-terminated */
	const char *parent;	/* for a sub-command: the command it is typed after */
};

extern const struct command commands[];
extern const size_t commands_len;
extern const struct cmd_option global_options[];

/* Each command's own options (in its file). */
extern const struct cmd_option preflight_options[], audit_options[], probe_options[],
	report_options[], capture_options[], checks_options[], no_options[];

/*
 * getopt_long over the command's options and the global ones. Returns a
 * command option's val; handles global options itself. At the end of the
 * options it applies the row: --root against a live-only command or option,
 * operands to a command that takes none. Returns -1 at the end, with *ret 0
 * or the exit status of a usage error (then also -1).
 */
int cmd_getopt(int argc, char **argv, struct global_opts *g, int *ret);

/* --only and --skip name known checks: 0, or EXIT_USAGE with the message printed. */
int cmd_policy_check(const struct global_opts *g);

/* getopt's tables of the global options alone (main, before the command). */
const char *global_shortopts(void);
const struct option *global_longopts(void);

/* The option stands in the command's alternative usage ("PID... | --all"). */
bool command_alt_has(const struct command *cmd, const struct cmd_option *o);
/* The usage line of a command after "uringlint [GLOBAL] ". */
void command_usage(FILE *out, const struct command *cmd);

/* `uringlint --generate KIND` for the build: bash-completion, man-synopsis, man-commands. */
int cmd_generate(const char *kind);

/* Command entry points (one file each). */
int cmd_preflight(int argc, char **argv, struct global_opts *g);
int cmd_audit(int argc, char **argv, struct global_opts *g);
int cmd_probe(int argc, char **argv, struct global_opts *g);
int cmd_report(int argc, char **argv, struct global_opts *g);
int cmd_report_merge(int argc, char **argv, struct global_opts *g);
int cmd_report_diff(int argc, char **argv, struct global_opts *g);
int cmd_capture(int argc, char **argv, struct global_opts *g);

/* The parts report shares with audit and probe. */
/*
 * Audits the processes named in *pids, or with *npids 0 every readable one
 * with a ring (found into *pids), into ctx->report with their inventory.
 * *gone: a named process was gone or went (exit 3). 0, or EXIT_CANNOT.
 */
int cmd_audit_processes(const struct global_opts *g, const struct sysroot *sr, pid_t **pids,
			size_t *npids, unsigned int watch, struct check_ctx *ctx, bool *gone);
/*
 * watch for cmd_audit_processes: a named process is watched for
 * WATCH_AUTO_SECONDS when what its plain audit read needs a watch to be
 * explained (proc_facts_needs_watch), as root; never otherwise.
 */
#define WATCH_AUTO UINT_MAX
#define WATCH_AUTO_SECONDS 2
/* The inventory and the process checks of one process's facts, into ctx->report. */
struct proc_facts;
int cmd_judge_process(struct check_ctx *ctx, struct proc_facts *pf, const struct check_policy *pol);
/* Whom audit --exec's program runs as (--user): looked up before anything starts. */
struct exec_user {
	uid_t uid;
	gid_t gid;		/* the user's primary group */
	char name[64];
	char home[256];
	char shell[128];
};

/* --user USER (a name or a uid) looked up; 0, or a usage error's exit status. NULL: none. */
int exec_user_lookup(const char *user, struct exec_user *eu);

/*
 * audit --exec -- CMD ARGS (cmd/audit_exec.c): runs CMD watched from its
 * start to its end (as user, when not NULL), and returns its exit status
 * (127 not found, 126 not runnable), or 1 when --fail-on was given and its
 * findings reach it.
 */
int cmd_audit_exec(struct global_opts *g, char **argv, const struct exec_user *user,
		   struct check_ctx *ctx);
struct probe_opts;
int cmd_probe_into_report(const struct probe_opts *o, struct check_ctx *ctx,
			  const struct check_policy *pol, bool histograms);
/* probe --net (cmd/probe_net.c): the network probe, its table, checks and JSON. */
struct net_opts;
int cmd_probe_net_into_report(const struct net_opts *o, struct check_ctx *ctx,
			      const struct check_policy *pol, bool progress);
int cmd_checks(int argc, char **argv, struct global_opts *g);
/*
 * A check as JSON, the one form `checks` and `explain` give: its id,
 * title, scope, severity, category and flags, and with texts what it
 * looks at, why, the fix and the reference.
 */
struct json_object;
struct json_object *cmd_check_json(const struct check *c, bool texts);
int cmd_explain(int argc, char **argv, struct global_opts *g);

/* One line on stderr, "uringlint: ..." */
__attribute__((format(printf, 1, 2))) void error_msg(const char *fmt, ...);
/* Misuse: the line, then "Try 'uringlint --help'"; returns EXIT_USAGE. */
__attribute__((format(printf, 1, 2))) int usage_error(const char *fmt, ...);

/*
 * The bounds of the planned deployment, the same on the command line and
 * in the policy file: a ring has at most 32768 SQ entries
 * (IORING_MAX_ENTRIES), so neither its entries nor its depth can be more.
 */
#define PLAN_ENTRIES_MAX 32768u
#define PLAN_FIXED_BUFFERS_MAX (1ull << 40)

/* Option values, each with its one usage error: 0 or EXIT_USAGE. */
int arg_pid(const char *arg, pid_t *pid);
int arg_count(const char *opt, const char *arg, unsigned int max, unsigned int *out);
/* --fail-on and the policy file's fail-on: warn, fail or never. */
int arg_fail_on(struct global_opts *g, const char *arg);
/* --watch: seconds from 0 (never) to WATCH_MAX_SECONDS. */
int arg_watch(const char *arg, unsigned int *seconds);
/* --dir: a directory that exists. */
int arg_dir(const char *dir);
/* what ("--watch counts punts on the live system") cannot replay --root DIR. */
int arg_live_only(const struct global_opts *g, const char *what);

/*
 * Handles one option returned by getopt_long that the command did not
 * know: a global option, -h (prints usage and exits 0), -V, or an error.
 * Returns 0 when handled, else an exit status.
 */
int global_opt(struct global_opts *g, int opt, const char *arg, char **argv,
	       const struct command *cmd);
const struct command *command_find(const char *name);
void print_command_help(FILE *out, const struct command *cmd);

/*
 * Shared setup and teardown of report commands (git's run_builtin idea):
 * validates the policy, opens the sysroot, and at the end writes the report
 * to stdout or -o FILE and turns it into the exit status.
 */
int cmd_open_sysroot(const struct global_opts *g, struct sysroot *sr);
int cmd_emit_report(const struct global_opts *g, const struct report *r);

/* Writes through a callback to stdout or -o FILE, checking every stream error. */
int cmd_write_output(const struct global_opts *g, int (*write)(FILE *out, const void *data),
		     const void *data);
/* The same to PATH (NULL: stdout), with -o's care (output.c): audit --trace FILE. */
int cmd_write_file(const char *path, int (*write)(FILE *out, const void *data), const void *data);
bool cmd_use_color(const struct global_opts *g);

/* The report's host block (contract: hostname, kernel, cpus), from host facts. */
struct host_facts;
void cmd_fill_report_host(struct report *r, const struct host_facts *hf,
			  const struct sysroot *sr);

/*
 * Around a checking command's checks (cmd/host_report.c). cmd_dir_opts: the
 * data directories given, or "." on the live system, and the live tries the
 * policy's checks need. cmd_run_begin: the one setup of every checking
 * command: reads the host's facts once, begins the report, and sets the
 * checks' context over them (plan and audit may be NULL: a command that
 * has none); cmd_run_end frees it. cmd_finish_report: writes the report;
 * exit 3 when a named process went.
 */
struct collect_opts;
struct cmd_run {
	struct host_facts *hf;
	struct report r;
	struct check_ctx ctx;
};
void cmd_dir_opts(const struct global_opts *g, const struct sysroot *sr, const char *const *dirs,
		  size_t ndirs, struct collect_opts *co);
void cmd_run_begin(struct cmd_run *run, const struct global_opts *g, const struct sysroot *sr,
		   const struct collect_opts *co, const struct plan *plan,
		   const struct audit_opts *audit);
int cmd_finish_report(const struct global_opts *g, const struct report *r, bool gone);
void cmd_run_end(struct cmd_run *run);

#endif
