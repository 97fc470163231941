// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uringlint audit --exec -- CMD [ARGS]: runs a program under the watch,
 * from its first instruction to its exit. The child waits on a pipe until
 * the tracepoints are open on it, inherited by every thread and child it
 * will make, then runs CMD with uringlint's stdin, stdout and stderr, so
 * each ring's io_uring_create, the only event that carries the setup
 * flags, is seen. Its fds, rings and threads are read now and then while
 * it runs; when it exits, the last reading and the whole watch are judged,
 * and the report is written. uringlint exits with the program's status:
 * a wrapper must not change what its caller sees, unless asked to fail on
 * findings (--fail-on).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "proc_facts.h"
#include "ring_match.h"

/* The first reading soon after the start, when rings are usually set up; then every second. */
#define FIRST_READ_MS 200
#define READ_EVERY_MS 1000

static volatile sig_atomic_t child_pid;

/*
 * Signals sent to uringlint by another process go on to the program. One
 * from the terminal (Ctrl-C: si_pid 0, or the kernel) has reached the
 * program already, which shares the foreground process group: not twice.
 */
static void forward(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (child_pid > 0 && si && si->si_code == SI_USER && si->si_pid != 0)
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
	int go;			/* write end of the pipe the child waits on */
	struct proc_facts last;	/* the last full reading of the program */
	bool have_last;
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

/* A full reading of the program as it runs; kept when it is whole. */
static void tick(void *arg)
{
	struct exec_run *x = arg;
	struct proc_facts pf;

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
}

static double since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* In the child: wait for the go, then become the program; say why if it cannot. */
static void child(char **argv, int go, int why)
{
	char c;
	int err;

	forward_signals(false);
	while (read(go, &c, 1) < 0 && errno == EINTR)
		;
	close(go);
	execvp(argv[0], argv);
	err = errno;
	if (write(why, &err, sizeof(err)) < 0) {
		/* nothing more to say */
	}
	_exit(err == ENOENT ? 127 : 126);
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

int cmd_audit_exec(struct global_opts *g, char **argv, struct check_ctx *ctx)
{
	struct exec_run x = { .sr = &g->sr, .go = -1 };
	struct watch_exec ex = { .started = started, .tick = tick,
				 .first_tick_ms = FIRST_READ_MS, .tick_ms = READ_EVERY_MS, .arg = &x };
	struct punt_watch *w = calloc(1, sizeof(*w));
	int go[2], why[2], status = 0, err = 0, st, ret;
	struct timespec end;
	bool watched;
	ssize_t n;
	pid_t pid;

	if (!w || pipe2(go, O_CLOEXEC) || pipe2(why, O_CLOEXEC)) {
		error_msg("cannot start '%s': %s", argv[0], strerror(w ? errno : ENOMEM));
		free(w);
		return EXIT_CANNOT;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		error_msg("cannot start '%s': %s", argv[0], strerror(errno));
		free(w);
		return EXIT_CANNOT;
	}
	if (!pid) {
		close(go[1]);
		close(why[0]);
		child(argv, go[0], why[1]);
	}
	close(go[0]);
	close(why[1]);
	child_pid = pid;
	x.pid = pid;
	x.go = go[1];
	forward_signals(true);

	watched = punt_watch_exec(pid, w, &ex);
	if (!watched) {
		/* No tracepoints (not root, or refused): the program runs unwatched, read now and then. */
		started(&x);
		for (;;) {
			struct timespec ts = { 0, 100 * 1000000L };
			pid_t r = waitpid(pid, &status, WNOHANG);

			if (r == pid || (r < 0 && errno != EINTR))
				break;
			tick(&x);
			nanosleep(&ts, NULL);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	if (watched)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	forward_signals(false);
	child_pid = 0;
	n = read(why[0], &err, sizeof(err));
	close(why[0]);
	if (n == (ssize_t)sizeof(err)) {
		error_msg("cannot run '%s': %s", argv[0], strerror(err));
		if (x.have_last)
			proc_facts_free(&x.last);
		punt_watch_free(w);
		free(w);
		return err == ENOENT ? 127 : 126;
	}
	st = program_status(status);

	/* What was last read of it, or, for a program too brief to read, only what the watch saw. */
	if (!x.have_last) {
		memset(&x.last, 0, sizeof(x.last));
		x.last.pid = pid;
		snprintf(x.last.comm, sizeof(x.last.comm), "%.15s", argv[0]);
		fact_fail(&x.last.fds_e, -ESRCH, "it exited before it could be read");
	}
	report_note(ctx->report, "pid %d (%s) ran %.2f s under the watch and exited with status %d%s",
		    (int)pid, argv[0], since(&x.start, &end), st,
		    x.have_last ? "" : "; it ended before its fds could be read");
	if (x.have_last)
		report_note(ctx->report, "its fds, rings and threads as read %.2f s after it started",
			    since(&x.start, &x.last_at));
	if (watched) {
		w->exited = true;
		x.last.watch = w;
		ring_match(&x.last, w);
	} else {
		fact_fail(&w->e, -EPERM, "%s", w->fallback_why);
		x.last.watch = w;
	}
	ret = g->format == FORMAT_JSON && report_processes_begin(ctx->report) ? EXIT_CANNOT : 0;
	if (!ret && cmd_judge_process(ctx, &x.last, &g->policy))
		ret = EXIT_CANNOT;
	if (!ret && report_processes_end(ctx->report))
		ret = EXIT_CANNOT;
	if (!ret) {
		ret = cmd_emit_report(g, ctx->report);
		/* The program's status, unless findings were asked to fail the run and did. */
		if (ret != EXIT_CANNOT)
			ret = st == 0 && g->fail_on_given && ret == EXIT_FINDINGS ? EXIT_FINDINGS : st;
	}
	proc_facts_free(&x.last);	/* frees the watch too */
	return ret;
}
