// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The comparison behind `uringlint report diff`, apart from the command so
 * that a unit test links it. Findings are matched by check id and subject,
 * with process and thread IDs taken out of the subject (a restarted
 * service has new ones). Each side's keys are sorted once and the two
 * sorted lists walked together: n log n in the findings, where a report
 * of a large host holds tens of thousands. Values from the reports that
 * are written again are cut to a bound (merge.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "diff.h"
#include "escape.h"
#include "merge.h"
#include "xalloc.h"

/* Evidence values whose change is worth a line: numbers a deploy moves. */
static const char *const measured[] = {
	"punt_share", "punts", "requests", "submitted", "iou_wrk", "iou_wrk_active",
	"memlock_soft", "vm_lck_kb", "extents", "unwritten", "d_state", "overflow",
};

static int status_rank(const char *s)
{
	size_t i;

	for (i = 0; i < STATUS__COUNT; i++)
		if (!strcmp(status_name((enum check_status)i), s))
			return (int)i;
	return -1;
}

/* "pid 4242 fd 5 /x" -> "pid * fd 5 /x": a restarted process keeps its findings' keys. */
static char *subject_key(const char *id, const char *subject)
{
	size_t n = strlen(id) + strlen(subject) + 2, i = 0;
	char *k = xcalloc(n, 1);
	const char *p = subject;

	i = (size_t)snprintf(k, n, "%s\x1f", id);
	while (*p && i + 1 < n) {
		bool word = p == subject || p[-1] == ' ';

		if (word && (!strncmp(p, "pid ", 4) || !strncmp(p, "tid ", 4)) &&
		    isdigit((unsigned char)p[4])) {
			memcpy(k + i, p, 4);
			i += 4;
			k[i++] = '*';
			for (p += 4; isdigit((unsigned char)*p); p++)
				;
			continue;
		}
		k[i++] = *p++;
	}
	k[i] = '\0';
	return k;
}

static const char *str_of(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* By key, then by the order of the findings: the first of a key leads its run. */
static int by_key(const void *pa, const void *pb)
{
	const struct diff_entry *a = *(const struct diff_entry *const *)pa;
	const struct diff_entry *b = *(const struct diff_entry *const *)pb;
	int c = strcmp(a->key, b->key);

	return c ? c : (a < b ? -1 : a > b);
}

/* s's entries sorted by key, the later entries of a key marked dup: the worse of them stands for the key. */
static struct diff_entry **sorted_keys(struct diff_side *s, size_t *n)
{
	struct diff_entry **o = xcalloc(s->n, sizeof(*o));
	size_t i, lead = 0;

	for (i = 0; i < s->n; i++)
		o[i] = &s->v[i];
	qsort(o, s->n, sizeof(*o), by_key);
	*n = 0;
	for (i = 0; i < s->n; i++) {
		struct diff_entry *e = o[i], *l = o[lead];

		if (i && !strcmp(e->key, l->key)) {
			/* Two processes alike: the first of the worst status stands. */
			if (e->status > l->status) {
				l->status = e->status;
				l->f = e->f;
			}
			e->dup = true;
			continue;
		}
		lead = i;
		o[(*n)++] = e;
	}
	return o;
}

int diff_side_init(struct diff_side *s, const char *file, struct json_object *doc)
{
	struct json_object *findings, *host, *v;
	size_t i, n;

	memset(s, 0, sizeof(*s));
	s->file = file;
	s->doc = doc;
	if (!json_object_is_type(doc, json_type_object) ||
	    !json_object_object_get_ex(doc, "schema_version", &v) ||
	    !json_object_is_type(v, json_type_int))
		return usage_error("'%s' is not a uringlint JSON report", file);
	if (json_object_get_int(v) != 1)
		return usage_error("'%s' is a report of schema_version %d, not 1: reports of "
				   "different schemas are not compared", file, json_object_get_int(v));
	if (!json_object_object_get_ex(doc, "findings", &findings) ||
	    !json_object_is_type(findings, json_type_array) ||
	    !json_object_object_get_ex(doc, "host", &host) || !(s->host = str_of(host, "hostname")))
		return usage_error("'%s' is not a uringlint report of schema_version 1", file);
	s->kernel = str_of(host, "kernel_release");
	n = json_object_array_length(findings);
	s->v = xcalloc(n, sizeof(*s->v));
	s->cap = n;
	for (i = 0; i < n; i++) {
		struct json_object *f = json_object_array_get_idx(findings, i);
		const char *id = str_of(f, "id"), *subject = str_of(f, "subject"),
			   *status = str_of(f, "status");
		int rank = status ? status_rank(status) : -1;

		if (!id || !subject || rank < 0)
			return usage_error("'%s': finding %zu has no valid id, subject or status",
					   file, i);
		s->v[s->n++] = (struct diff_entry){ subject_key(id, subject), id, rank, f, DIFF_NONE,
						    false };
	}
	return 0;
}

void diff_side_free(struct diff_side *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].key);
	free(s->v);
	json_object_put(s->doc);
	memset(s, 0, sizeof(*s));
}

/* Pairs the entries of a and b that share a key (each side's lead of the key). */
static void match(struct diff_side *a, struct diff_side *b)
{
	size_t na, nb, i = 0, j = 0;
	struct diff_entry **oa = sorted_keys(a, &na), **ob = sorted_keys(b, &nb);

	while (i < na && j < nb) {
		int c = strcmp(oa[i]->key, ob[j]->key);

		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			oa[i]->match = (size_t)(ob[j] - b->v);
			ob[j]->match = (size_t)(oa[i] - a->v);
			i++;
			j++;
		}
	}
	free(oa);
	free(ob);
}

static bool is_number(struct json_object *v)
{
	return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
}

/* A number as the report wrote it, or as a double when its literal is past the bound. */
static struct json_object *number_echo(struct json_object *v)
{
	if (strlen(json_object_to_json_string(v)) <= REPORT_ECHO_ERROR)
		return json_object_get(v);
	return json_object_new_double(json_object_get_double(v));
}

/* The measured values that moved, "punts 10 -> 3000; ..."; 0 when none did. */
static unsigned int moved(struct json_object *a, struct json_object *b, char *buf, size_t n,
			  struct json_object *ev)
{
	struct json_object *ea, *eb, *va, *vb;
	unsigned int count = 0;
	size_t i, used = 0;

	buf[0] = '\0';
	if (!json_object_object_get_ex(a, "evidence", &ea) ||
	    !json_object_object_get_ex(b, "evidence", &eb))
		return 0;
	for (i = 0; i < sizeof(measured) / sizeof(measured[0]); i++) {
		struct json_object *pair;
		int w;

		/* Numbers only: what uringlint writes there, and nothing long to echo. */
		if (!json_object_object_get_ex(ea, measured[i], &va) ||
		    !json_object_object_get_ex(eb, measured[i], &vb) || !is_number(va) ||
		    !is_number(vb) || json_object_get_double(va) == json_object_get_double(vb))
			continue;
		pair = json_object_new_array();
		json_object_array_add(pair, number_echo(va));
		json_object_array_add(pair, number_echo(vb));
		w = snprintf(buf + used, n - used, "%s%s %s -> %s", count ? "; " : "", measured[i],
			     json_object_to_json_string(json_object_array_get_idx(pair, 0)),
			     json_object_to_json_string(json_object_array_get_idx(pair, 1)));
		if (w > 0 && (size_t)w < n - used)
			used += (size_t)w;
		json_object_object_add(ev, measured[i], pair);
		count++;
	}
	return count;
}

/* A string member of a finding, cut for the output; "" when it has none. */
static char *echo_of(struct json_object *f, const char *key)
{
	const char *s = str_of(f, key);

	return text_cut(s ? s : "", REPORT_ECHO_OUTPUT);
}

/* One change as a finding of its check; NULL for a check this uringlint does not know. */
static struct finding *change(struct report *r, const char *what, const struct diff_entry *old,
			      const struct diff_entry *new, unsigned int *unknown)
{
	const struct diff_entry *e = new ? new : old;
	const struct check *c = check_find(e->id);
	char *subject, *message;
	struct finding *f;

	if (!c) {
		(*unknown)++;
		return NULL;
	}
	subject = echo_of(e->f, "subject");
	message = echo_of(e->f, "message");
	f = report_add(r, &c->info, new ? (enum check_status)new->status : STATUS_PASS,
		       subject, "%s%s%s%s: %s", what,
		       old && new ? " (was " : "", old && new ? status_name(old->status) : "",
		       old && new ? ")" : "", message);
	free(subject);
	free(message);
	finding_ev_str(f, "change", what);
	finding_ev_str(f, "old_status", old ? status_name(old->status) : NULL);
	finding_ev_str(f, "new_status", new ? status_name(new->status) : NULL);
	if (new && str_of(new->f, "fix")) {
		char *fix = echo_of(new->f, "fix");

		finding_set_fix(f, "%s", fix);
		free(fix);
	}
	return f;
}

int diff_sides(struct diff_side *a, struct diff_side *b, int fail_on, struct report *r,
	       struct diff_counts *counts)
{
	char values[1024];
	size_t i;

	report_init(r, "diff");
	memset(counts, 0, sizeof(*counts));
	if (strcmp(a->host, b->host)) {
		char *ha = text_cut(a->host, REPORT_ECHO_ERROR), *hb = text_cut(b->host, REPORT_ECHO_ERROR);
		int ret = usage_error("'%s' is a report of host '%s', '%s' of host '%s': report diff "
				      "compares two reports of one host (report merge folds hosts)",
				      a->file, ha, b->file, hb);

		free(ha);
		free(hb);
		return ret;
	}
	{
		char *host = text_cut(b->host, sizeof(r->host.hostname) - 1);

		snprintf(r->host.hostname, sizeof(r->host.hostname), "%s", host);
		free(host);
	}
	r->host.live = false;
	if (a->kernel && b->kernel && strcmp(a->kernel, b->kernel)) {
		char *ka = text_cut(a->kernel, REPORT_ECHO_ERROR), *kb = text_cut(b->kernel, REPORT_ECHO_ERROR);

		report_note(r, "kernel %s -> %s", ka, kb);
		free(ka);
		free(kb);
	}
	match(a, b);
	for (i = 0; i < b->n; i++) {
		const struct diff_entry *n = &b->v[i];
		const struct diff_entry *o = n->match == DIFF_NONE ? NULL : &a->v[n->match];
		struct finding *f = NULL;

		if (n->dup)
			continue;
		if (!o && n->status >= STATUS_WARN) {
			f = change(r, "new", NULL, n, &counts->unknown);
		} else if (o && n->status > o->status && n->status >= STATUS_WARN) {
			f = change(r, "worse", o, n, &counts->unknown);
		} else if (o && n->status < o->status && o->status >= STATUS_WARN) {
			f = change(r, n->status <= STATUS_INFO ? "fixed" : "better", o, n, &counts->unknown);
		} else if (o && n->status == o->status) {
			struct json_object *ev = json_object_new_object();

			if (moved(o->f, n->f, values, sizeof(values), ev)) {
				f = change(r, "changed", o, n, &counts->unknown);
				if (f) {
					char *message = echo_of(n->f, "message");

					free(f->message);
					f->message = xasprintf("%s (%s): %s", values,
							       status_name(n->status), message);
					free(message);
					json_object_object_add(f->evidence, "values", json_object_get(ev));
				}
			}
			json_object_put(ev);
		}
		if (!f)
			continue;
		counts->changes++;
		/* Reached the gate now, and had not before. */
		if (fail_on >= 0 && n->status >= fail_on && (!o || o->status < fail_on))
			counts->gate++;
	}
	for (i = 0; i < a->n; i++) {
		const struct diff_entry *o = &a->v[i];

		if (!o->dup && o->status >= STATUS_WARN && o->match == DIFF_NONE &&
		    change(r, "gone", o, NULL, &counts->unknown))
			counts->changes++;
	}
	if (counts->unknown)
		report_note(r, "%u changes of checks this uringlint does not know were left out",
			    counts->unknown);
	report_note(r, "%u change%s from %s to %s; %u reached --fail-on %s now and not before",
		    counts->changes, counts->changes == 1 ? "" : "s", a->file, b->file, counts->gate,
		    fail_on < 0 ? "never" : status_name((enum check_status)fail_on));
	return 0;
}
