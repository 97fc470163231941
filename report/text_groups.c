// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Folding what repeats over many processes in the text report (see
 * text_groups.h). The JSON, Markdown, JUnit and Prometheus reports keep
 * every finding; so does the text with -v.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "text_groups.h"
#include "writer.h"
#include "keyed.h"
#include "xalloc.h"

/* A process's group in words: its unit, else its container, else its comm. */
static const char *who_of(const struct report *r, int pid)
{
	size_t i;

	for (i = r->nowners; i-- > 0;) {
		const struct report_owner *o = &r->owners[i];

		if (o->pid != pid)
			continue;
		return o->unit[0] ? o->unit : o->container[0] ? o->container : o->comm;
	}
	return "?";
}

/* s with each run of digits as one '#': alike processes differ in their numbers. */
static void put_norm(char **buf, size_t *len, size_t *cap, const char *s)
{
	for (; *s; s++) {
		if (isdigit((unsigned char)*s)) {
			while (isdigit((unsigned char)s[1]))
				s++;
			xarray_grow(buf, cap, *len + 1);
			(*buf)[(*len)++] = '#';
			continue;
		}
		xarray_grow(buf, cap, *len + 1);
		(*buf)[(*len)++] = *s;
	}
}

static char *key_of(const struct finding *f)
{
	char *buf = NULL, pid[32];
	size_t len = 0, cap = 0, n;
	const char *subject = f->subject;

	n = (size_t)snprintf(pid, sizeof(pid), "pid %d", f->pid);
	if (!strncmp(subject, pid, n))
		subject += n;
	put_norm(&buf, &len, &cap, f->check->id);
	put_norm(&buf, &len, &cap, f->status == STATUS_FAIL ? "\x1f" "f\x1f"
				   : f->status == STATUS_WARN ? "\x1f" "w\x1f"
				   : f->status == STATUS_PASS ? "\x1f" "p\x1f"
				   : f->status == STATUS_SKIP ? "\x1f" "s\x1f"
				   : f->status == STATUS_INFO ? "\x1f" "i\x1f" : "\x1f" "e\x1f");
	put_norm(&buf, &len, &cap, subject);
	put_norm(&buf, &len, &cap, "\x1f");
	put_norm(&buf, &len, &cap, f->message);
	xarray_grow(&buf, &cap, len + 1);
	buf[len] = '\0';
	return buf;
}



/* The distinct pids of r's process notes, sorted; their number. */
static size_t note_pids(const struct report *r, int **out)
{
	int *v = xcalloc(r->nnotes + 1, sizeof(*v));
	size_t i, n = 0, u = 0;

	for (i = 0; i < r->nnotes; i++)
		if (r->note_pids && r->note_pids[i] > 0)
			v[n++] = r->note_pids[i];
	qsort(v, n, sizeof(*v), keyed_by_int);
	for (i = 0; i < n; i++)
		if (!u || v[u - 1] != v[i])
			v[u++] = v[i];
	*out = v;
	return u;
}

void text_groups_init(struct text_groups *g, const struct report *r, int verbosity)
{
	struct keyed *k;
	size_t i, j, n = 0;
	int *pids;

	memset(g, 0, sizeof(*g));
	if (verbosity > 0)
		return;
	n = note_pids(r, &pids);
	free(pids);
	if (n < TEXT_GROUP_MIN_PROCESSES)
		return;
	n = 0;
	g->on = true;
	g->first = xcalloc(r->nfindings + 1, sizeof(*g->first));
	g->count = xcalloc(r->nfindings + 1, sizeof(*g->count));
	k = xcalloc(r->nfindings + 1, sizeof(*k));
	for (i = 0; i < r->nfindings; i++) {
		g->first[i] = i;
		g->count[i] = 1;
		if (r->findings[i].pid > 0) {
			k[n].key = key_of(&r->findings[i]);
			k[n++].i = i;
		}
	}
	qsort(k, n, sizeof(*k), keyed_by_key);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(k[j].key, k[i].key); j++)
			g->first[k[j].i] = k[i].i;
		g->count[k[i].i] = j - i;
	}
	for (i = 0; i < n; i++)
		free(k[i].key);
	free(k);
}

void text_groups_free(struct text_groups *g)
{
	free(g->first);
	free(g->count);
	memset(g, 0, sizeof(*g));
}

struct who {
	const char *name;
	size_t n;
	int pid[4];		/* the first few */
};

static int by_count(const void *a, const void *b)
{
	const struct who *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Counts pid under its unit or comm in w (n entries so far); the new n. */
static size_t who_add(struct who **w, size_t n, size_t *cap, const char *name, int pid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp((*w)[i].name, name))
			break;
	if (i == n) {
		xarray_grow(w, cap, n + 1);
		memset(&(*w)[n], 0, sizeof((*w)[n]));
		(*w)[n++].name = name;
	}
	if ((*w)[i].n < 4)
		(*w)[i].pid[(*w)[i].n] = pid;
	(*w)[i].n++;
	return n;
}

/* "fio.service 40, mariadbd 8 and 3 others" from the who counts, into a new string. */
static char *who_words(struct who *w, size_t n)
{
	char *s = xstrdup(""), *t;
	size_t i, shown = n > 4 ? 3 : n, rest = 0;

	qsort(w, n, sizeof(*w), by_count);
	for (i = 0; i < shown; i++) {
		t = xasprintf("%s%s%s %zu", s, i ? ", " : "", w[i].name, w[i].n);
		free(s);
		s = t;
	}
	for (; i < n; i++)
		rest += w[i].n;
	if (rest) {
		t = xasprintf("%s and %zu of %zu others", s, rest, n - shown);
		free(s);
		s = t;
	}
	return s;
}

/* The pid a note of the audit begins with ("pid 123 watched for 2 s: ..."), else 0; *rest after it. */
static int lead_pid(const char *note, const char **rest)
{
	char *end;
	long pid;

	if (strncmp(note, "pid ", 4) || !isdigit((unsigned char)note[4]))
		return 0;
	pid = strtol(note + 4, &end, 10);
	if (pid <= 0 || pid > INT32_MAX || *end != ' ')
		return 0;
	*rest = end;
	return (int)pid;
}

static char *note_key(const char *rest)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;

	put_norm(&buf, &len, &cap, rest);
	xarray_grow(&buf, &cap, len + 1);
	buf[len] = '\0';
	return buf;
}

bool text_groups_many(const struct report *r)
{
	int *pids;
	size_t n = note_pids(r, &pids);

	free(pids);
	return n >= TEXT_GROUP_MIN_PROCESSES;
}

/* The notes of group key[first] (those alike but for their numbers) as one line. */
static void put_note_group(FILE *out, const struct report *r, char **key, size_t first, size_t count)
{
	const char *rest0 = NULL, *rest;
	int pid0 = lead_pid(r->notes[first], &rest0);
	bool same = true;
	size_t j, shown = 0;
	char *line, *t;

	for (j = first + 1; j < r->nnotes; j++)
		if (key[j] && !strcmp(key[j], key[first]) && lead_pid(r->notes[j], &rest) &&
		    strcmp(rest, rest0))
			same = false;
	if (same)
		line = xasprintf("%zu processes%s (pids", count, rest0);
	else
		line = xasprintf("%zu processes alike, as pid %d%s (pids", count, pid0, rest0);
	for (j = first; j < r->nnotes && shown < 8; j++) {
		if (!key[j] || strcmp(key[j], key[first]))
			continue;
		t = xasprintf("%s%s %d", line, shown ? "," : "", lead_pid(r->notes[j], &rest));
		free(line);
		line = t;
		shown++;
	}
	t = count > shown ? xasprintf("%s and %zu more)", line, count - shown)
			  : xasprintf("%s)", line);
	write_note(out, t);
	free(t);
	free(line);
}

void text_groups_put_plain_notes(FILE *out, const struct report *r, bool group, bool skip_proc)
{
	char **key = xcalloc(r->nnotes + 1, sizeof(*key));
	const char *rest;
	size_t i, j, count;

	for (i = 0; group && i < r->nnotes; i++)
		if ((!r->note_pids || r->note_pids[i] <= 0) && lead_pid(r->notes[i], &rest))
			key[i] = note_key(rest);
	for (i = 0; i < r->nnotes; i++) {
		bool later = false;

		if (skip_proc && r->note_pids && r->note_pids[i] > 0)
			continue;
		count = 1;
		for (j = 0; key[i] && j < r->nnotes; j++) {
			if (j == i || !key[j] || strcmp(key[j], key[i]))
				continue;
			if (j < i)
				later = true;
			count++;
		}
		if (later)
			continue;
		if (count > 1)
			put_note_group(out, r, key, i, count);
		else
			write_note(out, r->notes[i]);
	}
	for (i = 0; i < r->nnotes; i++)
		free(key[i]);
	free(key);
}

void text_groups_put_notes(FILE *out, const struct report *r, const struct text_groups *g)
{
	struct who *w = NULL;
	size_t i, n = 0, cap = 0, k;
	int *pids;
	size_t np;

	text_groups_put_plain_notes(out, r, g->on, g->on);
	if (!g->on)
		return;
	np = note_pids(r, &pids);
	for (i = 0; i < np; i++)
		n = who_add(&w, n, &cap, who_of(r, pids[i]), pids[i]);
	qsort(w, n, sizeof(*w), by_count);
	fprintf(out, "%zu processes audited (-v lists each):\n", np);
	for (i = 0; i < n && i < 10; i++) {
		char *line = xasprintf("  %s: %zu process%s, pid", w[i].name, w[i].n,
				       w[i].n == 1 ? "" : "es"), *t;

		for (k = 0; k < w[i].n && k < 4; k++) {
			t = xasprintf("%s%s %d", line, k ? "," : (w[i].n > 1 ? "s" : ""), w[i].pid[k]);
			free(line);
			line = t;
		}
		if (w[i].n > 4) {
			t = xasprintf("%s and %zu more", line, w[i].n - 4);
			free(line);
			line = t;
		}
		write_note(out, line);
		free(line);
	}
	if (n > 10) {
		size_t rest = 0;

		for (i = 10; i < n; i++)
			rest += w[i].n;
		fprintf(out, "  and %zu processes of %zu other units or commands\n", rest, n - 10);
	}
	free(w);
	free(pids);
}

/* The group of first finding i: its distinct pids, who runs them, in order of the findings. */
static void group_whos(const struct report *r, const struct text_groups *g, size_t i,
		       struct who **w, size_t *nw, size_t *npids, size_t *nfind)
{
	size_t j, cap = 0, k;
	int last = 0;

	*w = NULL;
	*nw = *npids = *nfind = 0;
	for (j = i; j < r->nfindings; j++) {
		int pid = r->findings[j].pid;
		bool seen = pid == last;

		if (g->first[j] != i)
			continue;
		(*nfind)++;
		/* A process's findings of one check come in a row. */
		for (k = j; !seen && k-- > i;)
			if (g->first[k] == i && r->findings[k].pid == pid)
				seen = true;
		last = pid;
		if (seen)
			continue;
		(*npids)++;
		*nw = who_add(w, *nw, &cap, who_of(r, pid), pid);
	}
}

char *text_group_head(const struct report *r, const struct text_groups *g, size_t i)
{
	struct who *w;
	size_t nw, np, nf;
	char *words, *s;

	if (!g->on || g->count[i] < 2 || g->first[i] != i)
		return NULL;
	group_whos(r, g, i, &w, &nw, &np, &nf);
	words = who_words(w, nw);
	if (nf > np)
		s = xasprintf("%zu alike in %zu processes (%s), as ", nf, np, words);
	else
		s = xasprintf("alike in %zu processes (%s), as ", np, words);
	free(words);
	free(w);
	return s;
}

char *text_group_tail(const struct report *r, const struct text_groups *g, size_t i)
{
	char *s = xstrdup("the others: pid"), *t;
	size_t j, shown = 0, rest = 0;
	int last = r->findings[i].pid;

	if (!g->on || g->count[i] < 2 || g->first[i] != i) {
		free(s);
		return NULL;
	}
	for (j = i + 1; j < r->nfindings; j++) {
		if (g->first[j] != i || r->findings[j].pid == last)
			continue;
		last = r->findings[j].pid;
		if (shown < 8) {
			t = xasprintf("%s%s %d", s, shown ? "," : "s", last);
			free(s);
			s = t;
			shown++;
		} else {
			rest++;
		}
	}
	if (!shown) {
		free(s);
		return xstrdup("the others: more findings of the same process (-v lists each)");
	}
	t = rest ? xasprintf("%s and %zu more (-v lists each)", s, rest)
		 : xasprintf("%s (-v lists each)", s);
	free(s);
	return t;
}
