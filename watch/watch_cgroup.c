// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A process watched through its cgroup: one set of perf events per CPU
 * instead of one per thread, cheaper for a process whose threads switch
 * often and the only way for one of thousands of threads, which holds
 * only while the process is alone in its cgroup.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pid_wait.h"
#include "tracefs.h"
#include "watch_cgroup.h"

/* A thread's smallest sample buffer worth having (tp_stream's floor). */
#define THREAD_BUF_MIN (64u << 10)
/*
 * A CPU's, when the threads would fit: one tick (10 ms) of the most samples
 * perf writes on a CPU (kernel.perf_event_max_sample_rate, 100,000 a
 * second; about 80,000 measured here) at some 150 bytes each, with room.
 */
#define CPU_BUF_MIN (256u << 10)

/*
 * A process alone in its cgroup is watched through it whenever every CPU
 * is online and a buffer of CPU_BUF_MIN each fits the budget: its events
 * are then the CPUs', and a context switch between two of its threads (a
 * submitter and the io-wq worker it woke, some 120,000 a second at this
 * VM's highest punt rate) switches no perf event, where each thread's own
 * events are taken off and put back on at every switch: qemu-img bench
 * punting every write ran 1.02 to 1.085 times as long watched through its
 * cgroup as unwatched, 1.17 to 1.24 watched thread by thread and 1.14 to
 * 1.16 under perf stat (medians of 15 rounds' ratios, two runs). Past
 * budget / (2 x 64 KiB) threads (512 at 64 MiB; room is kept for as many
 * again) one buffer per thread stops fitting, their events need some ten
 * open files a thread and the thread list re-read every tick grows with
 * them: then the cgroup is taken even when its buffers are at their floor
 * or a CPU is offline (its threads would not be seen there).
 */
int watch_cgroup_choose(const struct sysroot *sr, pid_t pid, size_t budget, unsigned int threads,
			struct punt_watch *w, struct watch_cgroup *wc)
{
	struct proc_cgroup *c = &wc->cg;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	bool threads_fit = (size_t)threads * 2 * THREAD_BUF_MIN <= budget;
	bool cpus_fit = ncpu > 0 && ncpu == sysconf(_SC_NPROCESSORS_ONLN) &&
			(size_t)ncpu * 2 * CPU_BUF_MIN <= budget;
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

/*
 * A process the watched one starts stays in its cgroup: its events would
 * be counted as the watched process's. One that lives across a look at
 * the cgroup (every 100 ms) is seen there; a short one (a helper run by a
 * service, a fork that writes and exits) is caught by this: every new
 * task in the cgroup that is not a thread (CLONE_THREAD, 0x10000: io-wq
 * workers and SQPOLL threads are threads of the process).
 */
static const char forks_filter[] = "!(clone_flags & 65536)";

static int count_forks(struct tp_stream *s)
{
	struct tp_format fmt;
	char why[128];
	int err = tp_format_load("task/task_newtask", &fmt, why, sizeof(why));

	return err ? err : tp_stream_side(s, WATCH_SIDE_FORKS, &fmt, forks_filter, false);
}

/*
 * The kernel's initial PID namespace (PROC_PID_INIT_INO, include/linux/
 * proc_ns.h): cgroup_attach_task's pid field is the task's pid there.
 */
#define PID_NS_INIT "pid:[4026531836]"

/*
 * A process can leave its cgroup and come back between two looks at it
 * (every 100 ms): a user who owns a delegated subtree moved a process to
 * a sibling, punted 256 writes there and moved it back, all in a few ms,
 * and a watch through the cgroup saw none of them. Every move of a
 * process is one cgroup:cgroup_attach_task, fired by whoever writes
 * cgroup.procs (the process itself or another), with pid the group
 * leader's, i.e. the process's (kernel/cgroup/cgroup.c,
 * cgroup_attach_task: TRACE_CGROUP_PATH(attach_task, dst_cgrp, leader,
 * threadgroup)). So it is counted on every CPU for every task, filtered
 * on that pid. One thread alone cannot move out of a domain cgroup
 * (cgroup.threads needs both ends in one threaded subtree, and the
 * watched cgroup is not threaded: watch_cgroup_choose). From another PID
 * namespace the field's pid is not ours to match: no cgroup then.
 */
static int count_moves(pid_t pid, struct watch_cgroup *c)
{
	struct tp_format fmt;
	char why[128], filter[32], ns[64];
	ssize_t len = readlink("/proc/self/ns/pid", ns, sizeof(ns) - 1);
	int err;

	if (len < 0)
		return -errno;
	ns[len] = '\0';
	if (strcmp(ns, PID_NS_INIT))
		return -EXDEV;
	err = tp_format_load("cgroup/cgroup_attach_task", &fmt, why, sizeof(why));
	if (err)
		return err;
	snprintf(filter, sizeof(filter), "pid == %d", (int)pid);
	err = tp_counter_open_host(&c->moves, &fmt, filter);
	c->moves_on = !err;
	return err;
}

int watch_cgroup_open(struct tp_stream *s, const struct sysroot *sr, int fd,
		      const struct tp_open *o, struct punt_watch *w, struct watch_cgroup *c)
{
	struct tp_open by_threads = *o, by_cgroup = *o;
	const char *what = "events";
	pid_t pid = o->pid;
	int err;

	by_threads.how = TP_ATTACH_THREADS;
	by_cgroup.how = TP_ATTACH_CGROUP;
	by_cgroup.cgroup_fd = fd;
	if (fd < 0)
		return tp_stream_open(s, sr, &by_threads);
	/* Moves counted first: from then on none goes unseen, and the look below covers before. */
	err = count_moves(pid, c);
	if (err) {
		close(fd);
		snprintf(w->cgroup_why, sizeof(w->cgroup_why), "%s%s",
			 err == -EXDEV ? "its moves between cgroups cannot be counted from a PID "
			 "namespace of its own" : "perf refused a count of its moves between cgroups: ",
			 err == -EXDEV ? "" : strerror(-err));
		goto threads;
	}
	err = tp_stream_open(s, sr, &by_cgroup);
	if (!err) {
		err = count_forks(s);
		what = "a count of the processes started";
	}
	if (!err) {
		/* Left between the choice and the counter's start: seen here, or never. */
		watch_cgroup_check(sr, pid, -1, c, w);
		return 0;
	}
	tp_counter_close(&c->moves);
	c->moves_on = false;
	/* perf refused the cgroup (perf_event bound to cgroup v1, a CPU offline): thread by thread. */
	tp_stream_close(s);
	snprintf(w->cgroup_why, sizeof(w->cgroup_why), "perf refused %s on its cgroup: %s", what,
		 strerror(-err));
threads:
	w->by_cgroup = false;
	w->cgroup[0] = '\0';
	return tp_stream_open(s, sr, &by_threads);
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
	if (err && !pid_wait_gone(pidfd, pid, 0))
		c->broken = err;
}

void watch_cgroup_verdict(const struct tp_stream *s, struct watch_cgroup *c,
			  struct punt_watch *w)
{
	uint64_t forks = 0, moves = 0;
	bool counted;

	if (c->moves_on) {
		moves = tp_counter_read(&c->moves);
		tp_counter_close(&c->moves);
		c->moves_on = false;
	}
	if (!w->by_cgroup || !fact_ok(&w->e))
		return;
	counted = tp_stream_side_count(s, WATCH_SIDE_FORKS, &forks);
	if (!c->broken && !s->foreign && counted && !forks && !moves)
		return;
	if (moves)
		fact_fail(&w->e, -ESRCH, "the process was moved between cgroups %llu time%s during "
			  "the watch: its events while out of cgroup %s were not seen",
			  (unsigned long long)moves, moves == 1 ? "" : "s", w->cgroup);
	else if (!counted)
		fact_fail(&w->e, -ENODATA, "the processes started in cgroup %s during the watch could "
			  "not be counted: whether its counts are the process's alone is not known",
			  w->cgroup);
	else if (forks)
		fact_fail(&w->e, -EBUSY, "%llu process%s started in cgroup %s during the watch (a "
			  "fork, a helper it ran): the exact counts hold %s events too",
			  (unsigned long long)forks, forks == 1 ? " was" : "es were", w->cgroup,
			  forks == 1 ? "its" : "their");
	else if (s->foreign || c->broken == -EBUSY)
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
