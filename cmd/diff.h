/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_DIFF_H
#define URINGLINT_DIFF_H

#include <json-c/json.h>
#include <stddef.h>

#include "report.h"

/* One finding of a report, by its key: the worst of the findings that share the key. */
struct diff_entry {
	char *key;			/* id, a unit separator, the subject without IDs */
	const char *id;
	int status;
	struct json_object *f;		/* the finding (owned by its document) */
	size_t match;			/* its entry in the other report, or DIFF_NONE */
	bool dup;			/* an entry of the same key came first */
};

#define DIFF_NONE ((size_t)-1)

/* One report of report diff: its entries in the order of its findings. */
struct diff_side {
	const char *file;
	struct json_object *doc;
	struct diff_entry *v;
	size_t n, cap;
	const char *host, *kernel;
};

/*
 * Takes doc (a parsed report, owned by s from now on, even on error) as
 * one side of a diff. Returns 0, or EXIT_USAGE after one line on stderr
 * for what is not a uringlint report of schema_version 1.
 */
int diff_side_init(struct diff_side *s, const char *file, struct json_object *doc);
void diff_side_free(struct diff_side *s);

/* What a diff counted: changes, changes of checks not known here, and changes that reached the gate. */
struct diff_counts {
	unsigned int changes, unknown, gate;
};

/*
 * The changes from old to new, as findings of r (report_init'd here, for
 * report_free): matched by key in O(n log n). fail_on: the --fail-on
 * status, or -1 for never. Returns 0, or EXIT_USAGE after one line on
 * stderr when the two are reports of different hosts.
 */
int diff_sides(struct diff_side *old, struct diff_side *new, int fail_on, struct report *r,
	       struct diff_counts *counts);

#endif
