// SPDX-License-Identifier: GPL-2.0-or-later
/* uringlint checks: the registry as a table (text) or an array (json). */
#include <errno.h>
#include <json-c/json.h>
#include <libsmartcols/libsmartcols.h>

#include "cmd.h"

static int write_checks_json(FILE *out, const void *data)
{
	struct json_object *arr = json_object_new_array();
	size_t i;
	(void)data;
	for (i = 0; i < check_table_len; i++) {
		const struct check *c = &check_table[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "id", json_object_new_string(c->id));
		json_object_object_add(o, "scope", json_object_new_string(check_scope_name(c->scope)));
		json_object_object_add(o, "severity", json_object_new_string(severity_name(c->severity)));
		json_object_object_add(o, "category", json_object_new_string(c->category));
		json_object_object_add(o, "title", json_object_new_string(c->title));
		json_object_object_add(o, "needs_root",
				       json_object_new_boolean(c->flags & CHECK_NEEDS_ROOT));
		json_object_object_add(o, "live_only",
				       json_object_new_boolean(c->flags & CHECK_LIVE_ONLY));
		json_object_array_add(arr, o);
	}
	return write_json_document(out, arr);
}

static int write_checks_table(FILE *out, const void *data)
{
	struct libscols_table *tb = scols_new_table();
	size_t i;
	int err = 0;

	(void)data;
	if (!tb)
		return -ENOMEM;
	scols_table_set_stream(tb, out);
	if (!scols_table_new_column(tb, "ID", 0, 0) || !scols_table_new_column(tb, "SCOPE", 0, 0) ||
	    !scols_table_new_column(tb, "SEVERITY", 0, 0) ||
	    !scols_table_new_column(tb, "TITLE", 0, 0)) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < check_table_len; i++) {
		const struct check *c = &check_table[i];
		struct libscols_line *ln = scols_table_new_line(tb, NULL);

		if (!ln || scols_line_set_data(ln, 0, c->id) ||
		    scols_line_set_data(ln, 1, check_scope_name(c->scope)) ||
		    scols_line_set_data(ln, 2, severity_name(c->severity)) ||
		    scols_line_set_data(ln, 3, c->title)) {
			err = -ENOMEM;
			goto out;
		}
	}
	err = scols_print_table(tb);
out:
	scols_unref_table(tb);
	return err;
}

int cmd_checks(int argc, char **argv, struct global_opts *g)
{
	static const struct option opts[] = { GLOBAL_LONGOPTS, { NULL, 0, NULL, 0 } };
	int c, ret;

	while ((c = getopt_long(argc, argv, ":" GLOBAL_SHORTOPTS, opts, NULL)) != -1) {
		ret = global_opt(g, c, optarg, argv, command_find("checks"));
		if (ret)
			return ret;
	}
	if (optind < argc)
		return usage_error("checks takes no argument '%s'", argv[optind]);
	return cmd_write_output(g, g->format == FORMAT_JSON ? write_checks_json : write_checks_table,
				NULL);
}
