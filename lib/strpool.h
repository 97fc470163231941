/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_STRPOOL_H
#define URINGLINT_STRPOOL_H

#include <stddef.h>

/*
 * Strings that live and die together, copied end to end into blocks that
 * never move: a process's 10,000 file paths as 10,000 heap chunks had 16
 * bytes of malloc's own and a page fault for each 170 of them, which on a
 * VM cost more than copying the paths.
 */
struct strpool_block;
struct strpool {
	struct strpool_block *head;	/* the block being filled; older ones behind it */
};

/* A copy of s that lives until strpool_free(); NULL when out of memory. */
char *strpool_dup(struct strpool *p, const char *s);
void strpool_free(struct strpool *p);

#endif
