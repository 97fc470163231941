/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_MERGE_H
#define URINGLINT_MERGE_H

#include <json-c/json.h>
#include <stddef.h>

/* The largest report report merge and report diff read. */
#define REPORT_MAX_BYTES (256u << 20)

/*
 * Bounds on a value from a report that is shown again: in an error line,
 * and in what report diff and report merge write (the longest message
 * uringlint writes is under 1 KiB; a path can take 4 KiB).
 */
#define REPORT_ECHO_ERROR 200
#define REPORT_ECHO_OUTPUT 8192
#define REPORT_ECHO_HOSTNAME 255

/*
 * text (len bytes and a NUL after them) as one strict JSON value (RFC
 * 8259): nothing but whitespace after it, no NaN or Infinity, no number
 * beyond a double's range, no comment, single quote or trailing comma
 * (control characters and bytes that are not UTF-8 in a string pass, as
 * names from a host may hold them). Returns 0
 * with *doc, or after one line on stderr EXIT_USAGE (not JSON: why, at
 * which byte of file) or EXIT_CANNOT (out of memory).
 */
int strict_json_parse(const char *file, const char *text, size_t len, struct json_object **doc);

/*
 * The JSON document in file, a regular file of at most REPORT_MAX_BYTES,
 * read and parsed as strict_json_parse does. Returns 0 with *doc, or the
 * exit status after one line on stderr: EXIT_USAGE for what is not a
 * regular file, too large or not JSON, EXIT_CANNOT when it cannot be read
 * (out of memory included).
 */
int strict_json_read(const char *file, struct json_object **doc);

/*
 * The envelope of a uringlint report (doc, read from file), the one check
 * every reader of reports makes: an object of schema_version 1 with a
 * findings array and a host with its hostname. 0 with *findings, *host and
 * *hostname (owned by doc), or EXIT_USAGE after one line on stderr that
 * says which of those it is not.
 */
int report_envelope(const char *file, struct json_object *doc, struct json_object **findings,
		    struct json_object **host, const char **hostname);

/*
 * One host's JSON report (doc, read from file): its hostname (owned by doc)
 * and, per entry of check_table, the worst status any finding gave it, or -1.
 * Findings of checks this build does not know count in *unknown. Returns 0,
 * or EXIT_USAGE after one line on stderr for a document that is not a
 * uringlint report of schema_version 1.
 */
int merge_read_host(const char *file, struct json_object *doc, int *worst,
		    const char **hostname, unsigned int *unknown);

#endif
