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

#endif
