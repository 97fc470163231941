// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Counts a process's punts to io-wq: perf_event_open(PERF_TYPE_TRACEPOINT)
 * on io_uring:io_uring_queue_async_work for each of its threads, with raw
 * samples for the opcode. This is what a bpftrace one-liner would do,
 * without eBPF and without touching ftrace's global state.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "punt_watch.h"
#include "sysroot.h"
#include "tp_counter.h"

#define EVENT "io_uring/io_uring_queue_async_work"
#define MAX_THREADS 4096

static void count_op(struct punt_watch *w, const char *op)
{
	unsigned int i;

	for (i = 0; i < w->nops; i++)
		if (!strcmp(w->ops[i].op, op)) {
			w->ops[i].n++;
			return;
		}
	if (w->nops < WATCH_MAX_OPS) {
		snprintf(w->ops[w->nops].op, sizeof(w->ops[0].op), "%s", op);
		w->ops[w->nops++].n = 1;
	}
}

struct sample_ctx {
	const struct tp_format *fmt;
	struct punt_watch *w;
};

/* The opcode of one punt: its name (op_str, 6.x) or its number. */
static void on_sample(const uint8_t *raw, uint32_t len, void *arg)
{
	const struct sample_ctx *sc = arg;
	const struct tp_format *tf = sc->fmt;
	char op[24];

	if (tf->op_str_off >= 0 && (uint32_t)tf->op_str_off + 4 <= len) {
		uint32_t loc, off, n;

		memcpy(&loc, raw + tf->op_str_off, 4);
		off = loc & 0xffff;
		n = loc >> 16;
		if (off + n <= len && n) {
			snprintf(op, sizeof(op), "%.*s", (int)n, (const char *)raw + off);
			count_op(sc->w, op);
			return;
		}
	}
	if (tf->opcode_off >= 0 && (uint32_t)tf->opcode_off < len) {
		snprintf(op, sizeof(op), "opcode %u", raw[tf->opcode_off]);
		count_op(sc->w, op);
	}
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static bool watch_tracepoint(pid_t pid, struct punt_watch *w)
{
	struct tp_format tf;
	struct tp_counter c;
	struct sample_ctx sc = { &tf, w };
	uint64_t prev = 0, now;
	unsigned int s, tick;
	int err;

	if (tp_format_load(EVENT, &tf, w->fallback_why, sizeof(w->fallback_why)))
		return false;
	err = tp_counter_open(&c, &tf, pid, true);
	if (err) {
		snprintf(w->fallback_why, sizeof(w->fallback_why),
			 "perf_event_open on the tracepoint failed: %s", strerror(-err));
		return false;
	}
	w->tracepoint = true;
	for (s = 0; s < w->seconds; s++) {
		for (tick = 0; tick < 10; tick++) {
			sleep_ms(100);
			w->lost += tp_counter_drain(&c, on_sample, &sc);
		}
		now = tp_counter_read(&c);
		w->per_second[s] = now - prev;
		prev = now;
		if (kill(pid, 0) && errno == ESRCH)
			break;
		tp_counter_refresh(&c);
	}
	w->total = prev;
	w->threads_watched = c.n;
	tp_counter_close(&c);
	return true;
}

/* Without the tracepoint: each new iou-wrk thread is at least one punt. */
static void watch_threads(pid_t pid, struct punt_watch *w)
{
	pid_t seen[MAX_THREADS];
	unsigned int nseen = 0, s, tick;
	char dir[64], path[128], comm[32];
	uint64_t before = 0;
	struct sysroot live;
	int err;

	err = sysroot_open(&live, NULL);
	if (err) {
		fact_fail(&w->e, err, "cannot open /proc: %s", strerror(-err));
		return;
	}
	snprintf(dir, sizeof(dir), "proc/%d/task", (int)pid);
	for (s = 0; s <= w->seconds; s++) {
		for (tick = 0; tick < (s ? 10u : 1u); tick++) {
			struct dirent *de;
			DIR *d;

			if (s || tick)
				sleep_ms(100);
			d = sysroot_opendir(&live, dir);
			if (!d) {
				if (!s)
					fact_fail(&w->e, -errno, "cannot read '/%s': %s", dir, strerror(errno));
				goto out;
			}
			while ((de = readdir(d))) {
				pid_t tid = atoi(de->d_name);
				unsigned int i;
				bool known = false;

				if (tid <= 0)
					continue;
				for (i = 0; i < nseen; i++)
					known |= seen[i] == tid;
				if (known || nseen >= MAX_THREADS)
					continue;
				snprintf(path, sizeof(path), "%s/%d/comm", dir, (int)tid);
				seen[nseen++] = tid;
				/* Workers present at the start are not new punts. */
				if (s && !sysroot_read_name(&live, path, comm, sizeof(comm)) &&
				    !strncmp(comm, "iou-wrk-", 8))
					w->total++;
			}
			closedir(d);
		}
		if (s) {
			w->per_second[s - 1] = w->total - before;
			before = w->total;
		}
	}
	w->threads_watched = nseen;
out:
	sysroot_close(&live);
}

void punt_watch_run(pid_t pid, unsigned int seconds, struct punt_watch *w)
{
	memset(w, 0, sizeof(*w));
	w->seconds = seconds > WATCH_MAX_SECONDS ? WATCH_MAX_SECONDS : seconds;
	if (!watch_tracepoint(pid, w))
		watch_threads(pid, w);
}
