/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROC_WINDOW_H
#define URINGLINT_PROC_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fact.h"
#include "proc_tasks.h"
#include "sysroot.h"

/*
 * Two readings of a live process, a short window apart, for the verdicts
 * that divide counters: a counter read once holds everything since the ring
 * or thread was created, start-up included, and says nothing about now.
 */
#define PROC_WINDOW_MS 300

/* One reading of a SQPOLL ring's fdinfo counters. */
struct ring_reading {
	bool has_times;			/* SqTotalTime/SqWorkTime (6.9+) */
	uint64_t total_us, work_us;
	bool has_heads;			/* CachedSqHead/CachedCqTail (5.17+) */
	uint32_t sq_taken, cq_posted;	/* free-running: SQEs the kernel took, CQEs it posted */
	int32_t sq_thread;
};

struct window_ring {
	int fd;
	uint64_t ino;			/* proves at the end that fd still names the same ring */
	struct ring_reading r[2];
	struct fact_err e;		/* gone, or a counter went backwards: not judged */
};

/* One reading of a thread: where it last ran, and its scheduler times. */
struct task_reading {
	int cpu;			/* -1 unknown: not read, or gone (see gone) */
	char state;			/* R S D ...; 0 unknown */
	bool gone;			/* its task/ entry was gone at this reading */
	bool has_sched;			/* schedstat was readable */
	uint64_t run_ns, wait_ns;	/* on a CPU; runnable, waiting for one */
	uint64_t slices;		/* times it was put on a CPU */
};

struct window_thread {
	pid_t tid;
	enum thread_kind kind;
	char comm[64];
	bool io_thread;			/* PF_IO_WORKER: an io-wq worker or a SQPOLL thread */
	char cpus_allowed[256];		/* Cpus_allowed_list at the first reading; "" unknown */
	struct task_reading r[2];
	bool both;			/* read at both ends */
};

struct proc_window {
	struct fact_err e;		/* not taken, and why (a captured tree, no SQPOLL ring) */
	unsigned int ms;		/* the window as measured (CLOCK_MONOTONIC) */
	struct window_ring *rings;
	size_t nrings;
	struct window_thread *threads;
	size_t nthreads;
	unsigned int new_workers;	/* io-wq workers started during the window */
	uint64_t t0_ns;			/* private: when the first reading was taken */
};

/*
 * The first reading: the fdinfo of each given SQPOLL ring fd and every
 * thread of pid. Live only, and only for a process with a SQPOLL ring or an
 * io-wq worker; e says why it was not taken.
 */
void proc_window_begin(const struct sysroot *sr, pid_t pid, const int *ring_fds, size_t n,
		       struct proc_window *w);
/*
 * Waits out the rest of PROC_WINDOW_MS since the first reading, then reads
 * again; threads that appeared meanwhile are not read, io-wq workers among
 * them are counted in new_workers.
 */
void proc_window_end(const struct sysroot *sr, pid_t pid, struct proc_window *w);
void proc_window_free(struct proc_window *w);

/*
 * Sets wr->e when the two readings cannot be compared: another ring behind
 * the fd (ino_end), another SQPOLL thread, or a counter that went backwards.
 */
void window_ring_validate(struct window_ring *wr, uint64_t ino_end);
/* The changes over the window; false when the ring was not read at both ends. */
bool window_ring_ok(const struct window_ring *wr);
/* A thread's run and wait time in the window, in ns; false when unknown. */
bool window_thread_times(const struct window_thread *t, uint64_t *run_ns, uint64_t *wait_ns);
/* The times it was put on a CPU in the window; 0 when unknown. */
uint64_t window_thread_slices(const struct window_thread *t);
const struct window_thread *proc_window_thread(const struct proc_window *w, pid_t tid);
const struct window_ring *proc_window_ring(const struct proc_window *w, int fd);

/* Parses /proc/PID/task/TID/schedstat: "run_ns wait_ns timeslices". 0 or -EBADMSG. */
int schedstat_parse(const char *text, uint64_t *run_ns, uint64_t *wait_ns, uint64_t *slices);

#endif
