/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PID_WAIT_H
#define URINGLINT_PID_WAIT_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Waiting on another process's exit without reaping it: through a pidfd
 * (5.3+), which says so the moment it exits even if its PID is reused,
 * else by kill(pid, 0) after the wait.
 */

/* A pidfd for pid, or -1 (a kernel without pidfd_open, or pid gone). */
int pid_wait_open(pid_t pid);

/* Whether pid has exited, waiting up to wait_ms for it (0: a look). */
bool pid_wait_gone(int pidfd, pid_t pid, int wait_ms);

void sleep_ms(long ms);

#endif
