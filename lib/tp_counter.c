// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Counting a tracepoint on the threads of one process with perf_event_open.
 * What a bpftrace one-liner would do, without eBPF and without touching
 * ftrace's global state.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tp_counter.h"

#define DATA_PAGES 8
#define MAX_THREADS 4096

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

static int load_from(const char *dir, const char *event, struct tp_format *fmt)
{
	char path[256], buf[8192];
	int err;

	snprintf(path, sizeof(path), "%s/events/%s/id", dir, event);
	err = read_small(path, buf, sizeof(buf));
	if (err)
		return err;
	fmt->id = atoi(buf);
	snprintf(path, sizeof(path), "%s/events/%s/format", dir, event);
	if (!read_small(path, buf, sizeof(buf))) {
		fmt->opcode_off = field_offset(buf, "u8 opcode;");
		fmt->op_str_off = field_offset(buf, "op_str;");
	}
	return fmt->id > 0 ? 0 : -EINVAL;
}

int tp_format_load(const char *event, struct tp_format *fmt, char *why, size_t whysz)
{
	static bool private_mount;
	size_t i;

	memset(fmt, 0, sizeof(*fmt));
	fmt->opcode_off = fmt->op_str_off = -1;
	if (geteuid() != 0) {
		snprintf(why, whysz, "tracepoints need root (tracefs is 0700, and "
			 "perf_event_paranoid refuses others)");
		return -EPERM;
	}
	for (i = 0; i < sizeof(tracefs_dirs) / sizeof(tracefs_dirs[0]); i++)
		if (!load_from(tracefs_dirs[i], event, fmt))
			return 0;
	/* Unmounted (common on servers): mount it where only this process sees it. */
	if (!private_mount) {
		if (unshare(CLONE_NEWNS) || mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
		    mount("nodev", tracefs_dirs[0], "tracefs", 0, NULL)) {
			snprintf(why, whysz, "tracefs is not mounted and could not be mounted privately "
				 "(%s); mount it with: mount -t tracefs nodev /sys/kernel/tracing",
				 strerror(errno));
			return -errno;
		}
		private_mount = true;
	}
	if (load_from(tracefs_dirs[0], event, fmt)) {
		snprintf(why, whysz, "this kernel has no %s tracepoint", event);
		return -ENOENT;
	}
	return 0;
}

static int attach(struct tp_counter *c, pid_t tid)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = (uint64_t)c->fmt.id,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_RAW,
		.wakeup_events = 1,
	};
	struct tp_thread *t;
	long fd;

	if (c->n == c->cap) {
		unsigned int cap = c->cap ? 2 * c->cap : 16;
		struct tp_thread *grown;

		if (cap > MAX_THREADS)
			return -E2BIG;
		grown = reallocarray(c->threads, cap, sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		c->threads = grown;
		c->cap = cap;
	}
	fd = syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	t = &c->threads[c->n++];
	t->tid = tid;
	t->fd = (int)fd;
	t->ring = NULL;
	t->ring_len = 0;
	if (c->sample) {
		t->ring_len = (size_t)(1 + DATA_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
		t->ring = mmap(NULL, t->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd, 0);
		if (t->ring == MAP_FAILED)
			t->ring = NULL;	/* still counts; only the samples are lost */
	}
	return 0;
}

static int attach_new(struct tp_counter *c)
{
	char dir[64];
	struct dirent *de;
	int err = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)c->pid);
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		pid_t tid;
		unsigned int i;
		bool known = false;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		tid = atoi(de->d_name);
		for (i = 0; i < c->n; i++)
			known |= c->threads[i].tid == tid;
		if (!known) {
			int e = attach(c, tid);

			if (e && e != -ESRCH)
				err = e;	/* a thread that exited meanwhile is no error */
		}
	}
	closedir(d);
	return c->n ? 0 : (err ? err : -ESRCH);
}

int tp_counter_open(struct tp_counter *c, const struct tp_format *fmt, pid_t pid, bool sample)
{
	memset(c, 0, sizeof(*c));
	c->fmt = *fmt;
	c->pid = pid;
	c->sample = sample;
	return attach_new(c);
}

void tp_counter_refresh(struct tp_counter *c)
{
	attach_new(c);
}

uint64_t tp_counter_read(const struct tp_counter *c)
{
	uint64_t sum = 0, v;
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (read(c->threads[i].fd, &v, sizeof(v)) == sizeof(v))
			sum += v;
	return sum;
}

uint64_t tp_counter_drain(struct tp_counter *c, void (*fn)(const uint8_t *raw, uint32_t len,
							   void *arg), void *arg)
{
	uint64_t lost = 0;
	unsigned int k;

	for (k = 0; k < c->n; k++) {
		struct perf_event_mmap_page *meta = c->threads[k].ring;
		uint8_t *data, rec[4096];
		uint64_t head, tail, size;

		if (!meta)
			continue;
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
					fn(rec + sizeof(hdr) + 4, rawlen, arg);
			} else if (hdr.type == PERF_RECORD_LOST && hdr.size >= sizeof(hdr) + 16) {
				uint64_t n;

				memcpy(&n, rec + sizeof(hdr) + 8, 8);
				lost += n;
			}
			tail += hdr.size;
		}
		__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
	}
	return lost;
}

void tp_counter_close(struct tp_counter *c)
{
	unsigned int i;

	for (i = 0; i < c->n; i++) {
		if (c->threads[i].ring)
			munmap(c->threads[i].ring, c->threads[i].ring_len);
		close(c->threads[i].fd);
	}
	free(c->threads);
	memset(c, 0, sizeof(*c));
}
