// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pid_wait.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

int pid_wait_open(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

bool pid_wait_gone(int pidfd, pid_t pid, int wait_ms)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };

	siginfo_t si = { 0 };

	if (pidfd >= 0)
		return poll(&p, 1, wait_ms) > 0;
	if (wait_ms)
		sleep_ms(wait_ms);
	/*
	 * Without a pidfd (before 5.3, or pidfd_open refused: valgrind 3.19 does
	 * not know it) a child of ours that exited stays a zombie, which kill()
	 * still finds: ask waitid, leaving it for the caller to reap.
	 */
	if (!waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) && si.si_pid == pid)
		return true;
	return kill(pid, 0) && errno == ESRCH;
}

void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}
