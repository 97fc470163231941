// SPDX-License-Identifier: GPL-2.0-or-later
/* uringlint checks: the registry as a table (text) or an array (json). */
#include <errno.h>
#include <json-c/json.h>
#include <libsmartcols/libsmartcols.h>

#include "cmd.h"

struct json_object *cmd_check_json(const struct check *c, bool texts)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_string(c->info.id));
	json_object_object_add(o, "title", json_object_new_string(c->info.title));
	json_object_object_add(o, "scope", json_object_new_string(check_scope_name(c->scope)));
	json_object_object_add(o, "severity", json_object_new_string(severity_name(c->info.severity)));
	json_object_object_add(o, "category", json_object_new_string(c->info.category));
	json_object_object_add(o, "needs_root", json_object_new_boolean(c->flags & CHECK_NEEDS_ROOT));
	json_object_object_add(o, "live_only", json_object_new_boolean(c->flags & CHECK_LIVE_ONLY));
	json_object_object_add(o, "live_facts", json_object_new_boolean(c->flags & CHECK_LIVE_FACTS));
	if (!texts)
		return o;
	json_object_object_add(o, "looks_at", json_object_new_string(c->info.looks_at));
	json_object_object_add(o, "why", json_object_new_string(c->info.why));
	json_object_object_add(o, "fix", json_object_new_string(c->info.fix));
	json_object_object_add(o, "reference", json_object_new_string(c->info.reference));
	return o;
}

static int write_checks_json(FILE *out, const void *data)
{
	struct json_object *arr = json_object_new_array();
	size_t i;

	(void)data;
	for (i = 0; i < check_table_len; i++)
		json_object_array_add(arr, cmd_check_json(&check_table[i], false));
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

		if (!ln || scols_line_set_data(ln, 0, c->info.id) ||
		    scols_line_set_data(ln, 1, check_scope_name(c->scope)) ||
		    scols_line_set_data(ln, 2, severity_name(c->info.severity)) ||
		    scols_line_set_data(ln, 3, c->info.title)) {
			err = -ENOMEM;
			goto out;
		}
	}
	err = scols_print_table(tb);
out:
	scols_unref_table(tb);
	return err;
}

/* roff text: a backslash doubled, a leading dot or quote defused. */
static void put_roff(FILE *out, const char *s, bool minus)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-' && minus)
			fputs("\\-", out);
		else
			fputc(*s, out);
	}
}

/* The CHECKS section of the man page, from the table itself: it cannot drift. */
static int write_checks_roff(FILE *out, const void *data)
{
	size_t i;

	(void)data;
	for (i = 0; i < check_table_len; i++) {
		const struct check *c = &check_table[i];

		fputs(".TP\n.B ", out);
		put_roff(out, c->info.id, true);
		fprintf(out, "\n(%s, %s) ", check_scope_name(c->scope), severity_name(c->info.severity));
		put_roff(out, c->info.title, false);
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}

enum { OPT_ROFF = OPT_CMD_BASE };

const struct cmd_option checks_options[] = {
	{ "roff", 0, OPT_ROFF, ARG_NONE, NULL, NULL, CMDOPT_HIDDEN, NULL,
	  "the man page's CHECKS section" },
	{ NULL },
};

int cmd_checks(int argc, char **argv, struct global_opts *g)
{
	bool roff = false;
	int c, ret;

	while ((c = cmd_getopt(argc, argv, g, &ret)) != -1)
		roff |= c == OPT_ROFF;
	if (ret)
		return ret;
	if (roff)
		return cmd_write_output(g, write_checks_roff, NULL);
	return cmd_write_output(g, g->format == FORMAT_JSON ? write_checks_json : write_checks_table,
				NULL);
}
