// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading a tp_stream's sample rings: each ring's records older than a
 * time are copied out (a ring wraps, and a record may straddle its end),
 * kept in one batch, sorted by their timestamps across threads and
 * delivered in that order. Samples still being written on another CPU are
 * left for the next drain, so a later drain never delivers an older one.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "tracefs.h"

static int event_of(const struct tp_stream *s, const uint8_t *raw, uint32_t len)
{
	uint16_t type;
	unsigned int k;

	if (len < 2)
		return -1;
	memcpy(&type, raw, 2);
	for (k = 0; k < s->nev; k++)
		if (s->fmts[k].id == type)
			return (int)k;
	return -1;
}

static void copy_out(const uint8_t *data, uint64_t size, uint64_t pos, void *dst, size_t n)
{
	uint64_t off = pos % size;
	size_t first = n < size - off ? n : (size_t)(size - off);

	memcpy(dst, data + off, first);
	memcpy((uint8_t *)dst + first, data, n - first);
}

static int keep(struct tp_stream *s, const uint8_t *rec, size_t n, uint64_t time, pid_t pid,
		pid_t tid, int cpu, int event, size_t raw_off, uint32_t rawlen)
{
	struct tp_record *r;

	if (array_grow(&s->arena, &s->arena_cap, s->arena_len + n) ||
	    array_grow(&s->recs, &s->recs_cap, s->nrecs + 1))
		return -ENOMEM;
	memcpy(s->arena + s->arena_len, rec, n);
	r = &s->recs[s->nrecs++];
	r->time = time;
	r->pid = pid;
	r->tid = tid;
	r->cpu = cpu;
	r->event = (unsigned int)event;
	r->len = rawlen;
	/* An offset for now: the arena may move while it grows. */
	r->raw = (const uint8_t *)(uintptr_t)(s->arena_len + raw_off);
	s->arena_len += n;
	return 0;
}

/* Moves the samples of one ring older than until into the batch. */
static int take_ring(struct tp_stream *s, struct tp_stream_thread *t, uint64_t until)
{
	struct perf_event_mmap_page *meta = t->ring;
	uint8_t rec[8192], *data;
	uint64_t head, tail, size;
	int err = 0;

	if (!meta)
		return 0;
	data = (uint8_t *)meta + meta->data_offset;
	size = meta->data_size;
	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	tail = meta->data_tail;
	while (tail < head && !err) {
		struct perf_event_header hdr;

		copy_out(data, size, tail, &hdr, sizeof(hdr));
		if (hdr.size < sizeof(hdr) || hdr.size > head - tail) {
			tail = head;	/* a torn ring: drop it rather than misread */
			break;
		}
		if (hdr.type == PERF_RECORD_SAMPLE && hdr.size <= sizeof(rec)) {
			/* u32 pid, tid; u64 time; u32 cpu, res; u32 size; raw[size] */
			uint32_t ids[2], cpu, rawlen;
			uint64_t time;
			int ev;

			copy_out(data, size, tail, rec, hdr.size);
			if (hdr.size < sizeof(hdr) + 28)
				goto next;
			memcpy(ids, rec + sizeof(hdr), 8);
			memcpy(&time, rec + sizeof(hdr) + 8, 8);
			memcpy(&cpu, rec + sizeof(hdr) + 16, 4);
			memcpy(&rawlen, rec + sizeof(hdr) + 24, 4);
			if (time >= until)
				break;	/* not yet: a sample of another thread may be older */
			if (sizeof(hdr) + 28 + (size_t)rawlen > hdr.size)
				goto next;
			ev = event_of(s, rec + sizeof(hdr) + 28, rawlen);
			/* A cgroup's events: another process there is not the one watched. */
			if (ev >= 0 && s->cgroup_fd >= 0 && (pid_t)ids[0] != s->pid) {
				s->foreign++;
				goto next;
			}
			if (ev >= 0)
				err = keep(s, rec, hdr.size, time, (pid_t)ids[0], (pid_t)ids[1], (int)cpu, ev,
					   sizeof(hdr) + 28, rawlen);
		} else if (hdr.type == PERF_RECORD_LOST && hdr.size >= sizeof(hdr) + 16) {
			uint64_t n;

			copy_out(data, size, tail + sizeof(hdr) + 8, &n, 8);
			s->lost += n;
		} else if (hdr.type == PERF_RECORD_THROTTLE) {
			s->throttled++;
		}
next:
		tail += hdr.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
	return err;
}

static int by_time(const void *a, const void *b)
{
	const struct tp_record *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

int tp_stream_drain(struct tp_stream *s, uint64_t until_ns,
		    void (*fn)(const struct tp_record *r, void *arg), void *arg)
{
	unsigned int i;
	size_t k;
	int err = 0;

	s->arena_len = 0;
	s->nrecs = 0;
	for (i = 0; i < s->n && !err; i++)
		err = take_ring(s, &s->t[i], until_ns);
	if (err) {
		/* Consumed but not kept: counted lost rather than delivered out of order. */
		s->lost += s->nrecs;
		return err;
	}
	for (k = 0; k < s->nrecs; k++)
		s->recs[k].raw = s->arena + (uintptr_t)s->recs[k].raw;
	if (s->nrecs > 1)
		qsort(s->recs, s->nrecs, sizeof(*s->recs), by_time);
	for (k = 0; k < s->nrecs; k++) {
		if (s->recs[k].time < s->last_time)
			s->out_of_order++;
		else
			s->last_time = s->recs[k].time;
		s->delivered++;
		fn(&s->recs[k], arg);
	}
	return 0;
}
