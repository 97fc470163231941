/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROBE_H
#define URINGLINT_PROBE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "fact.h"
#include "latency.h"

enum probe_rw {
	PROBE_RANDRW,
	PROBE_RANDREAD,
	PROBE_RANDWRITE,
};

/* The probe's modes, then the contrast modes (the mistakes), in run order. */
enum probe_mode {
	PM_DEFAULT,		/* plain ring, io_uring_enter per batch */
	PM_COOP,		/* + COOP_TASKRUN | TASKRUN_FLAG (5.19+) */
	PM_DEFER,		/* + SINGLE_ISSUER | DEFER_TASKRUN (6.1+) */
	PM_SQPOLL,		/* SQPOLL */
	PM_SQPOLL_FIXED,	/* SQPOLL, registered buffers and file */
	PM_BUFFERED,		/* contrast: the same file without O_DIRECT */
	PM_APPEND,		/* contrast: O_DIRECT appends */
	PM_UNWRITTEN,		/* contrast: O_DIRECT writes into fallocate()d extents */
	PM__COUNT
};

#define PM_CONTRAST_FIRST PM_BUFFERED

struct probe_opts {
	const char *dir;
	uint64_t size;
	unsigned int duration_ms;
	unsigned int depth;
	unsigned int bs;
	enum probe_rw rw;
	unsigned int modes;	/* bit per enum probe_mode of the first five */
	bool contrast;
	int sqpoll_cpu;		/* -1: not pinned */
	bool progress;		/* a line on stderr while it runs */
};

struct probe_mode_result {
	struct fact_err e;	/* why the mode did not run (unsupported, memlock, ...) */
	bool ran;
	uint64_t ios, errors;
	int first_error;	/* -errno of the first failed request */
	double seconds, iops;
	double p50_us, p99_us, p999_us;
	uint64_t hist[PROBE_HIST_BUCKETS];
	bool punts_tracepoint;	/* punts counted by the tracepoint, else new iou-wrk threads */
	uint64_t punts;
	uint64_t new_iou_wrk;
	bool enters_tracepoint;	/* io_uring_enter counted by its tracepoint, else by our calls */
	uint64_t enters;
	double syscalls_per_io;
	double vcsw_per_io;
	bool cq_overflow;
	bool sqpoll_thread;	/* an iou-sqp thread came up */
};

struct probe_result {
	struct fact_err e;	/* the probe could not start: it says why */
	char dir[PATH_MAX];	/* realpath, which may fill PATH_MAX */
	char fs[32];
	char device[64];
	uint64_t size;
	unsigned int bs, depth;
	bool o_tmpfile;
	int odirect_err;	/* 0, or -errno of the O_DIRECT open */
	bool memory_fs;		/* tmpfs and friends: O_DIRECT means nothing there */
	uint32_t dio_mem_align, dio_offset_align;
	int fixed_err;		/* 0, or -errno of the buffer registration */
	uint64_t fixed_bytes;
	uint64_t memlock_soft;	/* RLIMIT_MEMLOCK at the time, UINT64_MAX unlimited */
	char punts_why[256];	/* why punts were not counted by the tracepoint */
	struct probe_mode_result modes[PM__COUNT];
};

const char *probe_mode_name(enum probe_mode m);
/* The documented defaults (256 MiB, 2 s, depth 32, 4 KiB random read/write, every mode) in DIR. */
void probe_opts_default(struct probe_opts *o, const char *dir);
/* 0 or -EINVAL for a name of --mode (default, sqpoll, sqpoll-fixed, all). */
int probe_modes_parse(const char *name, unsigned int *modes);

/*
 * Runs the probe. Returns 0 when it ran (findings judge the rest), or
 * -errno with r->e set when it could not start (no space, bad dir, ...).
 * Writes only its own temporary files, which never outlive it.
 */
int probe_run(const struct probe_opts *o, struct probe_result *r);

#endif
