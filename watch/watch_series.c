// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The watch as a time series: each sampled submit counted in the 100 ms
 * bucket it fell in, from the watch's start, and each request punted in its
 * submit's bucket (a punt that crossed a bucket's edge is still its
 * request's; a request not seen submitted is in no bar), so a report can
 * draw when the requests and punts came (a burst at a page flush, a stall). The
 * counts are the samples', so a bucket outside the sampling windows is
 * empty for want of samples, not of requests: watch_series_sampled says how
 * much of each was sampled, from the windows the watch kept.
 */
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "watch.h"


void watch_series_begin(struct watch_series *s, uint64_t start)
{
	memset(s, 0, sizeof(*s));
	s->start = start;
}

static int grow(struct watch_series *s, unsigned int n)
{
	size_t cap = s->cap, cap2 = s->cap;

	if (n <= s->cap)
		return 0;
	if (array_grow(&s->reqs, &cap, n) || array_grow(&s->punts, &cap2, n))
		return -1;
	/* Both grew to at least n: the new buckets are empty. */
	cap = cap < cap2 ? cap : cap2;
	memset(s->reqs + s->cap, 0, (cap - s->cap) * sizeof(*s->reqs));
	memset(s->punts + s->cap, 0, (cap - s->cap) * sizeof(*s->punts));
	s->cap = (unsigned int)cap;
	return 0;
}

void watch_series_add(struct watch_series *s, unsigned int ev, uint64_t t)
{
	uint64_t b;

	if (!s->start || t < s->start || (ev != UT_SUBMIT && ev != UT_PUNT))
		return;
	b = (t - s->start) / (WATCH_SERIES_MS * 1000000ull);
	/* Past the longest watch, or out of memory: the picture stops there. */
	if (b >= WATCH_SERIES_MAX || grow(s, (unsigned int)b + 1))
		return;
	if (ev == UT_SUBMIT)
		s->reqs[b]++;
	else
		s->punts[b]++;
	if (b + 1 > s->n)
		s->n = (unsigned int)b + 1;
}

void watch_series_free(struct watch_series *s)
{
	free(s->reqs);
	free(s->punts);
	memset(s, 0, sizeof(*s));
}

double watch_series_sampled(const struct punt_watch *w, unsigned int b)
{
	const uint64_t len = WATCH_SERIES_MS * 1000000ull;
	uint64_t from, to, in = 0;
	unsigned int i;

	if (!w->series || !w->series->start)
		return 0;
	if (w->sampled_all)
		return 1;
	from = w->series->start + (uint64_t)b * len;
	to = from + len;
	for (i = 0; i < w->nwindows; i++) {
		uint64_t a = w->windows[i].start > from ? w->windows[i].start : from;
		uint64_t z = w->windows[i].end < to ? w->windows[i].end : to;

		in += z > a ? z - a : 0;
	}
	return in >= len ? 1 : (double)in / (double)len;
}
