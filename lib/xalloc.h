/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_XALLOC_H
#define URINGLINT_XALLOC_H

#include <stddef.h>

/*
 * Allocation that cannot fail for its callers: out of memory ends the run
 * with one line and exit status 3, as git's xmalloc does. Used for report
 * bookkeeping, never for sizes taken from input.
 */
void *xcalloc(size_t n, size_t size);
void *xreallocarray(void *p, size_t n, size_t size);
/* array_grow() (array.h) that cannot fail: xarray_grow(&v, &cap, n + 1). */
void xarray_grow_size(void *pp, size_t *cap, size_t need, size_t size);
#define xarray_grow(pp, cap, need) xarray_grow_size((pp), (cap), (need), sizeof(**(pp)))
char *xstrdup(const char *s);
__attribute__((format(printf, 1, 0))) char *xvasprintf(const char *fmt, __builtin_va_list ap);
__attribute__((format(printf, 1, 2))) char *xasprintf(const char *fmt, ...);

#endif
