// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The drawing's processes (html_layout.h): each one's heading, its rings
 * (setup, fill, punt share, a line to each thread that submits) and the
 * files the watch saw.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "html_layout.h"

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

/*
 * "submitter tid 8367 on CPU 1": the ring names its thread and where it
 * last ran, so the ring reads without its line to the CPU (drawn only for
 * a few processes).
 */
static void submitter_line(const struct drawing *d, int pid, struct json_object *sub, char *line,
			   size_t sz)
{
	long tid = num(sub, "tid", -1);
	size_t k;

	for (k = 0; k < d->nthr; k++)
		if (d->thr[k].pid == pid && d->thr[k].tid == tid && d->thr[k].cpu >= 0) {
			snprintf(line, sz, "submitter tid %ld on CPU %d", tid, d->thr[k].cpu);
			return;
		}
	snprintf(line, sz, "submitter tid %ld", tid);
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
	else if (len(get(wr, "submitters")) == 1)
		submitter_line(d, pid, json_object_array_get_idx(get(wr, "submitters"), 0), l[2],
			       sizeof(l[2]));
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
	dr_open_item(d, ON_RING, pid, fd, "ring", what, 0);
	fprintf(d->out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"5\"/>", x, y,
		RING_W, 5 * LINE + 10);
	for (i = 0; i < 5; i++)
		dr_text(d, x + 6, y + (int)(i + 1) * LINE + 2, i ? NULL : "head", l[i], CHARS(RING_W), 0);
	dr_close_item(d, ON_RING, pid, fd);
	/* Past a few processes the lines cross every ring: the ring names its thread instead. */
	if (len(d->procs) <= LINK_PROCS_MAX)
		line_to_threads(d, pid, wr, ring, x + RING_W / 2, y);
}

/* measured: the watch saw requests on the file; only then can it be drawn red. */
static void draw_file(struct drawing *d, int pid, long fd, const char *path, const char *counts,
		      int x, int y, bool measured)
{
	char line[4400];

	snprintf(line, sizeof(line), "fd %ld %s%s", fd, path ? path : "(closed)", counts);
	d->unmeasured = !measured;
	dr_open_item(d, ON_FD, pid, fd, "file", line, ESCAPE_KEEP_BACKSLASH);
	d->unmeasured = false;
	fprintf(d->out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"3\"/>", x, y,
		d->width - x - MARGIN, LINE + 1);
	dr_text(d, x + 4, y + LINE - 3, NULL, line, CHARS(d->width - x - MARGIN), ESCAPE_KEEP_BACKSLASH);
	dr_close_item(d, ON_FD, pid, fd);
}

/*
 * Whether a finding of pid measured punts on path: a registered file's, which
 * the tracepoints name by the ring's table rather than by fd.
 */
static bool punts_measured(const struct drawing *d, int pid, const char *path)
{
	size_t i;

	for (i = 0; path && i < d->r->nfindings; i++) {
		const struct finding *f = &d->r->findings[i];
		const char *p = str(f->evidence, "path");
		size_t ls = strlen(f->subject), lp = strlen(path);
		/* file-punts names a registered file in its subject: "... registered file PATH" */
		bool named = (p && !strcmp(p, path)) ||
			     (ls > lp && f->subject[ls - lp - 1] == ' ' && !strcmp(f->subject + ls - lp, path));

		if (f->pid == pid && named && num(f->evidence, "punts", 0) > 0)
			return true;
	}
	return false;
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
			  y + (int)n * (LINE + 3), num(f, "requests", 0) > 0);
	}
	for (i = 0; i < len(files) && n < FILES_MAX; i++) {
		struct json_object *f = json_object_array_get_idx(files, i);
		long fd = num(f, "fd", -1);
		bool drawn = false;

		for (k = 0; k < len(seen); k++)
			drawn |= num(json_object_array_get_idx(seen, k), "fd", -2) == fd;
		if (drawn || dr_worst_on(d, ON_FD, pid, fd, &first) == STATUS_PASS)
			continue;
		draw_file(d, pid, fd, str(f, "path"), "", x, y + (int)n * (LINE + 3),
			  punts_measured(d, pid, str(f, "path")));
		n++;
	}
	return n;
}

void dr_draw_process(struct drawing *d, struct json_object *proc)
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
	dr_open_item(d, ON_PROC, pid, pid, "proc", head, ESCAPE_KEEP_BACKSLASH);
	dr_text(d, MARGIN, d->y + LINE, "head", head, CHARS(d->width - 2 * MARGIN),
		ESCAPE_KEEP_BACKSLASH);
	dr_close_item(d, ON_PROC, pid, pid);
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
		dr_text(d, MARGIN, d->y + LINE - 3, "more", more, 0, 0);
		d->y += LINE + 3;
	}
	nfiles = draw_files(d, proc, MARGIN, d->y);
	if (nfiles)
		d->y += (int)nfiles * (LINE + 3) + GAP;
	d->y += GAP;
}

