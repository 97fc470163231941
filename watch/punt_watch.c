// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Watches a process's punts to io-wq: perf_event_open(PERF_TYPE_TRACEPOINT)
 * on each of its threads, a counter on io_uring_queue_async_work for the
 * exact total and the sampled events of uring_trace for the per-file and
 * per-ring breakdown, sampled in windows when the rate is high. Without
 * eBPF and without touching ftrace's global state.
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
#include "watch.h"
#include "sysroot.h"
#include "procfs.h"
#include "tracefs.h"
#include "watch_cgroup.h"
#include "watch_reads.h"

#define MAX_THREADS 4096

#define TICK_MS 10
/* A sample this recent may still be being written on another CPU: next tick. */
#define SETTLE_NS 2000000ull
/* New threads (a pool's workers) are attached within a tick; what they did before is missed. */
#define REFRESH_NS 10000000ull
#define CACHE_NS 100000000ull
#define NS 1000000000ull
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

static void on_record(const struct tp_record *r, void *arg)
{
	struct watch_run *run = arg;
	struct tp_record t = *r;

	run->drained++;
	t.event = run->map[r->event];
	uring_trace_record(&run->w->ut, &t);
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
 * Counts the positional reads and writes the process makes with plain
 * system calls, beside its io_uring requests: raw_syscalls:sys_enter through
 * a filter on this architecture's numbers. A ring that takes nothing while
 * these go on is a service not on io_uring (uring-fallback).
 */
static void count_plain_io(struct tp_stream *s, struct punt_watch *w, char *filter, size_t n)
{
	struct tp_format fmt;
	int err;

	snprintf(filter, n, "id == %d || id == %d || id == %d || id == %d || id == %d || id == %d",
		 (int)SYS_pread64, (int)SYS_pwrite64, (int)SYS_preadv, (int)SYS_pwritev,
		 (int)SYS_preadv2, (int)SYS_pwritev2);
	err = tp_format_load("raw_syscalls/sys_enter", &fmt, w->plain_io_why,
			     sizeof(w->plain_io_why));
	if (!err)
		err = tp_stream_side(s, WATCH_SIDE_PLAIN_IO, &fmt, filter);
	if (err && !w->plain_io_why[0])
		snprintf(w->plain_io_why, sizeof(w->plain_io_why), "raw_syscalls:sys_enter could not "
			 "be counted: %s", strerror(-err));
}

/*
 * The plain-call count judges only rings that take no request
 * (uring-fallback): once a request is seen it can say nothing more, and
 * raw_syscalls:sys_enter, counted on every system call of every watched
 * thread, cost a watched fio 2.6% of its CPU (one paired run of 15 rounds
 * of tests/bench/watch.sh's workload, fio's own CPU figures). Closed then.
 */
static void stop_plain_io(struct tp_stream *s, struct punt_watch *w, uint64_t since_start)
{
	if (!s->side[WATCH_SIDE_PLAIN_IO].on || s->side[WATCH_SIDE_PLAIN_IO].failed || !w->ut.samples[UT_SUBMIT])
		return;
	tp_stream_side_stop(s, WATCH_SIDE_PLAIN_IO);
	snprintf(w->plain_io_why, sizeof(w->plain_io_why), "not counted past the first io_uring "
		 "request (%.2f s into the watch): it judges only rings that take none",
		 (double)since_start / (double)NS);
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
	if (!w->pinned && pidfd >= 0)
		close(pidfd);
}

/*
 * Watches pid for w->seconds, or with ex (a program run under the watch)
 * from before it starts until it exits, its events inherited by every
 * thread and child it makes.
 */
static bool watch_tracepoint(const struct sysroot *sr, pid_t pid, struct punt_watch *w,
			     const struct watch_exec *ex)
{
	struct tp_format fmts[UT_NEVENTS];
	struct watch_run run = { .w = w };
	struct sample_cycle cycle = { 0 };
	bool was_on;
	uint64_t counts[UT_NEVENTS] = { 0 }, start, end, now, next_sec, next_refresh, prev = 0;
	uint64_t next_cache, next_tick = 0;
	unsigned int n = 0, k, punt_k = 0, submit_k = UT_NEVENTS, file_k = UT_NEVENTS, lazy = 0;
	char plain_filter[160];
	const char *async_filter;
	struct tp_stream s;
	int threads;
	struct watch_cgroup cg = { .broken = 0 };
	size_t budget;
	int err, pidfd, cgroup_fd;

	if (uring_trace_init(&w->ut, w->fallback_why, sizeof(w->fallback_why)))
		return false;
	w->ut.keep_spans = w->keep_spans;
	raise_nofile();
	for (k = 0; k < UT_NEVENTS; k++) {
		if (!w->ut.have[k])
			continue;
		punt_k = k == UT_PUNT ? n : punt_k;
		submit_k = k == UT_SUBMIT ? n : submit_k;
		file_k = k == UT_FILE_GET ? n : file_k;
		lazy |= k == UT_ENTER || k == UT_EXIT ? 1u << n : 0;
		run.map[n] = k;
		fmts[n++] = w->ut.fmts[k];
	}
	/*
	 * The watch's time starts before the first counter opens and ends when
	 * the last is disabled: the exact total and the seconds it is given
	 * over cover the same span, however long opening the threads' events
	 * or the last drain took on a loaded host.
	 */
	if (ex && ex->after_exec) {
		/* Started first; its exec drops events opened before it: stopped there if it may be. */
		bool seized = sr->live && !exec_stop_arm(pid);

		start = tp_stream_now();
		ex->started(ex->arg);
		err = seized ? exec_stop_wait(pid) : exec_wait(sr, pid);
		w->exec_stopped = seized && !err;
		/* Not stopped at its exec after all (gone, or waited on no more): let it be. */
		if (seized && err && err != -ESRCH)
			exec_stop_release(pid);
		if (err) {
			snprintf(w->fallback_why, sizeof(w->fallback_why),
				 "the program's exec was not seen: %s", strerror(-err));
			uring_trace_free(&w->ut);
			return false;
		}
		w->attached_after_exec = true;
		w->attach_ns = tp_stream_now() - start;
	}
	/*
	 * Just after its exec a program is one thread with no child: events
	 * inherited from there on see all it becomes. Any thread or child it
	 * made before they were open is counted as not attached.
	 */
	/*
	 * The process pinned before anything of it is read here: its cgroup,
	 * its threads. A pid is its own only while it lives; see below.
	 */
	pidfd = w->pinned ? w->pidfd : pid_wait_open(pid);
	budget = w->ring_budget ? w->ring_budget : PUNT_WATCH_BUDGET;
	threads = ex ? 0 : task_count(sr, pid);
	if (threads < 0)
		threads = 0;
	cgroup_fd = ex ? -1 : watch_cgroup_choose(sr, pid, budget, (unsigned int)threads, w, &cg);
	/* FSYNC and the like counted apart: they are no fault, and exact even between windows. */
	async_filter = uring_trace_always_async_filter(w->kernel_async_filter,
						       sizeof(w->kernel_async_filter))
		       ? NULL : w->kernel_async_filter;
	start = tp_stream_now();
	window_open(w, start);
	if (ex)
		err = tp_stream_open_inherit(&s, sr, pid, fmts, n, budget, (int)punt_k, async_filter);
	else
		err = watch_cgroup_open(&s, sr, pid, cgroup_fd, fmts, n, budget, (int)punt_k,
					async_filter, w, &cg);
	if (err) {
		if (w->exec_stopped)
			exec_stop_release(pid);
		snprintf(w->fallback_why, sizeof(w->fallback_why),
			 "perf_event_open on the tracepoints failed: %s", strerror(-err));
		tp_stream_close(&s);
		uring_trace_free(&w->ut);
		close_unpinned(w, pidfd);
		return false;
	}
	tp_stream_pin(&s, pidfd);
	/*
	 * Gone by now (a program under --exec is not: it waits for these
	 * events): what was attached may be another process's that took its
	 * pid, so nothing of it counts.
	 */
	if (!ex && pidfd >= 0 && pid_wait_gone(pidfd, pid, 0)) {
		fact_fail(&w->e, -ESRCH, "the process exited as the watch began: nothing of it "
			  "was watched");
		w->exited = true;
		tp_stream_close(&s);
		close_unpinned(w, pidfd);
		return true;
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
	tp_stream_lazy(&s, s.n <= LAZY_MAX ? lazy : 0);
	if (ex && ex->after_exec && !w->exec_stopped)
		s.unattached += before_attach(sr, pid);
	count_plain_io(&s, w, plain_filter, sizeof(plain_filter));
	/* Every event open: the program goes on from its exec. */
	if (w->exec_stopped)
		exec_stop_release(pid);
	w->submit_counted = submit_k < UT_NEVENTS;
	w->ring_bytes = s.data_bytes;
	end = ex ? UINT64_MAX : start + (uint64_t)w->seconds * NS;
	if (ex) {
		/* Everything is open: the program may start (has started, after_exec). */
		if (!ex->after_exec)
			ex->started(ex->arg);
		/* From the program's start, not from the open before it. */
		next_tick = tp_stream_now() + (uint64_t)ex->first_tick_ms * 1000000ull;
	}
	next_sec = start + NS;
	next_refresh = start + REFRESH_NS;
	next_cache = start + CACHE_NS;
	/* Every thread's events are on only now: a request submitted before may have lost its file. */
	w->ut.sampled_since = tp_stream_now();
	cycle.on_since = cycle.cycle_start = start;
	for (now = start; now < end; now = tp_stream_now()) {
		if (pid_wait_gone(pidfd, pid, tick_ms(&s, &cycle, ex, now, next_sec, next_cache, end))) {
			w->exited = true;
			now = tp_stream_now();
			break;
		}
		now = tp_stream_now();
		tp_stream_drain(&s, now - SETTLE_NS, on_record, &run);
		/* Before the files: the drain that closes a window names files too. */
		sample_cycle(&s, &cycle, &run);
		stop_plain_io(&s, w, now - start);
		watch_read_new_files(sr, pid, w);
		if (now >= next_refresh) {
			tp_stream_refresh(&s);
			next_refresh = now + REFRESH_NS;
		}
		if (ex && now >= next_tick) {
			ex->tick(ex->arg);
			next_tick = now + (uint64_t)ex->tick_ms * 1000000ull;
		}
		if (now >= next_cache) {
			watch_cgroup_check(sr, pid, pidfd, &cg, w);
			watch_read_cache_peaks(sr, pid, w);
			watch_read_fills(sr, pid, w);
			if (w->every_100ms)
				w->every_100ms(w->every_arg);
			next_cache = now + CACHE_NS;
		}
		if (now >= next_sec && w->nper_second < WATCH_MAX_SECONDS) {
			uint64_t punts = tp_stream_counted(&s, false);

			w->per_second[w->nper_second++] = punts - prev;
			prev = punts;
			next_sec += NS;
		}
	}
	was_on = s.sampling;
	/* Counts and samples end together; requests in flight then are not yet punted. */
	tp_stream_disable(&s);
	now = s.stopped_at;
	if (was_on) {
		cycle.sampled_ns += s.switched_at - cycle.on_since;
		window_close(w, s.switched_at);
	}
	tp_stream_counts(&s, counts);
	counts[punt_k] = tp_stream_counted(&s, false);
	w->kernel_async_counted = s.counted_filter && !s.filter_failed;
	w->kernel_async_total = w->kernel_async_counted ? tp_stream_counted(&s, true) : 0;
	/* Everything counted has been written by now: deliver the rest. */
	tp_stream_drain(&s, UINT64_MAX, on_record, &run);
	watch_read_new_files(sr, pid, w);
	uring_trace_cut(&w->ut);
	/* Samples dropped for want of memory: the breakdowns are short, and the watch says so. */
	if (w->ut.oom && fact_ok(&w->e))
		fact_fail(&w->e, -ENOMEM, "out of memory keeping the watch's samples: its per-file "
			  "and per-ring counts are incomplete");
	if (!w->exited)
		watch_read_last_files(sr, pid, w);
	w->seconds_watched = (double)(now - start) / (double)NS;
	w->seconds_sampled = (double)cycle.sampled_ns / (double)NS;
	if (w->seconds_sampled > w->seconds_watched)
		w->seconds_sampled = w->seconds_watched;
	w->sampled_all = !cycle.gaps;
	/*
	 * The part second at the end. A timed watch whose seconds are all there
	 * ran a few ms past them, to the disable: those punts are its last
	 * second's. Otherwise (the process exited in it, or the last tick came
	 * early) it is a second of its own.
	 */
	if (!ex && !w->exited && w->nper_second && w->nper_second >= w->seconds)
		w->per_second[w->nper_second - 1] += counts[punt_k] - prev;
	else if (w->nper_second < WATCH_MAX_SECONDS && counts[punt_k] > prev &&
	    (double)w->nper_second < w->seconds_watched)
		w->per_second[w->nper_second++] = counts[punt_k] - prev;
	else if (w->exited && w->nper_second < WATCH_MAX_SECONDS &&
		 (double)w->nper_second < w->seconds_watched)
		w->per_second[w->nper_second++] = 0;
	w->total = counts[punt_k];
	w->plain_io_counted = tp_stream_side_count(&s, WATCH_SIDE_PLAIN_IO, &w->plain_io);
	if (!w->plain_io_counted && !w->plain_io_why[0])
		snprintf(w->plain_io_why, sizeof(w->plain_io_why), "a thread's counter could not be "
			 "opened");
	/* Over the time sampled: exact for the watch only when that was all of it. */
	w->submitted = submit_k < UT_NEVENTS ? counts[submit_k] : 0;
	w->file_gets = file_k < UT_NEVENTS ? counts[file_k] : 0;
	w->punts_sampled = w->ut.samples[UT_PUNT];
	/*
	 * Events the kernel counted while sampling was on but never wrote as
	 * samples. Measured here at 80,000 samples a second and more (perf's
	 * sample rate limit), with no LOST or THROTTLE record to say so.
	 */
	for (k = 0; k < n; k++)
		if (k != punt_k && counts[k] > w->ut.samples[run.map[k]])
			w->samples_missed += counts[k] - w->ut.samples[run.map[k]];
	w->lost = s.lost;
	w->throttled = s.throttled;
	if (w->by_cgroup) {
		/* Every thread of the cgroup, by construction: those there at the start or at the end. */
		int end_threads = w->exited ? 0 : task_count(sr, pid);

		w->threads_watched = (unsigned int)(end_threads > threads ? end_threads : threads);
		if (!w->exited)
			watch_cgroup_check(sr, pid, pidfd, &cg, w);
		watch_cgroup_verdict(&s, &cg, w);
	} else {
		w->threads_watched = s.n;
		w->threads_late = s.late;
		w->threads_unattached = s.unattached;
	}
	count_ops(w);
	close_unpinned(w, pidfd);
	tp_stream_close(&s);
	return true;
}

/* Without the tracepoint: each new iou-wrk thread is at least one punt. */
static void watch_threads(const struct sysroot *sr, pid_t pid, struct punt_watch *w)
{
	pid_t seen[MAX_THREADS];
	unsigned int nseen = 0, s, tick;
	char comm[32];
	uint64_t before = 0, start = tp_stream_now();
	int err;

	for (s = 0; s <= w->seconds; s++) {
		for (tick = 0; tick < (s ? 10u : 1u); tick++) {
			struct task_iter it;
			uint64_t was = w->total;
			pid_t tid;

			if (s || tick)
				sleep_ms(100);
			if (w->every_100ms)
				w->every_100ms(w->every_arg);
			err = task_iter_open(&it, sr, pid);
			if (err) {
				if (!s && !tick)
					fact_fail(&w->e, err, "cannot read '/proc/%d/task': %s", (int)pid,
						  strerror(-err));
				else
					w->exited = err == -ENOENT || err == -ESRCH;
				goto out;
			}
			while ((tid = task_iter_next(&it))) {
				unsigned int i;
				bool known = false;

				for (i = 0; i < nseen; i++)
					known |= seen[i] == tid;
				if (known || nseen >= MAX_THREADS)
					continue;
				seen[nseen++] = tid;
				/* Workers present at the start are not new punts. */
				if (s && !sysroot_read_namef(sr, comm, sizeof(comm), "proc/%d/task/%d/comm",
							     (int)pid, (int)tid) &&
				    !strncmp(comm, "iou-wrk-", 8))
					w->total++;
			}
			task_iter_close(&it);
			/* Gone: that list may be of whatever took its pid; not counted. */
			if (w->pinned && pid_wait_gone(w->pidfd, pid, 0)) {
				w->total = was;
				w->exited = true;
				goto out;
			}
		}
		if (s) {
			w->per_second[s - 1] = w->total - before;
			w->nper_second = s;
			before = w->total;
		}
	}
out:
	if (w->exited && w->nper_second < w->seconds)
		w->per_second[w->nper_second++] = w->total - before;
	w->threads_watched = nseen;
	w->seconds_watched = (double)(tp_stream_now() - start) / (double)NS;
	if (w->seconds_watched > w->seconds)
		w->seconds_watched = w->seconds;
}

void punt_watch_run(const struct sysroot *sr, pid_t pid, unsigned int seconds,
		    struct punt_watch *w)
{
	struct watch_fill *fills = w->fills;
	size_t nfills = w->nfills, left_out = w->fills_left_out;
	size_t budget = w->ring_budget;
	bool keep = w->keep_spans, pinned = w->pinned;
	int pidfd = w->pidfd;
	void (*every)(void *arg) = w->every_100ms;
	void *every_arg = w->every_arg;

	/*
	 * All but what the caller set: the rings whose fill to read, spans, the
	 * budget, the pin, what to call every 100 ms.
	 */
	memset(w, 0, sizeof(*w));
	w->every_100ms = every;
	w->every_arg = every_arg;
	w->keep_spans = keep;
	w->ring_budget = budget;
	w->pinned = pinned;
	w->pidfd = pidfd;
	w->fills = fills;
	w->nfills = nfills;
	w->fills_left_out = left_out;
	w->seconds = seconds > WATCH_MAX_SECONDS ? WATCH_MAX_SECONDS : seconds;
	if (!watch_tracepoint(sr, pid, w, NULL))
		watch_threads(sr, pid, w);
}

bool punt_watch_exec(const struct sysroot *sr, pid_t pid, struct punt_watch *w,
		     const struct watch_exec *ex)
{
	bool keep = w->keep_spans;

	memset(w, 0, sizeof(*w));
	w->keep_spans = keep;
	w->exec = true;
	if (!watch_tracepoint(sr, pid, w, ex))
		return false;
	/* As long as the program ran: the whole seconds it took. */
	w->seconds = (unsigned int)w->seconds_watched + (w->seconds_watched > (unsigned int)w->seconds_watched);
	return true;
}

void punt_watch_free(struct punt_watch *w)
{
	size_t i;

	for (i = 0; i < w->nfiles; i++) {
		file_state_free(&w->files[i].first);
		file_state_free(&w->files[i].last);
	}
	free(w->files);
	w->files = NULL;
	w->nfiles = w->files_cap = 0;
	for (i = 0; i < w->nfills; i++)
		free(w->fills[i].r);
	free(w->fills);
	free(w->matches);
	w->fills = NULL;
	w->matches = NULL;
	w->nfills = 0;
	uring_trace_free(&w->ut);
}

struct watch_span punt_watch_span(const struct punt_watch *w)
{
	struct watch_span sp;

	if (!w->tracepoint || w->sampled_all)
		snprintf(sp.s, sizeof(sp.s), "%.1f s", w->seconds_watched);
	else
		snprintf(sp.s, sizeof(sp.s), "%.1f s (samples from %.2f s of it)",
			 w->seconds_watched, w->seconds_sampled);
	return sp;
}

/*
 * The share of what happened that the watch saw: of its threads, those it
 * could attach to; of its punts, those the samples cover. 0 when blind.
 */
double punt_watch_coverage(const struct punt_watch *w)
{
	double threads = 1.0, samples = 1.0;

	if (w->blind)
		return 0.0;
	if (w->threads_unattached)
		threads = (double)w->threads_watched /
			  (double)(w->threads_watched + w->threads_unattached);
	if (w->tracepoint && w->total && w->punts_sampled < w->total)
		samples = (double)w->punts_sampled / (double)w->total;
	return threads < samples ? threads : samples;
}
