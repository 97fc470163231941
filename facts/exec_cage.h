/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_EXEC_CAGE_H
#define URINGLINT_EXEC_CAGE_H

#include <stdbool.h>
#include <sys/types.h>
#include <termios.h>

#include "sysroot.h"

/*
 * What a program that audit --exec runs is kept in, so that it ends when
 * uringlint ends, however uringlint ends, and, run as another user, reaches
 * nothing of the terminal uringlint was started from:
 *
 * - a cgroup v2 directory of its own, made in uringlint's: every process it
 *   starts is born there, double-forked or not, and is killed with it;
 * - with a terminal of its own (own_tty): a new session, and in place of
 *   each of uringlint's fds 0-2 that is a terminal, a pseudo-terminal of
 *   uringlint's when stdin is the foreground terminal (an interactive
 *   program works as on the terminal itself), otherwise /dev/null for stdin
 *   and a pipe for stdout and stderr;
 * - a keeper: a process uringlint forks first, which relays that
 *   pseudo-terminal or those pipes to uringlint's own fds and, when
 *   uringlint closes the pipe it holds to it or dies (even by SIGKILL),
 *   kills the cgroup whole, removes it and puts back the terminal's
 *   settings it changed.
 */
enum exec_tty {
	EXEC_TTY_INHERIT,	/* uringlint's fds 0-2, its session */
	EXEC_TTY_PTY,		/* a pseudo-terminal for each of them that is a terminal */
	EXEC_TTY_PIPES,		/* /dev/null for a terminal stdin, a pipe for a terminal stdout, stderr */
};

struct exec_cage {
	int parent;		/* the directory the cgroup is made in, or -1: no cgroup */
	char name[64];		/* the cgroup's name in it */
	char why[256];		/* why the program has no cgroup of its own */
	enum exec_tty tty;
	int child_fd[3];	/* the program's fds 0-2: -1 for uringlint's own */
	int keep_fd[3];		/* the keeper's ends: the master, or the pipes' read ends */
	struct termios saved;	/* stdin's settings, put back by the keeper */
	int life;		/* the write end of the keeper's pipe */
	pid_t keeper;
};

/*
 * Makes the cgroup and the terminal or pipes, and forks the keeper: 0, or
 * -errno when the keeper cannot be started. A cgroup that cannot be made
 * is no error: c->parent is -1 and c->why says why.
 */
int exec_cage_open(const struct sysroot *sr, bool own_tty, struct exec_cage *c);

/* In the program's process, before its exec: its session and fds 0-2. 0 or -errno. */
int exec_cage_enter(struct exec_cage *c);

/*
 * In uringlint, once the program's process is forked (before its exec):
 * moves it into the cgroup (or removes the cgroup and says why in c->why),
 * and closes the program's ends.
 */
void exec_cage_started(struct exec_cage *c, pid_t pid);

/*
 * In uringlint, once the program has exited: the keeper kills what is left
 * in the cgroup, relays the last of the program's output, removes the
 * cgroup and puts the terminal back; this waits for it to be done.
 */
void exec_cage_close(struct exec_cage *c);

#endif
