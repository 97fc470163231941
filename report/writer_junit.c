// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JUnit XML: one testcase per finding, so any CI shows the checklist. fail
 * is a <failure>, error an <error>, skip <skipped>; pass and warn pass, a
 * warn with its message in <system-out>. Strings that may quote a name
 * from the host are escaped as in text output first (lib/output/escape.c): XML 1.0
 * cannot hold most controls even as references, and the file must stay
 * UTF-8.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "writer.h"
#include "xml_put.h"

static void put_xml(FILE *out, const char *text)
{
	xml_put(out, text, 0, 0);
}

int write_report_junit(FILE *out, const struct report *r)
{
	unsigned int n[STATUS__COUNT];
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	size_t i;

	report_count(r, n);
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<testsuites name=\"uringlint\" tests=\"%zu\" failures=\"%u\" errors=\"%u\" "
		     "skipped=\"%u\">\n",
		r->nfindings, n[STATUS_FAIL], n[STATUS_ERROR], n[STATUS_SKIP]);
	fprintf(out, "  <testsuite name=\"uringlint %s\" tests=\"%zu\" failures=\"%u\" errors=\"%u\" "
		     "skipped=\"%u\" timestamp=\"%s\" hostname=\"",
		r->command, r->nfindings, n[STATUS_FAIL], n[STATUS_ERROR], n[STATUS_SKIP], stamp);
	put_xml(out, r->host.hostname);
	fputs("\">\n", out);
	for (i = 0; i < r->nfindings; i++) {
		const struct finding *f = &r->findings[i];
		const char *fix = finding_fix(f);

		fprintf(out, "    <testcase classname=\"uringlint.%s\" name=\"%s ", f->check->category,
			f->check->id);
		put_xml(out, f->subject);
		fputs("\">\n", out);
		switch (f->status) {
		case STATUS_FAIL:
		case STATUS_ERROR:
			fprintf(out, "      <%s type=\"%s\" message=\"",
				f->status == STATUS_FAIL ? "failure" : "error",
				severity_name(f->check->severity));
			put_xml(out, f->message);
			fputs("\">", out);
			put_xml(out, fix ? fix : f->message);
			fprintf(out, "</%s>\n", f->status == STATUS_FAIL ? "failure" : "error");
			break;
		case STATUS_SKIP:
			fputs("      <skipped message=\"", out);
			put_xml(out, f->message);
			fputs("\"/>\n", out);
			break;
		default:
			fputs("      <system-out>", out);
			if (f->status == STATUS_WARN)
				fputs("WARN: ", out);
			else if (f->status == STATUS_INFO)
				fputs("INFO: ", out);
			put_xml(out, f->message);
			if (fix) {
				fputs(" Fix: ", out);
				put_xml(out, fix);
			}
			fputs("</system-out>\n", out);
		}
		fputs("    </testcase>\n", out);
	}
	fputs("  </testsuite>\n</testsuites>\n", out);
	return ferror(out) ? -EIO : 0;
}
