// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The problems a report opens with (problems.h): the warn, fail and error
 * findings folded into one entry per problem, with who it holds for, on
 * which files, what was measured and one fix, ranked worst first.
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

/*
 * A check whose finding shows, from the process's side, what another
 * check's problem causes: it joins the first of causes found failing or
 * warning on the same process. The punts counted per process, the io-wq
 * workers that run them and the CPU they burn follow from the punts each
 * file or socket takes; a buffered data file's open flags are the file's
 * punts seen before any request.
 */
static const struct {
	const char *symptom;
	const char *causes[7];
} symptoms[] = {
	{ "fd-o-direct", { "file-punts" } },
	{ "iowq-punts", { "file-punts", "net-punts", "ring-iosqe-async", "fd-append" } },
	{ "iowq-workers", { "file-punts", "net-punts", "ring-iosqe-async", "fd-append",
			    "fd-o-direct", "iowq-punts" } },
	{ "scene-iowq", { "file-punts", "net-punts", "ring-iosqe-async", "fd-append",
			  "fd-o-direct", "iowq-punts", "iowq-workers" } },
};

static bool is_problem(const struct finding *f)
{
	return f->status == STATUS_WARN || f->status == STATUS_FAIL || f->status == STATUS_ERROR;
}

struct json_object *problem_ev(const struct finding *f, const char *key)
{
	struct json_object *v = NULL;

	return f->evidence && json_object_object_get_ex(f->evidence, key, &v) ? v : NULL;
}

const char *problem_ev_str(const struct finding *f, const char *key)
{
	struct json_object *v = problem_ev(f, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static bool ev_num(const struct finding *f, const char *key, double *out)
{
	struct json_object *v = problem_ev(f, key);

	if (!v || !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return false;
	*out = json_object_get_double(v);
	return true;
}

/* s with each run of digits as '#' and every copy of cut (a path) left out, appended to buf. */
static void put_norm(char **buf, size_t *len, size_t *cap, const char *s, const char *cut)
{
	size_t ncut = cut ? strlen(cut) : 0;

	for (; s && *s; s++) {
		if (ncut && !strncmp(s, cut, ncut)) {
			s += ncut - 1;
			continue;
		}
		xarray_grow(buf, cap, *len + 2);
		if (isdigit((unsigned char)*s)) {
			while (isdigit((unsigned char)s[1]))
				s++;
			(*buf)[(*len)++] = '#';
			continue;
		}
		(*buf)[(*len)++] = *s;
	}
	xarray_grow(buf, cap, *len + 2);
	(*buf)[(*len)++] = '\x1f';
	(*buf)[*len] = '\0';
}

/* The causes the evidence names, in its order ("buffered,append"). */
static void put_causes(char **buf, size_t *len, size_t *cap, const struct finding *f)
{
	struct json_object *cs = problem_ev(f, "causes"), *c;
	size_t i;

	for (i = 0; cs && json_object_is_type(cs, json_type_array) &&
		    i < json_object_array_length(cs); i++) {
		c = json_object_array_get_idx(cs, i);
		struct json_object *id = NULL;

		if (json_object_object_get_ex(c, "cause", &id))
			put_norm(buf, len, cap, json_object_get_string(id), NULL);
	}
}

static char *key_of(const struct finding *f)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	char st[2] = { (char)('a' + f->status), '\0' };

	put_norm(&buf, &len, &cap, f->check->id, NULL);
	put_norm(&buf, &len, &cap, st, NULL);
	put_causes(&buf, &len, &cap, f);
	put_norm(&buf, &len, &cap, finding_fix(f), problem_ev_str(f, "path"));
	return buf;
}

static int sev_rank(const struct problem *p, const struct report *r)
{
	return (int)r->findings[p->lead].check->severity;
}

static int status_rank(enum check_status s)
{
	return s == STATUS_FAIL ? 3 : s == STATUS_WARN ? 2 : 1;
}

static const struct report *sort_r;
static const struct problems *sort_p;

static int by_rank(const void *a, const void *b)
{
	const struct problem *x = a, *y = b;
	int d;

	if ((d = status_rank(y->status) - status_rank(x->status)))
		return d;
	if ((d = sev_rank(y, sort_r) - sev_rank(x, sort_r)))
		return d;
	if (x->rate != y->rate)
		return x->rate < y->rate ? 1 : -1;
	if (x->punts != y->punts)
		return x->punts < y->punts ? 1 : -1;
	if (x->npids != y->npids)
		return x->npids < y->npids ? 1 : -1;
	return (x->members[0] > y->members[0]) - (x->members[0] < y->members[0]);
}

/* The symptom entry of check id, or -1. */
static int symptom_of(const char *id)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(symptoms); i++)
		if (!strcmp(symptoms[i].symptom, id))
			return (int)i;
	return -1;
}


/* How many distinct pids (> 0) the findings idx[0..n) are of: sorted, not compared pairwise. */
static size_t count_pids(const struct report *r, const size_t *idx, size_t n, int **out)
{
	int *v = xcalloc(n + 1, sizeof(*v));
	size_t i, k = 0, u = 0;

	for (i = 0; i < n; i++)
		if (r->findings[idx[i]].pid > 0)
			v[k++] = r->findings[idx[i]].pid;
	qsort(v, k, sizeof(*v), keyed_by_int);
	for (i = 0; i < k; i++)
		if (!u || v[u - 1] != v[i])
			v[u++] = v[i];
	if (out)
		*out = v;
	else
		free(v);
	return u;
}

/* The distinct pids of a problem's findings, members and also, sorted; their number. */
size_t problem_pids(const struct report *r, const struct problem *pb, int **out)
{
	size_t *idx = xcalloc(pb->nmembers + pb->nalso + 1, sizeof(*idx)), n;

	memcpy(idx, pb->members, pb->nmembers * sizeof(*idx));
	if (pb->nalso)
		memcpy(idx + pb->nmembers, pb->also, pb->nalso * sizeof(*idx));
	n = count_pids(r, idx, pb->nmembers + pb->nalso, out);
	free(idx);
	return n;
}

/* A finding by its pid, for the walk of one process's findings at a time. */
struct by_proc {
	int pid;
	size_t i;
};

static int by_pid(const void *a, const void *b)
{
	const struct by_proc *x = a, *y = b;

	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	return (x->i > y->i) - (x->i < y->i);
}

/* Back in report order: the problems numbered by their first finding. */
static int by_first(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	return (x->i > y->i) - (x->i < y->i);
}

/*
 * In g[0..n), one process's findings: the first warn, fail or error finding
 * of check id other than skip, as an index into the report; SIZE_MAX none.
 * A process has a few dozen checks: its findings' distinct ids are few.
 */
static size_t first_of(const struct report *r, const struct by_proc *g, size_t n, const char *id,
		       size_t skip)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (g[k].i != skip && is_problem(&r->findings[g[k].i]) &&
		    !strcmp(r->findings[g[k].i].check->id, id))
			return g[k].i;
	return SIZE_MAX;
}

static void add_index(size_t **v, size_t *n, size_t *cap, size_t i)
{
	xarray_grow(v, cap, *n + 1);
	(*v)[(*n)++] = i;
}

/* What problems_build works on, step by step. */
struct build {
	const struct report *r;
	struct problems *p;
	struct by_proc *procs;	/* the findings by pid */
	bool *folded;		/* per finding: a symptom of a cause on its process */
	double *secs;		/* per finding: its process's watch in seconds, 0 none */
	size_t cap;		/* of p->v */
	size_t *mcap, *acap;	/* per problem: of its members and also */
};

/* The length of the group of one pid's findings that starts at procs[g]. */
static size_t group_len(const struct build *b, size_t g)
{
	size_t n = 1;

	while (g + n < b->r->nfindings && b->procs[g + n].pid == b->procs[g].pid)
		n++;
	return n;
}

/* A new problem led by finding lead; its index. */
static size_t new_problem(struct build *b, size_t lead)
{
	struct problems *p = b->p;

	xarray_grow(&p->v, &b->cap, p->n + 1);
	memset(&p->v[p->n], 0, sizeof(p->v[p->n]));
	p->v[p->n].status = b->r->findings[lead].status;
	p->v[p->n].lead = lead;
	return p->n++;
}

/*
 * Process by process: the watch's length (from the finding that counts
 * its punts), and the symptoms whose cause is a problem there too.
 */
static void fold_symptoms(struct build *b)
{
	const struct report *r = b->r;
	size_t g, gn, j, k;

	for (g = 0; g < r->nfindings; g += gn) {
		double watched = 0, v;

		gn = group_len(b, g);
		if (b->procs[g].pid <= 0)
			continue;
		for (k = g; k < g + gn; k++)
			if ((ev_num(&r->findings[b->procs[k].i], "seconds_watched", &v) ||
			     ev_num(&r->findings[b->procs[k].i], "seconds", &v)) && v > watched)
				watched = v;
		for (k = g; k < g + gn; k++) {
			const struct finding *f = &r->findings[b->procs[k].i];
			int s = symptom_of(f->check->id);

			b->secs[b->procs[k].i] = watched;
			if (!is_problem(f) || s < 0)
				continue;
			for (j = 0; j < ARRAY_SIZE(symptoms[s].causes) && symptoms[s].causes[j]; j++)
				if (first_of(r, b->procs + g, gn, symptoms[s].causes[j],
					     b->procs[k].i) != SIZE_MAX)
					b->folded[b->procs[k].i] = true;
		}
	}
}

/* The problems: alike findings together (sorted by key), numbered by their first finding. */
static void group_alike(struct build *b)
{
	const struct report *r = b->r;
	struct problems *p = b->p;
	struct keyed *keys = xcalloc(r->nfindings + 1, sizeof(*keys));
	size_t *at = xcalloc(r->nfindings + 1, sizeof(*at));
	size_t i, j, nk = 0;

	for (i = 0; i < r->nfindings; i++)
		if (is_problem(&r->findings[i]) && !b->folded[i])
			keys[nk++] = (struct keyed){ key_of(&r->findings[i]), i };
	qsort(keys, nk, sizeof(*keys), keyed_by_key);
	for (i = 0; i < nk; i = j) {
		for (j = i; j < nk && !strcmp(keys[j].key, keys[i].key); j++)
			at[keys[j].i] = keys[i].i + 1;	/* 1 + the group's first finding */
	}
	for (i = 0; i < nk; i++)
		free(keys[i].key);
	qsort(keys, nk, sizeof(*keys), by_first);
	for (i = 0; i < nk; i++)
		if (at[keys[i].i] == keys[i].i + 1)
			p->of[keys[i].i] = new_problem(b, keys[i].i) + 1;
	b->mcap = xcalloc(p->n + 1, sizeof(*b->mcap));
	b->acap = xcalloc(p->n + 1, sizeof(*b->acap));
	for (i = 0; i < nk; i++) {
		size_t k = p->of[at[keys[i].i] - 1] - 1;

		p->of[keys[i].i] = k + 1;
		add_index(&p->v[k].members, &p->v[k].nmembers, &b->mcap[k], keys[i].i);
	}
	free(at);
	free(keys);
}

/*
 * The symptoms join their cause's problem, the first of the table's order;
 * a cause that is itself a symptom has joined one in an earlier pass (the
 * table has no cycle: a check's causes come before it). A symptom left
 * unplaced is a problem of its own, never lost.
 */
static void join_symptoms(struct build *b)
{
	const struct report *r = b->r;
	struct problems *p = b->p;
	size_t pass, g, gn, j, k;

	for (pass = 0; pass < ARRAY_SIZE(symptoms); pass++) {
		for (g = 0; g < r->nfindings; g += gn) {
			gn = group_len(b, g);
			for (k = g; k < g + gn; k++) {
				size_t f = b->procs[k].i, c = SIZE_MAX;
				int s;

				if (!b->folded[f] || p->of[f])
					continue;
				s = symptom_of(r->findings[f].check->id);
				for (j = 0; c == SIZE_MAX && j < ARRAY_SIZE(symptoms[s].causes) &&
					    symptoms[s].causes[j]; j++) {
					c = first_of(r, b->procs + g, gn, symptoms[s].causes[j], f);
					if (c != SIZE_MAX && !p->of[c])
						c = SIZE_MAX;	/* not placed yet: the next pass */
				}
				if (c == SIZE_MAX)
					continue;
				p->of[f] = p->of[c];
				p->is_also[f] = true;
				add_index(&p->v[p->of[f] - 1].also, &p->v[p->of[f] - 1].nalso,
					  &b->acap[p->of[f] - 1], f);
			}
		}
	}
	for (k = 0; k < r->nfindings; k++) {
		size_t n;

		if (!b->folded[k] || p->of[k])
			continue;
		n = new_problem(b, k);
		p->v[n].members = xcalloc(1, sizeof(size_t));
		p->v[n].members[0] = k;
		p->v[n].nmembers = 1;
		p->of[k] = n + 1;
	}
}

/* What each costs: punts, requests and punts a second over its members; its costliest leads. */
static void cost(struct build *b)
{
	const struct report *r = b->r;
	size_t i, j;

	for (i = 0; i < b->p->n; i++) {
		struct problem *pb = &b->p->v[i];
		double best = -1;

		pb->punts = pb->requests = -1;
		pb->rate = -1;
		pb->npids = count_pids(r, pb->members, pb->nmembers, NULL);
		for (j = 0; j < pb->nmembers; j++) {
			const struct finding *f = &r->findings[pb->members[j]];
			double punts, reqs;

			if (!ev_num(f, "punts", &punts))
				continue;
			if (punts > best) {
				best = punts;
				pb->lead = pb->members[j];
			}
			pb->punts = (pb->punts < 0 ? 0 : pb->punts) + (int64_t)punts;
			if (ev_num(f, "requests", &reqs) || ev_num(f, "submitted", &reqs))
				pb->requests = (pb->requests < 0 ? 0 : pb->requests) + (int64_t)reqs;
			if (b->secs[pb->members[j]] > 0)
				pb->rate = (pb->rate < 0 ? 0 : pb->rate) + punts / b->secs[pb->members[j]];
		}
	}
}

struct by_fix {
	const char *fix;
	size_t at;
};

static int by_fix_rank(const void *a, const void *b)
{
	const struct by_fix *x = a, *y = b;
	int c = strcmp(x->fix, y->fix);

	return c ? c : by_rank(&sort_p->v[x->at], &sort_p->v[y->at]);
}

/*
 * Problems whose fix reads the same, word for word, are one problem: a
 * process that never set up its ring and the memlock limit that stopped it
 * name the same limit to raise. The one that ranks first keeps it; the
 * others' findings join it as "also", so the fix is said once.
 */
static void merge_same_fix(struct build *b)
{
	struct problems *p = b->p;
	struct by_fix *v = xcalloc(p->n + 1, sizeof(*v));
	size_t *map = xcalloc(p->n + 1, sizeof(*map)), *newidx = xcalloc(p->n + 1, sizeof(*newidx));
	size_t i, j, k, n = 0, live = 0;

	for (i = 0; i < p->n; i++)
		if (finding_fix(&b->r->findings[p->v[i].lead]))
			v[n++] = (struct by_fix){ finding_fix(&b->r->findings[p->v[i].lead]), i };
	sort_r = b->r;
	sort_p = p;
	qsort(v, n, sizeof(*v), by_fix_rank);
	for (i = 0; i < p->n; i++)
		map[i] = i;
	for (i = 0; i < n; i = j) {
		struct problem *keep = &p->v[v[i].at];
		size_t cap = keep->nalso;

		for (j = i + 1; j < n && !strcmp(v[j].fix, v[i].fix); j++) {
			struct problem *gone = &p->v[v[j].at];

			for (k = 0; k < gone->nmembers + gone->nalso; k++) {
				size_t f = k < gone->nmembers ? gone->members[k]
							      : gone->also[k - gone->nmembers];

				p->is_also[f] = true;
				add_index(&keep->also, &keep->nalso, &cap, f);
			}
			free(gone->members);
			free(gone->also);
			gone->members = gone->also = NULL;
			gone->nmembers = gone->nalso = 0;
			map[v[j].at] = v[i].at;
		}
	}
	/* The merged ones out, the rest renumbered: map[] held where each went. */
	for (i = 0; i < p->n; i++) {
		if (map[i] != i)
			continue;
		newidx[i] = live;
		p->v[live++] = p->v[i];
	}
	for (i = 0; i < b->r->nfindings; i++)
		if (p->of[i])
			p->of[i] = newidx[map[p->of[i] - 1]] + 1;
	p->n = live;
	free(newidx);
	free(map);
	free(v);
}

/* Worst first; of[] named the problems before the sort. */
static void rank(struct build *b)
{
	struct problems *p = b->p;
	size_t *remap = xcalloc(p->n + 1, sizeof(*remap)), i;

	sort_r = b->r;
	/* No problem at all: no array to sort (qsort takes no NULL, even for none). */
	if (p->n)
		qsort(p->v, p->n, sizeof(*p->v), by_rank);
	for (i = 0; i < p->n; i++)
		remap[p->of[p->v[i].members[0]] - 1] = i + 1;
	for (i = 0; i < b->r->nfindings; i++)
		if (p->of[i])
			p->of[i] = remap[p->of[i] - 1];
	free(remap);
}

void problems_build(struct problems *p, const struct report *r)
{
	struct build b = { .r = r, .p = p };
	size_t i;

	memset(p, 0, sizeof(*p));
	p->of = xcalloc(r->nfindings + 1, sizeof(*p->of));
	p->is_also = xcalloc(r->nfindings + 1, sizeof(*p->is_also));
	b.procs = xcalloc(r->nfindings + 1, sizeof(*b.procs));
	b.folded = xcalloc(r->nfindings + 1, sizeof(*b.folded));
	b.secs = xcalloc(r->nfindings + 1, sizeof(*b.secs));
	for (i = 0; i < r->nfindings; i++)
		b.procs[i] = (struct by_proc){ r->findings[i].pid, i };
	qsort(b.procs, r->nfindings, sizeof(*b.procs), by_pid);
	fold_symptoms(&b);
	group_alike(&b);
	join_symptoms(&b);
	cost(&b);
	merge_same_fix(&b);
	rank(&b);
	free(b.mcap);
	free(b.acap);
	free(b.procs);
	free(b.folded);
	free(b.secs);
}

void problems_free(struct problems *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->v[i].members);
		free(p->v[i].also);
	}
	free(p->v);
	free(p->of);
	free(p->is_also);
	memset(p, 0, sizeof(*p));
}

const struct problem *problems_of(const struct problems *p, size_t i)
{
	return p->of && p->of[i] ? &p->v[p->of[i] - 1] : NULL;
}

size_t problems_fix_ref(const struct problems *p, const struct report *r, size_t i)
{
	const struct problem *pb = problems_of(p, i);
	const char *own, *lead;

	if (!pb)
		return 0;
	if (p->is_also[i])
		return p->of[i];	/* also there: its problem's fix is the one */
	own = finding_fix(&r->findings[i]);
	lead = finding_fix(&r->findings[pb->lead]);
	return !own || !lead || !strcmp(own, lead) ? p->of[i] : 0;
}

size_t problem_rank(const struct problems *p, const struct problem *pb)
{
	return (size_t)(pb - p->v) + 1;
}
