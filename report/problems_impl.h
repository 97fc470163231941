/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROBLEMS_IMPL_H
#define URINGLINT_PROBLEMS_IMPL_H

/* What problems.c (grouping, ranking) shares with problem_words.c (the words); no one else's. */

#include <json-c/json.h>
#include <stddef.h>

#include "problems.h"

/* A finding's evidence key, NULL when absent. */
struct json_object *problem_ev(const struct finding *f, const char *key);
/* The same as a string, NULL when absent or not one. */
const char *problem_ev_str(const struct finding *f, const char *key);
/* The distinct pids of a problem's findings, members and also, sorted (malloc'ed); their number. */
size_t problem_pids(const struct report *r, const struct problem *pb, int **out);

#endif
