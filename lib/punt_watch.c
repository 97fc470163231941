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
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "punt_watch.h"

#define EVENT "events/io_uring/io_uring_queue_async_work"
#define MAX_THREADS 4096
#define DATA_PAGES 8

struct tp_format {
	int id;
	int opcode_off;		/* u8 opcode */
	int op_str_off;		/* __data_loc char[] op_str (6.x), -1 if absent */
};

struct tp_counter {
	pid_t tid;
	int fd;
	void *ring;
	size_t ring_len;
};

static const char *const tracefs_dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

static int read_small(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static int field_offset(const char *format, const char *decl)
{
	const char *p = strstr(format, decl), *o;

	if (!p || !(o = strstr(p, "offset:")))
		return -1;
	return atoi(o + 7);
}

static int load_format(const char *dir, struct tp_format *tf)
{
	char path[256], buf[8192];
	int err;

	snprintf(path, sizeof(path), "%s/%s/id", dir, EVENT);
	err = read_small(path, buf, sizeof(buf));
	if (err)
		return err;
	tf->id = atoi(buf);
	snprintf(path, sizeof(path), "%s/%s/format", dir, EVENT);
	err = read_small(path, buf, sizeof(buf));
	if (err)
		return err;
	tf->opcode_off = field_offset(buf, "u8 opcode;");
	tf->op_str_off = field_offset(buf, "op_str;");
	return tf->id > 0 ? 0 : -EINVAL;
}

/*
 * tracefs, where the event's id lives. Unmounted (common on servers), it is
 * mounted in a mount namespace private to this process: the host sees nothing.
 */
static int find_tracefs(struct tp_format *tf, char *why, size_t whysz)
{
	size_t i;

	for (i = 0; i < sizeof(tracefs_dirs) / sizeof(tracefs_dirs[0]); i++)
		if (!load_format(tracefs_dirs[i], tf))
			return 0;
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("nodev", tracefs_dirs[0], "tracefs", 0, NULL)) {
		snprintf(why, whysz, "tracefs is not mounted and could not be mounted privately (%s); "
			 "mount it with: mount -t tracefs nodev /sys/kernel/tracing", strerror(errno));
		return -errno;
	}
	if (load_format(tracefs_dirs[0], tf)) {
		snprintf(why, whysz, "the kernel has no io_uring:io_uring_queue_async_work tracepoint");
		return -ENOENT;
	}
	return 0;
}

static int open_counter(const struct tp_format *tf, pid_t tid, struct tp_counter *c)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = (uint64_t)tf->id,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_RAW,
		.wakeup_events = 1,
	};
	long fd = syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return -errno;
	c->tid = tid;
	c->fd = (int)fd;
	c->ring_len = (size_t)(1 + DATA_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
	c->ring = mmap(NULL, c->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	if (c->ring == MAP_FAILED)
		c->ring = NULL;	/* still counts; only the opcodes are lost */
	return 0;
}

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

static void sample_opcode(const struct tp_format *tf, const uint8_t *raw, uint32_t len,
			  struct punt_watch *w)
{
	char op[24];

	if (tf->op_str_off >= 0 && (uint32_t)tf->op_str_off + 4 <= len) {
		uint32_t loc, off, n;

		memcpy(&loc, raw + tf->op_str_off, 4);
		off = loc & 0xffff;
		n = loc >> 16;
		if (off + n <= len && n) {
			snprintf(op, sizeof(op), "%.*s", (int)n, (const char *)raw + off);
			count_op(w, op);
			return;
		}
	}
	if (tf->opcode_off >= 0 && (uint32_t)tf->opcode_off < len) {
		snprintf(op, sizeof(op), "opcode %u", raw[tf->opcode_off]);
		count_op(w, op);
	}
}

/* Reads the samples waiting in one counter's ring buffer. */
static void drain(const struct tp_format *tf, struct tp_counter *c, struct punt_watch *w)
{
	struct perf_event_mmap_page *meta = c->ring;
	uint8_t *data, rec[4096];
	uint64_t head, tail, size;

	if (!meta)
		return;
	data = (uint8_t *)meta + meta->data_offset;
	size = meta->data_size;
	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	tail = meta->data_tail;
	while (tail < head) {
		struct perf_event_header hdr;
		uint64_t i;

		for (i = 0; i < sizeof(hdr); i++)
			((uint8_t *)&hdr)[i] = data[(tail + i) % size];
		if (hdr.size < sizeof(hdr) || hdr.size > sizeof(rec))
			break;
		for (i = 0; i < hdr.size; i++)
			rec[i] = data[(tail + i) % size];
		if (hdr.type == PERF_RECORD_SAMPLE && hdr.size >= sizeof(hdr) + 4) {
			uint32_t rawlen;

			memcpy(&rawlen, rec + sizeof(hdr), 4);
			if (sizeof(hdr) + 4 + rawlen <= hdr.size)
				sample_opcode(tf, rec + sizeof(hdr) + 4, rawlen, w);
		} else if (hdr.type == PERF_RECORD_LOST && hdr.size >= sizeof(hdr) + 16) {
			uint64_t lost;

			memcpy(&lost, rec + sizeof(hdr) + 8, 8);
			w->lost += lost;
		}
		tail += hdr.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

/* Attaches to threads not counted yet; 0, or -errno when none could be opened. */
static int attach_threads(const struct tp_format *tf, pid_t pid, struct tp_counter *cs,
			  unsigned int *n)
{
	char dir[64];
	struct dirent *de;
	int err = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && *n < MAX_THREADS) {
		pid_t tid;
		unsigned int i;
		bool known = false;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		tid = atoi(de->d_name);
		for (i = 0; i < *n; i++)
			known |= cs[i].tid == tid;
		if (known)
			continue;
		err = open_counter(tf, tid, &cs[*n]);
		if (!err)
			(*n)++;
	}
	closedir(d);
	return *n ? 0 : (err ? err : -ESRCH);
}

static uint64_t counter_total(const struct tp_counter *cs, unsigned int n)
{
	uint64_t sum = 0, v;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (read(cs[i].fd, &v, sizeof(v)) == sizeof(v))
			sum += v;
	return sum;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static bool watch_tracepoint(pid_t pid, struct punt_watch *w)
{
	struct tp_counter *cs = calloc(MAX_THREADS, sizeof(*cs));
	struct tp_format tf = { 0 };
	unsigned int n = 0, s, i, tick;
	uint64_t prev = 0, now;
	int err;

	if (!cs) {
		snprintf(w->fallback_why, sizeof(w->fallback_why), "out of memory");
		return false;
	}
	if (geteuid() != 0) {
		snprintf(w->fallback_why, sizeof(w->fallback_why),
			 "the tracepoint needs root (tracefs is 0700, perf_event_paranoid refuses "
			 "others)");
		free(cs);
		return false;
	}
	if (find_tracefs(&tf, w->fallback_why, sizeof(w->fallback_why))) {
		free(cs);
		return false;
	}
	err = attach_threads(&tf, pid, cs, &n);
	if (err) {
		snprintf(w->fallback_why, sizeof(w->fallback_why),
			 "perf_event_open on the tracepoint failed: %s", strerror(-err));
		free(cs);
		return false;
	}
	w->tracepoint = true;
	for (s = 0; s < w->seconds; s++) {
		for (tick = 0; tick < 10; tick++) {
			sleep_ms(100);
			for (i = 0; i < n; i++)
				drain(&tf, &cs[i], w);
		}
		now = counter_total(cs, n);
		w->per_second[s] = now - prev;
		prev = now;
		if (kill(pid, 0) && errno == ESRCH)
			break;
		attach_threads(&tf, pid, cs, &n);
	}
	w->total = prev;
	w->threads_watched = n;
	for (i = 0; i < n; i++) {
		if (cs[i].ring)
			munmap(cs[i].ring, cs[i].ring_len);
		close(cs[i].fd);
	}
	free(cs);
	return true;
}

/* Without the tracepoint: each new iou-wrk thread is at least one punt. */
static void watch_threads(pid_t pid, struct punt_watch *w)
{
	pid_t seen[MAX_THREADS];
	unsigned int nseen = 0, s, tick;
	char dir[64], path[128], comm[32];
	uint64_t before = 0;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	for (s = 0; s <= w->seconds; s++) {
		for (tick = 0; tick < (s ? 10u : 1u); tick++) {
			struct dirent *de;
			DIR *d;

			if (s || tick)
				sleep_ms(100);
			d = opendir(dir);
			if (!d) {
				if (!s)
					fact_fail(&w->e, -errno, "cannot read '%s': %s", dir, strerror(errno));
				return;
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
				if (s && !read_small(path, comm, sizeof(comm)) &&
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
}

void punt_watch_run(pid_t pid, unsigned int seconds, struct punt_watch *w)
{
	memset(w, 0, sizeof(*w));
	w->seconds = seconds > WATCH_MAX_SECONDS ? WATCH_MAX_SECONDS : seconds;
	if (!watch_tracepoint(pid, w))
		watch_threads(pid, w);
}
