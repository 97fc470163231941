// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uringlint report diff OLD.json NEW.json: what changed on one host between
 * two reports, for a deploy gate (keep the last report, diff the new one).
 * Findings are matched by check id and subject, with process and thread IDs
 * taken out of the subject (a restarted service has new ones). Each change
 * is a finding of its check, so every format renders it: new at warn or
 * fail, worse, better or fixed, gone, and measured values that moved, with
 * both values in the evidence. The exit status is 1 only when something
 * reached --fail-on that was not there before.
 */
#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "json_bytes.h"
#include "xalloc.h"


/* Evidence values whose change is worth a line: numbers a deploy moves. */
static const char *const measured[] = {
	"punt_share", "punts", "requests", "submitted", "iou_wrk", "iou_wrk_active",
	"memlock_soft", "vm_lck_kb", "extents", "unwritten", "d_state", "overflow",
};

struct entry {
	char *key;			/* id, a unit separator, the subject without IDs */
	const char *id;
	int status;
	struct json_object *f;		/* the finding (owned by its document) */
};

struct side {
	struct json_object *doc;
	struct entry *v;
	size_t n, cap;
	const char *host, *kernel;
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

/* Reads and checks one report; 0, or the exit status after one line on stderr. */
static int read_side(const char *file, struct side *s)
{
	struct json_object *findings, *host, *v;
	size_t i, n;
	int fd, ret;

	ret = cmd_open_report(file, &fd);
	if (ret)
		return ret;
	s->doc = json_object_from_fd(fd);
	close(fd);
	if (!s->doc || !json_object_object_get_ex(s->doc, "schema_version", &v) ||
	    !json_object_is_type(v, json_type_int))
		return usage_error("'%s' is not a uringlint JSON report", file);
	if (json_object_get_int(v) != 1)
		return usage_error("'%s' is a report of schema_version %d, not 1: reports of "
				   "different schemas are not compared", file, json_object_get_int(v));
	if (!json_object_object_get_ex(s->doc, "findings", &findings) ||
	    !json_object_is_type(findings, json_type_array) ||
	    !json_object_object_get_ex(s->doc, "host", &host) || !(s->host = str_of(host, "hostname")))
		return usage_error("'%s' is not a uringlint report of schema_version 1", file);
	s->kernel = str_of(host, "kernel_release");
	n = json_object_array_length(findings);
	for (i = 0; i < n; i++) {
		struct json_object *f = json_object_array_get_idx(findings, i);
		const char *id = str_of(f, "id"), *subject = str_of(f, "subject"),
			   *status = str_of(f, "status");
		int rank = status ? status_rank(status) : -1;
		struct entry *e;
		size_t k;
		char *key;

		if (!id || !subject || rank < 0)
			return usage_error("'%s': finding %zu has no valid id, subject or status",
					   file, i);
		key = subject_key(id, subject);
		for (k = 0; k < s->n && strcmp(s->v[k].key, key); k++)
			;
		if (k < s->n) {
			/* Two processes alike: the worse of them stands for the key. */
			if (rank > s->v[k].status) {
				s->v[k].status = rank;
				s->v[k].f = f;
			}
			free(key);
			continue;
		}
		xarray_grow(&s->v, &s->cap, s->n + 1);
		e = &s->v[s->n++];
		*e = (struct entry){ key, id, rank, f };
	}
	return 0;
}

static void side_free(struct side *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].key);
	free(s->v);
	json_object_put(s->doc);
}

static const struct entry *find(const struct side *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].key, key))
			return &s->v[i];
	return NULL;
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

		if (!json_object_object_get_ex(ea, measured[i], &va) ||
		    !json_object_object_get_ex(eb, measured[i], &vb) || !va || !vb ||
		    json_object_is_type(va, json_type_string) ||
		    json_object_get_double(va) == json_object_get_double(vb))
			continue;
		w = snprintf(buf + used, n - used, "%s%s %s -> %s", count ? "; " : "", measured[i],
			     json_object_to_json_string(va), json_object_to_json_string(vb));
		if (w > 0 && (size_t)w < n - used)
			used += (size_t)w;
		pair = json_object_new_array();
		json_object_array_add(pair, json_object_get(va));
		json_object_array_add(pair, json_object_get(vb));
		json_object_object_add(ev, measured[i], pair);
		count++;
	}
	return count;
}

/* One change as a finding of its check; NULL for a check this uringlint does not know. */
static struct finding *change(struct report *r, const char *what, const struct entry *old,
			      const struct entry *new, unsigned int *unknown)
{
	const struct entry *e = new ? new : old;
	const struct check *c = check_find(e->id);
	struct finding *f;

	if (!c) {
		(*unknown)++;
		return NULL;
	}
	f = report_add(r, &c->info, new ? (enum check_status)new->status : STATUS_PASS,
		       str_of(e->f, "subject"), "%s%s%s%s: %s", what,
		       old && new ? " (was " : "", old && new ? status_name(old->status) : "",
		       old && new ? ")" : "", str_of(e->f, "message") ? str_of(e->f, "message") : "");
	finding_ev_str(f, "change", what);
	finding_ev_str(f, "old_status", old ? status_name(old->status) : NULL);
	finding_ev_str(f, "new_status", new ? status_name(new->status) : NULL);
	if (new && str_of(new->f, "fix"))
		finding_set_fix(f, "%s", str_of(new->f, "fix"));
	return f;
}

int cmd_report_diff(int argc, char **argv, struct global_opts *g)
{
	struct side a = { 0 }, b = { 0 };
	unsigned int unknown = 0, gate = 0, nchanges = 0;
	struct report r;
	char values[1024];
	size_t i;
	int c, ret = 0;

	while ((c = cmd_getopt(argc, argv, g, &ret)) != -1)
		;	/* report diff has no options of its own */
	if (ret)
		return ret;
	if (argc - optind != 2)
		return usage_error("report diff takes two JSON reports of one host: OLD.json NEW.json");
	ret = read_side(argv[optind], &a);
	if (!ret)
		ret = read_side(argv[optind + 1], &b);
	if (!ret && strcmp(a.host, b.host))
		ret = usage_error("'%s' is a report of host '%s', '%s' of host '%s': report diff "
				  "compares two reports of one host (report merge folds hosts)",
				  argv[optind], a.host, argv[optind + 1], b.host);
	if (ret)
		goto out;
	report_init(&r, "diff");
	snprintf(r.host.hostname, sizeof(r.host.hostname), "%s", b.host);
	r.host.live = false;
	if (a.kernel && b.kernel && strcmp(a.kernel, b.kernel))
		report_note(&r, "kernel %s -> %s", a.kernel, b.kernel);
	for (i = 0; i < b.n; i++) {
		const struct entry *n = &b.v[i], *o = find(&a, n->key);
		struct finding *f = NULL;

		if (!o && n->status >= STATUS_WARN) {
			f = change(&r, "new", NULL, n, &unknown);
		} else if (o && n->status > o->status && n->status >= STATUS_WARN) {
			f = change(&r, "worse", o, n, &unknown);
		} else if (o && n->status < o->status && o->status >= STATUS_WARN) {
			f = change(&r, n->status <= STATUS_INFO ? "fixed" : "better", o, n, &unknown);
		} else if (o && n->status == o->status) {
			struct json_object *ev = json_object_new_object();

			if (moved(o->f, n->f, values, sizeof(values), ev)) {
				f = change(&r, "changed", o, n, &unknown);
				if (f) {
					free(f->message);
					f->message = xasprintf("%s (%s): %s", values,
							       status_name(n->status),
							       str_of(n->f, "message"));
					json_object_object_add(f->evidence, "values", json_object_get(ev));
				}
			}
			json_object_put(ev);
		}
		if (!f)
			continue;
		nchanges++;
		/* Reached the gate now, and had not before. */
		if (!g->fail_never && n->status >= (int)g->fail_on && (!o || o->status < (int)g->fail_on))
			gate++;
	}
	for (i = 0; i < a.n; i++) {
		const struct entry *o = &a.v[i];

		if (o->status >= STATUS_WARN && !find(&b, o->key) &&
		    change(&r, "gone", o, NULL, &unknown))
			nchanges++;
	}
	if (unknown)
		report_note(&r, "%u changes of checks this uringlint does not know were left out",
			    unknown);
	report_note(&r, "%u change%s from %s to %s; %u reached --fail-on %s now and not before",
		    nchanges, nchanges == 1 ? "" : "s", argv[optind], argv[optind + 1], gate,
		    g->fail_never ? "never" : status_name(g->fail_on));
	ret = cmd_emit_report(g, &r);
	if (ret != EXIT_CANNOT)
		ret = gate ? EXIT_FINDINGS : 0;
	report_free(&r);
out:
	side_free(&a);
	side_free(&b);
	return ret;
}
