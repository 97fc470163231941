// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The watch by tracepoint, in steps: the events this kernel has, attached
 * to the process (its cgroup, its threads, or inherited by a program from
 * its exec), a tick every few ms that drains samples and turns sampling on
 * and off within its budget, and the close that turns counts into the
 * result. punt_watch.c says when it runs and what it falls back to.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "array.h"
#include "exec_stop.h"
#include "pid_wait.h"
#include "procfs.h"
#include "sysroot.h"
#include "tracefs.h"
#include "watch.h"
#include "watch_cgroup.h"
#include "watch_reads.h"
#include "watch_session.h"

#define TICK_MS 10
/* A sample this recent may still be being written on another CPU: next tick. */
#define SETTLE_NS 2000000ull
/* New threads (a pool's workers) are attached within a tick; what they did before is missed. */
#define REFRESH_NS 10000000ull
#define CACHE_NS 100000000ull
/*
 * What sampling may cost. Every sample costs the watched thread the
 * record's output and this process the join: at this VM's highest punt
 * rate (about 100k requests a second, each three samples) sampling all the
 * time slowed the workload by 15% or more. So each cycle of a second
 * begins with sampling on, and once SAMPLE_BUDGET samples have come in
 * (and at least MIN_ON_NS has passed) it is off until the next cycle: a
 * steady high rate is sampled for a few milliseconds a second, a burst
 * costs no more than the budget, and a process under the budget is
 * sampled all the time. The punts are counted exactly throughout.
 */
#define SAMPLE_BUDGET 10000ull
#define CYCLE_NS 1000000000ull
#define LAZY_MAX 256
#define MIN_ON_NS 10000000ull

struct watch_run {
	struct punt_watch *w;
	unsigned int map[UT_NEVENTS];	/* stream event -> uring_trace event */
	uint64_t drained;		/* samples taken in: what the budget counts */
};

/*
 * Into the picture over time: a request from when every thread's events
 * were on (sampled_since: one submitted while they were being switched on
 * may have lost its punt, as the file accounts leave it out), and a punt
 * where its request came, so that a bar of requests and its punts stand
 * side by side.
 */
static void series_add(struct punt_watch *w, const struct tp_record *t)
{
	uint64_t when = t->event == UT_PUNT ? w->ut.punted_submit : t->time;

	if (when >= w->ut.sampled_since)
		watch_series_add(w->series, t->event, when);
}

static void on_record(const struct tp_record *r, void *arg)
{
	struct watch_run *run = arg;
	struct tp_record t = *r;

	run->drained++;
	t.event = run->map[r->event];
	uring_trace_record(&run->w->ut, &t);
	if (run->w->series)
		series_add(run->w, &t);
}

static void count_ops(struct punt_watch *w)
{
	char buf[24];
	unsigned int op;

	for (op = 0; op < 256 && w->nops < WATCH_MAX_OPS; op++) {
		if (!w->ut.punt_ops[op])
			continue;
		snprintf(w->ops[w->nops].op, sizeof(w->ops[0].op), "%s",
			 uring_trace_op_name(&w->ut, (uint8_t)op, buf, sizeof(buf)));
		w->ops[w->nops++].n = w->ut.punt_ops[op];
	}
}

/* Threads past the first, and children, pid had when its events were opened after its exec. */
static unsigned int before_attach(const struct sysroot *sr, pid_t pid)
{
	struct task_iter it;
	unsigned int n = 0;
	size_t len;
	char *text, *p, *save;
	pid_t tid;

	if (task_iter_open(&it, sr, pid))
		return 0;
	while ((tid = task_iter_next(&it))) {
		n += tid != pid;
		if (sysroot_read_filef(sr, 1u << 20, &text, &len, "proc/%d/task/%d/children",
				       (int)pid, (int)tid))
			continue;
		/* "PID PID ": one a child */
		for (p = strtok_r(text, " \n", &save); p; p = strtok_r(NULL, " \n", &save))
			n++;
		free(text);
	}
	task_iter_close(&it);
	return n;
}

/*
 * Each watched thread takes several perf fds: the soft RLIMIT_NOFILE (1024
 * by default) would leave most threads of a large process unwatched, so it
 * is raised to the hard limit, once. uringlint's own limit, nobody else's.
 */
static void raise_nofile(void)
{
	static bool done;
	struct rlimit rl;

	if (done)
		return;
	done = true;
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

void punt_watch_prepare(void)
{
	struct uring_trace ut;
	char why[256];

	raise_nofile();
	if (!uring_trace_init(&ut, why, sizeof(why)))
		uring_trace_free(&ut);
}

/* Sampling on for part of each cycle, as long as the rate allows. */
struct sample_cycle {
	uint64_t cycle_start;		/* when this cycle began */
	uint64_t on_since;		/* when sampling went on */
	uint64_t at_on;			/* samples drained when this cycle's sampling began */
	uint64_t sampled_ns;
	bool gaps;			/* sampling was off at some time */
};

static void window_open(struct punt_watch *w, uint64_t t)
{
	if (w->nwindows < ARRAY_SIZE(w->windows))
		w->windows[w->nwindows++] = (struct watch_window){ .start = t, .end = t };
}

static void window_close(struct punt_watch *w, uint64_t t)
{
	if (w->nwindows)
		w->windows[w->nwindows - 1].end = t;
}

static void sample_cycle(struct tp_stream *s, struct sample_cycle *c, struct watch_run *run)
{
	/* Now, not the tick's start: the drain before took time. */
	uint64_t now = tp_stream_now();

	if (s->sampling) {
		if (now - c->cycle_start >= CYCLE_NS) {
			/* A cycle within the budget: on through the next one too. */
			c->cycle_start = now;
			c->at_on = run->drained;
			return;
		}
		if (run->drained - c->at_on < SAMPLE_BUDGET || now - c->on_since < MIN_ON_NS)
			return;
		/* This cycle's budget is spent: off until the next one. */
		tp_stream_sample(s, false);
		window_close(run->w, s->switched_at);
		tp_stream_drain(s, UINT64_MAX, on_record, run);
		uring_trace_cut(&run->w->ut);
		c->sampled_ns += s->switched_at - c->on_since;
		c->gaps = true;
		return;
	}
	if (now - c->cycle_start >= CYCLE_NS) {
		c->cycle_start = now;
		c->at_on = run->drained;
		tp_stream_sample(s, true);
		window_open(run->w, s->switched_at);
		run->w->ut.sampled_since = tp_stream_now();
		c->on_since = s->switched_at;
	}
}

/*
 * How long the next tick may wait, in ms. While sampling is on, samples
 * are drained and new threads attached every TICK_MS. With it off and
 * every thread covered by construction (a cgroup's events), there is
 * nothing to drain or attach until the next cycle, second or look at the
 * files: waking only then spares the watched host some 80 wake-ups a
 * second of a watch that samples for a few ms of each. The wait ends at
 * once when the process exits, through its pidfd (without one, a kernel
 * before 5.3, up to that wait later).
 */
static int tick_ms(const struct tp_stream *s, const struct sample_cycle *c, bool exec,
		   uint64_t now, uint64_t next_sec, uint64_t next_cache, uint64_t end)
{
	uint64_t wake = now + TICK_MS * 1000000ull;

	if (!s->sampling && !exec && s->cgroup_fd >= 0) {
		wake = c->cycle_start + CYCLE_NS;
		wake = next_sec < wake ? next_sec : wake;
		wake = next_cache < wake ? next_cache : wake;
	}
	wake = end < wake ? end : wake;
	return wake > now ? (int)((wake - now + 999999) / 1000000) : 0;
}

/* The watch's own pidfd closed; the caller's pin is the caller's. */
static void close_unpinned(const struct punt_watch *w, int pidfd)
{
	if (!w->req.pinned && pidfd >= 0)
		close(pidfd);
}

/*
 * One watch by tracepoint in progress: what its steps (attach, tick, close)
 * share. The caller's request and the result are in w.
 */
struct watch_session {
	const struct sysroot *sr;
	pid_t pid;
	struct punt_watch *w;
	const struct watch_exec *ex;	/* a program run under the watch, or NULL */
	struct watch_run run;
	struct sample_cycle cycle;
	struct tp_format fmts[UT_NEVENTS];	/* the events open, in stream order */
	unsigned int n, punt_k, submit_k, file_k, lazy;
	char plain_filter[160];
	bool plain_raw;			/* counted by raw_syscalls (no per-call tracepoints) */
	struct tp_stream s;
	struct watch_cgroup cg;
	int threads;			/* at the start (0 under --exec) */
	int pidfd;
	uint64_t start, end, next_sec, next_refresh, next_cache, next_tick, prev;
};

_Static_assert(WATCH_SIDE_PLAIN_IO + WATCH_PLAIN_IO_EVENTS <= TPS_MAX_SIDES,
	       "a side counter for each plain-I/O call");

/* The positional reads and writes: only seekable files take them. */
static const char *const plain_io_events[WATCH_PLAIN_IO_EVENTS] = {
	"syscalls/sys_enter_pread64", "syscalls/sys_enter_pwrite64",
	"syscalls/sys_enter_preadv",  "syscalls/sys_enter_pwritev",
	"syscalls/sys_enter_preadv2", "syscalls/sys_enter_pwritev2",
};

/*
 * Counts the positional reads and writes the process makes with plain
 * system calls, beside its io_uring requests, with each call's own
 * tracepoint: they fire on those calls only, where raw_syscalls:sys_enter
 * ran a filter on every system call. Opened only while sampling, as the
 * io_uring_enter events are: any system-call tracepoint sends every task of
 * the host through the slow path while open, and while sampling it already
 * is. So the count covers the time sampled, the same as the requests it is
 * set against (all of it below the sampling rate, and under --exec).
 * Without those tracepoints (CONFIG_FTRACE_SYSCALLS off), raw_syscalls
 * through a filter on this architecture's numbers, closed at the first
 * request (stop_plain_io).
 */
static void count_plain_io(struct watch_session *ss)
{
	struct punt_watch *w = ss->w;
	struct tp_format fmt;
	unsigned int k;
	int err = 0;

	for (k = 0; k < WATCH_PLAIN_IO_EVENTS && !err; k++) {
		err = tp_format_load(plain_io_events[k], &fmt, w->plain_io_why,
				     sizeof(w->plain_io_why));
		if (!err)
			err = tp_stream_side(&ss->s, WATCH_SIDE_PLAIN_IO + k, &fmt, NULL, true);
	}
	if (!err) {
		ss->plain_raw = false;
		w->plain_io_sampled = tp_stream_side_lazy(&ss->s, WATCH_SIDE_PLAIN_IO);
		return;
	}
	while (k--)
		tp_stream_side_stop(&ss->s, WATCH_SIDE_PLAIN_IO + k);
	w->plain_io_why[0] = 0;
	ss->plain_raw = true;
	snprintf(ss->plain_filter, sizeof(ss->plain_filter),
		 "id == %d || id == %d || id == %d || id == %d || id == %d || id == %d",
		 (int)SYS_pread64, (int)SYS_pwrite64, (int)SYS_preadv, (int)SYS_pwritev,
		 (int)SYS_preadv2, (int)SYS_pwritev2);
	err = tp_format_load("raw_syscalls/sys_enter", &fmt, w->plain_io_why,
			     sizeof(w->plain_io_why));
	if (!err)
		err = tp_stream_side(&ss->s, WATCH_SIDE_PLAIN_IO, &fmt, ss->plain_filter, false);
	if (err && !w->plain_io_why[0])
		snprintf(w->plain_io_why, sizeof(w->plain_io_why), "raw_syscalls:sys_enter could not "
			 "be counted: %s", strerror(-err));
}

/*
 * The raw_syscalls count judges only rings that take no request
 * (uring-fallback): raw_syscalls:sys_enter, counted on every system call of
 * every watched thread, cost a watched fio 2.6% of its CPU (one paired run
 * of 15 rounds of tests/bench/watch.sh's workload, fio's own CPU figures).
 * Closed at the first request.
 */
static void stop_plain_io(struct watch_session *ss, uint64_t since_start)
{
	struct tp_stream *s = &ss->s;
	struct punt_watch *w = ss->w;

	if (!ss->plain_raw || !s->side[WATCH_SIDE_PLAIN_IO].on ||
	    s->side[WATCH_SIDE_PLAIN_IO].failed || !w->ut.samples[UT_SUBMIT])
		return;
	tp_stream_side_stop(s, WATCH_SIDE_PLAIN_IO);
	snprintf(w->plain_io_why, sizeof(w->plain_io_why), "not counted past the first io_uring "
		 "request (%.2f s into the watch): it judges only rings that take none",
		 (double)since_start / (double)NS);
}

/* The sum of the plain-I/O counters; false when one could not count. */
static bool plain_io_count(const struct watch_session *ss, uint64_t *total)
{
	unsigned int k, n = ss->plain_raw ? 1 : WATCH_PLAIN_IO_EVENTS;
	uint64_t v;

	*total = 0;
	for (k = 0; k < n; k++) {
		if (!tp_stream_side_count(&ss->s, WATCH_SIDE_PLAIN_IO + k, &v))
			return false;
		*total += v;
	}
	return true;
}

/* The events this kernel has, in the stream's order; false with w->fallback_why. */
static bool session_events(struct watch_session *ss)
{
	struct punt_watch *w = ss->w;
	unsigned int k;

	if (uring_trace_init(&w->ut, w->fallback_why, sizeof(w->fallback_why)))
		return false;
	w->ut.keep_spans = w->req.keep_spans;
	raise_nofile();
	ss->submit_k = ss->file_k = UT_NEVENTS;
	for (k = 0; k < UT_NEVENTS; k++) {
		if (!w->ut.have[k])
			continue;
		ss->punt_k = k == UT_PUNT ? ss->n : ss->punt_k;
		ss->submit_k = k == UT_SUBMIT ? ss->n : ss->submit_k;
		ss->file_k = k == UT_FILE_GET ? ss->n : ss->file_k;
		ss->lazy |= k == UT_ENTER || k == UT_EXIT ? 1u << ss->n : 0;
		ss->run.map[ss->n] = k;
		ss->fmts[ss->n++] = w->ut.fmts[k];
	}
	return true;
}

/*
 * A program started under the watch, its events to be opened after its
 * exec (which drops those opened before it): stopped there if it may be.
 * 0, or -errno with w->fallback_why.
 */
static int session_exec_start(struct watch_session *ss)
{
	struct punt_watch *w = ss->w;
	bool seized = ss->sr->live && !exec_stop_arm(ss->pid);
	uint64_t start = tp_stream_now();
	int err;

	ss->ex->started(ss->ex->arg);
	err = seized ? exec_stop_wait(ss->pid) : exec_wait(ss->sr, ss->pid);
	w->exec_stopped = seized && !err;
	/* Not stopped at its exec after all (gone, or waited on no more): let it be. */
	if (seized && err && err != -ESRCH)
		exec_stop_release(ss->pid);
	if (err) {
		snprintf(w->fallback_why, sizeof(w->fallback_why),
			 "the program's exec was not seen: %s", strerror(-err));
		return err;
	}
	w->attached_after_exec = true;
	w->attach_ns = tp_stream_now() - start;
	return 0;
}

/*
 * Opens the events on the process (its cgroup, its threads, or inherited
 * by a program from its exec on) and starts the watch's time. 0; 1 when
 * the process was gone by then (w says so, the watch is over); -errno when
 * nothing could be opened (w->fallback_why, all closed).
 */
static int session_attach(struct watch_session *ss)
{
	struct punt_watch *w = ss->w;
	const struct watch_exec *ex = ss->ex;
	const char *async_filter;
	struct tp_open o;
	size_t budget;
	int err, cgroup_fd;

	/*
	 * The process pinned before anything of it is read here: its cgroup,
	 * its threads. A pid is its own only while it lives; see below.
	 */
	ss->pidfd = w->req.pinned ? w->req.pidfd : pid_wait_open(ss->pid);
	budget = w->req.ring_budget ? w->req.ring_budget : PUNT_WATCH_BUDGET;
	ss->threads = ex ? 0 : task_count(ss->sr, ss->pid);
	if (ss->threads < 0)
		ss->threads = 0;
	cgroup_fd = ex ? -1 : watch_cgroup_choose(ss->sr, ss->pid, budget,
						  (unsigned int)ss->threads, w, &ss->cg);
	/* FSYNC and the like counted apart: they are no fault, and exact even between windows. */
	async_filter = uring_trace_always_async_filter(w->kernel_async_filter,
						       sizeof(w->kernel_async_filter))
		       ? NULL : w->kernel_async_filter;
	o = (struct tp_open){ .pid = ss->pid, .how = TP_ATTACH_INHERIT, .cgroup_fd = -1,
			      .fmts = ss->fmts, .nev = ss->n, .budget_bytes = budget,
			      .counted = (int)ss->punt_k, .counted_filter = async_filter };
	ss->start = tp_stream_now();
	window_open(w, ss->start);
	if (ex)
		err = tp_stream_open(&ss->s, ss->sr, &o);
	else
		err = watch_cgroup_open(&ss->s, ss->sr, cgroup_fd, &o, w, &ss->cg);
	if (err) {
		if (w->exec_stopped)
			exec_stop_release(ss->pid);
		snprintf(w->fallback_why, sizeof(w->fallback_why),
			 "perf_event_open on the tracepoints failed: %s", strerror(-err));
		tp_stream_close(&ss->s);
		close_unpinned(w, ss->pidfd);
		return err;
	}
	tp_stream_pin(&ss->s, ss->pidfd);
	/*
	 * Gone by now (a program under --exec is not: it waits for these
	 * events): what was attached may be another process's that took its
	 * pid, so nothing of it counts.
	 */
	if (!ex && ss->pidfd >= 0 && pid_wait_gone(ss->pidfd, ss->pid, 0)) {
		fact_fail(&w->e, -ESRCH, "the process exited as the watch began: nothing of it "
			  "was watched");
		w->exited = true;
		tp_stream_close(&ss->s);
		close_unpinned(w, ss->pidfd);
		return 1;
	}
	w->tracepoint = true;
	/*
	 * The system-call events only while sampling is on: open, even
	 * disabled, they sent every system call of every task on the host
	 * through the slow path (getppid() 172 to 215 ns here), which cost a
	 * watched fio some 3.5% at the highest punt rate. Opening them again
	 * takes two perf_event_open a buffer each cycle: past LAZY_MAX
	 * buffers (threads watched one by one) they stay open instead.
	 */
	tp_stream_lazy(&ss->s, ss->s.n <= LAZY_MAX ? ss->lazy : 0);
	if (ex && ex->after_exec && !w->exec_stopped)
		ss->s.unattached += before_attach(ss->sr, ss->pid);
	count_plain_io(ss);
	/* Every event open: the program goes on from its exec. */
	if (w->exec_stopped)
		exec_stop_release(ss->pid);
	return 0;
}

/* The clocks of the ticks, from the watch's start; a program under the watch let go. */
static void session_begin(struct watch_session *ss)
{
	struct punt_watch *w = ss->w;
	const struct watch_exec *ex = ss->ex;

	w->submit_counted = ss->submit_k < UT_NEVENTS;
	w->ring_bytes = ss->s.data_bytes;
	ss->end = ex ? UINT64_MAX : ss->start + (uint64_t)w->seconds * NS;
	/*
	 * Every thread's events are on only now: a request submitted before may
	 * have lost its file. Before a program under the watch is let go, whose
	 * first requests come at once.
	 */
	w->ut.sampled_since = tp_stream_now();
	/* Without memory for it the watch goes on without its picture. */
	w->series = calloc(1, sizeof(*w->series));
	if (w->series)
		watch_series_begin(w->series, ss->start);
	if (ex) {
		/* Everything is open: the program may start (has started, after_exec). */
		if (!ex->after_exec)
			ex->started(ex->arg);
		/* From the program's start, not from the open before it. */
		ss->next_tick = tp_stream_now() + (uint64_t)ex->first_tick_ms * 1000000ull;
	}
	ss->next_sec = ss->start + NS;
	ss->next_refresh = ss->start + REFRESH_NS;
	ss->next_cache = ss->start + CACHE_NS;
	ss->cycle.on_since = ss->cycle.cycle_start = ss->start;
}

/* One tick at now: samples in, sampling on or off, files, threads, each second's count. */
static void session_tick(struct watch_session *ss, uint64_t now)
{
	struct punt_watch *w = ss->w;
	const struct watch_exec *ex = ss->ex;

	tp_stream_drain(&ss->s, now - SETTLE_NS, on_record, &ss->run);
	/* Before the files: the drain that closes a window names files too. */
	sample_cycle(&ss->s, &ss->cycle, &ss->run);
	stop_plain_io(ss, now - ss->start);
	watch_read_new_files(ss->sr, ss->pid, w);
	if (now >= ss->next_refresh) {
		tp_stream_refresh(&ss->s);
		ss->next_refresh = now + REFRESH_NS;
	}
	if (ex && now >= ss->next_tick) {
		ex->tick(ex->arg);
		ss->next_tick = now + (uint64_t)ex->tick_ms * 1000000ull;
	}
	if (now >= ss->next_cache) {
		watch_cgroup_check(ss->sr, ss->pid, ss->pidfd, &ss->cg, w);
		watch_read_cache_peaks(ss->sr, ss->pid, w);
		watch_read_fills(ss->sr, ss->pid, w);
		if (w->req.every_100ms)
			w->req.every_100ms(w->req.every_arg);
		ss->next_cache = now + CACHE_NS;
	}
	if (now >= ss->next_sec && w->nper_second < WATCH_MAX_SECONDS) {
		uint64_t punts = tp_stream_counted(&ss->s, false);

		w->per_second[w->nper_second++] = punts - ss->prev;
		ss->prev = punts;
		ss->next_sec += NS;
	}
}

/*
 * Counts and samples stopped together, the rest delivered, the files read
 * a last time: the watch's time ends here. Each event's count into counts.
 */
static void session_stop(struct watch_session *ss, uint64_t counts[UT_NEVENTS])
{
	struct punt_watch *w = ss->w;
	bool was_on = ss->s.sampling;
	uint64_t now;

	/* Counts and samples end together; requests in flight then are not yet punted. */
	tp_stream_disable(&ss->s);
	now = ss->s.stopped_at;
	if (was_on) {
		ss->cycle.sampled_ns += ss->s.switched_at - ss->cycle.on_since;
		window_close(w, ss->s.switched_at);
	}
	tp_stream_counts(&ss->s, counts);
	counts[ss->punt_k] = tp_stream_counted(&ss->s, false);
	w->kernel_async_counted = ss->s.counted_filter && !ss->s.filter_failed;
	w->kernel_async_total = w->kernel_async_counted ? tp_stream_counted(&ss->s, true) : 0;
	/* Everything counted has been written by now: deliver the rest. */
	tp_stream_drain(&ss->s, UINT64_MAX, on_record, &ss->run);
	watch_read_new_files(ss->sr, ss->pid, w);
	uring_trace_cut(&w->ut);
	/* Samples dropped for want of memory: the breakdowns are short, and the watch says so. */
	if (w->ut.oom && fact_ok(&w->e))
		fact_fail(&w->e, -ENOMEM, "out of memory keeping the watch's samples: its per-file "
			  "and per-ring counts are incomplete");
	if (!w->exited)
		watch_read_last_files(ss->sr, ss->pid, w);
	w->seconds_watched = (double)(now - ss->start) / (double)NS;
	w->seconds_sampled = (double)ss->cycle.sampled_ns / (double)NS;
	if (w->seconds_sampled > w->seconds_watched)
		w->seconds_sampled = w->seconds_watched;
	w->sampled_all = !ss->cycle.gaps;
}

/* What was counted, into w; the events and the pin closed. */
static void session_close(struct watch_session *ss, const uint64_t counts[UT_NEVENTS])
{
	struct punt_watch *w = ss->w;
	uint64_t punts = counts[ss->punt_k];
	unsigned int k;

	/*
	 * The part second at the end. A timed watch whose seconds are all there
	 * ran a few ms past them, to the disable: those punts are its last
	 * second's. Otherwise (the process exited in it, or the last tick came
	 * early) it is a second of its own.
	 */
	if (!ss->ex && !w->exited && w->nper_second && w->nper_second >= w->seconds)
		w->per_second[w->nper_second - 1] += punts - ss->prev;
	else if (w->nper_second < WATCH_MAX_SECONDS && punts > ss->prev &&
	    (double)w->nper_second < w->seconds_watched)
		w->per_second[w->nper_second++] = punts - ss->prev;
	else if (w->exited && w->nper_second < WATCH_MAX_SECONDS &&
		 (double)w->nper_second < w->seconds_watched)
		w->per_second[w->nper_second++] = 0;
	w->total = punts;
	w->plain_io_counted = plain_io_count(ss, &w->plain_io);
	if (!w->plain_io_counted && !w->plain_io_why[0])
		snprintf(w->plain_io_why, sizeof(w->plain_io_why), "a thread's counter could not be "
			 "opened");
	/* Over the time sampled: exact for the watch only when that was all of it. */
	w->submitted = ss->submit_k < UT_NEVENTS ? counts[ss->submit_k] : 0;
	w->file_gets = ss->file_k < UT_NEVENTS ? counts[ss->file_k] : 0;
	w->punts_sampled = w->ut.samples[UT_PUNT];
	/*
	 * Events the kernel counted while sampling was on but never wrote as
	 * samples. Measured here at 80,000 samples a second and more (perf's
	 * sample rate limit), with no LOST or THROTTLE record to say so.
	 */
	for (k = 0; k < ss->n; k++)
		if (k != ss->punt_k && counts[k] > w->ut.samples[ss->run.map[k]])
			w->samples_missed += counts[k] - w->ut.samples[ss->run.map[k]];
	w->lost = ss->s.lost;
	w->throttled = ss->s.throttled;
	if (w->by_cgroup) {
		/* Every thread of the cgroup, by construction: those there at the start or at the end. */
		int end_threads = w->exited ? 0 : task_count(ss->sr, ss->pid);

		w->threads_watched = (unsigned int)(end_threads > ss->threads ? end_threads : ss->threads);
		if (!w->exited)
			watch_cgroup_check(ss->sr, ss->pid, ss->pidfd, &ss->cg, w);
		watch_cgroup_verdict(&ss->s, &ss->cg, w);
	} else {
		w->threads_watched = ss->s.n;
		w->threads_late = ss->s.late;
		w->threads_unattached = ss->s.unattached;
	}
	count_ops(w);
	close_unpinned(w, ss->pidfd);
	tp_stream_close(&ss->s);
}

/*
 * See watch_session.h. The watch's time starts before the first counter opens and ends when the
 * last is disabled: the exact total and the seconds it is given over cover
 * the same span, however long opening the threads' events or the last
 * drain took on a loaded host.
 */
bool watch_session_run(const struct sysroot *sr, pid_t pid, struct punt_watch *w,
		       const struct watch_exec *ex)
{
	struct watch_session *ss = calloc(1, sizeof(*ss));
	uint64_t counts[UT_NEVENTS] = { 0 }, now;
	bool ok = false;
	int err;

	if (!ss) {
		snprintf(w->fallback_why, sizeof(w->fallback_why), "out of memory");
		return false;
	}
	*ss = (struct watch_session){ .sr = sr, .pid = pid, .w = w, .ex = ex, .run = { .w = w },
				      .cg = { .broken = 0 } };
	if (!session_events(ss))
		goto out;
	/*
	 * Just after its exec a program is one thread with no child: events
	 * inherited from there on see all it becomes. Any thread or child it
	 * made before they were open is counted as not attached.
	 */
	if (ex && ex->after_exec && session_exec_start(ss)) {
		uring_trace_free(&w->ut);
		goto out;
	}
	err = session_attach(ss);
	if (err < 0)
		uring_trace_free(&w->ut);
	ok = err >= 0;
	if (err)
		goto out;
	session_begin(ss);
	for (now = ss->start; now < ss->end; now = tp_stream_now()) {
		if (pid_wait_gone(ss->pidfd, pid, tick_ms(&ss->s, &ss->cycle, ex, now, ss->next_sec,
							 ss->next_cache, ss->end))) {
			w->exited = true;
			break;
		}
		session_tick(ss, tp_stream_now());
	}
	session_stop(ss, counts);
	session_close(ss, counts);
out:
	free(ss);
	return ok;
}
