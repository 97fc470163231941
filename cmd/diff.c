// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uringlint report diff OLD.json NEW.json: what changed on one host between
 * two reports, for a deploy gate (keep the last report, diff the new one).
 * Each change is a finding of its check, so every format renders it: new at
 * warn or fail, worse, better or fixed, gone, and measured values that
 * moved, with both values in the evidence (diff_compare.c). The exit status
 * is 1 only when a problem at --fail-on or above is new or got worse.
 */
#include <json-c/json.h>

#include "cmd.h"
#include "diff.h"
#include "merge.h"

/* Reads and checks one report; 0, or the exit status after one line on stderr. */
static int read_side(const char *file, struct diff_side *s)
{
	struct json_object *doc;
	int ret = strict_json_read(file, &doc);

	if (ret)
		return ret;
	return diff_side_init(s, file, doc);
}

int cmd_report_diff(int argc, char **argv, struct global_opts *g)
{
	struct diff_side a = { 0 }, b = { 0 };
	struct diff_counts counts;
	struct report r;
	int c, ret = 0;

	while ((c = cmd_getopt(argc, argv, g, &ret)) != -1)
		;	/* report diff has no options of its own */
	if (ret)
		return ret;
	if (argc - optind != 2)
		return usage_error("report diff takes two JSON reports of one host: OLD.json NEW.json");
	ret = read_side(argv[optind], &a);
	if (!ret)
		ret = read_side(argv[optind + 1], &b);
	if (ret)
		goto out;
	ret = diff_sides(&a, &b, g->fail_never ? -1 : (int)g->fail_on, &r, &counts);
	if (!ret) {
		ret = cmd_emit_report(g, &r);
		if (ret != EXIT_CANNOT)
			ret = counts.gate ? EXIT_FINDINGS : 0;
	}
	report_free(&r);
out:
	diff_side_free(&a);
	diff_side_free(&b);
	return ret;
}
