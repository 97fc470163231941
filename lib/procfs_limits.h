/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROCFS_LIMITS_H
#define URINGLINT_PROCFS_LIMITS_H

#include <stdint.h>

#define LIMIT_INFINITY UINT64_MAX

struct rlimit_pair {
	uint64_t soft, hard;	/* LIMIT_INFINITY for "unlimited" */
};

/* The rows of /proc/PID/limits that io_uring deployments depend on. */
struct proc_limits {
	struct rlimit_pair memlock;	/* bytes */
	struct rlimit_pair nproc;	/* processes (caps unbounded io-wq workers) */
	struct rlimit_pair nofile;	/* files */
};

/* 0, or -EBADMSG when a needed row is missing or its numbers are garbage. */
int proc_limits_parse(const char *text, struct proc_limits *lim);

#endif
