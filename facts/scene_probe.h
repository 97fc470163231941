/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_SCENE_PROBE_H
#define URINGLINT_SCENE_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "scene.h"

/* Private to facts/scene*.c: what lies between a scene's two readings. */
struct scene_worker {
	pid_t tid;
	unsigned long long tics;	/* utime + stime */
};

struct scene_workers {
	struct scene_worker *v;
	size_t n, cap;
};

struct diskstats_info;
struct stat_info;
struct meminfo_info;
struct vmstat_info;

struct scene_probe {
	struct diskstats_info *disk;
	struct stat_info *stat;
	struct meminfo_info *mem;
	struct vmstat_info *vm;
	uint64_t t0_ns;
	unsigned long pgmajfault0;
	bool vm0;			/* pgmajfault0 was read */
	int cpu_ids[2][SCENE_MAX_CPUS];	/* the online CPUs at each reading */
	int ncpu_ids[2];
	struct scene_workers wk[2];
};

#endif
