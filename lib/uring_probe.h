/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_URING_PROBE_H
#define URINGLINT_URING_PROBE_H

#include <stdint.h>

/* The outcome of really creating (and at once destroying) a small ring. */
struct uring_setup_result {
	int err;		/* 0, or -errno from io_uring_setup() */
	uint32_t features;	/* IORING_FEAT_* the kernel reported */
};

/* Live only: creates a one-entry ring with liburing. Never fails itself. */
void uring_probe_setup(struct uring_setup_result *res);

#endif
