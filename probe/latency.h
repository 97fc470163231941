/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROBE_LATENCY_H
#define URINGLINT_PROBE_LATENCY_H

#include <stddef.h>
#include <stdint.h>

#define PROBE_HIST_BUCKETS 24	/* log2 buckets of microseconds: <1, 1, 2, 4, ... */

/*
 * Latency samples in nanoseconds into a log2 histogram of microseconds and
 * the p50, p99 and p99.9 in microseconds. Sorts ns in place; the storage and
 * the network probes share it so their tables mean the same.
 */
void latency_summarize(uint32_t *ns, size_t n, uint64_t hist[PROBE_HIST_BUCKETS], double *p50_us,
		       double *p99_us, double *p999_us);

#endif
