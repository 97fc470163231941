// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading one host's JSON report for `report merge`. The document comes
 * from another machine: every member is type-checked before use. Apart
 * from merge.c so that its fuzz harness links without the commands.
 */
#include <json-c/json.h>
#include <string.h>

#include "cmd.h"
#include "merge.h"

static int status_of(const char *s)
{
	int i;

	for (i = 0; i < STATUS__COUNT; i++)
		if (!strcmp(status_name((enum check_status)i), s))
			return i;
	return -1;
}

int merge_read_host(const char *file, struct json_object *doc, int *worst,
		    const char **hostname, unsigned int *unknown)
{
	struct json_object *host, *findings, *v;
	size_t i, n;

	if (!json_object_object_get_ex(doc, "schema_version", &v) ||
	    !json_object_is_type(v, json_type_int) || json_object_get_int(v) != 1 ||
	    !json_object_object_get_ex(doc, "findings", &findings) ||
	    !json_object_is_type(findings, json_type_array) ||
	    !json_object_object_get_ex(doc, "host", &host) ||
	    !json_object_object_get_ex(host, "hostname", &v) ||
	    !json_object_is_type(v, json_type_string))
		return usage_error("'%s' is not a uringlint report of schema_version 1", file);
	*hostname = json_object_get_string(v);
	for (i = 0; i < check_table_len; i++)
		worst[i] = -1;
	n = json_object_array_length(findings);
	for (i = 0; i < n; i++) {
		struct json_object *f = json_object_array_get_idx(findings, i), *id, *st;
		const struct check *c;
		int s;

		/* json-c hands NULL for a JSON null: only strings are looked at. */
		if (!json_object_object_get_ex(f, "id", &id) ||
		    !json_object_is_type(id, json_type_string) ||
		    !json_object_object_get_ex(f, "status", &st) ||
		    !json_object_is_type(st, json_type_string) ||
		    (s = status_of(json_object_get_string(st))) < 0)
			return usage_error("'%s': finding %zu has no valid id or status", file, i);
		c = check_find(json_object_get_string(id));
		if (!c) {
			(*unknown)++;	/* from a newer uringlint: not judged here */
			continue;
		}
		if (s > worst[c - check_table])
			worst[c - check_table] = s;
	}
	return 0;
}
