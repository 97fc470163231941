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
 * A process alone in its cgroup is watched through
 * it whenever one buffer per CPU fits the budget: its events are then the
 * CPUs', and a context switch between two of its threads (a submitter and
 * the io-wq worker it woke, some 120,000 a second at this VM's highest
 * punt rate) switches no perf event, where each thread's own events are
 * taken off and put back on every switch: qemu-img bench punting every
 * write ran 1.085 times as long watched through its cgroup as unwatched,
 * 1.239 watched thread by thread and 1.161 under perf stat (median of 15
 * rounds' ratios). Past budget / (2 x 64 KiB) threads (512 at 64 MiB;
 * room is kept for as many again) one buffer per thread stops fitting,
 * their events need some ten open files a thread and the thread list
 * re-read every tick grows with them: then the cgroup is taken even when
 * its buffers are past the budget, at their floor.
 */
int watch_cgroup_choose(const struct sysroot *sr, pid_t pid, size_t budget, unsigned int threads,
			struct punt_watch *w, struct watch_cgroup *wc)
{
	struct proc_cgroup *c = &wc->cg;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	bool threads_fit = (size_t)threads * 2 * THREAD_BUF_MIN <= budget;
	bool cpus_fit = ncpu > 0 && (size_t)ncpu * 2 * THREAD_BUF_MIN <= budget;
	int err, fd;

	wc->broken = 0;
	if (threads_fit && !cpus_fit)
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

int watch_cgroup_open(struct tp_stream *s, const struct sysroot *sr, pid_t pid, int fd,
		      const struct tp_format *fmts, unsigned int nev, size_t budget, int counted,
		      const char *counted_filter, struct punt_watch *w)
{
	int err;

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
