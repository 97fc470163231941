/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_ARRAY_H
#define URINGLINT_ARRAY_H

#include <stddef.h>

/*
 * The number of elements of an array. Given a pointer instead, the second
 * term has a negative size and the build stops (the kernel's
 * __must_be_array), rather than dividing a pointer's size.
 */
#define ARRAY_SIZE(a)                                                                         \
	(sizeof(a) / sizeof((a)[0]) +                                                         \
	 0 * sizeof(char[1 - 2 * __builtin_types_compatible_p(__typeof__(a),                  \
							      __typeof__(&(a)[0]))]))

int array_grow_realloc(void *pp, size_t *cap, size_t need, size_t size);

/*
 * Makes room for need elements of size bytes in the array at *pp, which has
 * room for *cap. The capacity doubles (8 at first) until need fits, so n
 * appends copy O(n) elements, not O(n^2). Returns 0, or -ENOMEM with *pp
 * and *cap untouched when memory runs out or need * size overflows.
 * Use array_grow(), which takes the element size from the pointer's type.
 */
static inline int array_grow_size(void *pp, size_t *cap, size_t need, size_t size)
{
	return need <= *cap ? 0 : array_grow_realloc(pp, cap, need, size);
}

/*
 * array_grow(&v, &cap, n + 1): pp must point to the array's pointer; the
 * ** makes passing the array itself a build error.
 */
#define array_grow(pp, cap, need) array_grow_size((pp), (cap), (need), sizeof(**(pp)))

/*
 * Room for one more element in an array of n, size bytes each, that keeps
 * no capacity of its own: it is taken to be n rounded up to a power of two
 * (8 at least), as the arrays this grew have. 0, or -ENOMEM with *pp
 * untouched.
 */
int array_grow_implied(void *pp, size_t n, size_t size);

#endif
