/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROC_MAPS_H
#define URINGLINT_PROC_MAPS_H

#include <stdbool.h>
#include <sys/types.h>

#include "fact.h"
#include "sysroot.h"

/*
 * What proc/PID/maps shows of io_uring and of what a service falls back to
 * without it. A ring's memory is mapped as anon_inode:[io_uring] (two
 * mappings with liburing: the rings and the SQEs), even after its fd was
 * closed (io_uring_close_ring_fd()); each io_setup() context of Linux AIO
 * maps its ring as "/[aio] (deleted)"; an io_uring library linked
 * dynamically shows by its file. A runtime built into the binary leaves
 * no mark here.
 */
#define PROC_MAPS_MAX_LIBS 256

struct proc_maps {
	struct fact_err e;
	unsigned int mappings;
	unsigned int uring_maps;	/* anon_inode:[io_uring] */
	unsigned int aio_contexts;	/* /[aio] */
	char runtime[512];		/* path of the first io_uring library mapped, "" none */
	bool runtime_truncated;
	/* basenames of the shared objects mapped, distinct: which application this is */
	char *libs[PROC_MAPS_MAX_LIBS];
	size_t nlibs;
};

/*
 * 0, or -EBADMSG for a line that is not "addr perms offset dev inode [path]"
 * (m is then empty). Call proc_maps_free after either.
 */
int proc_maps_parse(const char *text, struct proc_maps *m);
void proc_maps_free(struct proc_maps *m);

/* Reads and parses proc/PID/maps; why it could not in m->e. */
void proc_maps_collect(const struct sysroot *sr, pid_t pid, struct proc_maps *m);

#endif
