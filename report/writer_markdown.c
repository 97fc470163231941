// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A Markdown checklist a person can paste into a deploy ticket: the
 * problems first, worst first, each once with its fix (problems.h), then
 * the notes and the checklist, whose items point to their problem rather
 * than repeat its fix. Strings
 * that may quote a name from the host are escaped as in text output
 * (lib/output/escape.c) and then for Markdown, so a name renders as the text report
 * shows it and cannot forge a list item, a link or markup.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "problems.h"
#include "text_groups.h"
#include "writer.h"

static void put_inline(FILE *out, const char *s)
{
	char *e = escape_text(s, 0, ESCAPE_MARKDOWN);

	fputs(e, out);
	free(e);
}

/*
 * The subject as a code span: inside one a backslash is literal, so only
 * backticks matter. CommonMark: fence it with one more backtick than its
 * longest run, padded with spaces when it starts or ends with one.
 */
static void put_code(FILE *out, const char *s)
{
	char *e = escape_text(s, 0, 0);
	size_t run = 0, longest = 0, i;
	bool pad;

	for (i = 0; e[i]; i++) {
		run = e[i] == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	pad = e[0] == '`' || (i && e[i - 1] == '`');
	for (i = 0; i <= longest; i++)
		fputc('`', out);
	fprintf(out, "%s%s%s", pad ? " " : "", e, pad ? " " : "");
	for (i = 0; i <= longest; i++)
		fputc('`', out);
	free(e);
}

/* "  - LABEL: words" for words that may be NULL (then nothing); words freed. */
static void put_item(FILE *out, const char *label, char *words)
{
	if (!words)
		return;
	fprintf(out, "   - %s: ", label);
	put_inline(out, words);
	fputc('\n', out);
	free(words);
}

static void put_problems(FILE *out, const struct report *r, const struct problems *p)
{
	size_t i;

	if (!p->n) {
		fputs("\n## Problems\n\nNone: nothing to warn of or fail.\n", out);
		return;
	}
	fprintf(out, "\n## Problems, worst first (%zu)\n\n", p->n);
	for (i = 0; i < p->n; i++) {
		const struct problem *pb = &p->v[i];
		const struct finding *f = &r->findings[pb->lead];
		const char *fix = finding_fix(f);

		fprintf(out, "%zu. **%s** (%s, %s): ", i + 1, f->check->id, status_name(pb->status),
			severity_name(f->check->severity));
		{
			char *what = problem_what(r, pb);

			put_inline(out, what);
			free(what);
		}
		fputc('\n', out);
		put_item(out, "Processes", problem_who(r, pb));
		put_item(out, "On", problem_where(r, pb, 5));
		put_item(out, "Measured", problem_measured(r, pb));
		put_item(out, "Also there", problem_also(r, pb));
		if (fix) {
			fputs("   - **Fix:** ", out);
			put_inline(out, fix);
			fputc('\n', out);
		}
	}
}

int write_report_markdown(FILE *out, const struct report *r)
{
	unsigned int n[STATUS__COUNT];
	struct problems p;
	size_t i, j;

	fprintf(out, "# uringlint %s: ", r->command);
	put_inline(out, r->host.hostname);
	fputs("\n\n", out);
	if (r->host.kernel[0]) {
		fputs("Linux ", out);
		put_inline(out, r->host.kernel);
		fprintf(out, ", %u CPU%s, %s.\n", r->host.cpus,
			r->host.cpus == 1 ? "" : "s",
			r->host.live ? "live" : "judged from a captured tree");
	}
	problems_build(&p, r);
	put_problems(out, r, &p);
	fputs("\n## Details\n", out);
	if (r->nnotes) {
		fputs("\n```\n", out);
		text_groups_put_plain_notes(out, r, text_groups_many(r), false);
		fputs("```\n", out);
	}
	for (i = 0; i < check_categories_len; i++) {
		bool header = false;

		for (j = 0; j < r->nfindings; j++) {
			const struct finding *f = &r->findings[j];
			const char *fix = finding_fix(f);

			if (strcmp(f->check->category, check_categories[i].id))
				continue;
			if (!header) {
				fprintf(out, "\n### %s\n\n", check_categories[i].title);
				header = true;
			}
			fprintf(out, "- [%c] **%s**", f->status == STATUS_PASS ? 'x' : ' ', f->check->id);
			if (f->status != STATUS_PASS)
				fprintf(out, " (%s, %s)", status_name(f->status),
					severity_name(f->check->severity));
			if (strcmp(f->subject, "host")) {
				fputc(' ', out);
				put_code(out, f->subject);
			}
			fputs(": ", out);
			put_inline(out, f->message);
			fputc('\n', out);
			if (problems_fix_ref(&p, r, j)) {
				fprintf(out, "  - Fix: see problem %zu above\n", problems_fix_ref(&p, r, j));
			} else if (fix) {
				fputs("  - Fix: ", out);
				put_inline(out, fix);
				fputc('\n', out);
			}
			if (f->status != STATUS_PASS && f->check->reference)
				fprintf(out, "  - Reference: <%s>\n", f->check->reference);
		}
	}
	problems_free(&p);
	report_count(r, n);
	fprintf(out, "\n**%zu checks:** %u pass, %u warn, %u fail, %u skip, %u error", r->nfindings,
		n[STATUS_PASS], n[STATUS_WARN], n[STATUS_FAIL], n[STATUS_SKIP], n[STATUS_ERROR]);
	if (n[STATUS_INFO])
		fprintf(out, ", %u info (advice on how the application is written)", n[STATUS_INFO]);
	fputc('\n', out);
	return ferror(out) ? -EIO : 0;
}
