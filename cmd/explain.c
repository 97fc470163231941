// SPDX-License-Identifier: GPL-2.0-or-later
/* uringlint explain ID: the registry row, in words. */
#include <errno.h>
#include <json-c/json.h>

#include "cmd.h"
#include "output.h"

/* Prose reads best at a fixed measure, on a terminal or in a pipe. */
#define EXPLAIN_WIDTH 78

static int write_explain_text(FILE *out, const void *data)
{
	const struct check *c = data;

	fprintf(out, "%s: %s\n", c->info.id, c->info.title);
	fprintf(out, "scope %s, severity %s, category %s%s%s\n\n", check_scope_name(c->scope),
		severity_name(c->info.severity), check_category_title(c->info.category),
		c->flags & CHECK_NEEDS_ROOT ? ", needs root" : "",
		c->flags & CHECK_LIVE_ONLY ? ", live system only" : "");
	fputs("What it looks at:\n  ", out);
	text_wrap(out, c->info.looks_at, 2, 2, EXPLAIN_WIDTH);
	fputs("\nWhy it matters:\n  ", out);
	text_wrap(out, c->info.why, 2, 2, EXPLAIN_WIDTH);
	fputs("\nHow to fix:\n  ", out);
	text_wrap(out, c->info.fix, 2, 2, EXPLAIN_WIDTH);
	fprintf(out, "\nReference:\n  %s\n", c->info.reference);
	return ferror(out) ? -EIO : 0;
}

static int write_explain_json(FILE *out, const void *data)
{
	return write_json_document(out, cmd_check_json(data, true));
}

int cmd_explain(int argc, char **argv, struct global_opts *g)
{
	const struct check *c;
	int opt, ret;

	while ((opt = cmd_getopt(argc, argv, g, &ret)) != -1)
		;	/* explain has no options of its own */
	if (ret)
		return ret;
	if (optind >= argc)
		return usage_error("explain needs a check id (see 'uringlint checks')");
	if (optind + 1 < argc)
		return usage_error("explain takes one check id, not '%s'", argv[optind + 1]);
	c = check_find(argv[optind]);
	if (!c)
		return usage_error("unknown check '%s' (see 'uringlint checks')", argv[optind]);
	return cmd_write_output(g, g->format == FORMAT_JSON ? write_explain_json : write_explain_text,
				c);
}
