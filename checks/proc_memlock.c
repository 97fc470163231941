// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * proc-memlock's judgment of rings: on kernels that charge ring memory to
 * RLIMIT_MEMLOCK (up to 5.11, from 6.14), rings are charged to the user
 * without showing in VmLck or VmPin, so the process's own rings are added
 * from their sizes in fdinfo, and the limit must leave room for one more.
 */
#include <stdio.h>

#include "checks.h"
#include "output.h"

bool proc_memlock_ring_short(const struct check_ctx *ctx, uint64_t used, char *buf, size_t len)
{
	const struct proc_facts *pf = ctx->proc;
	const struct host_facts *hf = ctx->host;
	uint64_t rings = 0, next, limit = pf->limits.lim.memlock.soft;
	uint32_t largest = 0;
	char l[BYTES_STR_MAX], n[BYTES_STR_MAX], u[BYTES_STR_MAX], r[BYTES_STR_MAX];
	char unknown[64] = "", kernel[48] = "a kernel of unknown version (taken as 6.14+)";
	size_t i, nunknown = 0;

	for (i = 0; i < pf->nrings; i++) {
		const struct uring_fdinfo *fi = &pf->rings[i].u;

		if (!fact_ok(&pf->rings[i].e) || pf->rings[i].busy || !fi->has_ring_state) {
			nunknown++;
			continue;
		}
		rings += ring_memlock_charge(hf, fi->sq_entries, fi->cq_entries);
		if (fi->sq_entries > largest)
			largest = fi->sq_entries;
	}
	/* Without a ring of its own, the size preflight plans by default. */
	if (!largest)
		largest = ctx->plan->ring_entries;
	next = ring_memlock_charge(hf, largest, 2 * largest);
	switch (ring_memlock_judge(hf, &pf->status.st, &pf->limits.lim, next)) {
	case RING_ML_BELOW:
		break;
	case RING_ML_FITS:
		if (used + rings + next > limit)
			break;
		return false;
	default:
		return false;
	}
	if (fact_ok(&hf->kernel.e))
		snprintf(kernel, sizeof(kernel), "Linux %u.%u", hf->kernel.v.major,
			 hf->kernel.v.minor);
	if (nunknown)
		snprintf(unknown, sizeof(unknown), "; %zu ring%s of unknown size not counted",
			 nunknown, nunknown == 1 ? "" : "s");
	format_bytes(limit, l);
	format_bytes(next, n);
	format_bytes(used, u);
	format_bytes(rings, r);
	if (!pf->nrings)
		snprintf(buf, len, "its %s RLIMIT_MEMLOCK cannot hold one %u-entry ring (the size "
			 "preflight plans by default), which %s charges %s to it, on top of %s "
			 "locked and pinned: io_uring_setup() of such a ring fails with ENOMEM",
			 l, largest, kernel, n, u);
	else
		snprintf(buf, len, "its %s RLIMIT_MEMLOCK cannot hold one more %u-entry ring like "
			 "its largest, which %s charges %s to it, on top of %s locked and pinned "
			 "and %s for its %zu ring%s (ring memory shows in neither VmLck nor "
			 "VmPin)%s: io_uring_setup() of such a ring fails with ENOMEM",
			 l, largest, kernel, n, u, r, pf->nrings - nunknown,
			 pf->nrings - nunknown == 1 ? "" : "s", unknown);
	return true;
}
