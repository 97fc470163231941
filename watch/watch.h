/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_WATCH_H
#define URINGLINT_WATCH_H

/*
 * watch/: audit --watch, the one public header. The engine (uring_trace*.c:
 * io_uring's tracepoints into requests, punts and causes), the session
 * (punt_watch.c and what it calls: attach, sample every 100 ms, close; one
 * process or many, a PID or --exec), the after-watch steps (ring_match.c) and
 * the output (watch_json.c, watch_trace.c). Its other headers are its own.
 */

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "fact.h"
#include "file_state.h"
#include "proc_facts.h"
#include "proc_tasks.h"
#include "uring_trace.h"

/* punt_watch.c */

#define WATCH_MAX_SECONDS 600
#define WATCH_MAX_OPS 64

/* One fd io_uring used while watched, with its file as seen first and last. */
struct watch_file {
	struct file_state first;	/* when its first request was seen */
	struct file_state last;		/* at the end; last.err when it had gone */
	bool reused;			/* the fd named another file at the end */
	uint64_t first_tried_reqs;	/* its requests when first was last tried (first.err) */
	/* the page cache of a file with punts, read every 100 ms: the most seen */
	unsigned int cache_reads;
	uint64_t peak_cached, peak_dirty;	/* dirty includes writeback */
};

/* What a watch is asked to do, besides its seconds: the caller's, kept by the watch. */
struct watch_request {
	/* Keep each request's span for a trace file (ut.spans). */
	bool keep_spans;
	/*
	 * The bytes of sample buffers for all its threads, 0 for
	 * PUNT_WATCH_BUDGET (less when other processes are watched beside).
	 */
	size_t ring_budget;
	/*
	 * The process's pidfd since its first read (proc_facts), the caller's;
	 * without it the watch opens its own.
	 */
	bool pinned;
	int pidfd;
	/* Called every 100 ms while a live watch runs (the scene's samples); NULL none. */
	void (*every_100ms)(void *arg);
	void *every_arg;
};

/*
 * Punts of one process to io-wq, and the requests behind them, over a few
 * seconds: the request (req, and the rings whose fill to read, fills) set
 * before the watch, the rest what it found.
 */
struct punt_watch {
	struct watch_request req;
	struct fact_err e;		/* nothing could be counted */
	bool tracepoint;		/* counted with io_uring:io_uring_queue_async_work */
	char fallback_why[256];		/* why the tracepoint was not used */
	unsigned int seconds;		/* asked for */
	/*
	 * Really watched: from before the events were opened to their disable,
	 * the span the exact counts cover (a few ms past the seconds asked for);
	 * less when the process exited.
	 */
	double seconds_watched;
	/*
	 * Above a rate, samples are taken for only part of each second
	 * (see punt_watch.c): the per-file and per-ring counts are over these
	 * seconds, the total and the per-second counts over all of them.
	 */
	double seconds_sampled;
	bool sampled_all;
	/*
	 * When sampling was on, CLOCK_MONOTONIC ns: from before it was switched
	 * on to after it was off on every thread. One window when sampled_all.
	 */
	struct watch_window {
		uint64_t start, end;
	} windows[WATCH_MAX_SECONDS + 2];
	unsigned int nwindows;
	bool exited;			/* the process exited during the watch */
	bool exec;			/* a program run under the watch, from its start to its end */
	/*
	 * --exec of a program whose exec drops the events: stopped at its exec
	 * (ptrace) and watched from its first instruction after it
	 * (exec_stopped), or, where it could not be traced, watched by its
	 * threads from attach_ns after it started (its first requests and the
	 * setup flags of rings made before are not seen); or, when neither
	 * could be done, blind, with why: then nothing seen is proof of anything.
	 */
	bool attached_after_exec;
	bool exec_stopped;
	uint64_t attach_ns;
	bool blind;
	char blind_why[256];
	uint64_t total;			/* punts (tracepoint, counted exactly) or new iou-wrk threads */
	/* of them, opcodes io_uring always punts (FSYNC, ...): counted too, when the filter took */
	uint64_t kernel_async_total;
	bool kernel_async_counted;
	char kernel_async_filter[512];
	uint64_t submitted, file_gets;	/* requests and normal-fd lookups, counted exactly */
	bool submit_counted;		/* the submit tracepoint was open */
	/*
	 * The process's positional reads and writes with plain system calls
	 * (pread64, pwrite64, preadv, pwritev, preadv2, pwritev2: only seekable
	 * files take them), counted exactly beside its io_uring requests.
	 */
	uint64_t plain_io;
	bool plain_io_counted;
	/*
	 * Counted only while sampling was on (the windows), as the requests
	 * set against it: the whole watch when it sampled all of it.
	 */
	bool plain_io_sampled;
	char plain_io_why[128];		/* !plain_io_counted: why */
	uint64_t per_second[WATCH_MAX_SECONDS];
	unsigned int nper_second;	/* entries filled; the last may be a part second */
	struct {
		char op[24];
		uint64_t n;
	} ops[WATCH_MAX_OPS];
	unsigned int nops;
	uint64_t punts_sampled;		/* punts the breakdowns cover */
	uint64_t lost;			/* samples the kernel dropped: counted, not attributed */
	uint64_t throttled;		/* times the kernel throttled the samples (tp_stream) */
	uint64_t samples_missed;	/* events counted while sampled, never written as samples */
	unsigned int threads_watched, threads_late, threads_unattached;
	size_t ring_bytes;		/* sample buffer per thread (per CPU: by_cgroup, exec) */
	/*
	 * Watched through its cgroup (by_cgroup: one set of events per CPU, so
	 * every thread, whatever their number, those started in the watch too),
	 * chosen when one buffer per thread would not fit the budget and the
	 * process is alone in its cgroup. cgroup_why: why not, when it was
	 * wanted and could not be had.
	 */
	bool by_cgroup;
	char cgroup[1024];
	char cgroup_why[192];

	/* tracepoint only: per file and per ring */
	struct uring_trace ut;
	struct watch_file *files;	/* parallel to ut.files */
	size_t nfiles, files_cap;

	/*
	 * How full each ring's queues ran: its fdinfo read every 100 ms (SQEs:
	 * submitted by the application, not yet taken; CQEs: posted, not yet
	 * reaped). The caller names the ring fds before the watch.
	 */
	struct watch_fill *fills;
	size_t nfills;
	size_t fills_left_out;		/* ring fds past WATCH_FILL_MAX: not read */
	/* Each sampled ring matched to its fd (ring_match.c), parallel to ut.rings. */
	struct watch_ring_match *matches;
	/* Requests and punts sampled, per 100 ms (watch_series.c). */
	struct watch_series *series;
};

/*
 * The watch as a time series (watch_series.c): the requests and punts its
 * samples hold, in buckets of WATCH_SERIES_MS from the watch's start, for a
 * picture of when they came; how much of each bucket was sampled is read
 * from the windows.
 */
#define WATCH_SERIES_MS 100
/* Buckets of the longest watch: no series is longer. */
#define WATCH_SERIES_MAX ((WATCH_MAX_SECONDS + 2) * (1000 / WATCH_SERIES_MS))
struct watch_series {
	uint64_t start;			/* CLOCK_MONOTONIC ns of bucket 0; 0 not started */
	uint32_t *reqs, *punts;
	unsigned int n, cap;		/* buckets with an event, and room */
};
/* Starts the series at start (ns). */
void watch_series_begin(struct watch_series *s, uint64_t start);
/* One sampled event (UT_SUBMIT, UT_PUNT; others are not counted) at t (ns). */
void watch_series_add(struct watch_series *s, unsigned int ev, uint64_t t);
void watch_series_free(struct watch_series *s);
/* The share of bucket b that the watch's sampling windows cover, 0 to 1. */
double watch_series_sampled(const struct punt_watch *w, unsigned int b);

/* Sample buffers for all the threads of one watch; see tp_stream_open. */
#define PUNT_WATCH_BUDGET (64u << 20)

struct watch_fill {
	int fd;
	uint32_t sq_entries, cq_entries;
	struct fill_reading {
		uint32_t sq, cq;
		/*
		 * Requests the kernel took and has not completed: SQEs consumed less
		 * CQEs posted (CachedSqHead - CachedCqTail), negative where a request
		 * posts several CQEs (multishot) or none (CQE_SKIP).
		 */
		int32_t inflight;
	} *r;				/* one every 100 ms */
	size_t n, cap;
	unsigned int unread;		/* readings without the ring lines (lock busy, fd closed) */
};

/* How a ring seen in the samples was tied to one of the process's ring fds. */
enum ring_match_how {
	RING_MATCH_NONE,	/* unmatched: listed by its order, never guessed */
	RING_MATCH_CREATE,	/* io_uring_create named its fd while watched */
	RING_MATCH_ENTER,	/* its submitting thread entered io_uring_enter on that fd */
	RING_MATCH_SQPOLL,	/* its SQPOLL thread is the one that fd's fdinfo names */
};

struct watch_ring_match {
	int fd;				/* -1 unmatched */
	enum ring_match_how how;
};

/*
 * Each fdinfo read takes the ring's lock for the whole dump: the watch
 * reads this many rings' fill at most, the others are counted.
 */
#define WATCH_FILL_MAX 64

/* Before punt_watch_run: the ring fds whose queue fill to read. 0 or -ENOMEM. */
int punt_watch_fill_fds(struct punt_watch *w, const int *fds, size_t n);
/* The SQ (or CQ) fill at or below which a share q of the readings fell. */
uint32_t watch_fill_quantile(const struct watch_fill *f, bool cq, double q);
uint32_t watch_fill_max(const struct watch_fill *f, bool cq);
/* The most requests in flight in a reading; -1 when a reading could not tell (multishot). */
int64_t watch_fill_inflight_max(const struct watch_fill *f);

/*
 * Live only (sr, the caller's live sysroot, through which /proc is read).
 * As root, samples io_uring's tracepoints on every thread of
 * pid (rescanned every 10 ms), in windows when the rate is high, and
 * counts its punts throughout; this touches no global tracing state; if
 * tracefs is not mounted it is mounted in a private mount namespace of
 * this process only. Otherwise, or when that fails, counts new iou-wrk
 * threads instead and says why in fallback_why. Stops early when the
 * process exits.
 */
void punt_watch_run(const struct sysroot *sr, pid_t pid, unsigned int seconds,
		    struct punt_watch *w);

/*
 * What must be done once before watches run on threads of their own: the
 * fd limit raised, and tracefs mounted privately when it is not mounted,
 * which needs unshare(CLONE_NEWNS), refused to a process of several
 * threads. A failure here is said again by each watch (fallback_why).
 */
void punt_watch_prepare(void);

/* A program run under the watch (audit --exec). */
struct watch_exec {
	void (*started)(void *arg);	/* the events are open: let the program run */
	void (*tick)(void *arg);	/* while it runs: read its facts */
	unsigned int first_tick_ms, tick_ms;
	void *arg;
	/*
	 * The program's exec leaves it non-dumpable (exec_secure.h), which
	 * removes events opened before it: stop it at its exec (ptrace, as root
	 * may) and open them then; where it cannot be traced, let it run and
	 * open them on each of its threads once it has exec'ed.
	 */
	bool after_exec;
};

/*
 * Watches pid, a child that has not yet run its program, from before it
 * starts until it exits: its events inherited by every thread and child
 * process it makes, so each ring's io_uring_create is seen. Calls
 * ex->started once the events are open, ex->tick now and then. false,
 * with w->fallback_why, when the tracepoints cannot be used (ex->started
 * not called then).
 */
bool punt_watch_exec(const struct sysroot *sr, pid_t pid, struct punt_watch *w,
		     const struct watch_exec *ex);
void punt_watch_free(struct punt_watch *w);

/*
 * The time the per-file and per-ring counts are over, for a message's "in
 * ...": "2.0 s", or "2.0 s (samples from 0.21 s of it)" when sampling had
 * gaps. A value, so it can sit in an argument list.
 */
struct watch_span {
	char s[64];
};
struct watch_span punt_watch_span(const struct punt_watch *w);

/*
 * Punts a window of samples must hold before it speaks for the punts it
 * did not see: with 100 sampled and none of a kind, that kind is at most a
 * few percent of the rest (at 95% confidence, 3/100).
 */
#define PUNTS_TO_SPEAK 100

/*
 * Punts of opcodes io_uring always runs in io-wq, when known for the whole
 * watch: counted through a filter, or all sampled. false when not known.
 */
static inline bool punt_watch_kernel_async(const struct punt_watch *w, uint64_t *n)
{
	if (w->kernel_async_counted)
		*n = w->kernel_async_total;
	else if (w->sampled_all)
		*n = w->ut.punts_kernel_async;
	else
		return false;
	return true;
}

/* The share of the punts the per-file and per-opcode breakdowns cover, 0..1. */
double punt_watch_coverage(const struct punt_watch *w);


/* ring_match.c */

/*
 * Ties each ring the watch sampled (known only by the kernel's ctx
 * pointer) to one of the process's ring fds, and says how: the fd
 * io_uring_create reported while watched; else the fd its one submitting
 * thread entered io_uring_enter with; else the fd whose fdinfo names its
 * SQPOLL thread, when no other ring's does. A ring none of these ties is
 * left unmatched, never guessed. Fills w->matches; 0 or -ENOMEM.
 */
int ring_match(const struct proc_facts *pf, struct punt_watch *w);

/* "io_uring_create", "io_uring_enter", "sqpoll_thread" or NULL. */
const char *ring_match_name(enum ring_match_how how);


/* watch_json.c */

/*
 * audit --watch in the JSON inventory: what was counted, per file and per
 * ring (the ring map); threads names the submitting threads.
 */
struct json_object *watch_json(const struct punt_watch *w, const struct proc_threads *threads);


/* watch_trace.c */

/*
 * What audit --watch sampled, as a Chrome trace-event file (audit --trace
 * FILE), which Perfetto and chrome://tracing open: a track per thread of
 * each watched process, the submitters', SQPOLL threads' and io-wq
 * workers', with each request sampled from its submit to its first CQE.
 *
 * Each request is an async slice ("b" and "e", which may overlap, as a
 * submitter's requests in flight do) named by its opcode, on its
 * submitting thread, with its fd, file, result and whether it was punted;
 * instants ("i") mark its submit on the submitter's track, its run on an
 * io-wq worker's track when the events show the worker (it took the
 * request's file after the punt, as with IOSQE_ASYNC), and its CQE on the
 * track of the thread that posted it (for a punted request, the worker on a
 * plain ring, the submitter's task work on a DEFER_TASKRUN one). Times are in microseconds from the first
 * sampling window of the first process watched: processes watched one after
 * another follow one another on the timeline.
 */

/* The spans of one watched process, taken out of its watch. */
struct watch_trace_proc {
	pid_t pid;
	char comm[64];
	struct ut_span *spans;
	size_t nspans;
	uint64_t dropped;
	char op_names[256][24];
	/*
	 * The opcodes whose prep forces them to io-wq itself (FSYNC and the
	 * like: uring_trace_op_always_async), and whether the watch saw a
	 * drained request: both set the submit tracepoint's flags bit 4
	 * (REQ_F_FORCE_ASYNC) that IOSQE_ASYNC sets, so that bit alone does
	 * not say the application asked for io-wq.
	 */
	bool op_forced[256];
	bool drain_seen;
	/* fd (and the process that looked it up) to the path at its first request */
	struct watch_trace_file {
		pid_t pid;
		int fd;
		char *path;
	} *files;
	size_t nfiles;
	struct watch_trace_thread {
		pid_t tid;
		char comm[64];
	} *threads;
	size_t nthreads;
	uint64_t t0;			/* CLOCK_MONOTONIC ns of its first sampling window, 0 none */
	double seconds_watched, seconds_sampled;
	unsigned int nwindows;
};

struct watch_trace {
	struct watch_trace_proc *v;
	size_t n, cap;
};

/*
 * Takes w's spans (w keeps none after) and what names them: the paths of
 * its files, and the names of threads (th, may be NULL). 0 or -ENOMEM.
 */
int watch_trace_take(struct watch_trace *t, pid_t pid, const char *comm, struct punt_watch *w,
		     const struct proc_threads *th);
/* The trace-event JSON of every process taken; 0, or -EIO when a write failed. */
int watch_trace_write(FILE *out, const void *t);
void watch_trace_free(struct watch_trace *t);


/* proc_watch.c: the watch of audited processes */

/*
 * Counts punts for seconds (live only); sets pf->watch, ties its rings to
 * fds, and reads where the process's threads may run, at the end. With
 * keep_spans, each request sampled is kept for a trace file (watch_trace.h).
 */
void proc_facts_watch(const struct sysroot *sr, struct proc_facts *pf, unsigned int seconds,
		      bool keep_spans);
/*
 * Watches n processes in one window, each for seconds[i] (0: not watched),
 * on a thread each, all started together: the time to a verdict does not
 * grow with their number. The sample buffers' budget is shared among them.
 * Returns 0, or -errno when threads could not be made: the processes left
 * were then watched after the others, one at a time. Without scene, the
 * watches read no scene (proc_facts_scene_off says so).
 */
int proc_facts_watch_many(const struct sysroot *sr, struct proc_facts **pfs,
			  const unsigned int *seconds, size_t n, bool keep_spans, bool scene);

/*
 * Whether what a plain audit read of pf needs a watch to be explained: io-wq
 * workers that ran or started in its window, a thread stuck in D state, a
 * ring whose positions moved since it was read (a second look at its
 * fdinfo now), or a ring that never took a request. why says which, for a
 * note. Live only; false for a captured tree.
 */
bool proc_facts_needs_watch(const struct sysroot *sr, const struct proc_facts *pf, char *why,
			    size_t whysz);

/* pf's watch is now w, freed with pf by proc_facts_free() (w may be NULL). */
void proc_facts_set_watch(struct proc_facts *pf, struct punt_watch *w);
/*
 * The one step after a watch, for an audited PID and a program under
 * --exec alike: w becomes pf's; with rings, its sampled rings are matched
 * to pf's fds; with live (the process still there to read), the mounts of
 * files it opened while watched and where its threads may run are read.
 */
void proc_facts_after_watch(const struct sysroot *sr, struct proc_facts *pf, struct punt_watch *w,
			    bool rings, bool live);

/*
 * The scene of a process with no watch: one reading (scene_once), or, on a
 * captured tree, a scene that says it was not measured.
 */
void proc_facts_scene_once(const struct sysroot *sr, struct proc_facts *pf);
/* A scene left out on request (audit --no-scene): not measured, and why. */
void proc_facts_scene_off(struct proc_facts *pf);

#endif
