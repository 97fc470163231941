/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROBLEMS_H
#define URINGLINT_PROBLEMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

#include "report.h"

/*
 * The problems a report opens with, in every format: its warn, fail and
 * error findings folded so that each problem is said once, worst first.
 *
 * One problem is the findings of one check and status whose fix reads the
 * same but for numbers and the file it names, in any process or on any
 * file: 200 processes writing buffered files are one problem with one fix.
 * A finding that only shows, from the process's side, what another
 * check's problem on the same process causes (io-wq workers busy, punts
 * counted by opcode, the file judged by its open flags) joins that problem
 * as "also" rather than stand as a problem of its own with a second fix.
 *
 * Ranked by status (fail, warn, error), then the check's severity, then
 * the cost measured (punts a second, then punts), then how many processes.
 */
struct problem {
	size_t lead;		/* the finding that speaks for it: its costliest */
	size_t *members;	/* its findings, in report order */
	size_t nmembers;
	size_t *also;		/* findings of other checks it explains */
	size_t nalso;
	enum check_status status;
	size_t npids;
	int64_t punts, requests;	/* summed over members with both; -1 none measured */
	double rate;			/* punts a second, summed; < 0 not measured */
};

struct problems {
	struct problem *v;
	size_t n;
	size_t *of;		/* per finding: 1 + the index of its problem, 0 none */
	bool *is_also;		/* per finding: joined its problem as "also" */
};

void problems_build(struct problems *p, const struct report *r);
void problems_free(struct problems *p);

/* The problem finding i is part of (as member or also), or NULL. */
const struct problem *problems_of(const struct problems *p, size_t i);
/*
 * The problem whose fix finding i's details point to: 1 + its index, or 0
 * when the finding says its own fix there (it is in no problem, or it is
 * one whose fix names another file than the one its problem's fix names).
 */
size_t problems_fix_ref(const struct problems *p, const struct report *r, size_t i);
/* Its rank, counted from 1. */
size_t problem_rank(const struct problems *p, const struct problem *pb);

/*
 * The words of a problem, each a new string the caller escapes for its
 * format and frees; NULL when there is nothing to say.
 *   who:      "3 processes: fio (pids 10, 11), unit mariadb.service (pid 12)"
 *   where:    the files (evidence "path") or host subjects, up to max, then "and N more"
 *   measured: "cause buffered (3104 punts); 3104 of 3104 requests punted (100%), 1552/s"
 *   also:     "fd-o-direct, iowq-punts (the same processes)"
 */
char *problem_who(const struct report *r, const struct problem *pb);
char *problem_where(const struct report *r, const struct problem *pb, size_t max);
char *problem_measured(const struct report *r, const struct problem *pb);
char *problem_also(const struct report *r, const struct problem *pb);
/* The lead finding's message, prefixed "as pid N, " when the problem holds for more than one. */
char *problem_what(const struct report *r, const struct problem *pb);

/*
 * The JSON's "problems": each with its rank, check id, status, severity,
 * lead finding and member and also findings (indices into "findings"),
 * pids, the words above, punts, requests, punts_per_second and fix.
 */
struct json_object *problems_to_json(const struct report *r, const struct problems *p);

#endif
