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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html_drawing.h"
#include "html_layout.h"
#include "xml_put.h"

/* --- findings on what is drawn ------------------------------------------------------ */


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

enum check_status dr_worst_on(const struct drawing *d, enum target t, int pid, long n,
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

void dr_open_item(struct drawing *d, enum target t, int pid, long n, const char *cls,
		  const char *what, unsigned int flags)
{
	size_t first = 0;
	enum check_status w = dr_worst_on(d, t, pid, n, &first);

	const char *lvl = w == STATUS_PASS ? "" : status_name(w);

	if (d->unmeasured && (w == STATUS_FAIL || w == STATUS_ERROR))
		lvl = "unmeasured";
	if (w != STATUS_PASS)
		fprintf(d->out, "<a href=\"#f%zu\">", first);
	fprintf(d->out, "<g class=\"%s%s%s\"><title>", cls, *lvl ? " lvl-" : "", lvl);
	xml_put(d->out, what, 0, flags);
	findings_title(d, t, pid, n);
	fputs("</title>", d->out);
}

void dr_close_item(struct drawing *d, enum target t, int pid, long n)
{
	size_t first = 0;

	fputs("</g>", d->out);
	if (dr_worst_on(d, t, pid, n, &first) != STATUS_PASS)
		fputs("</a>", d->out);
	fputc('\n', d->out);
}

void dr_text(struct drawing *d, int x, int y, const char *cls, const char *s, size_t max,
	     unsigned int flags)
{
	fprintf(d->out, "<text x=\"%d\" y=\"%d\"%s%s%s>", x, y, cls ? " class=\"" : "",
		cls ? cls : "", cls ? "\"" : "");
	xml_put(d->out, s, max, flags);
	fputs("</text>", d->out);
}

int html_drawing_write(FILE *out, const struct report *r, struct json_object *host,
		       struct json_object *procs)
{
	struct drawing d = { .r = r, .procs = procs, .y = MARGIN };
	char *body = NULL;
	size_t blen = 0, i;
	int err = 0;

	d.out = open_memstream(&body, &blen);
	if (!d.out)
		return -ENOMEM;
	if (dr_threads_read(&d, procs)) {
		fclose(d.out);
		free(body);
		return -ENOMEM;
	}
	dr_draw_cpus(&d, host);
	dr_draw_devices(&d);
	if (len(procs)) {
		d.y += GAP;
		dr_text(&d, MARGIN, d.y + LINE, "title", len(procs) <= LINK_PROCS_MAX ?
			"Processes: rings and files (a line joins a ring to the threads that submit "
			"to it)" : "Processes: rings and files (each ring names the thread that "
			"submits to it and its CPU)", 0, 0);
		d.y += LINE + 12;
	}
	for (i = 0; i < len(procs); i++)
		dr_draw_process(&d, json_object_array_get_idx(procs, i));
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
