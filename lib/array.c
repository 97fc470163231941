// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"

#define ARRAY_FIRST_CAP 8

int array_grow_realloc(void *pp, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : ARRAY_FIRST_CAP;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : 2 * n;
	/*
	 * Refused here rather than by realloc: no allocation may exceed
	 * PTRDIFF_MAX, and the sanitizers abort on one that asks.
	 */
	if (!size || n > PTRDIFF_MAX / size)
		return -ENOMEM;
	/* *pp is some T *: copied as bytes, not read through a void **. */
	memcpy(&p, pp, sizeof(p));
	p = realloc(p, n * size);
	if (!p)
		return -ENOMEM;
	memcpy(pp, &p, sizeof(p));
	*cap = n;
	return 0;
}

int array_grow_implied(void *pp, size_t n, size_t size)
{
	size_t cap = n;

	/* Room left below ARRAY_FIRST_CAP, or below the next power of two past it. */
	if (n && (n < ARRAY_FIRST_CAP || (n & (n - 1))))
		return 0;
	return array_grow_realloc(pp, &cap, n + 1, size);
}
