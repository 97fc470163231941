// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON contract (schema_version 1): add keys freely, never rename these.
 * schema_version changes only when a key is renamed or removed, or its
 * type or meaning changes; new keys keep it.
 * Strings that come from the host (names, paths, messages that quote them)
 * go through lib/output/json_bytes.c, so the document is UTF-8 whatever their bytes.
 */
#include <errno.h>
#include <string.h>

#include "array.h"
#include "output.h"
#include "problems.h"
#include "version.h"
#include "writer.h"

static struct json_object *str_or_null(const char *s)
{
	return s ? json_bytes_string(s) : NULL;
}

static struct json_object *host_to_json(const struct report *r)
{
	struct json_object *h = json_object_new_object();

	json_object_object_add(h, "hostname", json_bytes_string(r->host.hostname));
	json_object_object_add(h, "kernel", json_bytes_string(r->host.kernel));
	json_add_bytes(h, "kernel_release", r->host.kernel_release[0] ? r->host.kernel_release
								    : NULL);
	json_object_object_add(h, "liburing", json_object_new_string(liburing_build_version));
	json_object_object_add(h, "cpus", json_object_new_int((int)r->host.cpus));
	json_object_object_add(h, "live", json_object_new_boolean(r->host.live));
	json_add_bytes(h, "root", r->host.live ? NULL : r->host.root);
	if (r->host.net)
		json_object_object_add(h, "net", json_object_get(r->host.net));
	if (r->host.cpu)
		json_object_object_add(h, "cpu", json_object_get(r->host.cpu));
	return h;
}

static struct json_object *finding_to_json(const struct finding *f)
{
	const struct check_info *c = f->check;
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_string(c->id));
	json_object_object_add(o, "title", json_object_new_string(c->title));
	json_object_object_add(o, "category", json_object_new_string(c->category));
	json_object_object_add(o, "severity", json_object_new_string(severity_name(c->severity)));
	json_object_object_add(o, "status", json_object_new_string(status_name(f->status)));
	json_add_bytes(o, "subject", f->subject);
	json_object_object_add(o, "pid", f->pid > 0 ? json_object_new_int(f->pid) : NULL);
	json_object_object_add(o, "message", json_bytes_string(f->message));
	json_object_object_add(o, "evidence", json_object_get(f->evidence));
	json_object_object_add(o, "fix", str_or_null(finding_fix(f)));
	json_object_object_add(o, "reference", str_or_null(c->reference));
	return o;
}

/* The contract's order, so a reader sees pass, warn, fail first. */
static const enum check_status summary_order[] = {
	STATUS_PASS, STATUS_WARN, STATUS_FAIL, STATUS_SKIP, STATUS_ERROR, STATUS_INFO,
};

struct json_object *report_to_json(const struct report *r)
{
	struct json_object *doc = json_object_new_object();
	struct json_object *tool = json_object_new_object();
	struct json_object *summary = json_object_new_object();
	struct json_object *findings = json_object_new_array();
	struct problems p;
	unsigned int counts[STATUS__COUNT];
	size_t i;

	json_object_object_add(doc, "schema_version", json_object_new_int(1));
	json_object_object_add(tool, "name", json_object_new_string("uringlint"));
	json_object_object_add(tool, "version", json_object_new_string(uringlint_version));
	json_object_object_add(doc, "tool", tool);
	json_object_object_add(doc, "command", json_object_new_string(r->command));
	json_object_object_add(doc, "host", host_to_json(r));

	report_count(r, counts);
	for (i = 0; i < ARRAY_SIZE(summary_order); i++)
		json_object_object_add(summary, status_name(summary_order[i]),
				       json_object_new_int((int)counts[summary_order[i]]));
	json_object_object_add(doc, "summary", summary);

	for (i = 0; i < r->nfindings; i++)
		json_object_array_add(findings, finding_to_json(&r->findings[i]));
	json_object_object_add(doc, "findings", findings);
	problems_build(&p, r);
	json_object_object_add(doc, "problems", problems_to_json(r, &p));
	problems_free(&p);
	if (r->probe)
		json_object_object_add(doc, "probe", json_object_get(r->probe));
	if (r->diff)
		json_object_object_add(doc, "diff", json_object_get(r->diff));
	return doc;
}

int write_json_document(FILE *out, struct json_object *doc)
{
	const char *s = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
							   JSON_C_TO_STRING_SPACED |
							   JSON_C_TO_STRING_NOSLASHESCAPE);
	int err = 0;

	if (!s || fputs(s, out) == EOF || fputc('\n', out) == EOF)
		err = -EIO;
	json_object_put(doc);
	return err;
}

/*
 * The document, with the processes inventory spliced in before its last
 * brace: that array was rendered process by process, never held as objects.
 */
int write_report_json(FILE *out, const struct report *r)
{
	struct json_object *doc;
	const char *s, *end;
	int err = 0;

	if (!report_has_processes(r))
		return write_json_document(out, report_to_json(r));
	doc = report_to_json(r);
	s = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
							JSON_C_TO_STRING_NOSLASHESCAPE);
	end = s ? strrchr(s, '}') : NULL;
	while (end && end > s && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	if (!end || fwrite(s, 1, (size_t)(end - s), out) != (size_t)(end - s) ||
	    fputs(",\n  \"processes\": [", out) == EOF || report_processes_copy(r, out) ||
	    fputs("\n  ]\n}\n", out) == EOF)
		err = -EIO;
	json_object_put(doc);
	return err;
}
