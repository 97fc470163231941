// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cgroup, session and terminal of a program audit --exec runs, and the
 * keeper that ends them (exec_cage.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "exec_cage.h"
#include "proc_cgroup.h"

/* How long the keeper waits for the last output, then for the cgroup to empty. */
#define KEEPER_WAIT_MS 2000

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void sleep_10ms(void)
{
	struct timespec ts = { 0, 10 * 1000000L };

	nanosleep(&ts, NULL);
}

/* Writes text to a file of the cgroup dir: 0 or -errno. */
static int cg_write(int dir, const char *file, const char *text)
{
	ssize_t n;
	int fd, err = 0;

	fd = openat(dir, file, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

/* The start of a file of the cgroup dir, NUL-terminated: its length, or -errno. */
static ssize_t cg_read(int dir, const char *file, char *buf, size_t bufsz)
{
	ssize_t n;
	int fd;

	fd = openat(dir, file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, bufsz - 1);
	if (n < 0)
		n = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return n;
}

/* The cgroup made in uringlint's own, empty; c->parent -1 and c->why when it cannot be. */
static void cgroup_make(const struct sysroot *sr, struct exec_cage *c)
{
	struct proc_cgroup own;
	int err, fd;

	snprintf(c->name, sizeof(c->name), "uringlint-exec-%d", (int)getpid());
	err = proc_cgroup_find(sr, getpid(), &own);
	if (err) {
		snprintf(c->why, sizeof(c->why), "%s", err == -ENOENT ? "no cgroup v2 hierarchy is "
			 "mounted" : strerror(-err));
		return;
	}
	fd = sysroot_open_live_dir(sr, own.rel);
	if (fd < 0) {
		snprintf(c->why, sizeof(c->why), "%.160s: %s", own.path, strerror(-fd));
		return;
	}
	/* One left by a uringlint of this pid before, empty (its keeper killed): gone first. */
	unlinkat(fd, c->name, AT_REMOVEDIR);
	if (mkdirat(fd, c->name, 0755)) {
		snprintf(c->why, sizeof(c->why), "cannot make a cgroup in %.160s: %s", own.path,
			 strerror(errno));
		close(fd);
		return;
	}
	c->parent = fd;
}

/* SIGKILL to each pid of a list (cgroup.procs' lines, or a children file's words); any listed. */
static bool kill_listed(const char *list)
{
	const char *p = list;
	bool any = false;
	char *end;

	for (;;) {
		long pid;

		while (*p == ' ' || *p == '\n')
			p++;
		pid = strtol(p, &end, 10);
		if (end == p)
			return any;
		any = true;
		kill((pid_t)pid, SIGKILL);
		p = end;
	}
}

/* Every process in the cgroup killed, those it forks meanwhile too. */
static void cgroup_kill(int cg)
{
	char buf[4096];
	int i;

	/* cgroup.kill (Linux 5.14) kills them all at once, racing no fork. */
	if (!cg_write(cg, "cgroup.kill", "1"))
		return;
	/* Before it: what cgroup.procs lists, until it lists nothing. */
	for (i = 0; i < KEEPER_WAIT_MS / 10; i++) {
		if (cg_read(cg, "cgroup.procs", buf, sizeof(buf)) < 0)
			return;
		if (!kill_listed(buf))
			return;
		sleep_10ms();
	}
}

/*
 * Removes the cgroup once its processes are gone: zombies not reaped yet
 * leave it empty (they are unlinked from it at exit, Linux 4.4's "cgroup:
 * keep zombies associated with their original cgroups").
 */
static void cgroup_remove(int parent, const char *name, long deadline)
{
	while (unlinkat(parent, name, AT_REMOVEDIR) && errno == EBUSY && now_ms() < deadline)
		sleep_10ms();
}

/*
 * Bytes copied from one fd to another; the ones not written yet are kept,
 * so that a program that reads no input never blocks the keeper.
 */
struct relay {
	int from, to;		/* -1 from: done; -1 to: dropped */
	char buf[4096];
	size_t off, len;
};

static void relay_read(struct relay *r)
{
	ssize_t n = read(r->from, r->buf, sizeof(r->buf));

	if (n > 0) {
		r->off = 0;
		r->len = (size_t)n;
	} else if (!n || (errno != EAGAIN && errno != EINTR)) {
		r->from = -1;	/* EOF, or EIO: no one holds the pseudo-terminal any more */
	}
}

static void relay_write(struct relay *r)
{
	ssize_t n = r->to >= 0 ? write(r->to, r->buf + r->off, r->len - r->off)
			       : (ssize_t)(r->len - r->off);

	if (n > 0) {
		r->off += (size_t)n;
		if (r->off == r->len)
			r->len = 0;
	} else if (n < 0 && errno != EAGAIN && errno != EINTR) {
		r->len = 0;
		r->to = -1;
	}
}

/* Where the program's terminal output goes: uringlint's stdout, or stderr, when a terminal. */
static int tty_out(void)
{
	return isatty(1) ? 1 : isatty(2) ? 2 : -1;
}

/* The terminal's size, onto the pseudo-terminal (whose foreground gets SIGWINCH). */
static void copy_size(int master)
{
	struct winsize ws;

	if (!ioctl(0, TIOCGWINSZ, &ws))
		ioctl(master, TIOCSWINSZ, &ws);
}

/*
 * The keeper: relays until uringlint's end of the life pipe closes, then
 * ends the cgroup's processes, relays what they wrote last, removes the
 * cgroup and puts stdin's settings back. It never returns.
 */
static void keeper(struct exec_cage *c, int life)
{
	static const int ignored[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGTSTP, SIGTTIN,
				       SIGTTOU, SIGPIPE, SIGUSR1, SIGUSR2 };
	struct relay r[3];
	size_t nr = 0, i;
	long deadline = 0;
	int cg = -1, sfd = -1;
	bool raw = false;
	sigset_t set;

	for (i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
		signal(ignored[i], SIG_IGN);
	prctl(PR_SET_NAME, "uringlint-keep");
	/*
	 * Out of uringlint's process group, which a kill -9 -PGID (timeout -s
	 * KILL) ends: unless it reads the terminal, which only its foreground may.
	 */
	if (c->tty != EXEC_TTY_PTY)
		setpgid(0, 0);
	if (c->parent >= 0)
		cg = openat(c->parent, c->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->tty == EXEC_TTY_PTY) {
		struct termios t = c->saved;

		/* Every key to the program as typed: its terminal, not this one, edits and signals. */
		cfmakeraw(&t);
		raw = !tcsetattr(0, TCSANOW, &t);
		r[nr++] = (struct relay){ .from = 0, .to = c->keep_fd[0] };
		r[nr++] = (struct relay){ .from = c->keep_fd[0], .to = tty_out() };
		sigemptyset(&set);
		sigaddset(&set, SIGWINCH);
		sigprocmask(SIG_BLOCK, &set, NULL);
		sfd = signalfd(-1, &set, SFD_CLOEXEC);
	} else {
		for (i = 1; i < 3; i++)
			if (c->keep_fd[i] >= 0)
				r[nr++] = (struct relay){ .from = c->keep_fd[i], .to = (int)i };
	}
	for (;;) {
		struct pollfd p[5];
		int np = 0, timeout = -1;
		bool busy = false;

		p[np++] = (struct pollfd){ .fd = life, .events = POLLIN };
		p[np++] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		for (i = 0; i < nr; i++) {
			p[np].fd = r[i].len ? r[i].to : r[i].from;
			p[np++].events = r[i].len ? POLLOUT : POLLIN;
			busy |= r[i].len || (r[i].from >= 0 && r[i].from != 0);
		}
		if (deadline) {
			if (!busy || now_ms() >= deadline)
				break;
			timeout = (int)(deadline - now_ms());
		}
		if (poll(p, (nfds_t)np, timeout) < 0 && errno != EINTR)
			break;
		if (p[0].revents) {
			char b;

			if (read(life, &b, 1) <= 0) {
				/* uringlint is done, or dead: nothing of the program's outlives it. */
				close_fd(&life);
				if (cg >= 0)
					cgroup_kill(cg);
				if (c->tty == EXEC_TTY_PTY) {
					r[0].from = -1;	/* root's keys are root's again */
					r[0].len = 0;
				}
				deadline = now_ms() + KEEPER_WAIT_MS;
			}
		}
		if (p[1].revents) {
			struct signalfd_siginfo si;

			if (read(sfd, &si, sizeof(si)) > 0)
				copy_size(c->keep_fd[0]);
		}
		for (i = 0; i < nr; i++) {
			if (!p[2 + i].revents || p[2 + i].fd < 0)
				continue;
			if (r[i].len)
				relay_write(&r[i]);
			else
				relay_read(&r[i]);
			/* A relay's output fd gone (-1) drops what it reads. */
			if (r[i].len && r[i].to < 0)
				relay_write(&r[i]);
		}
	}
	if (raw)
		tcsetattr(0, TCSANOW, &c->saved);
	if (c->parent >= 0)
		cgroup_remove(c->parent, c->name, now_ms() + KEEPER_WAIT_MS);
	_exit(0);
}

/* The terminal and pipes the program gets in place of uringlint's terminal fds. */
static int tty_open(struct exec_cage *c)
{
	struct termios t;
	int i, fds[2], m;

	/* Interactive: stdin is the terminal, and uringlint is in its foreground. */
	if (isatty(0) && tcgetpgrp(0) == getpgrp() && !tcgetattr(0, &c->saved)) {
		m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (m < 0 || unlockpt(m))
			goto fail_pt;
		c->keep_fd[0] = m;
		/* The slave, opened through its master (Linux 4.13), by no name another could swap. */
		c->child_fd[0] = ioctl(m, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (c->child_fd[0] < 0)
			goto fail_pt;
		/*
		 * The terminal's settings, less the suspend key: a program Ctrl-Z
		 * stopped would wait for a fg that no shell of its session gives.
		 */
		t = c->saved;
		t.c_cc[VSUSP] = _POSIX_VDISABLE;
		tcsetattr(c->child_fd[0], TCSANOW, &t);
		copy_size(m);
		if (fcntl(m, F_SETFL, O_NONBLOCK))
			goto fail_pt;
		c->tty = EXEC_TTY_PTY;
		return 0;
	}
	c->tty = EXEC_TTY_PIPES;
	if (isatty(0)) {
		c->child_fd[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (c->child_fd[0] < 0)
			return -errno;
	}
	for (i = 1; i < 3; i++) {
		if (!isatty(i))
			continue;
		if (pipe2(fds, O_CLOEXEC))
			return -errno;
		c->keep_fd[i] = fds[0];
		c->child_fd[i] = fds[1];
	}
	return 0;
fail_pt:
	return -errno;
}

static void cage_close_fds(struct exec_cage *c, bool keeper_side)
{
	int i;

	for (i = 0; i < 3; i++)
		close_fd(keeper_side ? &c->keep_fd[i] : &c->child_fd[i]);
}

int exec_cage_open(const struct sysroot *sr, bool own_tty, struct exec_cage *c)
{
	int life[2], err, i;

	memset(c, 0, sizeof(*c));
	c->parent = c->life = -1;
	c->keeper = -1;
	for (i = 0; i < 3; i++)
		c->child_fd[i] = c->keep_fd[i] = -1;
	cgroup_make(sr, c);
	/*
	 * The program's double-forked descendants are adopted by uringlint, not
	 * init: without a cgroup, uringlint still finds them at the end.
	 */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	err = own_tty ? tty_open(c) : 0;
	if (!err && pipe2(life, O_CLOEXEC))
		err = -errno;
	if (err)
		goto fail;
	c->keeper = fork();
	if (c->keeper < 0) {
		err = -errno;
		close(life[0]);
		close(life[1]);
		goto fail;
	}
	if (!c->keeper) {
		close(life[1]);
		cage_close_fds(c, false);
		keeper(c, life[0]);
	}
	close(life[0]);
	c->life = life[1];
	cage_close_fds(c, true);
	return 0;
fail:
	cage_close_fds(c, false);
	cage_close_fds(c, true);
	if (c->parent >= 0) {
		unlinkat(c->parent, c->name, AT_REMOVEDIR);
		close_fd(&c->parent);
	}
	return err;
}

int exec_cage_enter(struct exec_cage *c)
{
	int i;

	close_fd(&c->life);
	if (c->tty == EXEC_TTY_INHERIT)
		return 0;
	/* A session of its own: root's terminal is no longer its controlling one. */
	if (setsid() < 0)
		return -errno;
	if (c->tty == EXEC_TTY_PTY && ioctl(c->child_fd[0], TIOCSCTTY, 0))
		return -errno;
	for (i = 0; i < 3; i++) {
		int fd = c->child_fd[i];

		/* The pseudo-terminal in place of each terminal fd; the others stay as given. */
		if (c->tty == EXEC_TTY_PTY && i && isatty(i))
			fd = c->child_fd[0];
		if (fd >= 0 && dup2(fd, i) < 0)
			return -errno;
	}
	/* Nothing else of uringlint's open files goes to the program (Linux 5.11; before, as open). */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	return 0;
}

void exec_cage_started(struct exec_cage *c, pid_t pid)
{
	char text[32];
	int cg, err;

	cage_close_fds(c, false);
	if (c->parent < 0)
		return;
	snprintf(text, sizeof(text), "%d", (int)pid);
	cg = openat(c->parent, c->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	err = cg < 0 ? -errno : cg_write(cg, "cgroup.procs", text);
	if (cg >= 0)
		close(cg);
	if (err) {
		snprintf(c->why, sizeof(c->why), "cannot move it into cgroup %s: %s", c->name,
			 strerror(-err));
		unlinkat(c->parent, c->name, AT_REMOVEDIR);
		close_fd(&c->parent);
	}
}

/*
 * Without a cgroup: the processes the program left, which uringlint, their
 * subreaper, adopted, killed (and theirs, adopted in turn) and reaped.
 */
static void orphans_kill(void)
{
	char buf[4096];
	int i;

	for (i = 0; i < KEEPER_WAIT_MS / 10; i++) {
		bool any;
		ssize_t n;
		int fd;

		fd = open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			break;
		buf[n] = '\0';
		any = kill_listed(buf);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (!any)
			break;
		sleep_10ms();
	}
}

void exec_cage_close(struct exec_cage *c)
{
	close_fd(&c->life);
	if (c->keeper > 0)
		while (waitpid(c->keeper, NULL, 0) < 0 && errno == EINTR)
			;
	c->keeper = -1;
	if (c->parent < 0)
		orphans_kill();
	/* Those adopted and killed with the cgroup: reaped. */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	close_fd(&c->parent);
}
