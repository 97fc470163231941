// SPDX-License-Identifier: GPL-2.0-or-later
/* A Markdown checklist a person can paste into a deploy ticket. */
#include <errno.h>
#include <string.h>

#include "checks.h"
#include "writer.h"

/* Markdown that would break the list item (pipes, newlines) is kept out of it. */
static void put_inline(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\n' ? ' ' : *s, out);
}

int write_report_markdown(FILE *out, const struct report *r)
{
	unsigned int n[STATUS__COUNT];
	size_t i, j;

	fprintf(out, "# uringlint %s: %s\n\n", r->command, r->host.hostname);
	if (r->host.kernel[0])
		fprintf(out, "Linux %s, %u CPU%s, %s.\n", r->host.kernel, r->host.cpus,
			r->host.cpus == 1 ? "" : "s",
			r->host.live ? "live" : "judged from a captured tree");
	if (r->nnotes) {
		fputs("\n```\n", out);
		for (i = 0; i < r->nnotes; i++)
			fprintf(out, "%s\n", r->notes[i]);
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
				fprintf(out, "\n## %s\n\n", check_categories[i].title);
				header = true;
			}
			fprintf(out, "- [%c] **%s**", f->status == STATUS_PASS ? 'x' : ' ', f->check->id);
			if (f->status != STATUS_PASS)
				fprintf(out, " (%s, %s)", status_name(f->status),
					severity_name(f->check->severity));
			if (strcmp(f->subject, "host")) {
				fputs(" `", out);
				put_inline(out, f->subject);
				fputc('`', out);
			}
			fputs(": ", out);
			put_inline(out, f->message);
			fputc('\n', out);
			if (fix) {
				fputs("  - Fix: ", out);
				put_inline(out, fix);
				fputc('\n', out);
			}
			if (f->status != STATUS_PASS && f->check->reference)
				fprintf(out, "  - Reference: <%s>\n", f->check->reference);
		}
	}
	report_count(r, n);
	fprintf(out, "\n**%zu checks:** %u pass, %u warn, %u fail, %u skip, %u error\n", r->nfindings,
		n[STATUS_PASS], n[STATUS_WARN], n[STATUS_FAIL], n[STATUS_SKIP], n[STATUS_ERROR]);
	return ferror(out) ? -EIO : 0;
}
