/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_WATCH_CGROUP_H
#define URINGLINT_WATCH_CGROUP_H

#include <stddef.h>
#include <sys/types.h>

#include "proc_cgroup.h"
#include "punt_watch.h"
#include "tp_stream.h"

/*
 * The watch of a running process, through its cgroup when one perf buffer
 * per thread would not fit: which way it went, and whether the process
 * stayed alone in its cgroup for the counts to be its own.
 */
struct watch_cgroup {
	struct proc_cgroup cg;
	int broken;		/* the first "not alone any more" (-errno), or 0 */
};

/*
 * Opens s on pid: through its cgroup (w->by_cgroup, w->cgroup) when it has
 * more threads than budget leaves two 64 KiB buffers each for and it is
 * alone there, else thread by thread (w->cgroup_why says why not, when the
 * cgroup was wanted). Falls back to threads when perf refuses the cgroup.
 * 0 or the -errno of tp_stream_open.
 */
int watch_cgroup_open(struct tp_stream *s, const struct sysroot *sr, pid_t pid,
		      unsigned int threads, const struct tp_format *fmts, unsigned int nev,
		      size_t budget, int counted, const char *counted_filter,
		      struct punt_watch *w, struct watch_cgroup *c);

/*
 * Whether the process is still alone in the cgroup watched (nothing to do
 * when it is watched thread by thread); pidfd (or -1) tells a process that
 * exited, whose cgroup then says nothing. The first "no" stays in c.
 */
void watch_cgroup_check(const struct sysroot *sr, pid_t pid, int pidfd, struct watch_cgroup *c,
			const struct punt_watch *w);

/* At the end: a watch whose counts are not the process's alone fails, with the reason. */
void watch_cgroup_verdict(const struct tp_stream *s, const struct watch_cgroup *c,
			  struct punt_watch *w);

#endif
