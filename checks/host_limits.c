// SPDX-License-Identifier: GPL-2.0-or-later
/* Resource limits that io_uring charges, or that cap its workers and tables. */
#include <stdio.h>

#include "checks.h"
#include "output.h"
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

static int64_t limit_ev(uint64_t v)
{
	return v == LIMIT_INFINITY ? -1 : (int64_t)v;
}

static bool has_cap(const struct host_facts *hf, unsigned int bit)
{
	return fact_ok(&hf->self_status.e) && proc_status_has_cap(&hf->self_status.st, bit);
}

void check_memlock_limit(const struct check *c, struct check_ctx *ctx)
{
	const struct host_facts *hf = ctx->host;
	const struct plan *plan = ctx->plan;
	const struct rlimit_pair *ml = &hf->self_limits.lim.memlock;
	bool kv_known = fact_ok(&hf->kernel.e);
	uint32_t code = kv_known ? kernel_version_code(&hf->kernel.v) : KV(6, 14, 0);
	bool charged = uring_rings_charged_to_memlock(code);
	/* What the kernel charges where it charges rings (5.10 rounded to powers of two). */
	uint64_t ring = charged ? uring_ring_charge(code, plan->ring_entries, 2 * plan->ring_entries,
						    hf->page_size)
				: uring_ring_bytes(plan->ring_entries, 2 * plan->ring_entries,
						   hf->page_size);
	uint64_t need_ring = charged ? ring : 0;
	uint64_t need = need_ring + plan->fixed_buffer_bytes;
	char soft[BYTES_STR_MAX], hard[BYTES_STR_MAX], r[BYTES_STR_MAX], n[BYTES_STR_MAX];
	char bufs[BYTES_STR_MAX], capnote[160] = "";
	struct finding *f;

	if (!fact_ok(&hf->self_limits.e)) {
		check_fact_missing(c, ctx, "host", &hf->self_limits.e);
		return;
	}
	format_bytes(ml->soft, soft);
	format_bytes(ml->hard, hard);
	format_bytes(ring, r);
	format_bytes(need, n);
	format_bytes(plan->fixed_buffer_bytes, bufs);
	if (has_cap(hf, CAP_BIT_IPC_LOCK))
		snprintf(capnote, sizeof(capnote),
			 " (this process has CAP_IPC_LOCK and is not charged; the verdict is for a "
			 "service without it)");

	if (ml->soft == LIMIT_INFINITY) {
		f = report_add(ctx->report, &c->info, STATUS_PASS, "host",
			       "RLIMIT_MEMLOCK is unlimited; %s", accounting_words(kv_known, code));
	} else if (ml->soft < need_ring) {
		f = report_add(ctx->report, &c->info, STATUS_FAIL, "host",
			       "RLIMIT_MEMLOCK is %s but one %u-entry ring needs %s: io_uring_setup() "
			       "fails with ENOMEM; %s%s",
			       soft, plan->ring_entries, r, accounting_words(kv_known, code), capnote);
	} else if (ml->soft < need) {
		f = report_add(ctx->report, &c->info, STATUS_WARN, "host",
			       "RLIMIT_MEMLOCK is %s, below the %s a %u-entry ring with %s of "
			       "registered buffers needs: io_uring_register_buffers() fails with "
			       "ENOMEM beyond the limit; %s%s",
			       soft, n, plan->ring_entries, bufs, accounting_words(kv_known, code),
			       capnote);
		if (ml->hard >= need)
			finding_set_fix(f, "the hard limit (%s) allows enough: the service can raise its "
					   "soft limit with setrlimit(RLIMIT_MEMLOCK) at start, or %s",
					hard, FIX_MEMLOCK_TEXT);
	} else {
		f = report_add(ctx->report, &c->info, STATUS_PASS, "host",
			       "RLIMIT_MEMLOCK is %s, enough for a %u-entry ring with %s of "
			       "registered buffers (%s); %s",
			       soft, plan->ring_entries, bufs, n, accounting_words(kv_known, code));
	}
	finding_ev_int(f, "memlock_soft", limit_ev(ml->soft));
	finding_ev_int(f, "memlock_hard", limit_ev(ml->hard));
	finding_ev_int(f, "ring_entries", plan->ring_entries);
	finding_ev_int(f, "ring_bytes", (int64_t)ring);
	finding_ev_int(f, "fixed_buffer_bytes", (int64_t)plan->fixed_buffer_bytes);
	finding_ev_int(f, "need_bytes", (int64_t)need);
	finding_ev_bool(f, "rings_charged", charged);
}

/*
 * io-wq sizes its pools per ring: bounded work (regular files, block
 * devices) up to min(sq_entries, 4 * CPUs) workers, unbounded work (sockets,
 * pipes, anything that may block for long) up to RLIMIT_NPROC. Workers are
 * threads of the user, so they also count against that same limit.
 */
void check_nproc_limit(const struct check *c, struct check_ctx *ctx)
{
	const struct host_facts *hf = ctx->host;
	const struct rlimit_pair *np = &hf->self_limits.lim.nproc;
	unsigned int cpus = hf->cpus ? hf->cpus : 1;
	uint64_t bounded = ctx->plan->ring_entries < 4ull * cpus ? ctx->plan->ring_entries
								: 4ull * cpus;
	struct finding *f;

	if (!fact_ok(&hf->self_limits.e)) {
		check_fact_missing(c, ctx, "host", &hf->self_limits.e);
		return;
	}
	if (np->soft == LIMIT_INFINITY) {
		f = report_add(ctx->report, &c->info, STATUS_WARN, "host",
			       "RLIMIT_NPROC is unlimited, so nothing caps io-wq's unbounded workers: "
			       "blocking socket or pipe requests punted to io-wq can each get an "
			       "iou-wrk thread, thousands under load");
	} else if (np->soft < bounded) {
		f = report_add(ctx->report, &c->info, STATUS_FAIL, "host",
			       "RLIMIT_NPROC is %llu, below the %llu bounded io-wq workers one ring "
			       "may need here (min(%u entries, 4 x %u CPUs)); workers count as the "
			       "user's threads, so creating them fails and punted requests stall",
			       (unsigned long long)np->soft, (unsigned long long)bounded,
			       ctx->plan->ring_entries, cpus);
		finding_set_fix(f, "raise RLIMIT_NPROC for the service's user (systemd: LimitNPROC=; "
				   "limits.conf: '<user> - nproc N') above its threads plus %llu per ring",
				(unsigned long long)bounded);
	} else {
		f = report_add(ctx->report, &c->info, STATUS_PASS, "host",
			       "RLIMIT_NPROC is %llu: it caps io-wq's unbounded workers per ring and "
			       "leaves room for the %llu bounded ones (min(%u entries, 4 x %u CPUs))",
			       (unsigned long long)np->soft, (unsigned long long)bounded,
			       ctx->plan->ring_entries, cpus);
	}
	finding_ev_int(f, "nproc_soft", limit_ev(np->soft));
	finding_ev_int(f, "nproc_hard", limit_ev(np->hard));
	finding_ev_int(f, "bounded_workers_per_ring", (int64_t)bounded);
}

/* Registered file tables, like open files, are capped by RLIMIT_NOFILE (EMFILE beyond). */
#define NOFILE_SERVER_MIN 1024

void check_nofile_limit(const struct check *c, struct check_ctx *ctx)
{
	const struct host_facts *hf = ctx->host;
	const struct rlimit_pair *nf = &hf->self_limits.lim.nofile;
	struct finding *f;

	if (!fact_ok(&hf->self_limits.e)) {
		check_fact_missing(c, ctx, "host", &hf->self_limits.e);
		return;
	}
	if (nf->soft <= NOFILE_SERVER_MIN) {
		f = report_add(ctx->report, &c->info, STATUS_WARN, "host",
			       "RLIMIT_NOFILE is %llu (hard %llu): open files and sockets, and "
			       "io_uring_register_files() tables (EMFILE beyond it), stop there",
			       (unsigned long long)nf->soft, (unsigned long long)nf->hard);
		if (nf->hard > NOFILE_SERVER_MIN)
			finding_set_fix(f, "the hard limit allows %llu: raise the soft limit at start "
					   "(setrlimit(RLIMIT_NOFILE)), or LimitNOFILE= in the unit",
					(unsigned long long)nf->hard);
	} else {
		f = report_add(ctx->report, &c->info, STATUS_PASS, "host",
			       "RLIMIT_NOFILE is %llu: registered file tables up to that size fit",
			       (unsigned long long)nf->soft);
	}
	finding_ev_int(f, "nofile_soft", limit_ev(nf->soft));
	finding_ev_int(f, "nofile_hard", limit_ev(nf->hard));
}
