/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_URING_TRACE_IMPL_H
#define URINGLINT_URING_TRACE_IMPL_H

/*
 * What the trace engine's files share among themselves (uring_trace.c,
 * uring_trace_causes.c): lookups of its tables and the cause steps. Not
 * for the session or anyone else: uring_trace.h is the engine's face.
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "tracefs.h"
#include "uring_trace.h"

/* The request's slot; a new one when create (and the pointer was not seen). NULL when full. */
struct ut_req *ut_req_slot(struct uring_trace *ut, uint64_t req, bool create);
/* The file of fd, made on first sight; NULL when the table is full. */
struct ut_file *ut_file_of(struct uring_trace *ut, int fd);
/* The thread tid, made when create; NULL when unknown or the table is full. */
struct ut_thread *ut_thread_of(struct uring_trace *ut, pid_t tid, bool create);
/* The file's count of opcode; a new one when there is room, else f->nops. */
unsigned int ut_file_op(struct ut_file *f, uint8_t opcode);

/* uring_trace_causes.c: a punted request waits for its worker's cause event. */
void ut_wait_for_worker(struct uring_trace *ut, const struct ut_req *q);
/* A cause event on a thread: the request its io-wq worker runs met cause c. */
void ut_on_cause(struct uring_trace *ut, const struct tp_record *r, enum ut_cause c);
/* A punted write completed: its first cause, or same-tick, counted for its file. */
void ut_count_observed(struct uring_trace *ut, const struct ut_req *q);

/* Multishot requests followed at once: a power of two, emptied when half full. */
#define MS_CAP 8192u
#define CQE_F_MORE (1u << 1)	/* IORING_CQE_F_MORE, since 5.13 */

/* uring_trace.c: the tables the completions look up. */
uint64_t ut_hash64(uint64_t v);
/* The ring of ctx (set up on first sight); NULL past UT_MAX_RINGS or out of memory. */
struct ut_ring *ut_ring_of(struct uring_trace *ut, uint64_t ctx);
/* The ring's entry for opcode (made on first sight), NULL past UT_MAX_OPS. */
struct ut_ring_op *ut_ring_op(struct ut_ring *ring, uint8_t opcode);
/* A request's span for the trace file, ended by CQE r (NULL: cut) with result res. */
void ut_keep_span(struct uring_trace *ut, const struct ut_req *q, const struct tp_record *r,
		  int32_t res);

/* uring_trace_complete.c: a CQE (io_uring:io_uring_complete). */
void ut_on_complete(struct uring_trace *ut, const struct tp_record *r);

#endif
