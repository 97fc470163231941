// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The problems in words (problems.h): who a problem holds for, where, what
 * was measured, what also goes with it, and the JSON form of them all.
 * The grouping and ranking are problems.c's.
 */
#include <ctype.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "output.h"
#include "problems.h"
#include "problems_impl.h"
#include "keyed.h"
#include "xalloc.h"

/* --- words ------------------------------------------------------------------------- */

static const struct report_owner *owner_of(const struct report *r, int pid)
{
	size_t i;

	for (i = r->nowners; i-- > 0;)
		if (r->owners[i].pid == pid)
			return &r->owners[i];
	return NULL;
}

struct who {
	char *name;
	size_t n;
	int pid[3];
};

/* *s (NULL: empty) followed by fmt's two strings. */
static void append(char **s, const char *fmt, const char *a, const char *b)
{
	char *t = xasprintf(fmt, *s ? *s : "", a, b);

	free(*s);
	*s = t;
}

char *problem_who(const struct report *r, const struct problem *pb)
{
	struct who *w = NULL;
	size_t nw = 0, cap = 0, i, j, np;
	char *s, num[64];
	int *pids;

	np = problem_pids(r, pb, &pids);
	for (i = 0; i < np; i++) {
		int pid = pids[i];
		const struct report_owner *o = owner_of(r, pid);
		char *name;

		if (!o)
			name = xstrdup("?");
		else if (o->unit[0])
			name = xasprintf("%s of unit %s", o->comm, o->unit);
		else if (o->container[0])
			name = xasprintf("%s in %s", o->comm, o->container);
		else
			name = xstrdup(o->comm);
		for (j = 0; j < nw && strcmp(w[j].name, name); j++)
			;
		if (j == nw) {
			xarray_grow(&w, &cap, nw + 1);
			memset(&w[nw], 0, sizeof(w[nw]));
			w[nw++].name = name;
		} else {
			free(name);
		}
		if (w[j].n < 3)
			w[j].pid[w[j].n] = pid;
		w[j].n++;
	}
	free(pids);
	if (!np) {
		free(w);
		return NULL;
	}
	s = xasprintf("%zu process%s: ", np, np == 1 ? "" : "es");
	for (i = 0; i < nw; i++) {
		append(&s, "%s%s%s", i ? ", " : "", w[i].name);
		if (i >= 5) {
			size_t rest = 0;

			for (j = i; j < nw; j++)
				rest += w[j].n;
			snprintf(num, sizeof(num), " and %zu processes of %zu others", rest, nw - i);
			append(&s, "%s%s%s", num, "");
			break;
		}
		if (w[i].n > 3) {
			snprintf(num, sizeof(num), " (%zu processes", w[i].n);
			append(&s, "%s%s%s", num, "");
			for (j = 0; j < 3; j++) {
				snprintf(num, sizeof(num), "%s %d", j ? "," : ", pids", w[i].pid[j]);
				append(&s, "%s%s%s", num, "");
			}
			snprintf(num, sizeof(num), " and %zu more)", w[i].n - 3);
			append(&s, "%s%s%s", num, "");
			continue;
		}
		for (j = 0; j < w[i].n; j++) {
			snprintf(num, sizeof(num), "%s %d", j ? "," : w[i].n > 1 ? " (pids" : " (pid",
				 w[i].pid[j]);
			append(&s, "%s%s%s", num, "");
		}
		append(&s, "%s%s%s", ")", "");
	}
	for (i = 0; i < nw; i++)
		free(w[i].name);
	free(w);
	return s;
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *problem_where(const struct report *r, const struct problem *pb, size_t max)
{
	const char **v = xcalloc(pb->nmembers + pb->nalso + 1, sizeof(*v));
	size_t i, n = 0, u = 0, shown;
	char *s = NULL, num[48];

	for (i = 0; i < pb->nmembers + pb->nalso; i++) {
		const struct finding *f = &r->findings[i < pb->nmembers ? pb->members[i]
								   : pb->also[i - pb->nmembers]];
		const char *where = problem_ev_str(f, "path");

		if (!where && f->pid <= 0 && strcmp(f->subject, "host"))
			where = f->subject;
		if (where)
			v[n++] = where;
	}
	/* Sorted, each once: a problem on 10,000 files is not compared pair by pair. */
	qsort(v, n, sizeof(*v), by_str);
	for (i = 0; i < n; i++)
		if (!u || strcmp(v[u - 1], v[i]))
			v[u++] = v[i];
	shown = u > max ? max : u;
	for (i = 0; i < shown; i++)
		append(&s, "%s%s%s", i ? ", " : "", v[i]);
	if (u > shown) {
		snprintf(num, sizeof(num), " and %zu more", u - shown);
		append(&s, "%s%s%s", num, "");
	}
	free(v);
	return s;
}

char *problem_measured(const struct report *r, const struct problem *pb)
{
	struct cause {
		const char *id;
		double punts;
		bool observed;
	} c[16];
	size_t nc = 0, i, j, k;
	char *s = NULL, num[160];

	for (i = 0; i < pb->nmembers; i++) {
		struct json_object *cs = problem_ev(&r->findings[pb->members[i]], "causes");

		for (j = 0; cs && json_object_is_type(cs, json_type_array) &&
			    j < json_object_array_length(cs); j++) {
			struct json_object *o = json_object_array_get_idx(cs, j), *v;
			const char *id;

			if (!json_object_object_get_ex(o, "cause", &v))
				continue;
			id = json_object_get_string(v);
			for (k = 0; k < nc && strcmp(c[k].id, id); k++)
				;
			if (k == nc) {
				if (nc == ARRAY_SIZE(c))
					continue;
				c[nc++] = (struct cause){ .id = id };
			}
			if (json_object_object_get_ex(o, "punts", &v))
				c[k].punts += json_object_get_double(v);
			if (json_object_object_get_ex(o, "observed", &v) && json_object_get_boolean(v))
				c[k].observed = true;
		}
	}
	for (k = 0; k < nc; k++) {
		snprintf(num, sizeof(num), " (%.0f punts, %s)", c[k].punts,
			 c[k].observed ? "observed" : "inferred");
		append(&s, "%s%s%s", k ? ", " : "cause ", c[k].id);
		append(&s, "%s%s%s", num, "");
	}
	if (pb->punts >= 0) {
		if (pb->requests > 0)
			snprintf(num, sizeof(num), "%" PRId64 " of %" PRId64 " requests punted (%.0f%%)",
				 pb->punts, pb->requests, 100.0 * (double)pb->punts / (double)pb->requests);
		else
			snprintf(num, sizeof(num), "%" PRId64 " requests punted", pb->punts);
		append(&s, "%s%s%s", s ? "; " : "", num);
		if (pb->rate >= 0) {
			snprintf(num, sizeof(num), ", %.0f/s", pb->rate);
			append(&s, "%s%s%s", num, "");
		}
	}
	return s;
}

char *problem_also(const struct report *r, const struct problem *pb)
{
	const char *seen[16];
	size_t i, j, n = 0;
	char *s = NULL;

	/* Each symptom check once, in the order first seen: a few ids, however many findings. */
	for (i = 0; i < pb->nalso && n < ARRAY_SIZE(seen); i++) {
		const char *id = r->findings[pb->also[i]].check->id;

		for (j = 0; j < n && strcmp(seen[j], id); j++)
			;
		if (j < n)
			continue;
		seen[n++] = id;
		append(&s, "%s%s%s", s ? ", " : "", id);
	}
	return s;
}

char *problem_what(const struct report *r, const struct problem *pb)
{
	const struct finding *f = &r->findings[pb->lead];
	const char *subject = strcmp(f->subject, "host") ? f->subject : NULL;

	if (pb->nmembers > 1)
		return subject ? xasprintf("as %s: %s", subject, f->message)
			       : xasprintf("as one: %s", f->message);
	return subject ? xasprintf("%s: %s", subject, f->message) : xstrdup(f->message);
}

static struct json_object *indices(const size_t *v, size_t n)
{
	struct json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int64((int64_t)v[i]));
	return a;
}

static struct json_object *words(char *s)
{
	struct json_object *o = s ? json_bytes_string(s) : NULL;

	free(s);
	return o;
}

struct json_object *problems_to_json(const struct report *r, const struct problems *p)
{
	struct json_object *a = json_object_new_array();
	size_t i, j;

	for (i = 0; i < p->n; i++) {
		const struct problem *pb = &p->v[i];
		const struct finding *f = &r->findings[pb->lead];
		struct json_object *o = json_object_new_object(), *pids = json_object_new_array();
		const char *fix = finding_fix(f);
		int *v;
		size_t np = problem_pids(r, pb, &v);

		for (j = 0; j < np; j++)
			json_object_array_add(pids, json_object_new_int(v[j]));
		free(v);
		json_object_object_add(o, "rank", json_object_new_int64((int64_t)i + 1));
		json_object_object_add(o, "id", json_object_new_string(f->check->id));
		json_object_object_add(o, "status", json_object_new_string(status_name(pb->status)));
		json_object_object_add(o, "severity",
				       json_object_new_string(severity_name(f->check->severity)));
		json_object_object_add(o, "lead", json_object_new_int64((int64_t)pb->lead));
		json_object_object_add(o, "findings", indices(pb->members, pb->nmembers));
		json_object_object_add(o, "also", indices(pb->also, pb->nalso));
		json_object_object_add(o, "pids", pids);
		json_object_object_add(o, "who", words(problem_who(r, pb)));
		json_object_object_add(o, "where", words(problem_where(r, pb, SIZE_MAX)));
		json_object_object_add(o, "measured", words(problem_measured(r, pb)));
		json_object_object_add(o, "punts", pb->punts >= 0 ? json_object_new_int64(pb->punts) : NULL);
		json_object_object_add(o, "requests",
				       pb->requests >= 0 ? json_object_new_int64(pb->requests) : NULL);
		json_object_object_add(o, "punts_per_second",
				       pb->rate >= 0 ? json_object_new_double(pb->rate) : NULL);
		json_object_object_add(o, "fix", fix ? json_bytes_string(fix) : NULL);
		json_object_array_add(a, o);
	}
	return a;
}
