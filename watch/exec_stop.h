/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_EXEC_STOP_H
#define URINGLINT_EXEC_STOP_H

#include <sys/types.h>

#include "sysroot.h"

/*
 * Until pid, a child that runs uringlint until it execs, runs its program:
 * its exe link no longer names uringlint's. 0, or -errno (it exited, or no
 * exec within 5 s).
 */
int exec_wait(const struct sysroot *sr, pid_t pid);

/*
 * Seizes pid, a child that has not exec'ed yet, so that its exec stops it:
 * events opened then see the program from its first instruction, where a
 * secure exec would drop any opened before. A tracer with CAP_SYS_PTRACE
 * (root) leaves the exec its set-id credentials. 0, or -errno where it
 * cannot be traced (no CAP_SYS_PTRACE, Yama's ptrace_scope 3).
 */
int exec_stop_arm(pid_t pid);

/*
 * Until pid, seized, stops at its exec: 0, or -ESRCH when it exited first
 * (its exit is left to its parent to reap). A signal it gets before the
 * exec (one uringlint forwards) is delivered on the way.
 */
int exec_stop_wait(pid_t pid);

/* Lets pid, seized, run on untraced (from its exec stop, if it is in it). */
void exec_stop_release(pid_t pid);

#endif
