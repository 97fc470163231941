/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_WRITER_H
#define URINGLINT_WRITER_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "report.h"

enum output_format {
	FORMAT_TEXT,
	FORMAT_JSON,
	FORMAT_MARKDOWN,
	FORMAT_JUNIT,
	FORMAT_PROMETHEUS,
	FORMAT_HTML,
};

struct writer_opts {
	bool color;
	int verbosity;		/* -1 quiet (problems only), 0 normal, 1 verbose (evidence) */
	unsigned int width;	/* wrap text at this column; 0: do not wrap */
};

/* 0, or -EINVAL for an unknown name. */
int output_format_parse(const char *name, enum output_format *fmt);
/* Formats this build can write; the others are refused as a usage error. */
bool output_format_supported(enum output_format fmt);
/* Whether the format shows the processes inventory (audit builds it only then). */
bool output_format_has_processes(enum output_format fmt);

/* The JSON contract's document (schema_version 1); caller puts it. */
struct json_object *report_to_json(const struct report *r);

/* Writers return 0 or -errno; stream errors are the caller's to check. */
int write_report(FILE *out, const struct report *r, enum output_format fmt,
		 const struct writer_opts *o);
int write_report_text(FILE *out, const struct report *r, const struct writer_opts *o);
int write_report_json(FILE *out, const struct report *r);
int write_report_markdown(FILE *out, const struct report *r);
int write_report_junit(FILE *out, const struct report *r);
int write_report_prometheus(FILE *out, const struct report *r);
int write_report_html(FILE *out, const struct report *r);
/*
 * Prints a note and a newline. Notes are text with line breaks of their
 * own; a builder that quotes a name escapes it (proc_facts_summary). Here
 * each line is kept from controls (lib/output/escape.c), and backslashes, already
 * escapes, stay as they are.
 */
void write_note(FILE *out, const char *note);
/* Prints doc pretty, with a final newline, and puts it; 0 or -EIO. */
int write_json_document(FILE *out, struct json_object *doc);

#endif
