/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_TEXT_GROUPS_H
#define URINGLINT_TEXT_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report.h"

/*
 * A host-wide text that fits on a screen: when a report covers many
 * processes, the same finding in many of them is one line, with how many
 * and which (by unit, else by comm), and the processes' own summary notes
 * fold into one line per unit or comm. "The same" is the same check and
 * status, and a subject and message equal but for their numbers (pids,
 * fds, counts): alike processes say alike things. -v lists each.
 */
#define TEXT_GROUP_MIN_PROCESSES 4

struct text_groups {
	size_t *first;		/* per finding: the index of its group's first finding */
	size_t *count;		/* per finding that is a group's first: its size */
	bool on;
};

/* Groups r's findings when r covers at least TEXT_GROUP_MIN_PROCESSES processes. */
void text_groups_init(struct text_groups *g, const struct report *r, int verbosity);
void text_groups_free(struct text_groups *g);

/*
 * Whether r covers at least TEXT_GROUP_MIN_PROCESSES processes: then the
 * notes of alike processes fold too.
 */
bool text_groups_many(const struct report *r);

/*
 * r's notes, those that begin "pid N" and differ from another only in
 * their numbers as one line when group is set ("200 processes watched for
 * 2 s: ... (pids 101, 102, ... and 192 more)"), the rest as they are; the
 * processes' own summary notes left out when skip_proc is set.
 */
void text_groups_put_plain_notes(FILE *out, const struct report *r, bool group, bool skip_proc);

/* The folded notes of the processes, one line per unit or comm; the other notes as they are. */
void text_groups_put_notes(FILE *out, const struct report *r, const struct text_groups *g);

/*
 * For a group's first finding of more than one: "48 processes of fio: " to
 * put before its subject, and the closing "alike in pids ..." line; the
 * caller escapes and wraps both. NULL when f is alone.
 */
char *text_group_head(const struct report *r, const struct text_groups *g, size_t i);
char *text_group_tail(const struct report *r, const struct text_groups *g, size_t i);

#endif
