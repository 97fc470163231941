/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_TRACEFS_H
#define URINGLINT_TRACEFS_H

/* lib/tracefs/: tracefs: event formats, per-CPU ring streams and counters. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* tp_format.c */

#define TP_MAX_FIELDS 24

/* One field of a tracepoint's raw record, as its tracefs format file describes it. */
struct tp_field {
	char name[32];
	int offset, size;
	bool data_loc;		/* __data_loc: a u32 (length << 16 | offset) of a string */
};

/* A tracepoint's id and its fields; offsets differ by kernel, so they are never hard-coded. */
struct tp_format {
	int id;
	struct tp_field fields[TP_MAX_FIELDS];
	unsigned int nfields;
	int opcode_off;		/* u8 opcode, -1 if absent */
	int op_str_off;		/* __data_loc char[] op_str (6.x), -1 if absent */
};

/*
 * Looks up "category/name" in tracefs; when tracefs is not mounted, mounts
 * it in a mount namespace private to this process (root only). 0 or -errno,
 * with why filled.
 */
int tp_format_load(const char *event, struct tp_format *fmt, char *why, size_t whysz);

/* Parses the text of a format file into fmt (id untouched); 0 or -EINVAL. */
int tp_format_parse(const char *text, struct tp_format *fmt);

/* The field called name, or NULL. */
const struct tp_field *tp_field_find(const struct tp_format *fmt, const char *name);

/*
 * The field's value in a raw record, zero-extended from its size (1, 2, 4
 * or 8 bytes); false when the record is too short or the field is absent.
 */
bool tp_field_u64(const struct tp_field *f, const uint8_t *raw, uint32_t len, uint64_t *v);

/* The string a __data_loc field points at, copied and NUL-terminated; false if none. */
bool tp_field_str(const struct tp_field *f, const uint8_t *raw, uint32_t len, char *buf,
		  size_t bufsz);


/* tp_stream.c */

#define TPS_MAX_EVENTS 12
/* Tracepoints only counted beside the stream (tp_stream_side). */
#define TPS_MAX_SIDES 8

/* One sample, in the order the events happened across all threads. */
struct tp_record {
	uint64_t time;		/* CLOCK_MONOTONIC ns */
	pid_t pid;		/* the thread's process (its thread group) */
	pid_t tid;
	int cpu;		/* the CPU the thread ran on when the event fired */
	unsigned int event;	/* index into the formats given to tp_stream_open */
	uint32_t len;
	const uint8_t *raw;	/* the tracepoint's record, starting with common_type */
};

struct tp_stream_thread {
	pid_t tid;
	int cpu;		/* -1: the thread's events wherever it runs */
	int fds[TPS_MAX_EVENTS];	/* -1: that event could not be opened */
	int count_fd;			/* the counted event; -1 none */
	int filtered_fd;		/* the same, under counted_filter; -1 none */
	int side_fd[TPS_MAX_SIDES];	/* the side counters (tp_stream_side); -1 none */
	void *ring;
	size_t ring_len;
	bool late;		/* appeared after the start: its first events were missed */
};

/*
 * Several tracepoints sampled on every thread of one process with
 * perf_event_open, all of a thread's events in one ring buffer so they stay
 * in order, merged across threads by time. Counting (read()) is exact even
 * when the buffers overflow; the samples say which request, file and thread.
 *
 * Sampling can be switched off and on (tp_stream_sample) to bound what it
 * costs at high rates: a disabled event is off the CPU's tracepoint list,
 * so it costs the thread nothing (a counted event's tracepoint still builds
 * its record for the counter). One event can also be
 * counted by a separate, always enabled counter, for an exact total across
 * the gaps.
 */
struct sysroot;

struct tp_stream {
	const struct sysroot *sr;	/* the live sysroot its threads are listed through */
	pid_t pid;
	struct tp_format fmts[TPS_MAX_EVENTS];
	unsigned int nev;
	int counted;			/* the event also counted apart; -1 none */
	const char *counted_filter;	/* a second counter of it, through this filter */
	bool filter_failed;		/* the kernel refused the filter on some thread */
	/* more tracepoints, only counted, each through a filter (tp_stream_side) */
	struct tp_side {
		struct tp_format fmt;
		const char *filter;
		bool on, failed;	/* failed: some thread has none, so no count */
		/*
		 * Open only while sampling, like the lazy events (when there are
		 * any): what the closed counters had counted is kept in closed.
		 */
		bool lazy;
		uint64_t closed;
	} side[TPS_MAX_SIDES];
	bool sampling;			/* the sampled events are enabled */
	unsigned int lazy;		/* events (bit k: fmts[k]) open only while sampling */
	uint64_t lazy_counts[TPS_MAX_EVENTS];	/* their counts over the times they were closed at */
	/*
	 * CLOCK_MONOTONIC ns when sampling last went on (just before the first
	 * group was enabled) or off (just after the last was disabled), and
	 * when tp_stream_disable stopped the counters: the edges of what was
	 * seen, apart from the time opening and closing events takes.
	 */
	uint64_t switched_at, stopped_at;
	bool inherit;			/* one task's events, followed into its threads and children */
	/*
	 * >= 0: the events of a cgroup the process is alone in, one set per
	 * CPU: every thread, those started later too, by construction.
	 */
	int cgroup_fd;
	int pidfd;			/* the process pinned (tp_stream_pin), not owned; -1 none */
	uint64_t foreign;		/* samples of another process in that cgroup, dropped */
	size_t data_bytes;		/* ring size per thread, a power of two */
	struct tp_stream_thread *t;
	unsigned int n;
	size_t cap;
	unsigned int late;		/* threads attached after the start */
	unsigned int unattached;	/* threads that could not be attached */
	pid_t *known;			/* tids tried, attached or not, sorted: not tried again */
	size_t nknown, known_cap;
	uint64_t lost;			/* samples the kernel dropped (ring full) */
	/*
	 * Times the kernel throttled a thread's events: more samples in a tick
	 * than kernel.perf_event_max_sample_rate allows. Its events are off
	 * until the next tick, and nothing says which were missed.
	 */
	uint64_t throttled;
	uint64_t out_of_order;		/* samples older than ones already delivered */
	uint64_t delivered;
	uint64_t last_time;
	uint8_t *arena;
	size_t arena_len, arena_cap;
	struct tp_record *recs;
	size_t nrecs, recs_cap;
};

/* Where a stream's events are opened. */
enum tp_attach {
	/*
	 * On every thread of pid, one buffer each; new threads are attached by
	 * tp_stream_refresh.
	 */
	TP_ATTACH_THREADS,
	/*
	 * On one task that has not started its work yet (a child before exec):
	 * its events are inherited by every thread and child process it makes,
	 * all into one buffer per CPU, so none is missed, even in its first
	 * microseconds. tp_stream_refresh has nothing to do then.
	 */
	TP_ATTACH_INHERIT,
	/*
	 * On a running process alone in its cgroup (cgroup_fd, an open cgroup
	 * v2 directory the stream then owns): one buffer and one set of
	 * counters per CPU, and every thread of the cgroup is seen from its
	 * first event, however many there are. A sample of another process
	 * (one that joined the cgroup meanwhile) is dropped and counted in
	 * foreign; the exact counts cannot tell it apart, which is the
	 * caller's to check.
	 */
	TP_ATTACH_CGROUP,
};

/* What a stream opens: the one request of tp_stream_open. */
struct tp_open {
	pid_t pid;
	enum tp_attach how;
	int cgroup_fd;			/* TP_ATTACH_CGROUP only */
	const struct tp_format *fmts;
	unsigned int nev;
	size_t budget_bytes;		/* the rings' size, about, in all */
	/*
	 * An index into fmts, or -1: counted apart as well, whether sampling
	 * is on or off, and, when counted_filter is not NULL, once more through
	 * that tracepoint filter ("opcode == 3 || ..."; the string must outlive
	 * the stream).
	 */
	int counted;
	const char *counted_filter;
};

/*
 * Opens o's events where o->how says, sampling. 0, or -errno when no
 * thread could be attached.
 */
int tp_stream_open(struct tp_stream *s, const struct sysroot *sr, const struct tp_open *o);
/*
 * Makes the events in mask (bit k: fmts[k]; never the first, which holds
 * each buffer) open only while sampling is on: closed when it goes off,
 * opened again when it comes back. For system-call tracepoints: while one
 * perf event on any of them exists, enabled or not, every task on the
 * host enters and leaves each system call through the slow path
 * (syscall_regfunc); closed, they cost nobody anything. Their counts stay
 * exact over the time sampling was on. Not for an inherited stream, whose
 * events reopened would miss the threads and children already made.
 */
/*
 * Pins the stream's process by its pidfd (the caller keeps it): threads
 * found by tp_stream_refresh are kept only when the process still lives
 * after they were attached, so a pid taken over by another process is
 * never followed.
 */
void tp_stream_pin(struct tp_stream *s, int pidfd);
void tp_stream_lazy(struct tp_stream *s, unsigned int mask);
/*
 * Whether a thread watched one by one has exited, from its events (the
 * kernel marks them when it exits): its tid may be another's by now, so
 * nothing is opened on it again. False for a CPU's buffer.
 */
bool tp_stream_thread_exited(const struct tp_stream_thread *t);
/*
 * Switches the sampled events of every thread on or off (threads attached
 * later follow). Samples already written stay to be drained.
 */
void tp_stream_sample(struct tp_stream *s, bool on);
/*
 * The exact count of the counted event over all threads (filtered: of its
 * filtered counter; check filter_failed); 0 without one.
 */
uint64_t tp_stream_counted(const struct tp_stream *s, bool filtered);
/*
 * Counts one more tracepoint on every thread, as side counter k (below
 * TPS_MAX_SIDES), through filter (NULL none; the string must outlive the
 * stream), on the threads attached now and later; not sampled. lazy: open
 * only while sampling is on, as the lazy events are (tp_stream_lazy, to be
 * called first; without lazy events it stays open): its count then covers
 * the sampled time only. 0, or -errno (then s->side[k].failed, and
 * tp_stream_side_count says so).
 */
int tp_stream_side(struct tp_stream *s, unsigned int k, const struct tp_format *fmt,
		   const char *filter, bool lazy);
/* Whether side counter k counts only while sampling (see tp_stream_side). */
bool tp_stream_side_lazy(const struct tp_stream *s, unsigned int k);
/* Side counter k's total over every thread; false when some thread has none. */
bool tp_stream_side_count(const struct tp_stream *s, unsigned int k, uint64_t *total);
/*
 * Closes side counter k on every thread, for good: no count from then
 * (tp_stream_side_count false). Its tracepoint then costs them nothing.
 */
void tp_stream_side_stop(struct tp_stream *s, unsigned int k);
/* Attaches to threads that appeared since; they count as late. */
void tp_stream_refresh(struct tp_stream *s);
/*
 * Stops every event, counted ones too, so the counts and the samples left
 * end together (stopped_at).
 */
void tp_stream_disable(struct tp_stream *s);
/*
 * Counts of each sampled event over all threads seen, including exited
 * ones: exact, over the time sampling was on.
 */
void tp_stream_counts(const struct tp_stream *s, uint64_t *counts);
/*
 * Delivers every sample older than until_ns (CLOCK_MONOTONIC), in time
 * order, and consumes it; newer ones wait for the next call so a sample
 * still being written on another CPU is not delivered out of order.
 * 0, or -ENOMEM (the samples of this call are then dropped and counted lost).
 */
int tp_stream_drain(struct tp_stream *s, uint64_t until_ns,
		    void (*fn)(const struct tp_record *r, void *arg), void *arg);
void tp_stream_close(struct tp_stream *s);

/* CLOCK_MONOTONIC in ns, the clock the samples carry. */
uint64_t tp_stream_now(void);


/* tp_counter.c */

struct tp_thread {
	pid_t tid;
	int fd;
};

/*
 * One tracepoint counted on every thread of a process with
 * perf_event_open(PERF_TYPE_TRACEPOINT): no global tracing state changes.
 */
struct tp_counter {
	struct tp_format fmt;
	pid_t pid;
	struct tp_thread *threads;
	unsigned int n;
	size_t cap;
};

/* Attaches to every thread of pid; 0, or -errno when no thread could be opened. */
int tp_counter_open(struct tp_counter *c, const struct tp_format *fmt, pid_t pid);
/*
 * The same tracepoint counted on every CPU for every task of the host,
 * through filter (a tracefs filter on the event's fields, or NULL): one
 * counter a CPU, in threads[] with tid -1. Needs what CPU-wide perf events
 * need (CAP_PERFMON, or kernel.perf_event_paranoid <= 0). 0 or -errno;
 * a CPU offline now is left out (-ENODEV from it is no error).
 */
int tp_counter_open_host(struct tp_counter *c, const struct tp_format *fmt, const char *filter);
/* Attaches to threads that appeared since. */
void tp_counter_refresh(struct tp_counter *c);
/* Events counted so far over all threads. */
uint64_t tp_counter_read(const struct tp_counter *c);
void tp_counter_close(struct tp_counter *c);


#endif
