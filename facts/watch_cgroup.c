// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A process of many threads watched through its cgroup: one set of perf
 * events per CPU instead of one per thread, which holds only while the
 * process is alone in its cgroup.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "watch_cgroup.h"

/* A thread's smallest sample buffer worth having (tp_stream's floor). */
#define THREAD_BUF_MIN (64u << 10)

/*
 * The cgroup to watch pid through, as an open directory, or -1 to watch
 * its threads one by one. One perf buffer per thread stops fitting the
 * budget past budget / (2 x 64 KiB) threads (512 at 64 MiB; room is kept
 * for as many again), its events need some ten open files a thread, and
 * the thread list re-read every tick grows with them: then a process alone
 * in its cgroup is watched through it, one buffer per CPU.
 */
static int choose(const struct sysroot *sr, pid_t pid, size_t budget, unsigned int threads,
		  struct punt_watch *w, struct proc_cgroup *c)
{
	int err, fd;

	if ((size_t)threads * 2 * THREAD_BUF_MIN <= budget)
		return -1;
	err = proc_cgroup_alone(sr, pid, c);
	if (!err) {
		fd = sysroot_open_live_dir(sr, c->rel);
		if (fd >= 0) {
			w->by_cgroup = true;
			snprintf(w->cgroup, sizeof(w->cgroup), "%s", c->path);
			return fd;
		}
		err = fd;
	}
	snprintf(w->cgroup_why, sizeof(w->cgroup_why), "%s",
		 err == -EBUSY || err == -ESRCH ? "other processes share its cgroup"
		 : err == -EMEDIUMTYPE ? "its cgroup is threaded: its threads may be in others"
		 : err == -ENOENT ? "no cgroup v2 directory of it is in reach"
		 : strerror(-err));
	return -1;
}

int watch_cgroup_open(struct tp_stream *s, const struct sysroot *sr, pid_t pid,
		      unsigned int threads, const struct tp_format *fmts, unsigned int nev,
		      size_t budget, int counted, const char *counted_filter,
		      struct punt_watch *w, struct watch_cgroup *c)
{
	int fd = choose(sr, pid, budget, threads, w, &c->cg), err;

	c->broken = 0;
	if (fd < 0)
		return tp_stream_open(s, sr, pid, fmts, nev, budget, counted, counted_filter);
	err = tp_stream_open_cgroup(s, sr, pid, fd, fmts, nev, budget, counted, counted_filter);
	if (!err)
		return 0;
	/* perf refused the cgroup (perf_event bound to cgroup v1, a CPU offline): thread by thread. */
	tp_stream_close(s);
	w->by_cgroup = false;
	w->cgroup[0] = '\0';
	snprintf(w->cgroup_why, sizeof(w->cgroup_why), "perf refused events on its cgroup: %s",
		 strerror(-err));
	return tp_stream_open(s, sr, pid, fmts, nev, budget, counted, counted_filter);
}

static bool exited(int pidfd, pid_t pid)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };

	if (pidfd >= 0)
		return poll(&p, 1, 0) > 0;
	return kill(pid, 0) && errno == ESRCH;
}

/*
 * The counts of a watch through a cgroup are the cgroup's: they are this
 * process's only while it is alone there. Asked every 100 ms while it
 * lives (a process that came and went between two looks is not seen; its
 * samples, when sampled, are), and at the end.
 */
void watch_cgroup_check(const struct sysroot *sr, pid_t pid, int pidfd, struct watch_cgroup *c,
			const struct punt_watch *w)
{
	int err;

	if (!w->by_cgroup || c->broken)
		return;
	err = proc_cgroup_still_alone(sr, pid, &c->cg);
	/* Gone: its cgroup is empty or reaped with it, and nothing more came in its name. */
	if (err && !exited(pidfd, pid))
		c->broken = err;
}

void watch_cgroup_verdict(const struct tp_stream *s, const struct watch_cgroup *c,
			  struct punt_watch *w)
{
	if (!w->by_cgroup || !fact_ok(&w->e) || (!c->broken && !s->foreign))
		return;
	if (s->foreign || c->broken == -EBUSY)
		fact_fail(&w->e, -EBUSY, "another process was in cgroup %s during the watch (%llu "
			  "of its samples seen): the exact counts hold its events too", w->cgroup,
			  (unsigned long long)s->foreign);
	else if (c->broken == -ESRCH)
		fact_fail(&w->e, -ESRCH, "the process left cgroup %s during the watch: its events "
			  "after that were not seen", w->cgroup);
	else
		fact_fail(&w->e, c->broken, "cgroup %s could not be read during the watch (%s): "
			  "whether the process stayed alone there is not known", w->cgroup,
			  strerror(-c->broken));
}
