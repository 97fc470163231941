// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Why io_uring_setup() fails for given credentials and limits, as the
 * kernel decides it: EPERM from io_uring_allowed() (sysctl 2, then sysctl 1
 * without CAP_SYS_ADMIN or kernel.io_uring_group, then the LSM hook) or a
 * seccomp filter; ENOMEM from RLIMIT_MEMLOCK where rings are charged to it.
 * Shared by preflight (uringlint's own credentials) and audit (a process's).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "output.h"
#include "uring_sizes.h"

const char *uring_eperm_fix(enum uring_eperm_cause cause)
{
	switch (cause) {
	case EPERM_SYSCTL:
		return FIX_SYSCTL_ZERO;
	case EPERM_GROUP:
		return FIX_GROUP;
	case EPERM_SECCOMP:
		return FIX_SECCOMP;
	case EPERM_NONE:
		break;
	}
	return NULL;
}

enum uring_eperm_cause uring_eperm_cause(const struct host_facts *hf, const struct proc_status *st,
					 char *buf, size_t len)
{
	if (fact_ok(&hf->uring_disabled.e) && hf->uring_disabled.value == 2) {
		snprintf(buf, len,
			 "kernel.io_uring_disabled = 2 refuses every io_uring_setup(), root included");
		return EPERM_SYSCTL;
	}
	if (fact_ok(&hf->uring_disabled.e) && hf->uring_disabled.value == 1 && st &&
	    !proc_status_has_cap(st, CAP_BIT_SYS_ADMIN)) {
		int64_t g = fact_ok(&hf->uring_group.e) ? hf->uring_group.value : -1;

		if (g < 0 || g > 0xfffffffe || !proc_status_in_group(st, (gid_t)g)) {
			if (g < 0)
				snprintf(buf, len,
					 "kernel.io_uring_disabled = 1 allows only CAP_SYS_ADMIN and "
					 "kernel.io_uring_group, which is %lld (no group); uid %u lacks "
					 "CAP_SYS_ADMIN",
					 (long long)g, st->euid);
			else
				snprintf(buf, len,
					 "kernel.io_uring_disabled = 1 allows only CAP_SYS_ADMIN and "
					 "members of kernel.io_uring_group %lld; uid %u is in neither",
					 (long long)g, st->euid);
			return EPERM_GROUP;
		}
	}
	if (st && st->seccomp == 2) {
		snprintf(buf, len,
			 "a seccomp filter is active (Seccomp: 2, %d filter(s)) "
			 "and container runtimes' default profiles deny io_uring",
			 st->seccomp_filters);
		return EPERM_SECCOMP;
	}
	return EPERM_NONE;
}

/* The kernel's version code, or 6.14's (rings charged) when it is unknown. */
static uint32_t code_or_charging(const struct host_facts *hf)
{
	return fact_ok(&hf->kernel.e) ? kernel_version_code(&hf->kernel.v) : KV(6, 14, 0);
}

uint64_t ring_memlock_charge(const struct host_facts *hf, uint32_t sq_entries, uint32_t cq_entries)
{
	return uring_ring_charge(code_or_charging(hf), sq_entries, cq_entries, hf->page_size);
}

enum ring_memlock ring_memlock_judge(const struct host_facts *hf, const struct proc_status *st,
				     const struct proc_limits *lim, uint64_t need)
{
	if (st && proc_status_has_cap(st, CAP_BIT_IPC_LOCK))
		return RING_ML_CAP;
	if (!uring_rings_charged_to_memlock(code_or_charging(hf)))
		return RING_ML_UNCHARGED;
	if (!st || !lim)
		return RING_ML_UNKNOWN;
	if (lim->memlock.soft == LIMIT_INFINITY)
		return RING_ML_UNLIMITED;
	return lim->memlock.soft < need ? RING_ML_BELOW : RING_ML_FITS;
}

void ring_enomem_why(const struct host_facts *hf, const struct proc_status *st,
		     const struct proc_limits *lim, uint32_t sq_entries, char *buf, size_t len)
{
	uint64_t need = ring_memlock_charge(hf, sq_entries, 2 * sq_entries);
	char l[BYTES_STR_MAX], n[BYTES_STR_MAX];
	const char *version = fact_ok(&hf->kernel.e) ? "this kernel"
						     : "a kernel of unknown version (taken as 6.14+)";

	format_bytes(lim ? lim->memlock.soft : 0, l);
	format_bytes(need, n);
	switch (ring_memlock_judge(hf, st, lim, need)) {
	case RING_ML_CAP:
		snprintf(buf, len, "the caller has CAP_IPC_LOCK, which io_uring does not charge, so "
			 "memory itself (or its cgroup's limit) ran out");
		break;
	case RING_ML_UNCHARGED:
		snprintf(buf, len, "this kernel charges rings to the memory cgroup, not to "
			 "RLIMIT_MEMLOCK, so the cgroup's memory limit is exhausted");
		break;
	case RING_ML_BELOW:
		snprintf(buf, len, "RLIMIT_MEMLOCK is %s and a %u-entry ring needs %s on %s, which "
			 "charges ring memory to it", l, sq_entries, n, version);
		break;
	case RING_ML_UNLIMITED:
		snprintf(buf, len, "RLIMIT_MEMLOCK is unlimited, so memory itself (or its cgroup's "
			 "limit) ran out");
		break;
	case RING_ML_FITS:
		snprintf(buf, len, "RLIMIT_MEMLOCK is %s, enough for the %s a %u-entry ring needs "
			 "on %s, but the charge is per user: other processes of uid %u hold the rest "
			 "with their rings and registered buffers",
			 l, n, sq_entries, version, st->euid);
		break;
	case RING_ML_UNKNOWN:
		snprintf(buf, len, "a %u-entry ring needs %s of RLIMIT_MEMLOCK on %s, and the "
			 "limit could not be read", sq_entries, n, version);
		break;
	}
}
