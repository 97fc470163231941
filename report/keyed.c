// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>

#include "keyed.h"

int keyed_by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

int keyed_by_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}
