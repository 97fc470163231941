// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "escape.h"
#include "writer.h"
#include "xalloc.h"

static const char *const format_names[] = {
	[FORMAT_TEXT] = "text",
	[FORMAT_JSON] = "json",
	[FORMAT_MARKDOWN] = "markdown",
	[FORMAT_JUNIT] = "junit",
	[FORMAT_PROMETHEUS] = "prometheus",
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
	return fmt <= FORMAT_PROMETHEUS;
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
	default:
		return -EOPNOTSUPP;
	}
}

void write_note(FILE *out, const char *note)
{
	char *copy = xstrdup(note), *line, *next, *shown;

	for (line = copy; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		shown = escape_text(line, 0, ESCAPE_KEEP_BACKSLASH);
		fprintf(out, "%s\n", shown);
		free(shown);
	}
	free(copy);
}
