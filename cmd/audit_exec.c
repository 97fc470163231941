// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uringlint audit --exec -- CMD [ARGS]: runs a program under the watch,
 * from its first instruction to its exit. The child waits on a pipe until
 * the tracepoints are open on it, inherited by every thread and child it
 * will make, then runs CMD, so each ring's io_uring_create, the only
 * event that carries the setup flags, is seen. Its fds, rings and threads are read now and then while
 * it runs; when it exits, the last reading and the whole watch are judged,
 * and the report is written. uringlint exits with the program's status:
 * a wrapper must not change what its caller sees, unless asked to fail on
 * findings (--fail-on).
 *
 * What the program is given: without --user, uringlint's environment,
 * stdin, stdout and stderr, and its user (root, every capability). With
 * --user the program runs as that user, with the user's groups (as
 * initgroups(3) gives them) and no capability (uringlint keeps root to
 * watch it), in a clean environment as su -l / runuser -l make one (HOME,
 * SHELL, USER, LOGNAME from the passwd entry, a standard PATH, and only
 * TERM, COLORTERM, TZ, LANG, LANGUAGE and LC_* of uringlint's), in a
 * session of its own with no fd of the terminal uringlint was started
 * from: a program on root's terminal could push keys into it (TIOCSTI)
 * for root's shell to run. CMD without a '/' is looked up in the PATH the
 * program gets, as env(1) and every wrapper do.
 *
 * The program ends with uringlint, however uringlint ends: it runs in a
 * cgroup of its own, which a keeper process kills whole when uringlint
 * exits or is killed, double-forked daemons and programs that ignore
 * SIGTERM included (exec_cage.h); the program gets SIGTERM too if
 * uringlint dies (PR_SET_PDEATHSIG). (The kernel clears that at the exec
 * of a set-user-ID or file-capability program; the cgroup holds it still.)
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "exec_cage.h"
#include "exec_secure.h"
#include "parse.h"
#include "proc_facts.h"
#include "proc_scan.h"
#include "watch.h"

/* The first reading soon after the start, when rings are usually set up; then every second. */
#define FIRST_READ_MS 200
#define READ_EVERY_MS 1000

static volatile sig_atomic_t child_pid;
static volatile sig_atomic_t child_own_session;

/*
 * Signals sent to uringlint by another process go on to the program. One
 * from the terminal (Ctrl-C: si_pid 0, or the kernel) has reached the
 * program already when it shares the foreground process group: not twice.
 */
static void forward(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (child_pid > 0 && si &&
	    (child_own_session || (si->si_code == SI_USER && si->si_pid != 0)))
		kill(child_pid, sig);
}

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };

static void forward_signals(bool on)
{
	struct sigaction sa = { 0 };
	size_t i;

	if (on) {
		sa.sa_sigaction = forward;
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
	} else {
		sa.sa_handler = SIG_DFL;
	}
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaction(forwarded[i], &sa, NULL);
}

struct exec_run {
	const struct sysroot *sr;
	pid_t pid;
	bool after_exec;	/* watched by its threads after its exec (a secure exec) */
	int go;			/* write end of the pipe the child waits on */
	struct proc_facts last;	/* the last full reading of the program */
	bool have_last;
	bool secure_checked;	/* AT_SECURE looked at, once it had exec'ed */
	/*
	 * A program without a ring of its own whose children have rings (fio's
	 * job processes, a forking server's workers): the last reading of each.
	 */
#define EXEC_KIDS_MAX 8
	struct proc_facts kids[EXEC_KIDS_MAX];
	size_t nkids;
	bool secure_unseen;	/* a secure exec the prediction missed: the watch went blind */
	struct timespec start, last_at;
};

static void started(void *arg)
{
	struct exec_run *x = arg;

	clock_gettime(CLOCK_MONOTONIC, &x->start);
	if (x->go >= 0) {
		/* One byte: the child runs its program. */
		if (write(x->go, "", 1) < 0) {
			/* The child went already; the exec pipe will say why. */
		}
		close(x->go);
		x->go = -1;
	}
}

/* Its descendants that hold rings, each read again; a reading is kept while it is whole. */
static void tick_kids(struct exec_run *x)
{
	pid_t pids[EXEC_KIDS_MAX];
	size_t n, i, k;

	if (uring_children_find(x->sr, x->pid, pids, EXEC_KIDS_MAX, &n))
		return;
	for (i = 0; i < n; i++) {
		struct proc_facts pf;

		proc_facts_collect(x->sr, pids[i], NULL, &pf);
		if (!fact_ok(&pf.e) || pf.incomplete || pf.zombie || !pf.nrings) {
			proc_facts_free(&pf);
			continue;
		}
		proc_threads_read_affinity(x->sr, pids[i], &pf.threads);
		for (k = 0; k < x->nkids && x->kids[k].pid != pids[i]; k++)
			;
		if (k < x->nkids)
			proc_facts_free(&x->kids[k]);
		else if (x->nkids < EXEC_KIDS_MAX)
			x->nkids++;
		else {
			proc_facts_free(&pf);
			continue;
		}
		x->kids[k] = pf;
	}
}

/* A full reading of the program as it runs; kept when it is whole. */
static void tick(void *arg)
{
	struct exec_run *x = arg;
	struct proc_facts pf;

	/*
	 * A secure exec drops the events opened before it. exec_secure_why()
	 * predicts it from the program file; AT_SECURE says what the kernel
	 * decided (an LSM transition, say), once, at the first reading.
	 */
	if (!x->secure_checked) {
		x->secure_checked = true;
		x->secure_unseen = !x->after_exec && proc_at_secure(x->sr, x->pid) == 1;
	}
	proc_facts_collect(x->sr, x->pid, NULL, &pf);
	if (!fact_ok(&pf.e) || pf.incomplete || pf.zombie) {
		proc_facts_free(&pf);
		return;
	}
	/* The program may pin its threads at any time: where they may run, as of this reading. */
	proc_threads_read_affinity(x->sr, x->pid, &pf.threads);
	if (x->have_last)
		proc_facts_free(&x->last);
	x->last = pf;
	x->have_last = true;
	clock_gettime(CLOCK_MONOTONIC, &x->last_at);
	if (!pf.nrings)
		tick_kids(x);
}

static double since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* Why the child could not become the program: the step, and its errno. */
enum child_step { STEP_USER, STEP_EXEC, STEP_TTY };
struct child_why {
	int step;
	int err;
};

static void child_fail(int why, enum child_step step, int err)
{
	struct child_why w = { step, err };

	if (write(why, &w, sizeof(w)) < 0) {
		/* nothing more to say */
	}
	_exit(step == STEP_EXEC && err == ENOENT ? 127 : 126);
}

/* The PATH su -l gives (Debian's login.defs, ENV_SUPATH for root, ENV_PATH otherwise). */
static const char *user_path(uid_t uid)
{
	return uid ? "/usr/local/bin:/usr/bin:/bin"
		   : "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
}

/* What su -l keeps of its caller's environment: the terminal's type, the time zone, the locale. */
static bool env_kept(const char *var)
{
	static const char *const kept[] = { "TERM=", "COLORTERM=", "TZ=", "LANG=", "LANGUAGE=",
					    "LC_" };
	size_t i;

	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		if (!strncmp(var, kept[i], strlen(kept[i])))
			return true;
	return false;
}

/* The user's clean environment in place of uringlint's; 0 or -errno. */
static int user_env(const struct exec_user *u)
{
	static const char *const names[] = { "HOME", "SHELL", "USER", "LOGNAME", "PATH" };
	const char *values[] = { u->home, u->shell, u->name, u->name, user_path(u->uid) };
	size_t n = 0, i, max;
	char **env;

	for (max = 0; environ && environ[max]; max++)
		;
	env = calloc(max + 6, sizeof(*env));
	if (!env)
		return -ENOMEM;
	for (i = 0; i < max; i++)
		if (env_kept(environ[i]))
			env[n++] = environ[i];
	for (i = 0; i < 5; i++)
		if (asprintf(&env[n++], "%s=%s", names[i], values[i]) < 0)
			return -ENOMEM;
	environ = env;
	return 0;
}

/* The user's credentials; 0 or -errno. */
static int become_user(const struct exec_user *u)
{
	if (initgroups(u->name, u->gid) || setgid(u->gid) || setuid(u->uid))
		return -errno;
	/* Changed IDs: no way back to root, and every capability gone. */
	if (!setuid(0))
		return -EPERM;
	return 0;
}

/*
 * In the child: its session and fds, the user's credentials and
 * environment, ask for SIGTERM when uringlint dies (after the IDs change,
 * which would clear it), wait for the go, then become the program; say why
 * if it cannot.
 */
static void child(char **argv, const struct exec_user *u, struct exec_cage *cage, pid_t parent,
		  int go, int why)
{
	char c;
	int err;

	forward_signals(false);
	err = exec_cage_enter(cage);
	if (err)
		child_fail(why, STEP_TTY, -err);
	if (u && (u->uid != geteuid() || u->gid != getegid())) {
		err = become_user(u);
		if (err)
			child_fail(why, STEP_USER, -err);
	}
	if (u) {
		err = user_env(u);
		if (err)
			child_fail(why, STEP_USER, -err);
	}
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
		_exit(126);	/* uringlint is gone already */
	while (read(go, &c, 1) < 0 && errno == EINTR)
		;
	close(go);
	execvp(argv[0], argv);
	child_fail(why, STEP_EXEC, errno);
}

/*
 * The program held no ring, its children did: each is audited under its
 * own pid in the program's place. The watch followed them all at once; its
 * samples are not split by process (a file is known by its fd, which each
 * process numbers alike), so it goes to the child alone when there is one,
 * and otherwise each child's watch is said not to be split.
 */
static int judge_kids(struct check_ctx *ctx, struct exec_run *x, const struct check_policy *pol,
		      struct punt_watch *w)
{
	size_t k;
	int ret = 0;

	report_note(ctx->report, "pid %d holds no ring; %zu of its children %s: audited in its "
		    "place, each under its own pid", (int)x->pid, x->nkids,
		    x->nkids == 1 ? "does" : "do");
	for (k = 0; !ret && k < x->nkids; k++) {
		struct proc_facts *kid = &x->kids[k];

		if (w && x->nkids == 1) {
			x->last.watch = NULL;	/* the child's now */
			proc_facts_after_watch(x->sr, kid, w, true, false);
		} else {
			proc_facts_set_watch(kid, calloc(1, sizeof(*kid->watch)));
			if (!kid->watch)
				return EXIT_CANNOT;
			fact_fail(&kid->watch->e, -EOPNOTSUPP, "%s", w ?
				  "the watch followed the program's processes together, and its "
				  "counts are not split by process; audit --watch SECONDS of this pid "
				  "watches it alone" : x->last.watch && x->last.watch->fallback_why[0]
				  ? x->last.watch->fallback_why : "not watched");
		}
		if (cmd_judge_process(ctx, kid, pol))
			ret = EXIT_CANNOT;
	}
	return ret;
}

int exec_user_lookup(const char *user, struct exec_user *eu)
{
	struct passwd *pw;
	uint64_t uid;

	memset(eu, 0, sizeof(*eu));
	if (!user)
		return 0;
	errno = 0;
	pw = getpwnam(user);
	if (!pw && !parse_u64(user, 10, &uid) && uid < UINT32_MAX)
		pw = getpwuid((uid_t)uid);
	if (!pw)
		return usage_error("--user: no such user: '%s'", user);
	if (geteuid() != 0 && pw->pw_uid != geteuid())
		return usage_error("--user %s: only root runs a program as another user", user);
	if (strlen(pw->pw_name) >= sizeof(eu->name) || strlen(pw->pw_dir) >= sizeof(eu->home) ||
	    strlen(pw->pw_shell) >= sizeof(eu->shell))
		return usage_error("--user %s: the user's name, home or shell is too long", user);
	eu->uid = pw->pw_uid;
	eu->gid = pw->pw_gid;
	snprintf(eu->name, sizeof(eu->name), "%s", pw->pw_name);
	snprintf(eu->home, sizeof(eu->home), "%s", pw->pw_dir);
	snprintf(eu->shell, sizeof(eu->shell), "%s", pw->pw_shell[0] ? pw->pw_shell : "/bin/sh");
	return 0;
}

/* The program's status as a shell gives it: its exit code, or 128 + the signal. */
static int program_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_CANNOT;
}

/*
 * Forks the program in its cage, waiting on x->go until the watch is open.
 * 0, or EXIT_CANNOT with the error said (nothing left open).
 */
static int exec_start(struct global_opts *g, char **argv, const struct exec_user *user,
		      struct check_ctx *ctx, struct exec_run *x, struct exec_cage *cage, int *why_rd)
{
	pid_t parent = getpid();
	int go[2], why[2], err;
	pid_t pid;

	fflush(NULL);
	/*
	 * First, so that the keeper holds no end of the pipes below (the go pipe's
	 * reader would wait on it). Another user's program gets no terminal of root's.
	 */
	err = exec_cage_open(&g->sr, user != NULL, cage);
	if (err) {
		error_msg("cannot start '%s': %s", argv[0], strerror(-err));
		return EXIT_CANNOT;
	}
	if (pipe2(go, O_CLOEXEC) || pipe2(why, O_CLOEXEC)) {
		error_msg("cannot start '%s': %s", argv[0], strerror(errno));
		exec_cage_close(cage);
		return EXIT_CANNOT;
	}
	pid = fork();
	if (pid < 0) {
		error_msg("cannot start '%s': %s", argv[0], strerror(errno));
		exec_cage_close(cage);
		return EXIT_CANNOT;
	}
	if (!pid) {
		close(go[1]);
		close(why[0]);
		child(argv, user, cage, parent, go[0], why[1]);
	}
	close(go[0]);
	close(why[1]);
	exec_cage_started(cage, pid);
	if (cage->parent < 0)
		report_note(ctx->report, "the program has no cgroup of its own (%s): what it leaves "
			    "running when uringlint is killed may run on", cage->why);
	child_own_session = cage->tty != EXEC_TTY_INHERIT;
	child_pid = pid;
	x->pid = pid;
	x->go = go[1];
	*why_rd = why[0];
	return 0;
}

/*
 * Runs the program to its end: under the watch, or, without tracepoints
 * (not root, or refused), unwatched and read now and then. Whether it was
 * watched; its wait status in *status, the time it ended in *end.
 */
static bool exec_run_watched(struct exec_run *x, struct watch_exec *ex, struct punt_watch *w,
			     int *status, struct timespec *end)
{
	bool watched;

	forward_signals(true);
	watched = punt_watch_exec(x->sr, x->pid, w, ex);
	if (!watched) {
		started(x);
		for (;;) {
			struct timespec ts = { 0, 100 * 1000000L };
			pid_t r = waitpid(x->pid, status, WNOHANG);

			if (r == x->pid || (r < 0 && errno != EINTR))
				break;
			tick(x);
			nanosleep(&ts, NULL);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, end);
	if (watched)
		while (waitpid(x->pid, status, 0) < 0 && errno == EINTR)
			;
	forward_signals(false);
	child_pid = 0;
	return watched;
}

/*
 * The child's word on why the program did not run, if it wrote one: said,
 * and the exit status a shell gives (127 not found, 126 otherwise); 0 when
 * the program ran.
 */
static int exec_failed(int why_rd, char **argv, const struct exec_user *user)
{
	struct child_why cw;
	ssize_t n = read(why_rd, &cw, sizeof(cw));

	close(why_rd);
	if (n != (ssize_t)sizeof(cw))
		return 0;
	if (cw.step == STEP_USER)
		error_msg("cannot run '%s' as user %s: %s", argv[0], user->name, strerror(cw.err));
	else if (cw.step == STEP_TTY)
		error_msg("cannot give '%s' its session and terminal: %s", argv[0],
			  strerror(cw.err));
	else
		error_msg("cannot run '%s': %s", argv[0], strerror(cw.err));
	return cw.step == STEP_EXEC && cw.err == ENOENT ? 127 : 126;
}

/* A program too brief to read: no fact of it is judged, none passes as zero. */
static void exec_unread(struct exec_run *x, const char *argv0)
{
	memset(&x->last, 0, sizeof(x->last));
	x->last.pid = x->pid;
	x->last.unread = true;
	snprintf(x->last.comm, sizeof(x->last.comm), "%.15s", argv0);
	fact_fail(&x->last.fds_e, -ESRCH, "it exited before its fds could be read");
	fact_fail(&x->last.status.e, -ESRCH, "it exited before its status could be read");
	fact_fail(&x->last.limits.e, -ESRCH, "it exited before its limits could be read");
	fact_fail(&x->last.threads.e, -ESRCH, "it exited before its threads could be read");
}

/* What the run was: how long, its status, when it was read, how it was watched. */
static void exec_notes(struct check_ctx *ctx, const struct exec_run *x, const char *argv0, int st,
		       const struct timespec *end, const struct punt_watch *w, bool watched,
		       const char *secure)
{
	report_note(ctx->report, "pid %d (%s) ran %.2f s under the watch and exited with status %d%s",
		    (int)x->pid, argv0, since(&x->start, end), st,
		    x->have_last ? "" : "; it ended before its fds could be read");
	if (x->have_last)
		report_note(ctx->report, "its fds, rings and threads as read %.2f s after it started",
			    since(&x->start, &x->last_at));
	if (watched && w->exec_stopped)
		report_note(ctx->report, "%s: the kernel drops a watch's events at such an exec, so "
			    "the program was stopped at its exec (ptrace) and watched from there, "
			    "%.1f ms after it started: nothing it did was missed", secure,
			    (double)w->attach_ns / 1e6);
	else if (watched && w->attached_after_exec)
		report_note(ctx->report, "%s: the kernel drops a watch's events at such an exec, so "
			    "the program was watched by its threads from %.0f ms after it started "
			    "(requests before then, and the setup flags of rings set up before then, "
			    "were not seen)", secure, (double)w->attach_ns / 1e6);
}

/*
 * The watch handed to the program's last reading: blind when a secure exec
 * the prediction missed removed its events, drawn into the trace, its
 * rings matched (when the program, not its children, holds them).
 * 0, or EXIT_CANNOT when the trace could not take it.
 */
static int exec_after_watch(struct global_opts *g, struct exec_run *x, struct punt_watch *w,
			    bool watched)
{
	int ret = 0;

	if (!watched) {
		fact_fail(&w->e, -EPERM, "%s", w->fallback_why);
		proc_facts_set_watch(&x->last, w);
		return 0;
	}
	if (x->secure_unseen) {
		/* Its events went at the exec: whatever they counted after proves nothing. */
		w->blind = true;
		snprintf(w->blind_why, sizeof(w->blind_why), "the program's exec was a secure one "
			 "(AT_SECURE: its credentials changed), which removes a watch's events: "
			 "nothing of it was seen after the exec");
		fact_fail(&w->e, -EACCES, "%s", w->blind_why);
	}
	/* A blind watch saw nothing that can be drawn. */
	if (g->trace && !w->blind &&
	    watch_trace_take(g->trace, x->pid, x->last.comm, w, x->have_last ? &x->last.threads : NULL)) {
		error_msg("out of memory");
		ret = EXIT_CANNOT;
	}
	w->exited = true;
	/* Its rings are its children's to match, when it has none. */
	proc_facts_after_watch(x->sr, &x->last, w, !x->nkids || x->last.nrings, false);
	return ret;
}

/* Judged and written: the program's, or its children's in its place. */
static int exec_judge(struct global_opts *g, struct check_ctx *ctx, struct exec_run *x,
		      struct punt_watch *w, bool watched, int st)
{
	int ret = output_format_has_processes(g->format) && report_processes_begin(ctx->report)
		  ? EXIT_CANNOT : 0;

	if (!ret && x->nkids && !x->last.nrings)
		ret = judge_kids(ctx, x, &g->policy, watched ? w : NULL);
	else if (!ret && cmd_judge_process(ctx, &x->last, &g->policy))
		ret = EXIT_CANNOT;
	if (!ret && report_processes_end(ctx->report))
		ret = EXIT_CANNOT;
	if (!ret) {
		ret = cmd_emit_report(g, ctx->report);
		/* The program's status, unless findings were asked to fail the run and did. */
		if (ret != EXIT_CANNOT)
			ret = st == 0 && g->fail_on_given && ret == EXIT_FINDINGS ? EXIT_FINDINGS : st;
	}
	return ret;
}

int cmd_audit_exec(struct global_opts *g, char **argv, const struct exec_user *user,
		   struct check_ctx *ctx)
{
	struct exec_run x = { .sr = &g->sr, .go = -1 };
	struct watch_exec ex = { .started = started, .tick = tick,
				 .first_tick_ms = FIRST_READ_MS, .tick_ms = READ_EVERY_MS, .arg = &x };
	struct punt_watch *w = calloc(1, sizeof(*w));
	struct exec_cage cage;
	char secure[PATH_MAX + 64];
	int status = 0, st, ret, why_rd;
	struct timespec end;
	bool watched;

	/* A program whose exec drops the events opened on it is watched by its threads after it. */
	ex.after_exec = exec_secure_why(argv[0], user ? user_path(user->uid) : NULL,
					user ? user->uid : geteuid(), user ? user->gid : getegid(),
					secure, sizeof(secure)) == 1;
	x.after_exec = ex.after_exec;
	if (!w) {
		error_msg("out of memory");
		return EXIT_CANNOT;
	}
	if (exec_start(g, argv, user, ctx, &x, &cage, &why_rd)) {
		free(w);
		return EXIT_CANNOT;
	}
	w->req.keep_spans = g->trace != NULL;
	watched = exec_run_watched(&x, &ex, w, &status, &end);
	/* What it left running ends; its last output is out before the report. */
	exec_cage_close(&cage);
	ret = exec_failed(why_rd, argv, user);
	if (ret) {
		if (x.have_last)
			proc_facts_free(&x.last);
		punt_watch_free(w);
		free(w);
		return ret;
	}
	st = program_status(status);
	/* What was last read of it, or, for a program too brief to read, only what the watch saw. */
	if (!x.have_last)
		exec_unread(&x, argv[0]);
	exec_notes(ctx, &x, argv[0], st, &end, w, watched, secure);
	ret = exec_after_watch(g, &x, w, watched);
	if (!ret)
		ret = exec_judge(g, ctx, &x, w, watched, st);
	proc_facts_free(&x.last);	/* frees the watch too, unless a child took it */
	for (size_t k = 0; k < x.nkids; k++)
		proc_facts_free(&x.kids[k]);
	return ret;
}
