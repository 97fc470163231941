/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_FDINFO_H
#define URINGLINT_FDINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The four lines every /proc/PID/fdinfo/N starts with. */
struct fdinfo_generic {
	uint64_t pos;
	uint32_t flags;		/* f_flags, octal in the file: O_DIRECT, O_APPEND, ... */
	uint32_t mnt_id;	/* the ID column of /proc/PID/mountinfo */
	uint64_t ino;
};

struct uring_user_file {
	uint32_t index;
	char *path;		/* full path (6.14+) or basename (before); never "<none>" */
};

struct uring_user_buf {
	uint32_t index;
	uint64_t addr, len;
};

/*
 * The io_uring part of an io_uring fd's fdinfo, for every format from 5.10
 * to 6.18 (see docs/kernel-facts.md, section 1). has_* say which lines the kernel
 * printed; a field whose line is absent is unknown, never zero.
 */
struct uring_fdinfo {
	bool has_ring_state;		/* SqMask ... CachedCqTail (5.17+) */
	uint32_t sq_entries, cq_entries;
	uint32_t sq_head, sq_tail, cached_sq_head, cq_head, cq_tail, cached_cq_tail;
	uint32_t sqes_pending, cqes_pending;

	bool has_sq_thread;
	int32_t sq_thread;		/* TID, -1 none */
	int32_t sq_thread_cpu;

	bool has_sq_times;		/* 6.9+ */
	uint64_t sq_total_time_us, sq_work_time_us;

	bool has_user_files;
	uint32_t user_files;		/* table size incl. empty slots */
	uint32_t user_file_lines;	/* slot lines printed, "<none>" included */
	struct uring_user_file *files;	/* the non-empty slots */
	size_t nfiles, files_cap;

	bool has_user_bufs;
	uint32_t user_bufs;
	uint32_t user_buf_lines;
	struct uring_user_buf *bufs;	/* the non-empty slots */
	size_t nbufs, bufs_cap;

	bool has_overflow_list;		/* CqOverflowList (5.17+) */
	uint32_t cq_overflow;		/* entries listed */

	/*
	 * 6.12+ with CONFIG_NET_RX_BUSY_POLL: "NAPI:\tenabled" or "disabled"
	 * (napi_on), and when enabled the busy-poll time (ns) and whether it
	 * prefers busy polling to interrupts; 6.13+ the tracking mode.
	 */
	bool has_napi;
	char napi[32];			/* as printed: a later kernel's word is kept */
	bool napi_on;			/* "enabled" */
	bool has_napi_dt, has_napi_prefer;
	uint64_t napi_busy_poll_dt_ns;
	bool napi_prefer_busy_poll;
	char napi_tracking[16];		/* "dynamic", "static"; "" not printed (6.12) */
};

/* 0 or -EBADMSG when the generic lines are missing or garbled. */
int fdinfo_parse_generic(const char *text, struct fdinfo_generic *g);

/*
 * Parses the io_uring lines. Returns 0, -ENODATA when none are there (the
 * ring lock was busy on 6.18: only the generic lines), -EBADMSG for garbage,
 * -ENOMEM. Frees nothing on entry: call uring_fdinfo_free after.
 */
int uring_fdinfo_parse(const char *text, struct uring_fdinfo *u);
void uring_fdinfo_free(struct uring_fdinfo *u);

/*
 * Whether the kernel skipped the lock-protected part while printing: slot
 * lines missing though the table has slots. On 6.14+ empty file slots are
 * not printed, so only buffers (and files before 6.14) can tell.
 */
bool uring_fdinfo_lock_skipped(const struct uring_fdinfo *u, bool files_print_empty);

#endif
