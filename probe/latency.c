// SPDX-License-Identifier: GPL-2.0-or-later
/* Latency samples into a histogram and percentiles, for every probe. */
#include <stdlib.h>

#include "latency.h"

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

void latency_summarize(uint32_t *ns, size_t n, uint64_t hist[PROBE_HIST_BUCKETS], double *p50_us,
		       double *p99_us, double *p999_us)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t us = ns[i] / 1000;
		unsigned int b = 0;

		while (us && b < PROBE_HIST_BUCKETS - 1) {
			us >>= 1;
			b++;
		}
		hist[b]++;
	}
	if (!n)
		return;
	qsort(ns, n, sizeof(*ns), cmp_u32);
	*p50_us = ns[n / 2] / 1000.0;
	*p99_us = ns[(size_t)((double)n * 0.99)] / 1000.0;
	*p999_us = ns[(size_t)((double)n * 0.999)] / 1000.0;
}
