// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The drawing of --format html (html_drawing.h): laid out here in fixed
 * units, written as SVG with nothing outside the file. The layout folds
 * what repeats so that 64 CPUs and 1,000 threads stay readable: CPUs wrap
 * eight to a row, a CPU shows at most CHIPS_MAX thread chips (the rest one
 * "more" chip), threads of one process and role on one CPU beyond
 * FOLD_AFTER are one chip with their count, threads with no io_uring role
 * one chip per process, and a process shows at most RINGS_MAX rings and
 * FILES_MAX files.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "escape.h"
#include "html_drawing.h"
#include "xml_put.h"

#define MARGIN 12
#define CELL_W 196
#define GAP 10
#define COLS_MAX 8
#define LINE 15
#define CHIPS_MAX 10
#define FOLD_AFTER 3
#define IRQS_SHOWN 3
#define RING_W 300
#define RINGS_MAX 16
#define FILES_MAX 8
#define CHARS(w) ((size_t)((w) - 12) / 7)	/* monospace 11.5px: about 7 px a character */

/* Thread roles in the drawing, in the order a CPU lists them. */
enum role { ROLE_SUBMIT, ROLE_SQPOLL, ROLE_IOWQ, ROLE_DSTATE, ROLE_OTHER, ROLES };
static const char *const role_name[ROLES] = { "submitter", "SQPOLL", "io-wq worker", "D state",
					      "other threads" };
/* Short, for a folded chip's label: "io-wq x60 (db 100)". */
static const char *const role_short[ROLES] = { "submitters", "SQPOLL", "io-wq", "in D", "other" };
static const char *const role_class[ROLES] = { "submit", "sqpoll", "iowq", "dstate", "other" };

/* Where a thread was drawn, for the lines from its rings. */
struct placed {
	int pid, tid;
	int x, y;
};

/* Every thread of every process, with its role, read from the JSON once. */
struct thr {
	int pid, tid, cpu;
	enum role role;
	const char *comm;	/* the thread's */
	const char *pcomm;	/* its process's */
	char state;
};

struct drawing {
	FILE *out;			/* the SVG's elements, before its size is known */
	const struct report *r;
	struct thr *thr;		/* by process, in the JSON's order */
	size_t nthr;
	struct placed *placed;
	size_t nplaced, capplaced;
	int width, y;
};

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static long num(struct json_object *o, const char *key, long none)
{
	struct json_object *v = get(o, key);

	return v && (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double))
		       ? (long)json_object_get_int64(v) : none;
}

static size_t len(struct json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

/* --- findings on what is drawn ------------------------------------------------------ */

/* What a finding can be drawn on: by its subject ("cpu N", "pid P", "pid P fd N ..."). */
enum target { ON_NOTHING, ON_CPU, ON_PROC, ON_FD, ON_RING, ON_TID };

/* Whether subject is "pid P WHAT N" alone or followed by more (a path). */
static bool subject_is(const char *subject, int pid, const char *what, long n)
{
	char want[64];
	size_t k;

	k = (size_t)snprintf(want, sizeof(want), "pid %d%s%s", pid, what ? " " : "", what ? what : "");
	if (what)
		k += (size_t)snprintf(want + k, sizeof(want) - k, " %ld", n);
	return !strncmp(subject, want, k) && (subject[k] == '\0' || subject[k] == ' ');
}

static bool finding_on(const struct finding *f, enum target t, int pid, long n)
{
	char cpu[32];

	if (f->status == STATUS_PASS || f->status == STATUS_SKIP || !f->subject)
		return false;
	switch (t) {
	case ON_NOTHING:
		return false;
	case ON_CPU:
		if (f->pid)
			return false;
		snprintf(cpu, sizeof(cpu), "cpu %ld", n);
		return !strcmp(f->subject, cpu);
	case ON_PROC:
		if (f->pid != pid)
			return false;
		snprintf(cpu, sizeof(cpu), "pid %d", pid);
		return !strcmp(f->subject, cpu);
	case ON_FD:
		return f->pid == pid && subject_is(f->subject, pid, "fd", n);
	case ON_RING:	/* "pid P ring fd N ...", or a finding on its fd */
		return f->pid == pid && (subject_is(f->subject, pid, "ring fd", n) ||
					 subject_is(f->subject, pid, "fd", n));
	case ON_TID:
		return f->pid == pid && subject_is(f->subject, pid, "tid", n);
	}
	return false;
}

/* The worst status of the findings on a target, STATUS_PASS for none; first: its index. */
static enum check_status worst_on(const struct drawing *d, enum target t, int pid, long n,
				  size_t *first)
{
	enum check_status w = STATUS_PASS;
	size_t i;

	for (i = 0; i < d->r->nfindings; i++) {
		const struct finding *f = &d->r->findings[i];

		if (!finding_on(f, t, pid, n))
			continue;
		if (w == STATUS_PASS)
			*first = i;
		if (f->status > w)
			w = f->status;
	}
	return w;
}

/* The findings on a target as the lines of a tooltip. */
static void findings_title(const struct drawing *d, enum target t, int pid, long n)
{
	size_t i;

	for (i = 0; i < d->r->nfindings; i++) {
		const struct finding *f = &d->r->findings[i];

		if (!finding_on(f, t, pid, n))
			continue;
		fprintf(d->out, "\n%s %s: ", status_name(f->status), f->check->id);
		xml_put(d->out, f->message, 300, 0);
	}
}

/*
 * Opens an element's group: a link to its first finding when it has one,
 * its class (its level's outline), and its tooltip: what (text, escaped
 * here with flags) then the findings. Closed by close_item().
 */
static void open_item(struct drawing *d, enum target t, int pid, long n, const char *cls,
		      const char *what, unsigned int flags)
{
	size_t first = 0;
	enum check_status w = worst_on(d, t, pid, n, &first);

	if (w != STATUS_PASS)
		fprintf(d->out, "<a href=\"#f%zu\">", first);
	fprintf(d->out, "<g class=\"%s%s%s\"><title>", cls, w != STATUS_PASS ? " lvl-" : "",
		w != STATUS_PASS ? status_name(w) : "");
	xml_put(d->out, what, 0, flags);
	findings_title(d, t, pid, n);
	fputs("</title>", d->out);
}

static void close_item(struct drawing *d, enum target t, int pid, long n)
{
	size_t first = 0;

	fputs("</g>", d->out);
	if (worst_on(d, t, pid, n, &first) != STATUS_PASS)
		fputs("</a>", d->out);
	fputc('\n', d->out);
}

static void text(struct drawing *d, int x, int y, const char *cls, const char *s, size_t max,
		 unsigned int flags)
{
	fprintf(d->out, "<text x=\"%d\" y=\"%d\"%s%s%s>", x, y, cls ? " class=\"" : "",
		cls ? cls : "", cls ? "\"" : "");
	xml_put(d->out, s, max, flags);
	fputs("</text>", d->out);
}

/* --- the CPUs and their threads ----------------------------------------------------- */

struct chip {
	int pid;
	enum role role;
	int tid;		/* one thread; 0 for a folded chip */
	unsigned int count;
	const char *comm;	/* the thread's, or the process's for a folded one */
	char state;
};

static bool list_has(const char *list, unsigned int cpu)
{
	struct cpuset set;

	return list && !cpulist_parse(list, &set) && cpuset_has(&set, cpu);
}

static void place(struct drawing *d, int pid, int tid, int x, int y)
{
	struct placed *p;

	if (d->nplaced == d->capplaced) {
		size_t cap = d->capplaced ? 2 * d->capplaced : 64;

		p = realloc(d->placed, cap * sizeof(*p));
		if (!p)
			return;	/* a line less: the drawing still holds */
		d->placed = p;
		d->capplaced = cap;
	}
	d->placed[d->nplaced++] = (struct placed){ pid, tid, x, y };
}

static int by_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* The tids that submitted to a process's rings while watched (not SQPOLL), sorted; n of them. */
static long *submitters_of(struct json_object *proc, size_t *n)
{
	struct json_object *rings = get(get(proc, "watch"), "rings");
	size_t i, k, cap = 0;
	long *v = NULL;

	*n = 0;
	for (i = 0; i < len(rings); i++)
		cap += len(get(json_object_array_get_idx(rings, i), "submitters"));
	if (!cap || !(v = malloc(cap * sizeof(*v))))
		return NULL;
	for (i = 0; i < len(rings); i++) {
		struct json_object *subs = get(json_object_array_get_idx(rings, i), "submitters");

		for (k = 0; k < len(subs); k++) {
			struct json_object *sq, *one = json_object_array_get_idx(subs, k);

			sq = get(one, "sq_thread");
			if (sq && !json_object_get_boolean(sq))
				v[(*n)++] = num(one, "tid", -1);
		}
	}
	qsort(v, *n, sizeof(*v), by_long);
	return v;
}

static enum role role_of(struct json_object *t, const long *subs, size_t nsubs)
{
	const char *kind = str(t, "kind"), *state = str(t, "state");
	long tid = num(t, "tid", -1);

	if (state && state[0] == 'D')
		return ROLE_DSTATE;
	if (kind && !strcmp(kind, "iou-sqp"))
		return ROLE_SQPOLL;
	if (kind && !strcmp(kind, "iou-wrk"))
		return ROLE_IOWQ;
	return nsubs && bsearch(&tid, subs, nsubs, sizeof(*subs), by_long) ? ROLE_SUBMIT : ROLE_OTHER;
}

/* The thread table: each thread's role found once, not once a CPU. 0 or -ENOMEM. */
static int threads_read(struct drawing *d, struct json_object *procs)
{
	size_t p, i, total = 0, nsubs;

	for (p = 0; p < len(procs); p++)
		total += len(get(get(json_object_array_get_idx(procs, p), "threads"), "list"));
	if (total && !(d->thr = calloc(total, sizeof(*d->thr))))
		return -ENOMEM;
	for (p = 0; p < len(procs); p++) {
		struct json_object *proc = json_object_array_get_idx(procs, p);
		struct json_object *list = get(get(proc, "threads"), "list");
		long *subs = submitters_of(proc, &nsubs);

		for (i = 0; i < len(list); i++) {
			struct json_object *t = json_object_array_get_idx(list, i);
			const char *st = str(t, "state");

			d->thr[d->nthr++] = (struct thr){
				(int)num(proc, "pid", 0), (int)num(t, "tid", 0), (int)num(t, "cpu", -1),
				role_of(t, subs, nsubs), str(t, "comm"), str(proc, "comm"),
				st ? st[0] : 0 };
		}
		free(subs);
	}
	return 0;
}

/* The chips of one CPU: each thread with a role, folded past FOLD_AFTER a process and role. */
static size_t cpu_chips(const struct drawing *d, unsigned int cpu, struct chip *chips, size_t max,
			unsigned int *more)
{
	size_t n = 0, i = 0, j, k, c;

	*more = 0;
	while (i < d->nthr) {
		unsigned int per_role[ROLES] = { 0 };
		int pid = d->thr[i].pid;
		enum role r;

		for (j = i; j < d->nthr && d->thr[j].pid == pid; j++)
			if (d->thr[j].cpu == (int)cpu)
				per_role[d->thr[j].role]++;
		for (r = 0; r < ROLES; r++) {
			if (!per_role[r])
				continue;
			if (r == ROLE_OTHER || per_role[r] > FOLD_AFTER) {
				if (n < max)
					chips[n++] = (struct chip){ pid, r, 0, per_role[r], d->thr[i].pcomm,
								    0 };
				else
					*more += per_role[r];
				continue;
			}
			for (k = i; k < j; k++) {
				const struct thr *t = &d->thr[k];

				if (t->cpu != (int)cpu || t->role != r)
					continue;
				if (n < max)
					chips[n++] = (struct chip){ pid, r, t->tid, 1, t->comm, t->state };
				else
					(*more)++;
			}
		}
		i = j;
	}
	/* Chips with a role first, other threads last. */
	for (i = 0; i < n; i++)
		for (c = i + 1; c < n; c++)
			if (chips[c].role < chips[i].role) {
				struct chip tmp = chips[i];

				chips[i] = chips[c];
				chips[c] = tmp;
			}
	return n;
}

/* The device interrupts a CPU takes; shown: the first IRQS_SHOWN names. */
static unsigned int cpu_irqs(struct json_object *irqs, unsigned int cpu, char *names, size_t sz)
{
	unsigned int n = 0;
	size_t i, used = 0;

	names[0] = '\0';
	for (i = 0; i < len(irqs); i++) {
		struct json_object *q = json_object_array_get_idx(irqs, i);
		const char *name = str(q, "name");

		if (!list_has(str(q, "cpus"), cpu))
			continue;
		if (n++ < IRQS_SHOWN && used < sz)
			used += (size_t)snprintf(names + used, sz - used, "%s%s", used ? ", " : "",
						 name ? name : "?");
	}
	return n;
}

/* How tall a CPU's cell is: its header, badges, interrupts and chips. */
static int cell_height(size_t nchips, unsigned int more, unsigned int irqs)
{
	return 2 * LINE + 8 + (irqs ? LINE : 0) + (int)(nchips + (more ? 1 : 0)) * (LINE + 3) + 8;
}

static void draw_chip(struct drawing *d, const struct chip *c, int x, int y)
{
	char label[160], what[400];
	/* A folded chip stands for many threads: the findings are on them, or on the process. */
	enum target t = c->tid ? ON_TID : ON_NOTHING;
	long n = c->tid ? c->tid : c->pid;
	char *comm = escape_text(c->comm ? c->comm : "?", 40, ESCAPE_KEEP_BACKSLASH);

	if (c->tid)
		snprintf(label, sizeof(label), "%s %d", comm, c->tid);
	else if (c->role == ROLE_OTHER)
		snprintf(label, sizeof(label), "%u thread%s of %s %d", c->count,
			 c->count == 1 ? "" : "s", comm, c->pid);
	else
		snprintf(label, sizeof(label), "%s x%u (%s %d)", role_short[c->role], c->count, comm,
			 c->pid);
	/* The tooltip names the role, the thread and its process. */
	snprintf(what, sizeof(what), "%s: %s, pid %d%s", role_name[c->role], label, c->pid,
		 c->state == 'D' ? " (in D state)" : "");
	open_item(d, t, c->pid, n, role_class[c->role], what, ESCAPE_KEEP_BACKSLASH);
	fprintf(d->out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"3\"/>", x, y,
		CELL_W - 12, LINE + 1);
	text(d, x + 4, y + LINE - 3, NULL, label, CHARS(CELL_W - 12), ESCAPE_KEEP_BACKSLASH);
	close_item(d, t, c->pid, n);
	free(comm);
}

static void draw_cpu(struct drawing *d, struct json_object *cpuinfo, unsigned int cpu, int x, int y, int h, const struct chip *chips, size_t n,
		     unsigned int more)
{
	char label[64], badges[128] = "", irqs[256], what[512];
	unsigned int nirq = cpu_irqs(get(cpuinfo, "irqs"), cpu, irqs, sizeof(irqs));
	int cy = y + LINE + 2;
	size_t i, k;

	if (list_has(str(cpuinfo, "isolated"), cpu))
		strcat(badges, "isolated ");
	if (list_has(str(cpuinfo, "nohz_full"), cpu))
		strcat(badges, "nohz_full ");
	for (k = 0; k < len(get(cpuinfo, "numa_nodes")); k++) {
		struct json_object *node = json_object_array_get_idx(get(cpuinfo, "numa_nodes"), k);

		if (list_has(str(node, "cpus"), cpu))
			snprintf(badges + strlen(badges), sizeof(badges) - strlen(badges), "node %ld",
				 num(node, "node", 0));
	}
	snprintf(label, sizeof(label), "CPU %u", cpu);
	snprintf(what, sizeof(what), "CPU %u%s%s", cpu, nirq ? "; interrupts: " : "",
		 nirq ? irqs : "");
	open_item(d, ON_CPU, 0, cpu, list_has(str(cpuinfo, "isolated"), cpu) ? "cpu isolated"
										      : "cpu", what, ESCAPE_KEEP_BACKSLASH);
	fprintf(d->out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"5\"/>", x, y,
		CELL_W, h);
	text(d, x + 6, cy, "head", label, 0, 0);
	cy += LINE;
	text(d, x + 6, cy, "badge", badges[0] ? badges : "-", CHARS(CELL_W), 0);
	if (nirq) {
		char line[320];

		cy += LINE;
		snprintf(line, sizeof(line), "IRQ %s%s", irqs, nirq > IRQS_SHOWN ? " +more" : "");
		text(d, x + 6, cy, "irq", line, CHARS(CELL_W), ESCAPE_KEEP_BACKSLASH);
	}
	close_item(d, ON_CPU, 0, cpu);
	cy += 8;
	for (i = 0; i < n; i++, cy += LINE + 3) {
		draw_chip(d, &chips[i], x + 6, cy);
		/* Every thread a chip stands for is placed there, for its rings' lines. */
		if (chips[i].tid)
			place(d, chips[i].pid, chips[i].tid, x + CELL_W / 2, cy + LINE / 2);
		else if (chips[i].role != ROLE_OTHER)
			for (k = 0; k < d->nthr; k++)
				if (d->thr[k].pid == chips[i].pid && d->thr[k].cpu == (int)cpu &&
				    d->thr[k].role == chips[i].role)
					place(d, chips[i].pid, d->thr[k].tid, x + CELL_W / 2,
					      cy + LINE / 2);
	}
	if (more) {
		char line[64];

		snprintf(line, sizeof(line), "+%u more threads", more);
		text(d, x + 10, cy + LINE - 3, "more", line, 0, 0);
	}
}

/* The CPUs that are drawn: the online ones, else 0..cpus-1. */
static unsigned int cpu_list(struct json_object *host, struct cpuset *set)
{
	const char *online = str(get(host, "cpu"), "online");
	long cpus = num(host, "cpus", 0);

	memset(set, 0, sizeof(*set));
	if (!online || cpulist_parse(online, set) || !cpuset_count(set))
		for (long c = 0; c < cpus && c < CPULIST_MAX; c++)
			cpuset_set(set, (unsigned int)c);
	return cpuset_count(set);
}

static void draw_cpus(struct drawing *d, struct json_object *host)
{
	struct json_object *cpuinfo = get(host, "cpu");
	struct chip chips[CHIPS_MAX];
	struct cpuset set;
	unsigned int ncpu = cpu_list(host, &set), cols, c, col = 0, more;
	unsigned int row_cpus[COLS_MAX];
	int row_h = 0;

	cols = ncpu < COLS_MAX ? (ncpu ? ncpu : 1) : COLS_MAX;
	d->width = 2 * MARGIN + (int)cols * (CELL_W + GAP) - GAP;
	/* Room for three rings side by side, and the titles, however few the CPUs. */
	if (d->width < 2 * MARGIN + 3 * RING_W + 2 * GAP)
		d->width = 2 * MARGIN + 3 * RING_W + 2 * GAP;
	text(d, MARGIN, d->y + LINE, "title", "CPUs: where the threads last ran, and the device "
	     "interrupts each takes", 0, 0);
	d->y += LINE + 10;
	/* A row at a time: its height is its tallest cell's. */
	for (c = 0; c < CPULIST_MAX; c++) {
		bool last;

		if (!cpuset_has(&set, c))
			continue;
		row_cpus[col++] = c;
		last = col == cols;
		for (unsigned int k = c + 1; !last && k < CPULIST_MAX; k++)
			if (cpuset_has(&set, k))
				goto next;
		last = true;
next:
		if (!last)
			continue;
		row_h = 0;
		for (unsigned int k = 0; k < col; k++) {
			char irqs[8];
			size_t n = cpu_chips(d, row_cpus[k], chips, CHIPS_MAX, &more);
			int h = cell_height(n, more, cpu_irqs(get(cpuinfo, "irqs"), row_cpus[k], irqs,
							       sizeof(irqs)));

			row_h = h > row_h ? h : row_h;
		}
		for (unsigned int k = 0; k < col; k++) {
			size_t n = cpu_chips(d, row_cpus[k], chips, CHIPS_MAX, &more);

			draw_cpu(d, cpuinfo, row_cpus[k], MARGIN + (int)k * (CELL_W + GAP), d->y,
				 row_h, chips, n, more);
		}
		d->y += row_h + GAP;
		col = 0;
	}
}

/* --- the rings and files of each process -------------------------------------------- */

static struct json_object *watch_ring_of(struct json_object *proc, long fd)
{
	struct json_object *rings = get(get(proc, "watch"), "rings");
	size_t i;

	for (i = 0; i < len(rings); i++) {
		struct json_object *wr = json_object_array_get_idx(rings, i);

		if (num(wr, "matched_fd", -1) == fd)
			return wr;
	}
	return NULL;
}

static void line_to_threads(struct drawing *d, int pid, struct json_object *wr,
			    struct json_object *ring, int x, int y)
{
	struct json_object *subs = get(wr, "submitters");
	long sq = num(get(ring, "sqpoll"), "tid", -1);
	size_t i, k;

	for (k = 0; k < d->nplaced; k++) {
		const struct placed *p = &d->placed[k];
		bool mine = p->pid == pid && p->tid == sq;

		for (i = 0; !mine && i < len(subs); i++)
			mine = p->pid == pid && num(json_object_array_get_idx(subs, i), "tid", -1) == p->tid;
		if (mine)
			fprintf(d->out, "<line class=\"link\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
				x, y, p->x, p->y);
	}
}

static void draw_ring(struct drawing *d, struct json_object *proc, struct json_object *ring,
		      int x, int y)
{
	int pid = (int)num(proc, "pid", 0);
	long fd = num(ring, "fd", -1);
	struct json_object *wr = watch_ring_of(proc, fd), *sq = get(ring, "sqpoll");
	struct json_object *flags = get(get(wr, "setup"), "flags"), *fill = get(wr, "fill");
	char l[5][256], what[1400];
	size_t i, used = 0;

	snprintf(l[0], sizeof(l[0]), "ring fd %ld: SQ %ld, CQ %ld", fd, num(ring, "sq_entries", 0),
		 num(ring, "cq_entries", 0));
	used = (size_t)snprintf(l[1], sizeof(l[1]), "setup: ");
	for (i = 0; i < len(flags) && used < sizeof(l[1]); i++) {
		const char *name = json_object_get_string(json_object_array_get_idx(flags, i));

		used += (size_t)snprintf(l[1] + used, sizeof(l[1]) - used, "%s%s", i ? "," : "",
					 name ? name : "?");
	}
	if (!wr)
		snprintf(l[1], sizeof(l[1]), "setup: not watched");
	else if (!get(wr, "setup"))
		snprintf(l[1], sizeof(l[1]), "setup: made before the watch");
	else if (!len(flags))
		snprintf(l[1], sizeof(l[1]), "setup: no flags");
	if (sq)
		snprintf(l[2], sizeof(l[2]), "SQPOLL thread %ld on CPU %ld", num(sq, "tid", 0),
			 num(sq, "cpu", -1));
	else
		snprintf(l[2], sizeof(l[2]), "%zu submitting thread%s", len(get(wr, "submitters")),
			 len(get(wr, "submitters")) == 1 ? "" : "s");
	if (wr && num(wr, "requests", 0) > 0)
		snprintf(l[3], sizeof(l[3]), "%ld requests, %ld punted (%.1f%%)",
			 num(wr, "requests", 0), num(wr, "punts", 0),
			 100.0 * (double)num(wr, "punts", 0) / (double)num(wr, "requests", 1));
	else
		snprintf(l[3], sizeof(l[3]), wr ? "no request while watched" : "requests: not watched");
	if (fill && num(fill, "readings", 0) > 0)
		snprintf(l[4], sizeof(l[4]), "CQ fill p99 %ld of %ld", num(fill, "cq_p99", 0),
			 num(fill, "cq_entries", 0));
	else
		snprintf(l[4], sizeof(l[4]), "CQ fill: not read");
	snprintf(what, sizeof(what), "pid %d %s; %s; %s; %s; %s", pid, l[0], l[1], l[2], l[3], l[4]);
	open_item(d, ON_RING, pid, fd, "ring", what, 0);
	fprintf(d->out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"5\"/>", x, y,
		RING_W, 5 * LINE + 10);
	for (i = 0; i < 5; i++)
		text(d, x + 6, y + (int)(i + 1) * LINE + 2, i ? NULL : "head", l[i], CHARS(RING_W), 0);
	close_item(d, ON_RING, pid, fd);
	line_to_threads(d, pid, wr, ring, x + RING_W / 2, y);
}

static void draw_file(struct drawing *d, int pid, long fd, const char *path, const char *counts,
		      int x, int y)
{
	char line[4400];

	snprintf(line, sizeof(line), "fd %ld %s%s", fd, path ? path : "(closed)", counts);
	open_item(d, ON_FD, pid, fd, "file", line, ESCAPE_KEEP_BACKSLASH);
	fprintf(d->out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"3\"/>", x, y,
		d->width - x - MARGIN, LINE + 1);
	text(d, x + 4, y + LINE - 3, NULL, line, CHARS(d->width - x - MARGIN), ESCAPE_KEEP_BACKSLASH);
	close_item(d, ON_FD, pid, fd);
}

/*
 * The files the watch saw requests on, then any other file a finding is
 * about (a registered file the tracepoints name no fd for, a file judged
 * by its flags): FILES_MAX at most. Returns how many were drawn.
 */
static size_t draw_files(struct drawing *d, struct json_object *proc, int x, int y)
{
	struct json_object *seen = get(get(proc, "watch"), "files"), *files = get(proc, "files");
	int pid = (int)num(proc, "pid", 0);
	size_t i, k, n = 0, first;

	for (i = 0; i < len(seen) && n < FILES_MAX; i++, n++) {
		struct json_object *f = json_object_array_get_idx(seen, i);
		char counts[96];

		snprintf(counts, sizeof(counts), ": %ld requests, %ld punted",
			 num(f, "requests", 0), num(f, "punts", 0));
		draw_file(d, pid, num(f, "fd", -1), str(f, "path"), counts, x,
			  y + (int)n * (LINE + 3));
	}
	for (i = 0; i < len(files) && n < FILES_MAX; i++) {
		struct json_object *f = json_object_array_get_idx(files, i);
		long fd = num(f, "fd", -1);
		bool drawn = false;

		for (k = 0; k < len(seen); k++)
			drawn |= num(json_object_array_get_idx(seen, k), "fd", -2) == fd;
		if (drawn || worst_on(d, ON_FD, pid, fd, &first) == STATUS_PASS)
			continue;
		draw_file(d, pid, fd, str(f, "path"), "", x, y + (int)n * (LINE + 3));
		n++;
	}
	return n;
}

static void draw_process(struct drawing *d, struct json_object *proc)
{
	struct json_object *rings = get(proc, "rings");
	int pid = (int)num(proc, "pid", 0), cols, x = MARGIN;
	const char *comm = str(proc, "comm"), *unit = str(proc, "unit"), *ctr = str(proc, "container");
	char head[512];
	size_t i, nrings = len(rings), nfiles;

	snprintf(head, sizeof(head), "pid %d %s%s%s%s%s: %zu ring%s, %zu thread%s", pid,
		 comm ? comm : "?", unit ? " in " : "", unit ? unit : "", ctr ? " in " : "",
		 ctr ? ctr : "", nrings, nrings == 1 ? "" : "s",
		 len(get(get(proc, "threads"), "list")),
		 len(get(get(proc, "threads"), "list")) == 1 ? "" : "s");
	open_item(d, ON_PROC, pid, pid, "proc", head, ESCAPE_KEEP_BACKSLASH);
	text(d, MARGIN, d->y + LINE, "head", head, CHARS(d->width - 2 * MARGIN),
	     ESCAPE_KEEP_BACKSLASH);
	close_item(d, ON_PROC, pid, pid);
	d->y += LINE + 8;
	cols = (d->width - 2 * MARGIN + GAP) / (RING_W + GAP);
	cols = cols < 1 ? 1 : cols;
	for (i = 0; i < nrings && i < RINGS_MAX; i++) {
		if (i && i % (size_t)cols == 0) {
			d->y += 5 * LINE + 10 + GAP;
			x = MARGIN;
		}
		draw_ring(d, proc, json_object_array_get_idx(rings, i), x, d->y);
		x += RING_W + GAP;
	}
	if (nrings)
		d->y += 5 * LINE + 10 + GAP;
	if (nrings > RINGS_MAX) {
		char more[64];

		snprintf(more, sizeof(more), "+%zu more rings", nrings - RINGS_MAX);
		text(d, MARGIN, d->y + LINE - 3, "more", more, 0, 0);
		d->y += LINE + 3;
	}
	nfiles = draw_files(d, proc, MARGIN, d->y);
	if (nfiles)
		d->y += (int)nfiles * (LINE + 3) + GAP;
	d->y += GAP;
}

int html_drawing_write(FILE *out, const struct report *r, struct json_object *host,
		       struct json_object *procs)
{
	struct drawing d = { .r = r, .y = MARGIN };
	char *body = NULL;
	size_t blen = 0, i;
	int err = 0;

	d.out = open_memstream(&body, &blen);
	if (!d.out)
		return -ENOMEM;
	if (threads_read(&d, procs)) {
		fclose(d.out);
		free(body);
		return -ENOMEM;
	}
	draw_cpus(&d, host);
	if (len(procs)) {
		d.y += GAP;
		text(&d, MARGIN, d.y + LINE, "title", "Processes: rings and files (a line joins a ring "
		     "to the threads that submit to it)", 0, 0);
		d.y += LINE + 12;
	}
	for (i = 0; i < len(procs); i++)
		draw_process(&d, json_object_array_get_idx(procs, i));
	if (fclose(d.out)) {
		free(body);
		free(d.placed);
		free(d.thr);
		return -ENOMEM;
	}
	if (fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		    "viewBox=\"0 0 %d %d\" role=\"img\">\n", d.width, d.y + MARGIN, d.width,
		    d.y + MARGIN) < 0 ||
	    fwrite(body, 1, blen, out) != blen || fputs("</svg>\n", out) == EOF)
		err = -EIO;
	free(body);
	free(d.placed);
	free(d.thr);
	return err;
}
