// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The latency histogram of an opcode on a ring: log-linear buckets (four
 * per power of two from 128 ns), so a quantile read from a bucket's top
 * edge is high by at most 25%.
 */
#include "uring_trace.h"

unsigned int uring_trace_lat_bucket(uint64_t ns)
{
	unsigned int msb, b;

	if (ns < (1ull << UT_LAT_MIN_SHIFT))
		return 0;
	msb = 63u - (unsigned int)__builtin_clzll(ns);
	/* 4 buckets per power of two: the two bits below the top one. */
	b = (msb - UT_LAT_MIN_SHIFT) * UT_LAT_SUB + (unsigned int)((ns >> (msb - 2)) & 3) + 1;
	return b < UT_LAT_BUCKETS ? b : UT_LAT_BUCKETS - 1;
}

uint64_t uring_trace_lat_bucket_top(unsigned int b)
{
	unsigned int msb, sub;

	if (!b)
		return 1ull << UT_LAT_MIN_SHIFT;
	msb = (b - 1) / UT_LAT_SUB + UT_LAT_MIN_SHIFT;
	sub = (b - 1) % UT_LAT_SUB;
	return (1ull << msb) + ((uint64_t)(sub + 1) << (msb - 2));
}

bool uring_trace_latency_known(const struct ut_ring_op *op, double q)
{
	double all = (double)(op->latency_n + op->latency_censored);

	return op->latency_n && (double)op->latency_censored <= (1 - q) * all;
}

uint64_t uring_trace_latency(const struct ut_ring_op *op, double q)
{
	uint64_t want, seen = 0;
	unsigned int b;

	if (!op->latency_n)
		return 0;
	/* The smallest bucket edge with at least q of the samples at or below it. */
	want = (uint64_t)(q * (double)op->latency_n + 0.999999);
	if (!want)
		want = 1;
	for (b = 0; b < UT_LAT_BUCKETS; b++) {
		seen += op->latency[b];
		if (seen >= want)
			return uring_trace_lat_bucket_top(b);
	}
	return uring_trace_lat_bucket_top(UT_LAT_BUCKETS - 1);
}
