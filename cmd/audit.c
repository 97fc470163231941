// SPDX-License-Identifier: GPL-2.0-or-later
/* uringlint audit PID... | --all: is this running process on io_uring's fast path? */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "caps.h"
#include "output.h"
#include "cmd.h"
#include "config.h"
#include "host_facts.h"
#include "parse.h"
#include "proc_facts.h"
#include "proc_json.h"
#include "proc_scan.h"
#include "scene_json.h"
#include "sockets_json.h"
#include "watch.h"
#include "xalloc.h"

enum {
	OPT_ALL = OPT_CMD_BASE,
	OPT_DATA_PATH,
	OPT_WATCH,
	OPT_EXEC,
	OPT_USER,
	OPT_TRACE,
	OPT_NO_SCENE,
};

const struct cmd_option audit_options[] = {
	{ "all", 0, OPT_ALL, ARG_NONE, NULL, NULL, 0, NULL,
	  "audit every process with an io_uring fd" },
	{ "data-path", 0, OPT_DATA_PATH, ARG_FILE, "GLOB", NULL, CMDOPT_REPEAT, NULL,
	  "the service's data files, by glob (also data-path in the\npolicy file)" },
	{ "watch", 0, OPT_WATCH, ARG_VALUE, "SECONDS", NULL, 0,
	  "--watch counts punts on the live system",
	  "count punts to io-wq per second, per opcode and per file\nfor SECONDS (root; "
	  "new iou-wrk threads otherwise); 0 never;\nwithout it, a process is watched "
	  "for 2 s when\nwhat its audit read needs a watch (root); many\nprocesses in "
	  "one window" },
	{ "exec", 0, OPT_EXEC, ARG_NONE, NULL, NULL, 0, "--exec runs a program on the live system",
	  "run the program after --, watched from its start to its\nend (root): every ring's setup "
	  "flags; exits with its status;\nit and all it starts end with uringlint" },
	{ "user", 0, OPT_USER, ARG_VALUE, "USER", NULL, 0, "--user runs a program on the live system",
	  "with --exec: run the program as USER (a name or a uid),\nwith USER's groups, a clean "
	  "environment and a terminal\nof its own, while uringlint keeps root to watch it" },
	{ "trace", 0, OPT_TRACE, ARG_FILE, "FILE", NULL, 0, "--trace writes what a live watch sampled",
	  "with --watch or --exec: write each request the watch\nsampled, submit to completion, "
	  "per thread, as a Chrome\ntrace-event file (Perfetto, chrome://tracing)" },
	{ "no-scene", 0, OPT_NO_SCENE, ARG_NONE, NULL, NULL, 0, NULL,
	  "leave out the incident scene (what iostat, vmstat and\ntop show over the window): "
	  "its checks skip" },
	{ NULL },
};


struct audit_args {
	pid_t *pids;
	size_t npids, pids_cap;
	bool all;
	const char **data_paths;
	size_t ndata_paths, data_paths_cap;
	unsigned int watch;	/* --watch SECONDS, 0: off; WATCH_AUTO: when needed */
	bool watch_given;
	bool exec;		/* --exec -- CMD ARGS */
	const char *user;	/* --user USER: whom --exec's program runs as */
	const char *trace;	/* --trace FILE */
};

/* What the checks read of a file, for the collection; the application matched once. */
static enum proc_file_need audit_file_need(const struct proc_facts *pf, const struct proc_file *f,
					   void *arg)
{
	struct check_ctx *ctx = arg;

	if (ctx->app_of != pf)
		check_ctx_set_proc(ctx, pf);
	return proc_file_need(ctx, f);
}

/*
 * Without --watch: whether this process needs a watch, and then whether
 * one can be had (root or CAP_PERFMON, on the live system). Returns the seconds to watch,
 * 0 for none, with a note that says why either way.
 */
static unsigned int auto_watch(const struct sysroot *sr, const struct proc_facts *pf,
			       struct check_ctx *ctx)
{
	static bool said_root;
	char why[128];

	if (!proc_facts_needs_watch(sr, pf, why, sizeof(why)))
		return 0;
	if (!may_trace()) {
		if (!said_root)
			report_note(ctx->report, "not watched: %s (pid %d), which a watch would "
				    "explain, but the watch samples io_uring's tracepoints and needs "
				    "root (or CAP_PERFMON); as root a plain audit watches such a "
				    "process for %d s",
				    why, (int)pf->pid, WATCH_AUTO_SECONDS);
		said_root = true;
		return 0;
	}
	report_note(ctx->report, "pid %d watched for %d s: %s (--watch 0 never watches, "
		    "--watch N watches N s)", (int)pf->pid, WATCH_AUTO_SECONDS, why);
	return WATCH_AUTO_SECONDS;
}

/*
 * The watch's spans into the trace, its threads named as they are now: the
 * workers it saw start are named too (the verdicts keep the reading before).
 */
static int keep_trace(const struct sysroot *sr, struct proc_facts *pf, struct watch_trace *trace)
{
	struct proc_threads now = { 0 };
	int err;

	proc_threads_collect(sr, pf->pid, &now);
	err = watch_trace_take(trace, pf->pid, pf->comm, pf->watch,
			       fact_ok(&now.e) ? &now : &pf->threads);
	proc_threads_free(&now);
	return err;
}

/*
 * Reads one process, all but its window. Unless it is watched whatever it
 * shows, only what the checks need of its files is read.
 */
static void audit_gather(const struct sysroot *sr, pid_t pid, unsigned int watch,
			 struct check_ctx *ctx, struct net_cache *net, struct proc_facts *pf)
{
	/* A watch decides afterwards which files are data: it has them all read. */
	struct proc_collect how = { .need = watch && watch != WATCH_AUTO ? NULL : audit_file_need,
				    .arg = ctx, .net = net };

	/* The last process's pf was here too: its application is not this one's. */
	check_ctx_set_proc(ctx, NULL);
	proc_facts_gather(sr, pid, &how, pf);
	check_ctx_set_proc(ctx, NULL);
}

/* The seconds to watch pf: those asked, or with none asked, what its reading needs. */
static unsigned int audit_watch_seconds(const struct sysroot *sr, struct proc_facts *pf,
					unsigned int watch, struct check_ctx *ctx)
{
	if (!watch || !fact_ok(&pf->e) || pf->kernel_thread || pf->zombie)
		return 0;
	if (watch != WATCH_AUTO)
		return watch;
	watch = auto_watch(sr, pf, ctx);
	/* Read with every file's details, which the watch's verdicts need. */
	if (watch)
		proc_facts_complete_files(sr, pf);
	return watch;
}

/*
 * Judges one process, read and watched, into the report. A process the
 * user named returns EXIT_CANNOT when it is gone or went; one found by the
 * scan (--all, report) may end at any moment on a busy host: it is left
 * out with a note.
 */
static int audit_judge(const struct sysroot *sr, struct proc_facts *pf, bool named,
		       unsigned int watched, struct check_ctx *ctx, const struct check_policy *pol,
		       struct watch_trace *trace)
{
	pid_t pid = pf->pid;
	bool trace_lost = false;
	int ret = 0;

	if (watched && !pf->watch) {
		error_msg("pid %d: out of memory for its watch: its report holds what was read "
			  "without one", (int)pid);
		ret = EXIT_CANNOT;
	}

	if (trace && pf->watch && keep_trace(sr, pf, trace)) {
		error_msg("out of memory keeping the trace of pid %d", (int)pid);
		trace_lost = true;
	}
	if (!named && (pf->e.err == -ESRCH || pf->incomplete)) {
		report_note(ctx->report, "pid %d exited during the audit and is left out", (int)pid);
		return trace_lost ? EXIT_CANNOT : 0;
	}
	if (trace_lost)
		ret = EXIT_CANNOT;
	if (pf->e.err == -ESRCH) {
		error_msg("pid %d: no such process", (int)pid);
		ret = EXIT_CANNOT;
	} else if (pf->incomplete) {
		error_msg("pid %d exited while being audited: the report is incomplete", (int)pid);
		ret = EXIT_CANNOT;
	} else if (pf->watch && pf->watch->exited) {
		if (named) {
			error_msg("pid %d exited %.2f s into the %u s watch: the report covers the "
				  "time watched", (int)pid, pf->watch->seconds_watched,
				  pf->watch->seconds);
			ret = EXIT_CANNOT;
		}
		report_note(ctx->report, "pid %d exited %.2f s into the %u s watch", (int)pid,
			    pf->watch->seconds_watched, pf->watch->seconds);
	}
	if (cmd_judge_process(ctx, pf, pol))
		ret = EXIT_CANNOT;
	return ret;
}

/* Who runs pf, for the writers that label by it. */
static void owner_record(struct report *r, const struct proc_facts *pf)
{
	static const struct cgroup_owner none;
	const struct cgroup_owner *o = fact_ok(&pf->owner.e) ? &pf->owner.o : &none;
	char unit[CGROUP_NAME_MAX + 32] = "", ctr[CGROUP_NAME_MAX + 128];
	size_t n;

	ctr[0] = '\0';
	if (o->unit.kind == UNIT_USER)
		snprintf(unit, sizeof(unit), "user %ld: %s", o->unit.uid, o->unit.name);
	else if (o->unit.kind != UNIT_NONE)
		snprintf(unit, sizeof(unit), "%s", o->unit.name);
	/*
	 * As docker ps and crictl show a container: the first 12 characters of
	 * its id; one with neither name nor id (named from its namespaces) in
	 * the words that say so.
	 */
	if (o->container.runtime && (o->container.name[0] || o->container.id[0]))
		snprintf(ctr, sizeof(ctr), "%s/%.*s", o->container.runtime,
			 o->container.name[0] || strchr(o->container.id, '-') ? CGROUP_NAME_MAX : 12,
			 o->container.name[0] ? o->container.name : o->container.id);
	else if (o->container.runtime)
		cgroup_container_words(o, ctr, sizeof(ctr));
	n = strlen(o->unit.name);
	report_set_owner(r, pf->pid, pf->comm, unit, ctr,
			 (o->unit.kind == UNIT_SYSTEM || o->unit.kind == UNIT_USER) && n > 8 &&
				 !strcmp(o->unit.name + n - 8, ".service"));
}

int cmd_judge_process(struct check_ctx *ctx, struct proc_facts *pf, const struct check_policy *pol)
{
	char line[1024];
	int ret = 0;

	proc_facts_summary(pf, line, sizeof(line));
	report_note_proc(ctx->report, pf->pid, "%s", line);
	if (pf->scene_taken && scene_summary(&pf->scene, line, sizeof(line)))
		report_note_proc(ctx->report, pf->pid, "%s", line);
	owner_record(ctx->report, pf);
	if (proc_sockets_summary(&pf->sockets, line, sizeof(line)))
		report_note_proc(ctx->report, pf->pid, "pid %d %s", (int)pf->pid, line);
	if (ctx->report->processes_out &&
	    proc_facts_json_write(pf, ctx->report->processes_out, !ctx->report->nprocesses++))
		ret = EXIT_CANNOT;
	if (pf->scene_taken &&
	    scene_metrics(&ctx->report->metrics, &pf->scene, (int)pf->pid, pf->comm)) {
		error_msg("out of memory");
		ret = EXIT_CANNOT;
	}
	check_ctx_set_proc(ctx, pf);
	checks_run_scope(SCOPE_PROCESS, ctx, pol);
	check_ctx_set_proc(ctx, NULL);
	return ret;
}

static int find_all(const struct sysroot *sr, pid_t **pids, size_t *npids, struct report *r)
{
	unsigned int unreadable;
	int err;

	err = uring_pids_find(sr, pids, npids, &unreadable);
	if (err) {
		error_msg("cannot list processes: %s", strerror(-err));
		return EXIT_CANNOT;
	}
	if (unreadable)
		report_note(r, "%u process%s could not be read (their fds need root or the same "
			    "user): not audited", unreadable, unreadable == 1 ? "" : "es");
	if (!*npids)
		report_note(r, "no readable process has an io_uring fd");
	return 0;
}

/*
 * A thread's id names its process (top -H and ps -L list them): that
 * process is audited, under its own pid, and the report says so. A process
 * named twice, by itself or by its threads, is audited once.
 */
static void resolve_named(const struct sysroot *sr, pid_t *pids, size_t *npids, struct report *r)
{
	size_t i, j, n = 0;

	for (i = 0; i < *npids; i++) {
		pid_t pid = pids[i], tgid;
		bool twice = false;

		if (!proc_tgid(sr, pid, &tgid) && tgid > 0 && tgid != pid) {
			if (proc_leader_alive(sr, tgid)) {
				report_note(r, "%d is a thread of pid %d: pid %d is audited",
					    (int)pid, (int)tgid, (int)tgid);
				pid = tgid;
			} else {
				/* Its fds show only under a live thread (or a tree holds only it). */
				report_note(r, "%d is a thread of pid %d, whose main thread is gone or "
					    "was not captured: audited through thread %d", (int)pid,
					    (int)tgid, (int)pid);
			}
		}
		for (j = 0; j < n && !twice; j++)
			twice = pids[j] == pid;
		if (twice) {
			report_note(r, "pid %d is named more than once: audited once", (int)pid);
			continue;
		}
		pids[n++] = pid;
	}
	*npids = n;
}

/*
 * A named process that holds no ring while its descendants do (a forking
 * server, fio's parent): the rings are the children's, and a report of the
 * parent alone would read "0 fail" whatever they do. Each such child (the
 * ones its reading found, breadth first) is read and audited beside it, in
 * the same window, and the report says which and why; at most cap in all.
 */
static void follow_ring_children(const struct sysroot *sr, struct proc_facts *pfs, size_t *n,
				 size_t cap, unsigned int watch, struct check_ctx *ctx,
				 struct net_cache *net)
{
	size_t named = *n, i, j, k;
	char list[256];

	for (i = 0; i < named; i++) {
		list[0] = '\0';
		for (k = 0; k < pfs[i].nring_children && *n < cap; k++) {
			pid_t kid = pfs[i].ring_children[k];
			bool dup = false;

			for (j = 0; j < *n && !dup; j++)
				dup = pfs[j].pid == kid;
			if (dup)
				continue;
			audit_gather(sr, kid, watch, ctx, net, &pfs[(*n)++]);
			catf(list, sizeof(list), "%s%d", list[0] ? " " : "", (int)kid);
		}
		if (list[0])
			report_note(ctx->report, "pid %d holds no ring; its descendants that do are "
				    "audited with it: pid %s", (int)pfs[i].pid, list);
	}
}

/*
 * Every process in the same windows, not one after another: all are read
 * (the heavy part), then each one's short window begins, then they end
 * together (one sleep), then those that need it are watched together, and
 * last each is judged in turn. The time to a verdict does not grow with
 * the number of processes.
 */
static int audit_all_at_once(const struct global_opts *g, const struct sysroot *sr,
			     const pid_t *pids, size_t n, bool named, unsigned int watch,
			     struct check_ctx *ctx, struct net_cache *net, bool *gone)
{
	/* Room for the ring-holding children of named processes (follow_ring_children). */
	size_t cap = n + (named ? URING_CHILDREN_MAX : 0);
	struct proc_facts *pfs = calloc(cap ? cap : 1, sizeof(*pfs));
	struct proc_facts **each = calloc(cap ? cap : 1, sizeof(*each));
	unsigned int *secs = calloc(cap ? cap : 1, sizeof(*secs));
	size_t i;
	int err;

	if (!pfs || !each || !secs) {
		free(pfs);
		free(each);
		free(secs);
		error_msg("out of memory");
		return EXIT_CANNOT;
	}
	for (i = 0; i < n; i++)
		audit_gather(sr, pids[i], watch, ctx, net, &pfs[i]);
	if (named)
		follow_ring_children(sr, pfs, &n, cap, watch, ctx, net);
	for (i = 0; i < n; i++)
		each[i] = &pfs[i];
	for (i = 0; i < n; i++)
		proc_facts_window_begin(sr, &pfs[i]);
	for (i = 0; i < n; i++)
		proc_facts_window_end(sr, &pfs[i]);
	for (i = 0; i < n; i++)
		secs[i] = audit_watch_seconds(sr, &pfs[i], watch, ctx);
	err = proc_facts_watch_many(sr, each, secs, n, g->trace != NULL, !g->no_scene);
	if (err)
		report_note(ctx->report, "the watches could not all run at once (%s): those left "
			    "were watched after, one at a time", strerror(-err));
	/* Without a watch, the scene of an io_uring process is one reading. */
	for (i = 0; i < n; i++)
		if (!secs[i] && fact_ok(&pfs[i].e) && !pfs[i].kernel_thread && !pfs[i].zombie &&
		    pfs[i].nrings) {
			if (g->no_scene)
				proc_facts_scene_off(&pfs[i]);
			else
				proc_facts_scene_once(sr, &pfs[i]);
		}
	for (i = 0; i < n; i++) {
		*gone |= audit_judge(sr, &pfs[i], named, secs[i], ctx, &g->policy, g->trace) != 0;
		proc_facts_free(&pfs[i]);
	}
	free(pfs);
	free(each);
	free(secs);
	return 0;
}

int cmd_audit_processes(const struct global_opts *g, const struct sysroot *sr, pid_t **pids,
			size_t *npids, unsigned int watch, struct check_ctx *ctx, bool *gone)
{
	struct report *r = ctx->report;
	struct net_cache net = { 0 };	/* each namespace's socket tables, read once */
	bool named = *npids > 0;
	int ret;

	*gone = false;
	/* The inventory is the JSON contract's; it is not rendered for text. */
	if (output_format_has_processes(g->format) && report_processes_begin(r)) {
		error_msg("out of memory");
		return EXIT_CANNOT;
	}
	if (!named) {
		ret = find_all(sr, pids, npids, r);
		if (ret)
			return ret;
	} else {
		resolve_named(sr, *pids, npids, r);
	}
	ret = audit_all_at_once(g, sr, *pids, *npids, named, watch, ctx, &net, gone);
	net_cache_free(&net);
	if (ret)
		return ret;
	if (report_processes_end(r)) {
		error_msg("out of memory");
		return EXIT_CANNOT;
	}
	return 0;
}

/*
 * Whether two output names are one file: the same name in the same directory
 * (by device and inode, so "./r.json" and "/tmp/r.json" are one), or one inode.
 */
static bool same_file_name(const char *a, const char *b)
{
	const char *ba = strrchr(a, '/'), *bb = strrchr(b, '/');
	char *da = ba ? strndup(a, ba == a ? 1 : (size_t)(ba - a)) : strdup(".");
	char *db = bb ? strndup(b, bb == b ? 1 : (size_t)(bb - b)) : strdup(".");
	struct stat sa, sb;
	bool same = false;

	if (da && db && !stat(da, &sa) && !stat(db, &sb))
		same = sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino &&
		       !strcmp(ba ? ba + 1 : a, bb ? bb + 1 : b);
	if (!same && !stat(a, &sa) && !stat(b, &sb))
		same = sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	free(da);
	free(db);
	return same || !strcmp(a, b);
}

/* audit's options and operands into a; 0, or the usage error's exit status. */
static int audit_args_parse(int argc, char **argv, struct global_opts *g, struct audit_args *a)
{
	int c, ret = 0;
	size_t i;

	for (i = 0; i < g->cfg->ndata_paths; i++) {
		xarray_grow(&a->data_paths, &a->data_paths_cap, a->ndata_paths + 1);
		a->data_paths[a->ndata_paths++] = g->cfg->data_paths[i];
	}
	while ((c = cmd_getopt(argc, argv, g, &ret)) != -1) {
		if (c == OPT_ALL) {
			a->all = true;
		} else if (c == OPT_WATCH) {
			ret = arg_watch(optarg, &a->watch);
			if (ret)
				return ret;
			a->watch_given = true;
		} else if (c == OPT_DATA_PATH) {
			xarray_grow(&a->data_paths, &a->data_paths_cap, a->ndata_paths + 1);
			a->data_paths[a->ndata_paths++] = optarg;
		} else if (c == OPT_EXEC) {
			a->exec = true;
		} else if (c == OPT_USER) {
			a->user = optarg;
		} else if (c == OPT_TRACE) {
			a->trace = optarg;
		} else if (c == OPT_NO_SCENE) {
			g->no_scene = true;
		}
	}
	if (ret)
		return ret;
	if (a->trace && !a->exec && (!a->watch_given || !a->watch))
		return usage_error("--trace FILE writes what a watch sampled: give --watch SECONDS "
				   "or --exec");
	if (a->trace && g->output && same_file_name(a->trace, g->output))
		return usage_error("--trace and -o name one file: give each its own");
	if (a->exec) {
		if (optind >= argc || a->all || a->watch_given)
			return usage_error(optind >= argc ? "audit --exec needs a program: audit --exec "
							     "-- CMD [ARGS]"
					   : "audit --exec watches its program from start to end: no "
					     "--all or --watch");
		return 0;
	}
	if (a->user)
		return usage_error("--user is for the program --exec runs");
	for (; optind < argc; optind++) {
		pid_t pid = 0;

		ret = arg_pid(argv[optind], &pid);
		if (ret)
			return ret;
		xarray_grow(&a->pids, &a->pids_cap, a->npids + 1);
		a->pids[a->npids++] = pid;
	}
	if (!a->npids == !a->all)
		return usage_error(a->all ? "audit takes process IDs or --all, not both"
					  : "audit needs process IDs or --all");
	return 0;
}

int cmd_audit(int argc, char **argv, struct global_opts *g)
{
	struct audit_args a = { .watch = WATCH_AUTO };
	struct watch_trace trace = { 0 };
	struct audit_opts aopts;
	struct collect_opts copts = { 0 };
	struct cmd_run run;
	struct plan plan;
	struct exec_user eu;
	bool gone = false;
	int ret;

	ret = audit_args_parse(argc, argv, g, &a);
	if (!ret && a.exec)
		ret = exec_user_lookup(a.user, &eu);
	if (ret)
		goto out_args;
	plan_defaults(&plan);
	aopts = (struct audit_opts){ .data_paths = a.data_paths, .ndata_paths = a.ndata_paths };
	cmd_run_begin(&run, g, &g->sr, &copts, &plan, &aopts);
	g->trace = a.trace ? &trace : NULL;
	if (a.exec) {
		ret = cmd_audit_exec(g, argv + optind, a.user ? &eu : NULL, &run.ctx);
	} else {
		ret = cmd_audit_processes(g, &g->sr, &a.pids, &a.npids, a.watch, &run.ctx, &gone);
		if (!ret)
			ret = cmd_finish_report(g, &run.r, gone);
	}
	cmd_run_end(&run);
	/* The trace after the report, whose exit status stands unless the trace cannot be written. */
	if (a.trace && g->trace && cmd_write_file(a.trace, watch_trace_write, &trace))
		ret = EXIT_CANNOT;
out_args:
	watch_trace_free(&trace);
	g->trace = NULL;
	free(a.pids);
	free(a.data_paths);
	return ret;
}
