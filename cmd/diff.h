/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_DIFF_H
#define URINGLINT_DIFF_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdbool.h>

#include "report.h"

/*
 * One process of a report, by its identity: what stays when a service is
 * restarted (a new pid): "unit NAME" (systemd), else "container ID" (or
 * its name), else "command COMM", else "pid N".
 */
struct diff_proc {
	int pid;
	char *ident;
	size_t match;			/* its process in the other report, or DIFF_NONE */
};

/* One finding of a report, by its key: the worst of the findings that share the key. */
struct diff_entry {
	char *key;			/* id, its process's identity, the subject without IDs */
	const char *id;
	int pid;			/* its process, 0 for the host's */
	const char *ident;		/* its process's identity; NULL when not in the report */
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
	struct diff_proc *procs;	/* its processes[], sorted by identity, then pid */
	size_t nprocs;
	const char *host, *kernel;
};

/*
 * Takes doc (a parsed report, owned by s from now on, even on error) as
 * one side of a diff. Returns 0, or EXIT_USAGE after one line on stderr
 * for what is not a uringlint report of schema_version 1.
 */
int diff_side_init(struct diff_side *s, const char *file, struct json_object *doc);
void diff_side_free(struct diff_side *s);

/* A process object of a report (processes[]) as its identity, a new string. */
char *diff_process_identity(struct json_object *proc);

/*
 * A finding's subject without the numbers a restart changes: "pid 123 fd 7
 * /data/x" -> "/data/x", "pid 123 tid 9" -> "", "pid 1 ring fd 5" -> "ring".
 */
char *diff_subject_norm(const char *subject);

/* What a diff counted: changes, changes of checks not known here, and changes that reached the gate. */
struct diff_counts {
	unsigned int changes, unknown, gate;
};

/*
 * The changes from old to new, as findings of r (report_init'd here, for
 * report_free): processes matched by identity, findings by check, process
 * identity and subject without IDs, in O(n log n); the processes matched,
 * appeared and gone, with their punt shares and rates, in r->diff. fail_on: the --fail-on
 * status, or -1 for never. Returns 0, or EXIT_USAGE after one line on
 * stderr when the two are reports of different hosts.
 */
/* diff_procs.c: the processes paired by identity, each one's change as a finding into r. */
void diff_procs(struct report *r, struct diff_side *a, struct diff_side *b);
/* A finding's old and new process (pid, identity) and, for a punt check, its share and rate. */
void diff_change_process(struct finding *f, const struct diff_entry *o,
			 const struct diff_entry *n);
/* Whether a JSON value is a number (int or double). */
bool diff_is_number(struct json_object *v);

int diff_sides(struct diff_side *old, struct diff_side *new, int fail_on, struct report *r,
	       struct diff_counts *counts);

#endif
