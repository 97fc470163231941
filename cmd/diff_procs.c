// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report diff's processes: paired across the two reports by identity, and
 * what changed for each in measured terms (the punt share and rate of its
 * punt findings, old and new) and in verdicts; the rest is
 * diff_compare.c's.
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

/* Pairs the processes of a and b that share an identity, in the order of their pids. */
static void match_procs(struct diff_side *a, struct diff_side *b)
{
	size_t i = 0, j = 0;

	while (i < a->nprocs && j < b->nprocs) {
		int c = strcmp(a->procs[i].ident, b->procs[j].ident);

		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			a->procs[i].match = j;
			b->procs[j].match = i;
			i++;
			j++;
		}
	}
}

static bool is_punt_check(const char *id)
{
	return !strcmp(id, "iowq-punts") || !strcmp(id, "file-punts");
}

static bool num_of(struct json_object *o, const char *key, double *v)
{
	struct json_object *x;

	if (!o || !json_object_object_get_ex(o, key, &x) || !diff_is_number(x))
		return false;
	*v = json_object_get_double(x);
	return true;
}

/*
 * A punt finding's share of its requests punted (0 to 1) and punts per
 * second, from its evidence: iowq-punts' punt_share (its punts over the
 * requests submitted) and punts over seconds_watched; file-punts' punts
 * over requests. NAN for what the evidence does not hold.
 */
static void punt_measure(struct json_object *f, double *share, double *rate)
{
	struct json_object *ev = NULL;
	double punts = NAN, reqs, secs;
	bool have_punts;

	*share = *rate = NAN;
	if (f)
		json_object_object_get_ex(f, "evidence", &ev);
	have_punts = num_of(ev, "punts", &punts);
	if (num_of(ev, "punt_share", share))
		;
	else if (have_punts && (num_of(ev, "requests", &reqs) || num_of(ev, "submitted", &reqs)) &&
		 reqs > 0)
		*share = punts / reqs;
	else if (have_punts && punts == 0)
		*share = 0;
	if (have_punts && num_of(ev, "seconds_watched", &secs) && secs > 0)
		*rate = punts / secs;
}

static struct json_object *pair_or_null(double a, double b)
{
	struct json_object *pair;

	if (isnan(a) && isnan(b))
		return NULL;
	pair = json_object_new_array();
	json_object_array_add(pair, isnan(a) ? NULL : json_object_new_double(a));
	json_object_array_add(pair, isnan(b) ? NULL : json_object_new_double(b));
	return pair;
}

/* [old status, new status], null for a side without the finding. */
static struct json_object *status_pair(const struct diff_entry *a, const struct diff_entry *b)
{
	struct json_object *pair = json_object_new_array();

	json_object_array_add(pair, a ? json_object_new_string(status_name(a->status)) : NULL);
	json_object_array_add(pair, b ? json_object_new_string(status_name(b->status)) : NULL);
	return pair;
}

/* "100%" or "?": a share for the text. */
static const char *pct_text(double v, char *buf, size_t n)
{
	if (isnan(v))
		snprintf(buf, n, "?");
	else
		snprintf(buf, n, v * 100 >= 10 || v == 0 ? "%.0f%%" : "%.2f%%", v * 100);
	return buf;
}

static const char *rate_text(double v, char *buf, size_t n)
{
	if (isnan(v))
		snprintf(buf, n, "?");
	else
		snprintf(buf, n, "%.0f/s", v);
	return buf;
}

/* The processes that changed said in notes at most; the JSON's diff.processes has each. */
#define DIFF_PROC_NOTES 20

/* A side's punt findings by pid: found per process in log n, not in a walk of every finding. */
struct punt_index {
	const struct diff_entry **v;
	size_t n;
};

static int by_entry_pid(const void *pa, const void *pb)
{
	const struct diff_entry *a = *(const struct diff_entry *const *)pa;
	const struct diff_entry *b = *(const struct diff_entry *const *)pb;

	if (a->pid != b->pid)
		return (a->pid > b->pid) - (a->pid < b->pid);
	return (a > b) - (a < b);
}

static void punt_index_init(struct punt_index *x, const struct diff_side *s)
{
	size_t i;

	x->v = xcalloc(s->n + 1, sizeof(*x->v));
	x->n = 0;
	for (i = 0; i < s->n; i++)
		if (s->v[i].pid > 0 && is_punt_check(s->v[i].id))
			x->v[x->n++] = &s->v[i];
	qsort(x->v, x->n, sizeof(*x->v), by_entry_pid);
}

/* The punt finding of check id of pid, the first of the worst status; NULL if none. */
static const struct diff_entry *punt_entry(const struct punt_index *x, const char *id, int pid)
{
	const struct diff_entry *best = NULL;
	size_t lo = 0, hi = x->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->v[mid]->pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < x->n && x->v[lo]->pid == pid; lo++)
		if (!strcmp(x->v[lo]->id, id) && (!best || x->v[lo]->status > best->status))
			best = x->v[lo];
	return best;
}

/*
 * One matched, appeared or gone process into r->diff's processes and, when
 * something of it changed, a note: its pids, and the punt checks' statuses,
 * shares and rates before -> after.
 */
static void proc_change(struct report *r, struct json_object *list, const char *what,
			const struct punt_index *a, const struct diff_proc *pa,
			const struct punt_index *b, const struct diff_proc *pb, size_t *said)
{
	static const char *const checks[] = { "iowq-punts", "file-punts" };
	struct json_object *o = json_object_new_object();
	char line[1024], s1[32], s2[32], r1[32], r2[32];
	const struct diff_proc *p = pb ? pb : pa;
	bool moved = pa && pb && pa->pid != pb->pid;
	size_t i, used;

	json_object_object_add(o, "identity", json_object_new_string(p->ident));
	json_object_object_add(o, "change", json_object_new_string(what));
	json_object_object_add(o, "old_pid", pa ? json_object_new_int(pa->pid) : NULL);
	json_object_object_add(o, "new_pid", pb ? json_object_new_int(pb->pid) : NULL);
	if (pa && pb)
		used = (size_t)snprintf(line, sizeof(line), "%s process: %s, pid %d -> %d", what,
					p->ident, pa->pid, pb->pid);
	else
		used = (size_t)snprintf(line, sizeof(line), "%s process: %s, pid %d", what, p->ident,
					p->pid);
	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		const struct diff_entry *ea = pa ? punt_entry(a, checks[i], pa->pid) : NULL;
		const struct diff_entry *eb = pb ? punt_entry(b, checks[i], pb->pid) : NULL;
		struct json_object *c;
		double sa, ra, sb, rb;

		if (!ea && !eb)
			continue;
		punt_measure(ea ? ea->f : NULL, &sa, &ra);
		punt_measure(eb ? eb->f : NULL, &sb, &rb);
		c = json_object_new_object();
		json_object_object_add(c, "status", status_pair(ea, eb));
		json_object_object_add(c, "punt_share", pair_or_null(sa, sb));
		json_object_object_add(c, "punt_rate", pair_or_null(ra, rb));
		json_object_object_add(o, checks[i], c);
		if (!ea || !eb || ea->status != eb->status || sa != sb)
			moved = true;
		if (used < sizeof(line))
			used += (size_t)snprintf(line + used, sizeof(line) - used,
						 "; %s %s -> %s, punts %s -> %s of requests%s%s%s%s",
						 checks[i], ea ? status_name(ea->status) : "none",
						 eb ? status_name(eb->status) : "none",
						 pct_text(sa, s1, sizeof(s1)), pct_text(sb, s2, sizeof(s2)),
						 isnan(ra) && isnan(rb) ? "" : ", ",
						 isnan(ra) && isnan(rb) ? "" : rate_text(ra, r1, sizeof(r1)),
						 isnan(ra) && isnan(rb) ? "" : " -> ",
						 isnan(ra) && isnan(rb) ? "" : rate_text(rb, r2, sizeof(r2)));
	}
	json_object_array_add(list, o);
	if ((moved || !pa || !pb) && (*said)++ < DIFF_PROC_NOTES)
		report_note(r, "%s", line);
}

/* Matches the processes, lists them in r->diff and notes what changed of each. */
void diff_procs(struct report *r, struct diff_side *a, struct diff_side *b)
{
	struct json_object *list = json_object_new_array();
	struct punt_index xa, xb;
	size_t i, said = 0;

	match_procs(a, b);
	punt_index_init(&xa, a);
	punt_index_init(&xb, b);
	for (i = 0; i < b->nprocs; i++)
		if (b->procs[i].match != DIFF_NONE)
			proc_change(r, list, "matched", &xa, &a->procs[b->procs[i].match], &xb,
				    &b->procs[i], &said);
	for (i = 0; i < b->nprocs; i++)
		if (b->procs[i].match == DIFF_NONE)
			proc_change(r, list, "appeared", &xa, NULL, &xb, &b->procs[i], &said);
	for (i = 0; i < a->nprocs; i++)
		if (a->procs[i].match == DIFF_NONE)
			proc_change(r, list, "gone", &xa, &a->procs[i], &xb, NULL, &said);
	if (said > DIFF_PROC_NOTES)
		report_note(r, "and %zu more processes matched with changes, appeared or gone "
			    "(the JSON's diff.processes lists each)", said - DIFF_PROC_NOTES);
	free(xa.v);
	free(xb.v);
	r->diff = json_object_new_object();
	json_object_object_add(r->diff, "processes", list);
}

/* The matched process's pids and the punt share and rate before -> after, into a change's evidence. */
void diff_change_process(struct finding *f, const struct diff_entry *o,
			 const struct diff_entry *n)
{
	const struct diff_entry *e = n ? n : o;
	double sa, ra, sb, rb;

	if (!f || !e->ident)
		return;
	finding_ev_str(f, "process", e->ident);
	json_object_object_add(f->evidence, "old_pid", o && o->pid ? json_object_new_int(o->pid) : NULL);
	json_object_object_add(f->evidence, "new_pid", n && n->pid ? json_object_new_int(n->pid) : NULL);
	if (!is_punt_check(e->id))
		return;
	punt_measure(o ? o->f : NULL, &sa, &ra);
	punt_measure(n ? n->f : NULL, &sb, &rb);
	json_object_object_add(f->evidence, "punt_share", pair_or_null(sa, sb));
	json_object_object_add(f->evidence, "punt_rate", pair_or_null(ra, rb));
}

