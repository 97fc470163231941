/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_KEYED_H
#define URINGLINT_KEYED_H

#include <stddef.h>

/*
 * A finding's key and its index, sorted to find the alike findings without
 * comparing every pair (text_groups.c, problems.c).
 */
struct keyed {
	char *key;
	size_t i;
};

/* qsort comparators: by key, then index; and ints ascending. */
int keyed_by_key(const void *a, const void *b);
int keyed_by_int(const void *a, const void *b);

#endif
