/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_WATCH_CGROUP_H
#define URINGLINT_WATCH_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "proc_cgroup.h"
#include "watch.h"
#include "tracefs.h"

/* The watch's side counters (tp_stream_side). */
enum watch_side {
	WATCH_SIDE_FORKS,	/* processes started in the cgroup watched */
	/* positional reads and writes by plain system calls: one a call (watch_session.c) */
	WATCH_SIDE_PLAIN_IO,
};
#define WATCH_PLAIN_IO_EVENTS 6

/*
 * The watch of a running process, through its cgroup when it is alone
 * there: which way it went, and whether the process stayed alone in its
 * cgroup for the counts to be its own.
 */
struct watch_cgroup {
	struct proc_cgroup cg;
	int broken;		/* the first "not alone any more" (-errno), or 0 */
	struct tp_counter moves;	/* the process's moves between cgroups, host-wide */
	bool moves_on;
};

/*
 * The cgroup to watch pid through, as an open directory, or -1 to watch
 * its threads one by one (w->cgroup_why says why, when the cgroup was
 * wanted). Taken when the process is alone in it, every CPU is online and
 * a 256 KiB buffer per CPU fits budget, or when its threads are more than
 * budget leaves two 64 KiB buffers each for.
 */
int watch_cgroup_choose(const struct sysroot *sr, pid_t pid, size_t budget, unsigned int threads,
			struct punt_watch *w, struct watch_cgroup *c);

/*
 * Opens s as o asks, o->how and o->cgroup_fd aside: through the cgroup fd
 * chosen (fd; the stream owns it), with a counter of the processes started
 * in the cgroup during the watch and one of the process's moves from
 * cgroup to cgroup (in c), or thread by thread when fd is -1 or perf
 * refuses any of them (then w->by_cgroup is cleared and w->cgroup_why says
 * so). 0 or the -errno of tp_stream_open.
 */
int watch_cgroup_open(struct tp_stream *s, const struct sysroot *sr, int fd,
		      const struct tp_open *o, struct punt_watch *w, struct watch_cgroup *c);

/*
 * Whether the process is still alone in the cgroup watched (nothing to do
 * when it is watched thread by thread); pidfd (or -1) tells a process that
 * exited, whose cgroup then says nothing. The first "no" stays in c.
 */
void watch_cgroup_check(const struct sysroot *sr, pid_t pid, int pidfd, struct watch_cgroup *c,
			const struct punt_watch *w);

/*
 * At the end: a watch whose counts are not the process's alone, or not
 * all of its own (it moved out of the cgroup and back), fails, with the
 * reason. Closes what watch_cgroup_open opened in c.
 */
void watch_cgroup_verdict(const struct tp_stream *s, struct watch_cgroup *c,
			  struct punt_watch *w);

#endif
