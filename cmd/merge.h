/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_MERGE_H
#define URINGLINT_MERGE_H

#include <json-c/json.h>

/*
 * One host's JSON report (doc, read from file): its hostname (owned by doc)
 * and, per entry of check_table, the worst status any finding gave it, or -1.
 * Findings of checks this build does not know count in *unknown. Returns 0,
 * or EXIT_USAGE after one line on stderr for a document that is not a
 * uringlint report of schema_version 1.
 */
int merge_read_host(const char *file, struct json_object *doc, int *worst,
		    const char **hostname, unsigned int *unknown);

#endif
