// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one rule every punt check judges by. A share over the tolerance from
 * few requests is no measure of the rate: 1 punt in 48 requests (2.1%) is
 * what a process punting 1% of its requests shows 38% of the time. The
 * punts fail only when a rate at the tolerance would give that many or
 * more less than 5% of the time (a one-sided Poisson test; each request
 * punts or not on its own, and the tolerated share is small).
 */
#include <math.h>
#include <stdio.h>

#include "checks.h"

/* Below this chance the punts are more than the tolerated rate gives. */
#define PUNT_CHANCE_LEVEL 0.05

/*
 * P(X >= k) for X ~ Poisson(lambda), k > lambda: the terms only fall, some
 * 6 sqrt(lambda) of them count (0.4 ms at a billion requests). The first
 * term's exponent loses k log(lambda) x 2^-52 to rounding: verdicts hold to
 * 10^13 requests and more, past any watch's count.
 */
static double poisson_tail(double lambda, uint64_t k)
{
	double term, sum = 0;
	uint64_t i;

	if (lambda <= 0)
		return k ? 0 : 1;
	term = exp((double)k * log(lambda) - lambda - lgamma((double)k + 1));
	for (i = k; term > 0 && term > sum * 1e-12; i++) {
		sum += term;
		term *= lambda / (double)(i + 1);
	}
	return sum > 1 ? 1 : sum;
}

double punt_chance(const struct check_ctx *ctx, uint64_t punts, uint64_t reqs)
{
	double lambda = check_thresholds(ctx)->punt_tolerance * (double)reqs;

	if (!punts || (double)punts <= lambda)
		return 1;
	return poisson_tail(lambda, punts);
}

enum check_status punt_status(const struct check_ctx *ctx, uint64_t punts, uint64_t reqs)
{
	if (!punts)
		return STATUS_PASS;
	if (!reqs || punt_chance(ctx, punts, reqs) < PUNT_CHANCE_LEVEL)
		return STATUS_FAIL;
	return STATUS_INFO;
}

const char *punt_tolerance_text(const struct check_ctx *ctx, enum check_status st,
				uint64_t punts, uint64_t reqs, char *buf, size_t n)
{
	double tol = 100 * check_thresholds(ctx)->punt_tolerance, p;

	if (st != STATUS_INFO)
		return "";
	p = punt_chance(ctx, punts, reqs);
	if (p >= 1)
		snprintf(buf, n, ", under the punt tolerance of %g%% (punt-tolerance): not off the "
			 "fast path", tol);
	else
		snprintf(buf, n, ", over the punt tolerance of %g%% (punt-tolerance) by no more "
			 "than chance (at %g%%, %llu requests show %llu or more punts %.0f%% of the "
			 "time): not shown off the fast path", tol, tol,
			 (unsigned long long)reqs, (unsigned long long)punts, 100 * p);
	return buf;
}
