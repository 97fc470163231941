/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_URING_FEATURES_H
#define URINGLINT_URING_FEATURES_H

#include <stdbool.h>
#include <stddef.h>

#include "fact.h"

enum uring_feature_kind {
	FEATURE_SETUP,		/* a setup flag, tried with io_uring_setup() */
	FEATURE_REGISTER,	/* an io_uring_register() operation, tried */
	FEATURE_OPCODE,		/* an opcode, from IORING_REGISTER_PROBE */
};

enum uring_feature_need {
	NEED_CORE,	/* the fast path of a storage service rests on it */
	NEED_USEFUL,	/* newer, worth having: its absence costs, it does not break */
};

struct uring_feature {
	const char *name;
	enum uring_feature_kind kind;
	enum uring_feature_need need;
	const char *since;	/* kernel that added it, for the message */
	int err;		/* 0 supported, else -errno of the attempt */
};

#define URING_FEATURES_MAX 48

/*
 * The probe's rings: one held open for the registrations and the opcode
 * table, and throwaway ones for each setup flag (two at once for
 * ATTACH_WQ); the registered buffer is one page.
 */
#define URING_FEATURES_RING_ENTRIES 4

struct uring_features {
	struct fact_err e;	/* no ring at all, or not live */
	struct uring_feature items[URING_FEATURES_MAX];
	size_t n;
};

/* Live only: tries each feature on throwaway rings. */
void uring_features_probe(struct uring_features *uf);
const char *uring_feature_kind_name(enum uring_feature_kind k);

#endif
