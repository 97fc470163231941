// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>

#include "checks.h"

void plan_defaults(struct plan *p)
{
	memset(p, 0, sizeof(*p));
	p->depth = PLAN_DEFAULT_DEPTH;
	p->ring_entries = PLAN_DEFAULT_RING_ENTRIES;
	p->fixed_buffer_bytes = PLAN_DEFAULT_FIXED_BUFFERS;
}

void plan_net_defaults(struct plan *p)
{
	/* Thread-per-core: pinned workers are as many as their CPUs. */
	if (!p->workers && p->has_worker_cpus)
		p->workers = cpuset_count(&p->worker_cpus);
}

void thresholds_defaults(struct thresholds *t)
{
	t->busy_idle = 0.10;
	t->busy_saturated = 0.95;
	t->extent_limit = 1000;
	t->punt_tolerance = PUNT_TOLERANCE_DEFAULT;
}

const struct thresholds *check_thresholds(const struct check_ctx *ctx)
{
	static struct thresholds defaults;

	if (ctx->th)
		return ctx->th;
	if (!defaults.extent_limit)
		thresholds_defaults(&defaults);
	return &defaults;
}
