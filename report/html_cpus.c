// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The drawing's CPU grid (html_layout.h): each CPU with its flags and the
 * interrupts it takes, and the threads that last ran there as chips, by
 * role, folded where they repeat.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "output.h"
#include "html_layout.h"
#include "xml_put.h"

static const char *const role_name[ROLES] = { "submitter", "SQPOLL", "io-wq worker", "D state",
					      "other threads" };
/* Short, for a folded chip's label: "io-wq x60 (db 100)". */
static const char *const role_short[ROLES] = { "submitters", "SQPOLL", "io-wq", "in D", "other" };
static const char *const role_class[ROLES] = { "submit", "sqpoll", "iowq", "dstate", "other" };

/* --- the CPUs and their threads ----------------------------------------------------- */

struct chip {
	int pid;
	enum role role;
	int tid;		/* one thread; 0 for a folded chip */
	unsigned int count;
	const char *comm;	/* the thread's, or the process's for a folded one */
	char state;
	unsigned int procs;	/* other threads of this many processes in one chip; 0: of pid */
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
int dr_threads_read(struct drawing *d, struct json_object *procs)
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
								    0, 0 };
				else
					*more += per_role[r];
				continue;
			}
			for (k = i; k < j; k++) {
				const struct thr *t = &d->thr[k];

				if (t->cpu != (int)cpu || t->role != r)
					continue;
				if (n < max)
					chips[n++] = (struct chip){ pid, r, t->tid, 1, t->comm, t->state, 0 };
				else
					(*more)++;
			}
		}
		i = j;
	}
	/*
	 * The other threads of many processes on one CPU are one chip: ten
	 * processes' "1 thread of ..." would fill the cell and say nothing.
	 */
	for (i = 0, c = 0; i < n; i++)
		c += chips[i].role == ROLE_OTHER;
	if (c >= FOLD_AFTER) {
		struct chip other = { 0, ROLE_OTHER, 0, 0, NULL, 0, 0 };

		for (i = 0, k = 0; i < n; i++) {
			if (chips[i].role == ROLE_OTHER) {
				other.count += chips[i].count;
				other.procs++;
				continue;
			}
			chips[k++] = chips[i];
		}
		chips[k++] = other;
		n = k;
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

/*
 * The CPU's shares over the watch, as the scene of the first process that
 * measured it gives them (each process's scene reads the same /proc/stat
 * line of that CPU): "us/sy/wa/st 41/55/0/0%", false none.
 */
static bool cpu_scene(const struct drawing *d, unsigned int cpu, char *line, size_t sz)
{
	size_t p, i;

	for (p = 0; p < len(d->procs); p++) {
		struct json_object *sc = get(json_object_array_get_idx(d->procs, p), "scene");
		struct json_object *list = get(get(sc, "cpus"), "list");

		if (!sc || !json_object_get_boolean(get(sc, "measured")))
			continue;
		for (i = 0; i < len(list); i++) {
			struct json_object *c = json_object_array_get_idx(list, i);

			if (num(c, "cpu", -1) != (long)cpu)
				continue;
			snprintf(line, sz, "us/sy/wa/st %.0f/%.0f/%.0f/%.0f%%", dbl(c, "us"),
				 dbl(c, "sy"), dbl(c, "wa"), dbl(c, "st"));
			return true;
		}
	}
	return false;
}

/* How tall a CPU's cell is: its header, badges, interrupts, scene and chips. */
static int cell_height(size_t nchips, unsigned int more, unsigned int irqs, bool scene)
{
	return 2 * LINE + 8 + (irqs ? LINE : 0) + (scene ? LINE : 0) +
	       (int)(nchips + (more ? 1 : 0)) * (LINE + 3) + 8;
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
	else if (c->procs)
		snprintf(label, sizeof(label), "%u threads of %u processes", c->count, c->procs);
	else if (c->role == ROLE_OTHER)
		snprintf(label, sizeof(label), "%u thread%s of %s %d", c->count,
			 c->count == 1 ? "" : "s", comm, c->pid);
	else
		snprintf(label, sizeof(label), "%s x%u (%s %d)", role_short[c->role], c->count, comm,
			 c->pid);
	/* The tooltip names the role, the thread and its process. */
	snprintf(what, sizeof(what), "%s: %s, pid %d%s", role_name[c->role], label, c->pid,
		 c->state == 'D' ? " (in D state)" : "");
	dr_open_item(d, t, c->pid, n, role_class[c->role], what, ESCAPE_KEEP_BACKSLASH);
	fprintf(d->out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"3\"/>", x, y,
		CELL_W - 12, LINE + 1);
	dr_text(d, x + 4, y + LINE - 3, NULL, label, CHARS(CELL_W - 12), ESCAPE_KEEP_BACKSLASH);
	dr_close_item(d, t, c->pid, n);
	free(comm);
}

static void draw_cpu(struct drawing *d, struct json_object *cpuinfo, unsigned int cpu, int x, int y, int h, const struct chip *chips, size_t n,
		     unsigned int more)
{
	char label[64], badges[128] = "", irqs[256], what[640], scene[128];
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
	if (cpu_scene(d, cpu, scene, sizeof(scene)))
		snprintf(what + strlen(what), sizeof(what) - strlen(what), "; over the watch: %s",
			 scene);
	dr_open_item(d, ON_CPU, 0, cpu, list_has(str(cpuinfo, "isolated"), cpu) ? "cpu isolated"
		     : "cpu", what, ESCAPE_KEEP_BACKSLASH);
	fprintf(d->out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"5\"/>", x, y,
		CELL_W, h);
	dr_text(d, x + 6, cy, "head", label, 0, 0);
	cy += LINE;
	dr_text(d, x + 6, cy, "badge", badges[0] ? badges : "-", CHARS(CELL_W), 0);
	if (nirq) {
		char line[320];

		cy += LINE;
		snprintf(line, sizeof(line), "IRQ %s%s", irqs, nirq > IRQS_SHOWN ? " +more" : "");
		dr_text(d, x + 6, cy, "irq", line, CHARS(CELL_W), ESCAPE_KEEP_BACKSLASH);
	}
	if (cpu_scene(d, cpu, scene, sizeof(scene))) {
		cy += LINE;
		dr_text(d, x + 6, cy, "scene", scene, CHARS(CELL_W), 0);
	}
	dr_close_item(d, ON_CPU, 0, cpu);
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
		dr_text(d, x + 10, cy + LINE - 3, "more", line, 0, 0);
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

void dr_draw_cpus(struct drawing *d, struct json_object *host)
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
	dr_text(d, MARGIN, d->y + LINE, "title", "CPUs: where the threads last ran, and the device "
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
			char scene[128];
			int h = cell_height(n, more, cpu_irqs(get(cpuinfo, "irqs"), row_cpus[k], irqs,
							       sizeof(irqs)),
					    cpu_scene(d, row_cpus[k], scene, sizeof(scene)));

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


/*
 * The devices under the processes' files as the scene measured them over
 * the watch (iostat -x's numbers), each once: a box a device, in rows as
 * the CPUs are. The scene's table below has every process's.
 */
void dr_draw_devices(struct drawing *d)
{
	const char *seen[COLS_MAX * 4];
	size_t nseen = 0, p, i, k;
	int x = MARGIN, cols = (d->width - 2 * MARGIN + GAP) / (CELL_W + GAP), col = 0;
	const int h = 4 * LINE + 10;

	for (p = 0; p < len(d->procs); p++) {
		struct json_object *sc = get(json_object_array_get_idx(d->procs, p), "scene");
		struct json_object *devs = get(sc, "devices");

		if (!sc || !json_object_get_boolean(get(sc, "measured")))
			continue;
		for (i = 0; i < len(devs) && nseen < sizeof(seen) / sizeof(seen[0]); i++) {
			struct json_object *dv = json_object_array_get_idx(devs, i);
			const char *name = str(dv, "name"), *role = str(dv, "role");
			char l[4][96], what[512];

			for (k = 0; name && k < nseen && strcmp(seen[k], name); k++)
				;
			if (!name || k < nseen)
				continue;
			if (!nseen) {
				d->y += GAP;
				dr_text(d, MARGIN, d->y + LINE, "title", "Devices: what iostat showed over "
					"the watch", 0, 0);
				d->y += LINE + 10;
			}
			seen[nseen++] = name;
			if (col == cols) {
				d->y += h + GAP;
				x = MARGIN;
				col = 0;
			}
			snprintf(l[0], sizeof(l[0]), "%s%s%s%s", name, role ? " (" : "", role ? role : "",
				 role ? ")" : "");
			snprintf(l[1], sizeof(l[1]), "%%util %.1f aqu-sz %.2f", dbl(dv, "util_pct"),
				 dbl(dv, "aqu_sz"));
			snprintf(l[2], sizeof(l[2]), "r %.0f/s w %.0f/s", dbl(dv, "r_s"), dbl(dv, "w_s"));
			snprintf(l[3], sizeof(l[3]), "await r %.2f w %.2f ms", dbl(dv, "r_await_ms"),
				 dbl(dv, "w_await_ms"));
			snprintf(what, sizeof(what), "device %s; %s; %s; %s; %.0f kB/s read, %.0f kB/s "
				 "written", l[0], l[1], l[2], l[3], dbl(dv, "rkb_s"), dbl(dv, "wkb_s"));
			fprintf(d->out, "<g class=\"device\"><title>");
			xml_put(d->out, what, 0, ESCAPE_KEEP_BACKSLASH);
			fprintf(d->out, "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
				"rx=\"5\"/>", x, d->y, CELL_W, h);
			for (k = 0; k < 4; k++)
				dr_text(d, x + 6, d->y + (int)(k + 1) * LINE + 2, k ? "scene" : "head", l[k],
					CHARS(CELL_W), ESCAPE_KEEP_BACKSLASH);
			fputs("</g>\n", d->out);
			x += CELL_W + GAP;
			col++;
		}
	}
	if (nseen)
		d->y += h + GAP;
}
