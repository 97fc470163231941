/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_SCENE_H
#define URINGLINT_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "blockdev.h"
#include "fact.h"
#include "sysroot.h"

/*
 * The incident scene: what iostat -x, vmstat and top show over the watch's
 * window, for the devices under a process's files and the CPUs its threads
 * ran on, read through libproc2 (facts/scene_read.c) at the watch's start
 * and end. With no window (--watch 0, or a process not watched) one reading
 * gives what needs no delta: the load average, Dirty and Writeback against
 * the dirty threshold, each device's requests in flight.
 */

#define SCENE_MAX_DEVS 16
#define SCENE_MAX_CPUS 1024

/* The changes of one device's /proc/diskstats counters over the window. */
struct scene_disk_delta {
	uint64_t rd_ios, rd_merges, rd_sectors, rd_ticks;
	uint64_t wr_ios, wr_merges, wr_sectors, wr_ticks;
	uint64_t io_ticks, rq_ticks;	/* ms busy; ms weighted by requests in flight */
};

/* iostat -x's columns, as sysstat computes them (scene_calc.c). */
struct scene_iostat {
	double r_s, w_s, rkb_s, wkb_s;
	double r_await, w_await;	/* ms */
	double aqu_sz;
	double util;			/* percent, at most 100 */
	double rareq_sz, wareq_sz, areq_sz;	/* kB */
};

enum scene_dev_role {
	SCENE_DEV_FS,		/* a filesystem of the process's files sits on it */
	SCENE_DEV_DISK,		/* the whole disk of such a partition */
	SCENE_DEV_SLAVE,	/* under a dm or md device */
	SCENE_DEV_BACKING,	/* holds a loop device's backing file */
	SCENE_DEV_OPEN,		/* a block device the process holds open itself */
};

struct scene_dev {
	char name[64];			/* as /proc/diskstats and sysfs name it: vda, dm-0, loop0 */
	unsigned int major, minor;
	enum scene_dev_role role;
	struct fact_err e;		/* not measured: not in diskstats, gone, went backwards */
	bool seen_begin;		/* in the first reading */
	int in_flight;			/* requests in flight at the last reading; -1 unknown */
	bool has_delta;			/* read at both ends: d and io hold */
	struct scene_disk_delta at0;	/* the counters themselves at the first reading */
	struct scene_disk_delta d;
	struct scene_iostat io;
};

/* One CPU's tics over the window, as percentages of all its tics (vmstat, top). */
struct scene_cpu {
	int id;
	struct fact_err e;		/* offline during the window, or went backwards */
	double us, sy, id_pct, wa, hi, si, st;	/* us: user+nice, as vmstat */
};

/* The raw tic changes of one CPU, what scene_cpu_pct turns into percentages. */
struct scene_tics {
	int64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

struct scene {
	struct fact_err e;		/* not measured at all, and why (a captured tree) */
	bool windowed;			/* read at both ends of a window */
	double seconds;			/* the window, CLOCK_MONOTONIC; 0 one reading */

	struct fact_err load_e;
	double load[3];			/* 1, 5, 15 minutes */

	struct fact_err mem_e;		/* meminfo and vmstat at the last reading */
	uint64_t dirty_kb, writeback_kb;
	uint64_t dirty_thresh_kb;	/* vmstat nr_dirty_threshold, in kB */
	uint64_t dirty_bg_thresh_kb;	/* nr_dirty_background_threshold */

	struct fact_err majflt_e;	/* windowed only */
	double pgmajfault_s;

	struct scene_dev devs[SCENE_MAX_DEVS];
	size_t ndevs;
	size_t devs_left_out;		/* past SCENE_MAX_DEVS */

	/* The CPUs the process's threads ran on (all when unknown); windowed only. */
	struct fact_err cpus_e;
	bool cpus_all;
	struct scene_cpu *cpus;
	size_t ncpus;

	/* The process's io-wq workers (iou-wrk-*): CPU seconds a second over the window. */
	struct fact_err iowq_e;
	double iowq_cpu;
	unsigned int iowq_workers;	/* seen at either end */
	unsigned int iowq_gone;		/* exited during the window: their last tics lost */
	/*
	 * The states of the workers of the first reading, read every 100 ms
	 * through the watch: how many readings, in how many at least one worker
	 * was in D, and the most in D at once. A worker in D on a contended lock
	 * is in and out of it within milliseconds: one reading misses it as
	 * often as not.
	 */
	unsigned int iowq_samples, iowq_d_samples, iowq_d_max;

	struct scene_probe *p;		/* private: libproc2's handles between the readings */
};

/*
 * What to read: the process, its devices (those the filesystems of its
 * files sit on, each walked to its disks by scene_devs.c) and the CPUs its
 * threads last ran on (-1 entries are ignored; none: all CPUs).
 */
struct scene_target {
	pid_t pid;
	const struct blockdev_facts *const *devs;
	const bool *opened;		/* devs[i] is held open itself (NULL: none is) */
	size_t ndevs;
	const int *cpus;
	size_t ncpus;
};

/* The first reading; live only (sr->live), else s->e says why. */
void scene_begin(const struct sysroot *sr, const struct scene_target *t, struct scene *s);
/* The last reading, and the rates over the window since scene_begin. */
void scene_end(const struct sysroot *sr, const struct scene_target *t, struct scene *s);
/* One reading alone, for no window: load, memory, requests in flight. */
void scene_once(const struct sysroot *sr, const struct scene_target *t, struct scene *s);
void scene_free(struct scene *s);

/*
 * The shortest window whose rates mean something: io_ticks and the
 * requests' ms advance per jiffy (1 to 10 ms), a CPU's tics per USER_HZ tick
 * (10 ms), so over 100 ms one tick is a tenth of the rate; under it a %util of
 * 0 or 100, or millions of w/s, would be the clocks' grain, not the device.
 */
#define SCENE_MIN_SECONDS 0.1

/* scene_calc.c: pure functions of recorded numbers. */
/*
 * d = b - a, counter by counter, in 64 bits: false when one went backwards
 * (the device was reset or replaced, or a 32-bit kernel's counter wrapped).
 */
bool scene_disk_sub(const struct scene_disk_delta *a, const struct scene_disk_delta *b,
		    struct scene_disk_delta *d);
/* false, with e, for a window too short for rates (under SCENE_MIN_SECONDS, or none). */
bool scene_window_usable(double seconds, struct fact_err *e);
void scene_iostat(const struct scene_disk_delta *d, double seconds, struct scene_iostat *io);
/* false when the tics say nothing (no tic passed, or one went backwards). */
bool scene_cpu_pct(const struct scene_tics *t, struct scene_cpu *c);
const char *scene_dev_role_name(enum scene_dev_role r);

/* scene_devs.c: the devices to read, the target's and what they sit on. */
void scene_devs_resolve(const struct sysroot *sr, const struct scene_target *t, struct scene *s);
/* scene_tasks.c: the io-wq workers' tics at a reading (end: their CPU over the window). */
int scene_iowq_read(const struct sysroot *sr, pid_t pid, struct scene *s, bool end);
/* One reading of the workers' states, during the window (see iowq_samples). */
void scene_iowq_sample(const struct sysroot *sr, pid_t pid, struct scene *s);

#endif
