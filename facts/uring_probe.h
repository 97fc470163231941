/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_URING_PROBE_H
#define URINGLINT_URING_PROBE_H

#include <stdint.h>

struct io_uring;
struct io_uring_params;

/* The outcome of really creating (and at once destroying) small and planned rings. */
struct uring_setup_result {
	int err;		/* 0, or -errno from io_uring_setup() of a one-entry ring */
	uint32_t features;	/* IORING_FEAT_* the kernel reported */
	unsigned int planned_entries;	/* SQ entries of the service's ring; 0: not tried */
	int planned_err;	/* 0, or -errno for that ring (CQ twice the SQ, as liburing) */
};

/*
 * Live only: creates a one-entry ring with liburing, then, when
 * planned_entries is not 0 and the first worked, a ring of that size, as
 * the service will. Never fails itself.
 */
void uring_probe_setup(unsigned int planned_entries, struct uring_setup_result *res);

/*
 * A ring's memory is uncharged from RLIMIT_MEMLOCK only when its teardown
 * has run in a kernel worker, 15 to 65 ms after close on an idle 6.18 host
 * and later under load: a ring created right after another was closed can
 * get ENOMEM for the closed one's charge. These retry an ENOMEM until
 * URING_RELEASE_MS after the last ring this process tore down (or after its
 * first try, for rings other processes of the user closed), so that an
 * ENOMEM they return is the limit's; a process waits URING_PATIENCE_MS in
 * all at most, so a limit that refuses every try costs no more.
 */
#define URING_RELEASE_MS 500
#define URING_PATIENCE_MS 2000
int uring_queue_init_patient(unsigned int entries, struct io_uring *ring,
			     struct io_uring_params *p);
void uring_queue_exit_noted(struct io_uring *ring);
/* fn(arg) (a registration), retried the same way; returns its 0 or -errno. */
int uring_patient(int (*fn)(void *arg), void *arg);

#endif
