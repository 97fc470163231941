// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The human report: the problems first, worst first (problems.h), each
 * once with who it holds for, its files, what was measured and its fix;
 * then the notes, and the findings grouped by category in table order, one
 * line each (wrapped with a hanging indent on a terminal), the fix under
 * every finding outside a problem that needs one, and a closing summary
 * line. Every string that
 * may quote a name from the host is escaped here (lib/output/escape.c), whole, so no
 * name can move the cursor or start a line of its own.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "problems.h"
#include "text_groups.h"
#include "writer.h"
#include "xalloc.h"

#define C_RESET "\033[0m"

static const char *const status_color[STATUS__COUNT] = {
	[STATUS_PASS] = "\033[32m",
	[STATUS_INFO] = "\033[36m",
	[STATUS_SKIP] = "\033[2m",
	[STATUS_WARN] = "\033[33m",
	[STATUS_FAIL] = "\033[1;31m",
	[STATUS_ERROR] = "\033[1;35m",
};

static const char *const status_tag[STATUS__COUNT] = {
	[STATUS_PASS] = "PASS",
	[STATUS_INFO] = "INFO",
	[STATUS_SKIP] = "SKIP",
	[STATUS_WARN] = "WARN",
	[STATUS_FAIL] = "FAIL",
	[STATUS_ERROR] = "ERROR",
};

/* Advice (info) is listed with -v; otherwise put_info_line() sums it up. */
static bool shown(const struct finding *f, const struct writer_opts *o)
{
	if (f->status == STATUS_INFO)
		return o->verbosity > 0;
	return o->verbosity >= 0 || (f->status != STATUS_PASS && f->status != STATUS_SKIP);
}

/*
 * The info findings not listed, in one line: how many, of which checks
 * (each check once, with its count), and how to see them.
 */
static void put_info_line(FILE *out, const struct report *r, const struct writer_opts *o)
{
	size_t i, j, n = 0, listed = 0;

	if (o->verbosity > 0)
		return;
	for (i = 0; i < r->nfindings; i++)
		n += r->findings[i].status == STATUS_INFO;
	if (!n)
		return;
	fprintf(out, "\n%zu finding%s of advice on how the application is written (info, never a "
		     "failure; -v lists them):", n, n == 1 ? "" : "s");
	for (i = 0; i < r->nfindings; i++) {
		const struct check_info *c = r->findings[i].check;
		size_t k = 0;

		if (r->findings[i].status != STATUS_INFO)
			continue;
		for (j = 0; j < i && (r->findings[j].status != STATUS_INFO || r->findings[j].check != c); j++)
			;
		if (j < i)
			continue;	/* named with the first finding of its check */
		for (j = i; j < r->nfindings; j++)
			k += r->findings[j].status == STATUS_INFO && r->findings[j].check == c;
		fprintf(out, "%s %s", listed++ ? "," : "", c->id);
		if (k > 1)
			fprintf(out, " (%zu)", k);
	}
	fputc('\n', out);
}

/* head and tail: a group's words (text_groups.h) before the subject and after the fix. */
static void put_finding(FILE *out, const struct finding *f, size_t idw, const struct writer_opts *o,
			const char *head, const char *tail, size_t problem)
{
	size_t indent = 2 + 5 + 2 + idw + 2;
	const char *fix = finding_fix(f);
	char ref[64];

	/* A problem's fix is said once, at the top. */
	if (problem) {
		snprintf(ref, sizeof(ref), "see problem %zu above", problem);
		fix = ref;
	}
	char *line, *shown_text;

	fprintf(out, "  %s%-5s%s  %-*s  ", o->color ? status_color[f->status] : "",
		status_tag[f->status], o->color ? C_RESET : "", (int)idw, f->check->id);
	if (strcmp(f->subject, "host"))
		line = xasprintf("%s%s: %s", head ? head : "", f->subject, f->message);
	else
		line = xstrdup(f->message);
	shown_text = escape_text(line, 0, 0);
	text_wrap(out, shown_text, indent, indent, o->width);
	free(shown_text);
	free(line);

	if (fix) {
		fprintf(out, "%*sfix: ", (int)indent, "");
		shown_text = escape_text(fix, 0, 0);
		text_wrap(out, shown_text, indent + 5, indent + 5, o->width);
		free(shown_text);
	}
	if (tail) {
		fprintf(out, "%*s", (int)indent, "");
		shown_text = escape_text(tail, 0, 0);
		text_wrap(out, shown_text, indent, indent, o->width);
		free(shown_text);
	}
	if (o->verbosity > 0) {
		const char *ev = json_object_to_json_string_ext(f->evidence, JSON_C_TO_STRING_SPACED |
										JSON_C_TO_STRING_NOSLASHESCAPE);

		/* JSON escaped its controls but not DEL or C1: its backslashes stay. */
		fprintf(out, "%*sevidence: ", (int)indent, "");
		shown_text = escape_text(ev, 0, ESCAPE_KEEP_BACKSLASH);
		text_wrap(out, shown_text, indent + 10, indent + 10, o->width);
		free(shown_text);
		if (f->check->reference)
			fprintf(out, "%*sreference: %s\n", (int)indent, "", f->check->reference);
	}
}

/* s escaped and wrapped after a label at column 5, its lines hanging under it. */
static void put_labelled(FILE *out, const char *label, const char *s, const struct writer_opts *o)
{
	size_t indent = 5 + strlen(label);
	char *shown_text = escape_text(s, 0, 0);

	fprintf(out, "     %s", label);
	text_wrap(out, shown_text, indent, indent, o->width);
	free(shown_text);
}

/*
 * The problems, worst first: a head line (rank, status, check, severity,
 * who), what the costliest finding says, where, what was measured, and
 * the fix, once.
 */
static void put_problems(FILE *out, const struct report *r, const struct problems *p,
			 const struct writer_opts *o)
{
	size_t i;

	if (!p->n) {
		fputs("\nNo problems: nothing to warn of or fail (the details follow).\n", out);
		return;
	}
	fprintf(out, "\nProblems, worst first: %zu (the details follow)\n", p->n);
	for (i = 0; i < p->n; i++) {
		const struct problem *pb = &p->v[i];
		const struct finding *f = &r->findings[pb->lead];
		char *who = problem_who(r, pb), *what = problem_what(r, pb);
		char *where = problem_where(r, pb, 3), *measured = problem_measured(r, pb);
		char *also = problem_also(r, pb), *head;
		const char *fix = finding_fix(f);

		head = xasprintf("%s (%s)%s%s%s%s%s", f->check->id, severity_name(f->check->severity),
				 who ? " in " : "", who ? who : "", also ? "; also " : "",
				 also ? also : "", also ? " there" : "");
		fprintf(out, "%3zu. %s%-5s%s ", i + 1, o->color ? status_color[pb->status] : "",
			status_tag[pb->status], o->color ? C_RESET : "");
		{
			char *shown_text = escape_text(head, 0, 0);

			text_wrap(out, shown_text, 11, 11, o->width);
			free(shown_text);
		}
		put_labelled(out, "", what, o);
		if (where && pb->nmembers > 1)
			put_labelled(out, "on: ", where, o);
		if (measured)
			put_labelled(out, "measured: ", measured, o);
		if (fix)
			put_labelled(out, "fix: ", fix, o);
		free(head);
		free(who);
		free(what);
		free(where);
		free(measured);
		free(also);
	}
}

static void put_summary(FILE *out, const struct report *r)
{
	unsigned int n[STATUS__COUNT];

	report_count(r, n);
	fprintf(out, "%zu checks: %u pass, %u warn, %u fail", r->nfindings, n[STATUS_PASS],
		n[STATUS_WARN], n[STATUS_FAIL]);
	if (n[STATUS_SKIP])
		fprintf(out, ", %u skip", n[STATUS_SKIP]);
	if (n[STATUS_INFO])
		fprintf(out, ", %u info", n[STATUS_INFO]);
	if (n[STATUS_ERROR])
		fprintf(out, ", %u error", n[STATUS_ERROR]);
	fputc('\n', out);
}

int write_report_text(FILE *out, const struct report *r, const struct writer_opts *o)
{
	/* A captured tree (--root) is anyone's: its host name and release too. */
	char *host = escape_text(r->host.hostname, 0, 0), *root = escape_text(r->host.root, 0, 0);
	char *kernel = escape_text(r->host.kernel, 0, 0);
	struct text_groups g;
	struct problems p;
	size_t i, j, idw = 0;

	if (!r->host.kernel[0]) {
		/* A fleet view (report merge) has no one kernel or CPU count. */
		fprintf(out, "uringlint %s: %s\n", r->command, host);
	} else {
		fprintf(out, "uringlint %s: %s, Linux %s, ", r->command, host, kernel);
		if (r->host.cpus)
			fprintf(out, "%u CPU%s", r->host.cpus, r->host.cpus == 1 ? "" : "s");
		else
			fputs("CPUs unknown", out);
		if (r->host.live)
			fputs(" (live)\n", out);
		else
			fprintf(out, " (captured tree %s)\n", root);
	}
	free(host);
	free(root);
	free(kernel);
	problems_build(&p, r);
	put_problems(out, r, &p, o);
	text_groups_init(&g, r, o->verbosity);
	if (r->nnotes)
		fputc('\n', out);
	text_groups_put_notes(out, r, &g);
	for (i = 0; i < r->nfindings; i++) {
		size_t w = strlen(r->findings[i].check->id);

		if (w > idw)
			idw = w;
	}
	/* Categories in table order; findings keep the order checks produced them. */
	for (i = 0; i < check_categories_len; i++) {
		bool header = false;

		for (j = 0; j < r->nfindings; j++) {
			const struct finding *f = &r->findings[j];

			char *head, *tail;

			if (strcmp(f->check->category, check_categories[i].id) || !shown(f, o) ||
			    (g.on && g.first[j] != j))
				continue;
			if (!header) {
				fprintf(out, "\n%s\n", check_categories[i].title);
				header = true;
			}
			head = text_group_head(r, &g, j);
			tail = text_group_tail(r, &g, j);
			put_finding(out, f, idw, o, head, tail, problems_fix_ref(&p, r, j));
			free(head);
			free(tail);
		}
	}
	text_groups_free(&g);
	problems_free(&p);
	put_info_line(out, r, o);
	fputc('\n', out);
	put_summary(out, r);
	return ferror(out) ? -EIO : 0;
}
