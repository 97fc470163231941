// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading the JSON reports `report merge` and `report diff` take. The
 * document comes from another machine: it is parsed as strict JSON, and
 * every member is type-checked before use. Apart from merge.c so that its
 * fuzz harness links without the commands.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "input_file.h"
#include "merge.h"

static int cannot_read(const char *file, int err)
{
	error_msg("cannot read '%s': %s", file, strerror(err));
	return EXIT_CANNOT;
}

static bool json_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * What json-c's strict mode lets through (0.16, Debian 12's: NaN, Infinity,
 * numbers beyond a double such as 1e999, "1.", single-quoted keys), in text
 * it parsed, so JSON's grammar holds otherwise. Raw control characters and
 * bytes that are not UTF-8 in strings pass, as json-c takes them: a host
 * name may hold them, and what is shown again is escaped. NULL, or why with
 * the byte in *at.
 */
static const char *not_strict(const char *t, size_t end, size_t *at)
{
	bool in_string = false;
	size_t i, j;

	for (i = 0; i < end; i++) {
		unsigned char c = (unsigned char)t[i];

		*at = i;
		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = false;
			continue;
		}
		if (c == '"') {
			in_string = true;
		} else if (c == '\'') {
			return "a single-quoted string";
		} else if (c == 'N' || c == 'I' || (c == '-' && t[i + 1] == 'I')) {
			/* Outside strings JSON has no capital letter: NaN, Infinity, -Infinity. */
			return "NaN or Infinity, which JSON has not";
		} else if (c == '-' || (c >= '0' && c <= '9')) {
			bool fraction = false;

			for (j = i; j < end && strchr("+-.eE0123456789", t[j]); j++) {
				if (t[j] == '.' && !(t[j + 1] >= '0' && t[j + 1] <= '9'))
					return "a number without digits after its point";
				fraction |= t[j] == '.' || t[j] == 'e' || t[j] == 'E';
			}
			/* json-c refuses integers past 64 bits; a double can overflow to infinity. */
			if (fraction && !isfinite(strtod(t + i, NULL)))
				return "a number beyond a double's range";
			i = j - 1;
		}
	}
	return NULL;
}

int strict_json_parse(const char *file, const char *text, size_t len, struct json_object **doc)
{
	struct json_tokener *tok;
	enum json_tokener_error err;
	const char *why;
	size_t end, at;

	*doc = NULL;
	if (len > REPORT_MAX_BYTES)
		return usage_error("'%s' is not a uringlint JSON report (over 256 MiB)", file);
	tok = json_tokener_new();
	if (!tok)
		return cannot_read(file, ENOMEM);
	/* Trailing data is looked for here, to say so. */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS);
	/* With the NUL: a number at the very end is complete, not cut short. */
	*doc = json_tokener_parse_ex(tok, text, (int)len + 1);
	err = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!*doc && err == json_tokener_success) {
		size_t i = 0;

		while (i < len && json_ws(text[i]))
			i++;
		if (!strncmp(text + i, "null", 4))
			return usage_error("'%s' is not a uringlint JSON report", file);
		/* json-c 0.16 has no error for a failed allocation: a NULL and no error is one. */
		return cannot_read(file, ENOMEM);
	}
	if (!*doc)
		return usage_error("'%s' is not JSON: %s at byte %zu", file,
				   json_tokener_error_desc(err), end);
	why = not_strict(text, end, &at);
	if (!why && end < len) {
		/* json-c stops after the value and the whitespace after it. */
		why = "data after the JSON value";
		at = end;
	}
	if (why) {
		json_object_put(*doc);
		*doc = NULL;
		return usage_error("'%s' is not JSON: %s at byte %zu", file, why, at);
	}
	return 0;
}

int strict_json_read(const char *file, struct json_object **doc)
{
	struct path_refusal refusal = { .why = "" };
	size_t len = 0, cap;
	char *text, *more;
	struct stat st;
	ssize_t n;
	int fd, ret;

	*doc = NULL;
	/*
	 * Opened once, without blocking (a FIFO at the name cannot hold the
	 * run) and through no other user's link (input_file.h).
	 */
	fd = input_file_open(file, &refusal);
	if (fd == -EINVAL)
		return usage_error("'%s' is not a uringlint JSON report (not a regular file)", file);
	if (fd == -EACCES && refusal.why[0]) {
		error_msg("cannot read '%s': %s", file, input_file_strerror(fd, &refusal));
		return EXIT_CANNOT;
	}
	if (fd < 0)
		return cannot_read(file, -fd);
	if (fstat(fd, &st) || st.st_size > REPORT_MAX_BYTES) {
		close(fd);
		return usage_error("'%s' is not a uringlint JSON report (over 256 MiB)", file);
	}
	/* Room for the file as it is, one byte more to see it grew, and the NUL. */
	cap = (size_t)st.st_size + 2;
	text = malloc(cap);
	if (!text) {
		close(fd);
		return cannot_read(file, ENOMEM);
	}
	while ((n = read(fd, text + len, cap - 1 - len)) > 0) {
		len += (size_t)n;
		if (len < cap - 1)
			continue;
		if (len > REPORT_MAX_BYTES)
			break;
		/* It grew while read: take what comes, up to the bound. */
		cap = cap * 2 > REPORT_MAX_BYTES + 2 ? REPORT_MAX_BYTES + 2 : cap * 2;
		more = realloc(text, cap);
		if (!more) {
			free(text);
			close(fd);
			return cannot_read(file, ENOMEM);
		}
		text = more;
	}
	ret = n < 0 ? errno : 0;
	close(fd);
	if (ret) {
		free(text);
		return cannot_read(file, ret);
	}
	text[len] = '\0';
	ret = strict_json_parse(file, text, len, doc);
	free(text);
	return ret;
}

static int status_of(const char *s)
{
	int i;

	for (i = 0; i < STATUS__COUNT; i++)
		if (!strcmp(status_name((enum check_status)i), s))
			return i;
	return -1;
}

int report_envelope(const char *file, struct json_object *doc, struct json_object **findings,
		    struct json_object **host, const char **hostname)
{
	struct json_object *v;

	if (!json_object_is_type(doc, json_type_object) ||
	    !json_object_object_get_ex(doc, "schema_version", &v) ||
	    !json_object_is_type(v, json_type_int))
		return usage_error("'%s' is not a uringlint JSON report", file);
	if (json_object_get_int(v) != 1)
		return usage_error("'%s' is a report of schema_version %d, not 1: reports of "
				   "different schemas are not read together", file,
				   json_object_get_int(v));
	if (!json_object_object_get_ex(doc, "findings", findings) ||
	    !json_object_is_type(*findings, json_type_array) ||
	    !json_object_object_get_ex(doc, "host", host) ||
	    !json_object_object_get_ex(*host, "hostname", &v) ||
	    !json_object_is_type(v, json_type_string))
		return usage_error("'%s' is not a uringlint report of schema_version 1", file);
	*hostname = json_object_get_string(v);
	return 0;
}

int merge_read_host(const char *file, struct json_object *doc, int *worst,
		    const char **hostname, unsigned int *unknown)
{
	struct json_object *host, *findings;
	size_t i, n;
	int ret = report_envelope(file, doc, &findings, &host, hostname);

	if (ret)
		return ret;
	for (i = 0; i < check_table_len; i++)
		worst[i] = -1;
	n = json_object_array_length(findings);
	for (i = 0; i < n; i++) {
		struct json_object *f = json_object_array_get_idx(findings, i), *id, *st;
		const struct check *c;
		int s;

		/* json-c hands NULL for a JSON null: only strings are looked at. */
		if (!json_object_object_get_ex(f, "id", &id) ||
		    !json_object_is_type(id, json_type_string) ||
		    !json_object_object_get_ex(f, "status", &st) ||
		    !json_object_is_type(st, json_type_string) ||
		    (s = status_of(json_object_get_string(st))) < 0)
			return usage_error("'%s': finding %zu has no valid id or status", file, i);
		c = check_find(json_object_get_string(id));
		if (!c) {
			(*unknown)++;	/* from a newer uringlint: not judged here */
			continue;
		}
		if (s > worst[c - check_table])
			worst[c - check_table] = s;
	}
	return 0;
}
