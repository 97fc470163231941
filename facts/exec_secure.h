/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_EXEC_SECURE_H
#define URINGLINT_EXEC_SECURE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Whether the exec of a program will leave its process non-dumpable: the
 * kernel then removes every perf event of the task at the exec
 * (begin_new_exec(): perf_event_exit_task() unless the mm stays
 * SUID_DUMP_USER), so events opened on it before the exec go blind. That
 * happens when the exec changes the effective user or group (a set-user-ID
 * or set-group-ID program on a mount without nosuid), when a user other
 * than root gains file capabilities, or when the user may not read the
 * program (BINPRM_FLAGS_ENFORCE_NONDUMP).
 *
 * prog is looked up as execvp(3) does when it has no '/', in path_env (the
 * PATH the program will get), or uringlint's PATH when NULL. Returns
 * 1 with why filled, 0 when the exec keeps the task dumpable, -errno when
 * the program cannot be looked at (the exec will say why).
 */
int exec_secure_why(const char *prog, const char *path_env, uid_t uid, gid_t gid, char *why,
		    size_t whysz);

/* Whether a running process's auxiliary vector has AT_SECURE set: 1, 0, or -errno. */
struct sysroot;
int proc_at_secure(const struct sysroot *sr, pid_t pid);

#endif
