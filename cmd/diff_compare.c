// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The comparison behind `uringlint report diff`, apart from the command so
 * that a unit test links it. Processes are matched by identity (unit,
 * container, command: a restarted service has a new pid), findings by
 * check id, their process's identity and subject with the pid, tid and fd
 * numbers taken out. Each side's keys are sorted once and the two
 * sorted lists walked together: n log n in the findings, where a report
 * of a large host holds tens of thousands. Values from the reports that
 * are written again are cut to a bound (merge.h).
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "diff.h"
#include "output.h"
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

/* A token a restart renumbers: "pid 12", "tid 12", "fd 12" at p, its length; 0 if none. */
static size_t id_token(const char *p)
{
	static const char *const words[] = { "pid ", "tid ", "fd " };
	size_t i, n;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		n = strlen(words[i]);
		if (strncmp(p, words[i], n) || !isdigit((unsigned char)p[n]))
			continue;
		while (isdigit((unsigned char)p[n]))
			n++;
		if (!p[n] || p[n] == ' ' || p[n] == ':' || p[n] == ',')
			return n;
	}
	return 0;
}

char *diff_subject_norm(const char *subject)
{
	char *k = xcalloc(strlen(subject) + 1, 1);
	const char *p = subject;
	size_t i = 0, n;

	while (*p) {
		bool word = p == subject || p[-1] == ' ';

		if (word && (n = id_token(p))) {
			p += n;
			while (*p == ' ' || *p == ':' || *p == ',')
				p++;
			continue;
		}
		k[i++] = *p++;
	}
	while (i && (k[i - 1] == ' ' || k[i - 1] == ':' || k[i - 1] == ','))
		i--;
	k[i] = '\0';
	return k;
}

/* id, the process's identity ("" for the host's or one not described) and the subject without IDs. */
static char *subject_key(const char *id, const char *ident, const char *subject)
{
	char *norm = diff_subject_norm(subject), *k;

	k = xasprintf("%s\x1f%s\x1f%s", id, ident ? ident : "", norm);
	free(norm);
	return k;
}

static const char *str_of(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static struct json_object *obj_of(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_object))
		return NULL;
	return v;
}

static int int_of(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return 0;
	return json_object_get_int(v);
}

char *diff_process_identity(struct json_object *proc)
{
	struct json_object *unit = obj_of(proc, "unit"), *ct = obj_of(proc, "container");
	const char *s;

	if (unit && (s = str_of(unit, "name")) && *s)
		return xasprintf("unit %s", s);
	if (ct && (((s = str_of(ct, "id")) && *s) || ((s = str_of(ct, "name")) && *s)))
		return xasprintf("container %s", s);
	if ((s = str_of(proc, "comm")) && *s)
		return xasprintf("command %s", s);
	return xasprintf("pid %d", int_of(proc, "pid"));
}

static int by_ident(const void *pa, const void *pb)
{
	const struct diff_proc *a = pa, *b = pb;
	int c = strcmp(a->ident, b->ident);

	return c ? c : (a->pid > b->pid) - (a->pid < b->pid);
}

static int by_pid(const void *pa, const void *pb)
{
	const struct diff_proc *a = *(const struct diff_proc *const *)pa;
	const struct diff_proc *b = *(const struct diff_proc *const *)pb;

	return (a->pid > b->pid) - (a->pid < b->pid);
}

/* The identity of pid among s's processes (by_pid: sorted by pid); NULL when not there. */
static const char *ident_of(struct diff_proc **pids, size_t n, int pid)
{
	struct diff_proc key = { .pid = pid }, *k = &key, **hit;

	if (pid <= 0)
		return NULL;
	hit = bsearch(&k, pids, n, sizeof(*pids), by_pid);
	return hit ? (*hit)->ident : NULL;
}

/* s's processes[] (a report without one has none), by identity. */
static int read_procs(struct diff_side *s, struct json_object *doc)
{
	struct json_object *procs;
	size_t i, n;

	if (!json_object_object_get_ex(doc, "processes", &procs) ||
	    !json_object_is_type(procs, json_type_array))
		return 0;
	n = json_object_array_length(procs);
	s->procs = xcalloc(n + 1, sizeof(*s->procs));
	for (i = 0; i < n; i++) {
		struct json_object *p = json_object_array_get_idx(procs, i);
		char *ident;

		if (!json_object_is_type(p, json_type_object) || int_of(p, "pid") <= 0)
			return usage_error("'%s': process %zu has no valid pid", s->file, i);
		ident = diff_process_identity(p);
		s->procs[s->nprocs++] = (struct diff_proc){ int_of(p, "pid"),
			text_cut(ident, REPORT_ECHO_OUTPUT), DIFF_NONE };
		free(ident);
	}
	qsort(s->procs, s->nprocs, sizeof(*s->procs), by_ident);
	return 0;
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
	struct json_object *findings, *host;
	struct diff_proc **pids;
	size_t i, n;
	int ret;

	memset(s, 0, sizeof(*s));
	s->file = file;
	s->doc = doc;
	ret = report_envelope(file, doc, &findings, &host, &s->host);
	if (ret)
		return ret;
	s->kernel = str_of(host, "kernel_release");
	if (read_procs(s, doc))
		return EXIT_USAGE;
	pids = xcalloc(s->nprocs + 1, sizeof(*pids));
	for (i = 0; i < s->nprocs; i++)
		pids[i] = &s->procs[i];
	qsort(pids, s->nprocs, sizeof(*pids), by_pid);
	n = json_object_array_length(findings);
	s->v = xcalloc(n, sizeof(*s->v));
	s->cap = n;
	for (i = 0; i < n; i++) {
		struct json_object *f = json_object_array_get_idx(findings, i);
		const char *id = str_of(f, "id"), *subject = str_of(f, "subject"),
			   *status = str_of(f, "status");
		int rank = status ? status_rank(status) : -1;

		int pid = int_of(f, "pid");
		const char *ident = ident_of(pids, s->nprocs, pid);

		if (!id || !subject || rank < 0) {
			free(pids);
			return usage_error("'%s': finding %zu has no valid id, subject or status",
					   file, i);
		}
		s->v[s->n++] = (struct diff_entry){ subject_key(id, ident, subject), id, pid, ident,
						    rank, f, DIFF_NONE, false };
	}
	free(pids);
	return 0;
}

void diff_side_free(struct diff_side *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].key);
	free(s->v);
	for (i = 0; i < s->nprocs; i++)
		free(s->procs[i].ident);
	free(s->procs);
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

bool diff_is_number(struct json_object *v)
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
		    !json_object_object_get_ex(eb, measured[i], &vb) || !diff_is_number(va) ||
		    !diff_is_number(vb) || json_object_get_double(va) == json_object_get_double(vb))
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
	diff_procs(r, a, b);
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
		diff_change_process(f, o, n);
		counts->changes++;
		/* A problem at the gate's level that is new, or worse than it was. */
		if (fail_on >= 0 && n->status >= fail_on && (!o || n->status > o->status))
			counts->gate++;
	}
	for (i = 0; i < a->n; i++) {
		const struct diff_entry *o = &a->v[i];

		struct finding *f;

		if (o->dup || o->status < STATUS_WARN || o->match != DIFF_NONE)
			continue;
		f = change(r, "gone", o, NULL, &counts->unknown);
		diff_change_process(f, o, NULL);
		if (f)
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
