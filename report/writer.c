// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "output.h"
#include "writer.h"
#include "xalloc.h"

static const char *const format_names[] = {
	[FORMAT_TEXT] = "text",
	[FORMAT_JSON] = "json",
	[FORMAT_MARKDOWN] = "markdown",
	[FORMAT_JUNIT] = "junit",
	[FORMAT_PROMETHEUS] = "prometheus",
	[FORMAT_HTML] = "html",
};

int output_format_parse(const char *name, enum output_format *fmt)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(format_names); i++) {
		if (!strcmp(name, format_names[i])) {
			*fmt = (enum output_format)i;
			return 0;
		}
	}
	return -EINVAL;
}

bool output_format_supported(enum output_format fmt)
{
	return fmt <= FORMAT_HTML;
}

bool output_format_has_processes(enum output_format fmt)
{
	return fmt == FORMAT_JSON || fmt == FORMAT_HTML;
}

int write_report(FILE *out, const struct report *r, enum output_format fmt,
		 const struct writer_opts *o)
{
	switch (fmt) {
	case FORMAT_TEXT:
		return write_report_text(out, r, o);
	case FORMAT_JSON:
		return write_report_json(out, r);
	case FORMAT_MARKDOWN:
		return write_report_markdown(out, r);
	case FORMAT_JUNIT:
		return write_report_junit(out, r);
	case FORMAT_PROMETHEUS:
		return write_report_prometheus(out, r);
	case FORMAT_HTML:
		return write_report_html(out, r);
	default:
		return -EOPNOTSUPP;
	}
}

/*
 * A note is one line: a newline in it came from a name (a directory, a
 * program's argv[0]) and is escaped with the rest, so no name can start a
 * line of its own that reads like a finding.
 */
void write_note(FILE *out, const char *note)
{
	char *shown = escape_text(note, 0, 0);

	fprintf(out, "%s\n", shown);
	free(shown);
}
