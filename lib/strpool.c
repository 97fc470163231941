// SPDX-License-Identifier: GPL-2.0-or-later
/* Strings copied into blocks that are freed together (see strpool.h). */
#include <stdlib.h>
#include <string.h>

#include "strpool.h"

#define BLOCK_BYTES (64 * 1024)

struct strpool_block {
	struct strpool_block *next;
	size_t used, cap;
	char data[];
};

char *strpool_dup(struct strpool *p, const char *s)
{
	size_t len = strlen(s) + 1;
	struct strpool_block *b = p->head;
	char *d;

	if (!b || b->cap - b->used < len) {
		/* A string longer than a block gets a block of its own size. */
		size_t cap = len > BLOCK_BYTES ? len : BLOCK_BYTES;

		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->next = p->head;
		b->used = 0;
		b->cap = cap;
		p->head = b;
	}
	d = b->data + b->used;
	memcpy(d, s, len);
	b->used += len;
	return d;
}

void strpool_free(struct strpool *p)
{
	while (p->head) {
		struct strpool_block *b = p->head;

		p->head = b->next;
		free(b);
	}
}
