// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where a watch of a program it runs (audit --exec) begins: at the
 * program's exec, stopped there when it may be traced, so that a secure
 * exec cannot drop events opened before it (exec_stop.h).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "exec_stop.h"

static void sleep_1ms(void)
{
	struct timespec ts = { 0, 1000000L };

	nanosleep(&ts, NULL);
}

/* See exec_stop.h for each function. */
int exec_wait(const struct sysroot *sr, pid_t pid)
{
	char self[PATH_MAX], now[PATH_MAX];
	int i, err;

	err = sysroot_readlink(sr, "proc/self/exe", self, sizeof(self));
	if (err)
		return err;
	for (i = 0; i < 5000; i++) {
		err = sysroot_readlinkf(sr, now, sizeof(now), "proc/%d/exe", (int)pid);
		if (err)
			return err;
		if (strcmp(now, self))
			return 0;
		sleep_1ms();
	}
	return -ETIMEDOUT;
}

int exec_stop_arm(pid_t pid)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct caps[2];

	/*
	 * Without CAP_SYS_PTRACE a tracer makes the kernel drop the set-ID bits at
	 * the exec (cap_bprm_creds_from_file): the program would run otherwise.
	 */
	if (syscall(SYS_capget, &h, caps) ||
	    !(caps[CAP_SYS_PTRACE / 32].effective & (1u << (CAP_SYS_PTRACE % 32))))
		return -EPERM;
	return ptrace(PTRACE_SEIZE, pid, NULL, (void *)(long)(PTRACE_O_TRACEEXEC |
							     PTRACE_O_EXITKILL)) ? -errno : 0;
}

int exec_stop_wait(pid_t pid)
{
	for (;;) {
		siginfo_t si;
		int code;

		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WSTOPPED | WNOWAIT | __WALL)) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (si.si_code != CLD_TRAPPED)
			return -ESRCH;
		/*
		 * Take the stop, never an exit: a SIGKILL since the look above
		 * (a traced task may be killed) leaves its exit to the parent's wait.
		 */
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)pid, &si, WSTOPPED | WNOHANG | __WALL)) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!si.si_pid)
			continue;	/* no longer stopped: the look above tells why */
		/* For a ptrace stop si_status is the stop's code: SIGTRAP | event << 8 for events. */
		code = si.si_status;
		if (code == (SIGTRAP | (PTRACE_EVENT_EXEC << 8)))
			return 0;
		/* A group stop (PTRACE_EVENT_STOP) carries no signal to deliver; a signal stop does. */
		ptrace(PTRACE_CONT, pid, NULL, (void *)(long)(code >> 8 ? 0 : code & 0x7f));
	}
}

void exec_stop_release(pid_t pid)
{
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
}
