// SPDX-License-Identifier: GPL-2.0-or-later
/* Resource limits that io_uring charges or that cap its workers. */
#include <stdio.h>

#include "checks.h"
#include "units.h"
#include "uring_sizes.h"

/* How this kernel accounts, in words, for the message. */
static const char *accounting_words(bool known, uint32_t code)
{
	if (!known)
		return "the kernel version is unknown, so rings are assumed charged as on "
		       "5.11 and earlier and 6.14 and later";
	if (code < KV(5, 12, 0))
		return "kernels up to 5.11 charge ring memory and registered buffers to it";
	if (code < KV(6, 14, 0))
		return "5.12 to 6.13 charge only registered buffers to it (ring memory goes to "
		       "the memory cgroup)";
	return "6.14 and later charge ring memory and registered buffers to it";
}

void check_memlock_limit(const struct check *c, struct check_ctx *ctx)
{
	const struct host_facts *hf = ctx->host;
	const struct rlimit_pair *ml = &hf->self_limits.lim.memlock;
	bool kv_known = fact_ok(&hf->kernel.e);
	uint32_t code = kv_known ? kernel_version_code(&hf->kernel.v) : KV(6, 14, 0);
	bool charged = uring_rings_charged_to_memlock(code);
	uint64_t ring = uring_ring_bytes(TYPICAL_RING_ENTRIES, 2 * TYPICAL_RING_ENTRIES,
					 hf->page_size);
	uint64_t need_ring = charged ? ring : 0;
	uint64_t need = need_ring + TYPICAL_FIXED_BUFFER_BYTES;
	char soft[BYTES_STR_MAX], hard[BYTES_STR_MAX], r[BYTES_STR_MAX], n[BYTES_STR_MAX];
	char capnote[160] = "";
	struct finding *f;

	if (!fact_ok(&hf->self_limits.e)) {
		check_fact_missing(c, ctx, "host", &hf->self_limits.e);
		return;
	}
	format_bytes(ml->soft, soft);
	format_bytes(ml->hard, hard);
	format_bytes(need_ring ? need_ring : ring, r);
	format_bytes(need, n);
	if (fact_ok(&hf->self_status.e) && proc_status_has_cap(&hf->self_status.st, CAP_BIT_IPC_LOCK))
		snprintf(capnote, sizeof(capnote),
			 " (this process has CAP_IPC_LOCK and is not charged; the verdict is for a "
			 "service without it)");

	if (ml->soft == LIMIT_INFINITY) {
		f = report_add(ctx->report, c, STATUS_PASS, "host",
			       "RLIMIT_MEMLOCK is unlimited; %s", accounting_words(kv_known, code));
	} else if (ml->soft < need_ring) {
		f = report_add(ctx->report, c, STATUS_FAIL, "host",
			       "RLIMIT_MEMLOCK is %s but one %u-entry ring needs %s: io_uring_setup() "
			       "fails with ENOMEM; %s%s",
			       soft, TYPICAL_RING_ENTRIES, r, accounting_words(kv_known, code), capnote);
		finding_set_fix(f, "%s", FIX_MEMLOCK_TEXT);
	} else if (ml->soft < need) {
		f = report_add(ctx->report, c, STATUS_WARN, "host",
			       "RLIMIT_MEMLOCK is %s, below the %s a %u-entry ring with 64 MiB of "
			       "registered buffers needs: io_uring_register_buffers() fails with "
			       "ENOMEM beyond the limit; %s%s",
			       soft, n, TYPICAL_RING_ENTRIES, accounting_words(kv_known, code), capnote);
		if (ml->hard >= need)
			finding_set_fix(f, "the hard limit (%s) allows enough: the service can raise its "
					   "soft limit with setrlimit(RLIMIT_MEMLOCK) at start, or %s",
					hard, FIX_MEMLOCK_TEXT);
	} else {
		f = report_add(ctx->report, c, STATUS_PASS, "host",
			       "RLIMIT_MEMLOCK is %s, enough for a %u-entry ring with 64 MiB of "
			       "registered buffers (%s); %s",
			       soft, TYPICAL_RING_ENTRIES, n, accounting_words(kv_known, code));
	}
	finding_ev_int(f, "memlock_soft", ml->soft == LIMIT_INFINITY ? -1 : (int64_t)ml->soft);
	finding_ev_int(f, "memlock_hard", ml->hard == LIMIT_INFINITY ? -1 : (int64_t)ml->hard);
	finding_ev_int(f, "ring_bytes", (int64_t)ring);
	finding_ev_int(f, "fixed_buffer_bytes", (int64_t)TYPICAL_FIXED_BUFFER_BYTES);
	finding_ev_int(f, "need_bytes", (int64_t)need);
	finding_ev_bool(f, "rings_charged", charged);
}
