/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_URING_TRACE_H
#define URINGLINT_URING_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "tracefs.h"

/* The events, in the order they are given to tp_stream_open. */
enum ut_event {
	UT_SUBMIT,	/* io_uring_submit_req (6.4+), io_uring_submit_sqe (before) */
	UT_FILE_GET,	/* io_uring_file_get: a request takes a normal fd */
	UT_PUNT,	/* io_uring_queue_async_work */
	UT_ENTER,	/* syscalls:sys_enter_io_uring_enter: the ring fd a thread enters */
	UT_COMPLETE,	/* io_uring_complete: a CQE, with its result */
	UT_CREATE,	/* io_uring_create: a ring set up, with its flags, while watched */
	UT_TW_RUN,	/* io_uring_task_work_run: a thread ran a batch of completion work */
	UT_EXIT,	/* syscalls:sys_exit_io_uring_enter: the thread left io_uring_enter */
	UT_POLL_ARM,	/* io_uring_poll_arm: a request waits on its file's poll (no io-wq) */
	/*
	 * What an io-wq worker did for a punted write, each optional (absent
	 * ones are not opened; the causes are then inferred by rule):
	 * docs/kernel-facts.md, section 17.
	 */
	UT_C_UPDATE_TIME,	/* xfs:xfs_update_time: the worker stored the inode's times */
	UT_C_IOMAP_ALLOC,	/* xfs:xfs_iomap_alloc: it allocated blocks for an O_DIRECT write */
	UT_C_DIRTY,		/* writeback:balance_dirty_pages: it was throttled on dirty pages */
	UT_NEVENTS,
};

/*
 * A punted write's cause as its worker showed it, in the order the write
 * path meets them under IOCB_NOWAIT: the times (kiocb_modified, in the
 * write checks), then the mapping (allocation), then dirty throttling
 * after the copy. A request that showed several gets the first: the
 * earliest check is the one that refused the nonblocking try.
 */
enum ut_cause {
	UT_CAUSE_TIMESTAMP,
	UT_CAUSE_ALLOC,
	UT_CAUSE_DIRTY,
	UT_NCAUSES,
};

/* A clock tick at its longest (HZ 100): how far a same-tick refusal may precede the update. */
#define UT_TICK_MAX_NS 10000000ull

/* Punted requests waiting for a worker's cause event to claim them, at most. */
#define UT_MAX_WAITING 4096

#define UT_MAX_OPS 12
#define UT_MAX_SUBMITTERS 16
#define UT_MAX_ERRS 16
/*
 * Submit-to-completion latency, per ring and opcode: a log-linear
 * histogram, 4 buckets per power of two from 128 ns to 2^38 ns (4.6 min),
 * so a percentile read off it is high by at most 25%.
 */
#define UT_LAT_MIN_SHIFT 7
#define UT_LAT_SUB 4
#define UT_LAT_BUCKETS ((38 - UT_LAT_MIN_SHIFT) * UT_LAT_SUB + 1)
/* Rings followed in detail; a process that makes thousands is counted past this. */
#define UT_MAX_RINGS 1024
#define UT_ERR_UNJOINED (-1)
#define UT_ERR_MULTISHOT (-2)

enum ut_dir { UT_DIR_OTHER, UT_DIR_READ, UT_DIR_WRITE };

/* Requests io_uring made on one fd while watched; punts counts requests punted (once each). */
struct ut_file {
	int fd;
	pid_t pid;		/* the process of its first file lookup: whose fd table names it */
	uint64_t reqs, punts;
	uint64_t reads, writes, read_punts, write_punts;
	uint64_t async_reqs, async_punts;	/* the application set IOSQE_ASYNC */
	/* opcodes io_uring always runs in io-wq (FSYNC, FALLOCATE, ...): no fault */
	uint64_t kernel_async_reqs, kernel_async_punts;
	/* opcodes only sockets take (uring_op_socket_only): net-punts judges them */
	uint64_t socket_reqs, socket_punts, socket_async_punts;
	/*
	 * Punted writes (not IOSQE_ASYNC) whose io-wq worker showed a cause
	 * (enum ut_cause), one cause each, counted at their first CQE: the
	 * rest of write_punts showed none.
	 */
	uint64_t observed[UT_NCAUSES];
	/*
	 * Punted writes that showed no cause of their own, submitted in the
	 * clock tick before an observed timestamp update of this file (after
	 * the one before it, at most UT_TICK_MAX_NS earlier): refused for the
	 * same stale times, whose update one worker made for all of them.
	 * Inferred from that update, not seen: counted apart from observed.
	 */
	uint64_t ts_same_tick;
	uint64_t ts_last, ts_prev;	/* the last two timestamp updates seen (ns) */
	struct {
		uint8_t opcode;
		uint64_t reqs, punts;
		uint64_t observed[UT_NCAUSES];
	} ops[UT_MAX_OPS];
	unsigned int nops;
};

/* One opcode on one ring: requests, their completions, and how long they took. */
struct ut_ring_op {
	uint8_t opcode;
	uint64_t reqs, completions, errors;
	/*
	 * Of the requests submitted while sampled, each counted once: those
	 * armed on poll (they would have blocked and wait for readiness, the
	 * network fast path), those punted to io-wq, and those with IOSQE_ASYNC.
	 */
	uint64_t polled, punted, async_reqs, async_punted;
	/*
	 * The same of the requests seen from submit to first completion
	 * (latency_n of them): a share of those is not lowered by events the
	 * kernel did not sample (throttled) between the two.
	 */
	uint64_t done_polled, done_punted, done_async, done_async_punted;
	/*
	 * Multishot requests that ended (a CQE without IORING_CQE_F_MORE after
	 * CQEs with it, joined by user_data), with ENOBUFS (the provided
	 * buffers ran out) or 0 (end of stream); and the CQEs they posted.
	 */
	uint64_t ms_ended, ms_ended_enobufs, ms_ended_eof, ms_cqes;
	uint64_t latency_n;		/* completions joined to their submit */
	/* submitted while sampled, not yet completed when sampling stopped: longer than seen */
	uint64_t latency_censored;
	uint32_t latency[UT_LAT_BUCKETS];
};

/* One ring, known by the kernel's ctx pointer. */
struct ut_ring {
	uint64_t ctx;
	bool retired;			/* its ctx pointer went to a ring set up later */
	int fd;				/* from a thread's io_uring_enter; -1 unknown */
	bool fd_ambiguous;		/* entered under two fds (or a registered index) */
	/* io_uring_create, when the ring was set up while watched */
	bool created;
	int created_fd;			/* -1 with REGISTERED_FD_ONLY: a ring index, no fd */
	pid_t creator;			/* the thread that set it up (the task SINGLE_ISSUER binds) */
	uint32_t setup_flags, sq_entries, cq_entries;
	uint64_t completions;		/* CQEs sampled */
	uint64_t completions_unjoined;	/* of requests submitted while not sampled */
	/*
	 * CQEs a multishot request posts before its last one: the kernel
	 * traces them with no request pointer, so they join no request.
	 */
	uint64_t completions_multishot;
	/* failed CQEs by opcode (UT_ERR_UNJOINED, UT_ERR_MULTISHOT: no opcode known) and errno */
	struct ut_ring_err {
		int opcode;
		int err;		/* a positive errno */
		uint64_t n;
	} errs[UT_MAX_ERRS];
	unsigned int nerrs;
	uint64_t errs_other;		/* errors past the UT_MAX_ERRS kinds kept */
	/* requests the application sent to io-wq with IOSQE_ASYNC (FSYNC-like ones apart) */
	uint64_t async_reqs;
	struct ut_ring_op ops[UT_MAX_OPS];
	unsigned int nops;
	uint64_t reqs, punts;
	uint64_t fixed_reqs, fixed_punts;	/* on registered files: no fd in the events */
	uint64_t nofile_reqs, nofile_punts;	/* no file at all (timeouts, nops, ...) */
	/*
	 * Punts of socket-only opcodes (RECV, SEND, ACCEPT, ...) whose file_get was
	 * not seen (an io-wq worker attached after it took the file): a socket's,
	 * whichever it was, so no file's punt is missing.
	 */
	uint64_t nofile_socket_punts;
	struct ut_submitter {
		pid_t tid;
		bool sq_thread;
		uint64_t reqs;
		uint64_t cpus;		/* CPUs (below 64) it submitted from */
		bool cpus_high;		/* and one at 64 or above */
		int last_cpu;
		uint64_t migrations;	/* submissions from another CPU than its last */
	} submitters[UT_MAX_SUBMITTERS];
	unsigned int nsubmitters;
	uint64_t submitters_other;	/* requests of threads past UT_MAX_SUBMITTERS */
};

/* The requests, joined across events by the kernel's request pointer. */
struct ut_req {
	uint64_t req, ctx;
	uint64_t time;			/* of its submit */
	pid_t pid, tid;			/* the submitting thread */
	pid_t worker;			/* the thread that took its file after a punt (io-wq), 0 */
	uint64_t worker_time;
	int fd;
	uint8_t opcode;
	bool fixed, async, punted;
	bool polled;			/* armed on poll at least once */
	bool completed;			/* its first CQE seen (a multishot one posts more) */
	uint8_t causes;			/* bit k: its worker showed cause k (enum ut_cause) */
};

/*
 * A request seen from its submit to its first CQE, kept for a trace file
 * (uring_trace.keep_spans): when, by which thread, on which fd, and what
 * became of it.
 */
struct ut_span {
	uint64_t start, end;		/* CLOCK_MONOTONIC ns of its submit and of its first CQE */
	pid_t pid, tid;			/* the submitting thread */
	pid_t done_tid;			/* the thread the CQE was posted from (task work runs in the submitter) */
	pid_t worker;			/* an io-wq worker seen running it (its file lookup), 0 unknown */
	uint64_t worker_time;		/* when that worker took its file */
	int fd;				/* -1: a registered file, or none */
	int32_t res;
	uint8_t opcode;
	bool fixed, async, punted, polled;
	/* false: no CQE seen (in flight at a stop, or posted where the watch was not yet); end 0 */
	bool completed;
};

/* Spans kept at most, per watch: 56 bytes each here, about 600 in the file. */
#define UT_MAX_SPANS (1u << 18)

/* A thread seen entering io_uring_enter or running io_uring's task work. */
struct ut_thread {
	pid_t tid;
	int fd;				/* the ring fd it last entered; -1: none, or a ring index */
	uint64_t enters;		/* io_uring_enter calls sampled */
	/*
	 * io_uring_task_work_run: batches of completion work run in this
	 * thread (rings without DEFER_TASKRUN), and the items in them; and
	 * the batches run while it was seen outside io_uring_enter (between
	 * an exit and the next entry): on another system call's way back, or
	 * because the kernel interrupted it for them.
	 */
	uint64_t tw_runs, tw_items, tw_outside;
	enum { UT_IN_UNKNOWN, UT_IN_ENTER, UT_OUT_OF_ENTER } where;
	/*
	 * An io-wq worker: the punted request it was last seen running (by
	 * pointer, ring and submit time), and the causes it showed for it.
	 */
	uint64_t run_req, run_ctx, run_time;
	uint8_t run_seen;
};

struct uring_trace {
	struct tp_format fmts[UT_NEVENTS];
	bool have[UT_NEVENTS];
	bool submit_sqe;		/* the 6.1-6.3 name */
	/* fields, looked up once */
	const struct tp_field *f_ctx[UT_NEVENTS], *f_req[UT_NEVENTS];
	const struct tp_field *f_opcode[UT_NEVENTS], *f_flags[UT_NEVENTS], *f_opstr[UT_NEVENTS];
	const struct tp_field *f_fd, *f_sq_thread, *f_enter_fd, *f_enter_flags, *f_tw_count;
	const struct tp_field *f_cflags, *f_user_data;
	const struct tp_field *f_res, *f_create_fd, *f_create_flags, *f_sq_entries, *f_cq_entries;

	struct ut_file *files;
	size_t nfiles, files_cap;
	int32_t *file_of_fd;		/* index into files by fd, -1 none */
	size_t fd_slots;
	struct ut_ring *rings;
	size_t nrings, rings_cap;
	struct ut_req *reqs;		/* open addressing, keyed by req */
	size_t reqs_cap, reqs_used;
	struct ut_thread *threads;
	size_t nthreads, threads_cap;
	/*
	 * CQEs with IORING_CQE_F_MORE by ring and user_data: a multishot
	 * request's, traced without the request, counted until its last CQE.
	 * Open addressing, emptied when half full (ms_resets).
	 */
	struct ut_ms {
		uint64_t ctx, user_data;
		uint32_t cqes;
	} *ms;
	size_t ms_used;
	uint64_t ms_resets;

	/*
	 * Punted requests no worker was seen running yet, oldest first (a
	 * ring of UT_MAX_WAITING): a cause event on an idle worker claims the
	 * oldest still open, as io-wq runs a file's writes in order (hashed
	 * by inode).
	 */
	struct ut_waiting {
		uint64_t req, ctx, time;
	} *waiting;
	size_t waiting_head, waiting_len;
	/* cause events on workers of the process, and those that found no open punted request */
	uint64_t cause_events[UT_NCAUSES], cause_events_unclaimed[UT_NCAUSES];

	char op_names[256][24];		/* learnt from op_str */
	uint64_t punt_ops[256];		/* sampled punts by opcode */
	uint64_t samples[UT_NEVENTS];	/* samples joined, per event */
	uint64_t punts_unattributed;	/* punted again, or forced, with no file seen */
	/* events of requests submitted while not sampled: left out of every share */
	uint64_t edge_reqs, edge_punts;
	uint64_t cut_punts;		/* punted, file not yet seen when sampling stopped */
	/*
	 * The submit time of the request the last punt event punted for the
	 * first time; 0 when it punted none (a repeat, or a request not seen
	 * submitted): the time series counts a punt where its request came.
	 */
	uint64_t punted_submit;
	/*
	 * When sampling was last switched on, on every thread: a request
	 * submitted before may have had events on a thread not yet enabled.
	 */
	uint64_t sampled_since;
	uint64_t punts_kernel_async;	/* sampled punts of opcodes io_uring always punts */
	uint64_t untracked_ring_events;	/* events of rings past UT_MAX_RINGS */
	bool drain_seen;		/* IOSQE_IO_DRAIN: its forced requests look like IOSQE_ASYNC */
	bool oom;
	/* With keep_spans set by the caller: each request seen to its first CQE, in order of CQE. */
	bool keep_spans;
	struct ut_span *spans;
	size_t nspans, spans_cap;
	uint64_t spans_dropped;		/* past UT_MAX_SPANS, or when memory ran out */
};

/*
 * Loads the formats (root; see tp_format_load). 0, or -errno with why when
 * the punt tracepoint itself is missing; the others are optional.
 */
int uring_trace_init(struct uring_trace *ut, char *why, size_t whysz);
/* Looks the fields up in fmts[] (those with have[] set); init calls it. */
void uring_trace_setup(struct uring_trace *ut);
/* Joins one sample into the tables. */
void uring_trace_record(struct uring_trace *ut, const struct tp_record *r);
/*
 * Sampling stopped (for a while, or for good): the requests still open are
 * set aside; those punted with no file yet count in cut_punts, not as
 * requests without a file.
 */
void uring_trace_cut(struct uring_trace *ut);
void uring_trace_free(struct uring_trace *ut);

/* The cause's name in the evidence ("timestamp") and the tracepoint that shows it. */
const char *uring_trace_cause_name(enum ut_cause c);
const char *uring_trace_cause_event(enum ut_cause c);
/* Whether the tracepoint of cause c was there to open. */
bool uring_trace_cause_watched(const struct uring_trace *ut, enum ut_cause c);

/* The opcode's name ("WRITE") when a sample said it, else "opcode N". */
const char *uring_trace_op_name(const struct uring_trace *ut, uint8_t opcode, char *buf,
				size_t bufsz);
/*
 * Whether io_uring marks this opcode for io-wq itself, in its prep
 * (REQ_F_FORCE_ASYNC, the same bit as IOSQE_ASYNC): FSYNC, FALLOCATE and
 * the path operations never run inline, whatever the application does.
 */
bool uring_trace_op_always_async(const struct uring_trace *ut, uint8_t opcode);
/*
 * The opcodes only sockets take (accept, connect, send, recv, their msg and
 * zero-copy forms): net-punts judges their punts per ring, file-punts leaves
 * them out of a file's share.
 */
bool uring_op_socket_only(uint8_t opcode);
/*
 * A tracepoint filter that passes exactly those opcodes ("opcode == 3 ||
 * ..."), for a counter of them. 0, or -ENAMETOOLONG.
 */
int uring_trace_always_async_filter(char *buf, size_t bufsz);
/* Read, write or neither, by the opcode's name or, without one, its number. */
enum ut_dir uring_trace_op_dir(const struct uring_trace *ut, uint8_t opcode);

/*
 * The latency below which a share q (0.5, 0.99, 0.999) of an op's first
 * completions fell, in ns: the upper edge of the histogram's bucket.
 * 0 when none was joined.
 */
uint64_t uring_trace_latency(const struct ut_ring_op *op, double q);
/*
 * Whether that quantile is known: not when the requests still open as
 * sampling stopped (longer than seen) could be the ones above it.
 */
bool uring_trace_latency_known(const struct ut_ring_op *op, double q);
/* What the trace saw of thread tid (its io_uring_enter calls, its task work), or NULL. */
const struct ut_thread *uring_trace_thread(const struct uring_trace *ut, pid_t tid);
/* The bucket of a latency in ns (exposed for the tests), and a bucket's upper edge in ns. */
unsigned int uring_trace_lat_bucket(uint64_t ns);
uint64_t uring_trace_lat_bucket_top(unsigned int b);

/* Punts not tied to any file: of requests whose file never showed, or from before the watch. */
static inline uint64_t ut_unresolved_punts(const struct uring_trace *ut)
{
	uint64_t n = ut->punts_unattributed;
	size_t i;

	for (i = 0; i < ut->nrings; i++)
		n += ut->rings[i].nofile_punts;
	return n;
}

/* A file's punts and requests that file-punts judges: not FSYNC's kind, not a socket's. */
static inline uint64_t ut_file_fault_punts(const struct ut_file *f)
{
	return f->punts - f->kernel_async_punts - f->socket_punts;
}

static inline uint64_t ut_file_fault_reqs(const struct ut_file *f)
{
	return f->reqs - f->kernel_async_reqs - f->socket_reqs;
}

/* REQ_F_FIXED_FILE, _IO_DRAIN and _FORCE_ASYNC: the SQE flags bits, the low bits of req->flags. */
#define UT_REQ_FIXED_FILE (1ull << 0)
#define UT_REQ_FORCE_ASYNC (1ull << 4)
#define UT_REQ_IO_DRAIN (1ull << 1)

#endif
