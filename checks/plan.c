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
