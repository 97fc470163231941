/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROC_TASKS_H
#define URINGLINT_PROC_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "fact.h"
#include "sysroot.h"

enum thread_kind {
	THREAD_PLAIN,
	THREAD_IOU_WRK,		/* io-wq worker, 5.12+ (iou-wrk-TID) */
	THREAD_IOU_SQP,		/* SQPOLL thread, 5.12+ (iou-sqp-PID) */
};

struct proc_thread {
	pid_t tid;
	char comm[64];
	char state;		/* R S D Z T ... */
	char wchan[64];		/* "" when unknown, "0" when running */
	int cpu;		/* last CPU, -1 unknown */
	unsigned long long utime, stime;	/* stat fields 14 and 15, clock ticks */
	enum thread_kind kind;
	/*
	 * Cpus_allowed_list: read for SQPOLL threads, and for every other
	 * thread by proc_threads_read_affinity; "" unknown.
	 */
	char cpus_allowed[256];
	char *stack;		/* D-state threads, root only: /proc/PID/task/TID/stack */
	/*
	 * Live, in D: out of it at one of two more readings 10 ms apart, so
	 * a moment's wait (a flush, a page read), not a thread stuck there.
	 */
	bool d_transient;
	/*
	 * Live, in D: how long it was seen in one uninterruptible sleep, from the
	 * first reading to the last that still found it there (ms); 0 when not
	 * measured (a captured tree's one reading).
	 */
	unsigned int d_ms;
};

/*
 * What a thread in D waits on, from the innermost frame of its kernel stack
 * (root) or its wchan that names either: its own block I/O (io_schedule,
 * a direct I/O's completion, a device tag, a page under I/O, a cache
 * flush, an fsync's journal commit), a lock (rwsem, mutex, the XFS inode
 * lock, a frozen filesystem, room in the ext4 journal), or neither.
 */
enum thread_wait {
	WAIT_OTHER,
	WAIT_IO,
	WAIT_LOCK,
};
enum thread_wait proc_thread_wait(const struct proc_thread *t);

/*
 * A thread in D on its own I/O for this long is stuck: a request of a
 * loaded device takes tens to a few hundred ms (180 ms seen on a loop
 * device under a database's load). A live reading watches such a thread
 * up to this long; every other thread in D 20 ms.
 */
#define DSTATE_IO_STUCK_MS 3000

struct proc_threads {
	struct fact_err e;
	struct proc_thread *v;
	size_t n, cap;
	unsigned int iou_wrk, iou_sqp, d_state;
};

/* include/linux/sched.h: set on io_uring's own threads (5.12+), whatever their comm. */
#define PF_IO_WORKER 0x00000010UL

/*
 * What a thread is. The comm is the process's to set, even an io thread's:
 * PF_IO_WORKER (stat field 9) says what is io_uring's, and the kernel's name
 * only which of the two; audit re-checks SQPOLL threads against SqThread.
 */
enum thread_kind thread_kind_of(unsigned long flags, const char *comm);

/*
 * Parses a /proc/PID/stat or task/TID/stat file into tid, comm, state,
 * utime and stime (fields 14, 15) and processor (field 39). The kernel
 * frames the comm by parentheses only (fs/proc/array.c do_task_stat():
 * "(" comm ")"), unescaped: it may hold
 * spaces, parentheses and newlines, so it runs from the first '(' to the
 * last ')' of the whole file, never of a line. 0 or -EBADMSG.
 */
int proc_stat_parse(const char *text, struct proc_thread *t, unsigned long *flags);

/* Reads and parses the stat file rel: 0, -errno of the read, or -EBADMSG. */
int proc_stat_read(const struct sysroot *sr, const char *rel, struct proc_thread *t,
		   unsigned long *flags);
/* The same with the path printf-style: -ENAMETOOLONG for one past PATH_MAX. */
__attribute__((format(printf, 4, 5)))
int proc_stat_readf(const struct sysroot *sr, struct proc_thread *t, unsigned long *flags,
		    const char *fmt, ...);

/*
 * Every thread of pid: its task/ stat files through the sysroot, live and
 * under --root alike. Fills D-state stacks when readable.
 */
void proc_threads_collect(const struct sysroot *sr, pid_t pid, struct proc_threads *pt);
/* The thread tid as read, or NULL (started after the reading, or not read). */
const struct proc_thread *proc_threads_find(const struct proc_threads *pt, pid_t tid);
/*
 * Reads the Cpus_allowed_list of each thread other than io_uring's, for
 * the verdicts on where ring-driving threads run: a read per thread, so
 * only for a process whose rings were watched.
 */
void proc_threads_read_affinity(const struct sysroot *sr, pid_t pid, struct proc_threads *pt);
void proc_threads_free(struct proc_threads *pt);

#endif
