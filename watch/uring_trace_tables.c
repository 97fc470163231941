// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tables the trace keeps: requests by the kernel's request pointer (an
 * open-addressed hash, started over past REQS_MAX distinct pointers, beyond
 * any ring's depth), files by fd, rings by context, threads by tid, and a
 * file's or ring's counts by opcode. Each grows on demand; a failed
 * allocation marks the trace oom and the record is dropped, never a crash.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "uring_trace.h"
#include "uring_trace_impl.h"

#define REQS_MAX (1u << 22)

uint64_t ut_hash64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdull;
	v ^= v >> 33;
	return v;
}

static int reqs_grow(struct uring_trace *ut)
{
	size_t cap = ut->reqs_cap ? 2 * ut->reqs_cap : 4096, i;
	struct ut_req *old = ut->reqs, *grown;

	if (cap > REQS_MAX) {
		/* Distinct request pointers beyond any ring's depth: start over. */
		memset(ut->reqs, 0, ut->reqs_cap * sizeof(*ut->reqs));
		ut->reqs_used = 0;
		return 0;
	}
	grown = calloc(cap, sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	ut->reqs = grown;
	ut->reqs_cap = cap;
	ut->reqs_used = 0;
	for (i = 0; old && i < cap / 2; i++) {
		struct ut_req *e;
		size_t h;

		if (!old[i].req)
			continue;
		for (h = ut_hash64(old[i].req) & (cap - 1); ut->reqs[h].req; h = (h + 1) & (cap - 1))
			;
		e = &ut->reqs[h];
		*e = old[i];
		ut->reqs_used++;
	}
	free(old);
	return 0;
}

/* The request's slot; a new one when create (and the pointer was not seen). */
struct ut_req *ut_req_slot(struct uring_trace *ut, uint64_t req, bool create)
{
	size_t h;

	if (!req)
		return NULL;
	if (!ut->reqs_cap || (create && 2 * (ut->reqs_used + 1) > ut->reqs_cap)) {
		if (!create && !ut->reqs_cap)
			return NULL;
		if (reqs_grow(ut)) {
			ut->oom = true;
			return NULL;
		}
	}
	for (h = ut_hash64(req) & (ut->reqs_cap - 1); ut->reqs[h].req; h = (h + 1) & (ut->reqs_cap - 1))
		if (ut->reqs[h].req == req)
			return &ut->reqs[h];
	if (!create)
		return NULL;
	ut->reqs_used++;
	ut->reqs[h].req = req;
	return &ut->reqs[h];
}

struct ut_file *ut_file_of(struct uring_trace *ut, int fd)
{
	struct ut_file *f;

	if (fd < 0 || fd >= (1 << 24))
		return NULL;
	if ((size_t)fd >= ut->fd_slots) {
		size_t i = ut->fd_slots;

		if (array_grow(&ut->file_of_fd, &ut->fd_slots, (size_t)fd + 1))
			goto oom;
		for (; i < ut->fd_slots; i++)
			ut->file_of_fd[i] = -1;
	}
	if (ut->file_of_fd[fd] >= 0)
		return &ut->files[ut->file_of_fd[fd]];
	if (array_grow(&ut->files, &ut->files_cap, ut->nfiles + 1))
		goto oom;
	f = &ut->files[ut->nfiles];
	memset(f, 0, sizeof(*f));
	f->fd = fd;
	ut->file_of_fd[fd] = (int32_t)ut->nfiles++;
	return f;
oom:
	ut->oom = true;
	return NULL;
}

struct ut_ring *ut_ring_of(struct uring_trace *ut, uint64_t ctx)
{
	struct ut_ring *r;
	size_t i;

	for (i = 0; i < ut->nrings; i++)
		if (ut->rings[i].ctx == ctx && !ut->rings[i].retired)
			return &ut->rings[i];
	/* A ring's detail is 5 KiB or so: a process that makes thousands is counted, not kept. */
	if (ut->nrings >= UT_MAX_RINGS) {
		ut->untracked_ring_events++;
		return NULL;
	}
	if (array_grow(&ut->rings, &ut->rings_cap, ut->nrings + 1)) {
		ut->oom = true;
		return NULL;
	}
	r = &ut->rings[ut->nrings++];
	memset(r, 0, sizeof(*r));
	r->ctx = ctx;
	r->fd = -1;
	r->created_fd = -1;
	return r;
}

struct ut_ring_op *ut_ring_op(struct ut_ring *ring, uint8_t opcode)
{
	unsigned int i;

	for (i = 0; i < ring->nops; i++)
		if (ring->ops[i].opcode == opcode)
			return &ring->ops[i];
	if (ring->nops == UT_MAX_OPS)
		return NULL;
	memset(&ring->ops[ring->nops], 0, sizeof(ring->ops[0]));
	ring->ops[ring->nops].opcode = opcode;
	return &ring->ops[ring->nops++];
}

struct ut_thread *ut_thread_of(struct uring_trace *ut, pid_t tid, bool create)
{
	size_t i;

	for (i = 0; i < ut->nthreads; i++)
		if (ut->threads[i].tid == tid)
			return &ut->threads[i];
	if (!create)
		return NULL;
	if (array_grow(&ut->threads, &ut->threads_cap, ut->nthreads + 1)) {
		ut->oom = true;
		return NULL;
	}
	ut->threads[ut->nthreads] = (struct ut_thread){ .tid = tid, .fd = -1 };
	return &ut->threads[ut->nthreads++];
}

const struct ut_thread *uring_trace_thread(const struct uring_trace *ut, pid_t tid)
{
	size_t i;

	for (i = 0; i < ut->nthreads; i++)
		if (ut->threads[i].tid == tid)
			return &ut->threads[i];
	return NULL;
}

/* The file's count of opcode; a new one when there is room, else NULL. */
unsigned int ut_file_op(struct ut_file *f, uint8_t opcode)
{
	unsigned int i;

	for (i = 0; i < f->nops && f->ops[i].opcode != opcode; i++)
		;
	if (i == f->nops && f->nops < UT_MAX_OPS) {
		memset(&f->ops[i], 0, sizeof(f->ops[i]));
		f->ops[i].opcode = opcode;
		f->nops++;
	}
	return i;
}
