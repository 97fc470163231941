// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The node_exporter textfile-collector format (Prometheus text exposition
 * 0.0.4): one series per finding, the report's measured numbers (metrics.h:
 * the probes fill them from their own results), and the run's time.
 */
#include <errno.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "output.h"
#include "version.h"
#include "writer.h"
#include "xalloc.h"

/*
 * A label value from a subject that may quote a name from the host: shown
 * as in text output (lib/output/escape.c), so UTF-8 with no control character, and
 * bounded, since every distinct value is a series a collector keeps.
 */
#define LABEL_MAX 512

/*
 * Series per check and process: a process with thousands of files would
 * give a fail series per file. Past this many, the rest of one check's
 * findings on one process fold into a single series with the worst status
 * ("pid 42 (others)"); the full list stays in the text and JSON reports.
 * So a run has at most checks x (directories + processes x (FOLD_AFTER + 1))
 * series, whatever the number of files.
 */
#define FOLD_AFTER 10

static char *label_of(const char *s)
{
	return escape_text(s, LABEL_MAX, 0);
}

/* The exposition format's own escapes: backslash, double quote, newline. */
static void put_label(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', out);
		if (*s == '\n') {
			fputs("\\n", out);
			continue;
		}
		fputc(*s, out);
	}
}

static int status_value(enum check_status st)
{
	switch (st) {
	case STATUS_PASS:
		return 0;
	case STATUS_WARN:
		return 1;
	case STATUS_FAIL:
		return 2;
	case STATUS_SKIP:
		return -1;
	case STATUS_INFO:
		return 4;
	default:
		return 3;
	}
}

static bool same_run(const struct finding *a, const struct finding *b)
{
	return a->check == b->check && a->pid == b->pid && a->pid > 0;
}

/* The report's measured numbers (metrics.h), each family under its HELP and TYPE. */
static void write_metrics(FILE *out, const struct metrics *m)
{
	size_t f, i;

	for (f = 0; f < m->nfam; f++) {
		const struct metric_family *fam = &m->fam[f];

		fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", fam->name, fam->help, fam->name,
			metric_type_name(fam->type));
		for (i = 0; i < m->ns; i++) {
			const struct metric_sample *s = &m->s[i];

			if (s->family != f)
				continue;
			if (s->labels[0])
				fprintf(out, "%s{%s} %.17g\n", fam->name, s->labels, s->value);
			else
				fprintf(out, "%s %.17g\n", fam->name, s->value);
		}
	}
}

/*
 * A finding's series: its subject, and for a process, who runs it. A
 * process of a service loses its pid from the subject: the unit names it,
 * and a restart would otherwise start a new series (the pid stays in the
 * text and JSON reports). Scopes, sessions and containers keep the pid,
 * since their names are as short-lived as it is. Two processes of one
 * service (a unit that forks workers, each with rings) would then be one
 * series twice: each gets a pid label, and only those, so a service of one
 * process keeps its series across restarts.
 */
struct series {
	char *subject;			/* escaped as a label value */
	const char *unit, *container;	/* "" none */
	int pid;			/* the pid label; 0 none */
};

/* The owners by pid, for a lookup per finding. */
struct owner_ix {
	const struct report_owner *o;
	bool shared;			/* a service another process of the report runs in too */
};

struct owners {
	struct owner_ix *v;
	size_t n;
};

static int by_pid(const void *a, const void *b)
{
	const struct owner_ix *x = a, *y = b;

	return (x->o->pid > y->o->pid) - (x->o->pid < y->o->pid);
}

static int by_unit(const void *a, const void *b)
{
	const struct owner_ix *x = a, *y = b;
	int d = strcmp(x->o->unit, y->o->unit);

	return d ? d : strcmp(x->o->container, y->o->container);
}

static void owners_index(const struct report *r, struct owners *ix)
{
	size_t i;

	ix->n = r->nowners;
	ix->v = ix->n ? xcalloc(ix->n, sizeof(*ix->v)) : NULL;
	for (i = 0; i < ix->n; i++)
		ix->v[i].o = &r->owners[i];
	if (!ix->n)
		return;
	/* Neighbours by unit and container are the processes of one service. */
	qsort(ix->v, ix->n, sizeof(*ix->v), by_unit);
	for (i = 1; i < ix->n; i++)
		if (ix->v[i].o->stable && ix->v[i - 1].o->stable && !by_unit(&ix->v[i], &ix->v[i - 1]) &&
		    ix->v[i].o->pid != ix->v[i - 1].o->pid)
			ix->v[i].shared = ix->v[i - 1].shared = true;
	qsort(ix->v, ix->n, sizeof(*ix->v), by_pid);
}

static const struct owner_ix *owner_find(const struct owners *ix, int pid)
{
	struct report_owner key_owner = { .pid = pid };
	struct owner_ix key = { .o = &key_owner };

	if (pid <= 0 || !ix->n)
		return NULL;
	return bsearch(&key, ix->v, ix->n, sizeof(*ix->v), by_pid);
}

static void series_of(const struct owners *ix, const struct finding *f, const char *subject,
		      bool keep_pid, struct series *s)
{
	const struct owner_ix *hit = owner_find(ix, f->pid);
	const struct report_owner *o = hit ? hit->o : NULL;
	char prefix[32];
	size_t n;

	s->unit = o ? o->unit : "";
	s->container = o ? o->container : "";
	s->pid = hit && hit->shared ? f->pid : 0;
	n = (size_t)snprintf(prefix, sizeof(prefix), "pid %d", f->pid);
	if (o && o->stable && !keep_pid && !strncmp(subject, prefix, n) &&
	    (!subject[n] || subject[n] == ' '))
		subject = subject[n] ? subject + n + 1 : "process";
	s->subject = label_of(subject);
}

static void put_owner(FILE *out, const struct series *s)
{
	char *v;

	if (s->unit[0]) {
		v = label_of(s->unit);
		fputs(",unit=\"", out);
		put_label(out, v);
		fputc('"', out);
		free(v);
	}
	if (s->container[0]) {
		v = label_of(s->container);
		fputs(",container=\"", out);
		put_label(out, v);
		fputc('"', out);
		free(v);
	}
	if (s->pid > 0)
		fprintf(out, ",pid=\"%d\"", s->pid);
}

/*
 * A finding's labels, between the braces; number > 1 marks the subject as
 * the number-th series of that name. NULL when out of memory.
 */
static char *series_labels(const struct report *r, const struct finding *f, const struct series *s,
			   unsigned int number)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	if (!out)
		return NULL;
	fprintf(out, "id=\"%s\",subject=\"", f->check->id);
	put_label(out, s->subject);
	if (number > 1)
		fprintf(out, " #%u", number);
	fputc('"', out);
	put_owner(out, s);
	fprintf(out, ",severity=\"%s\",command=\"%s\"", severity_name(f->check->severity), r->command);
	if (fclose(out)) {
		free(buf);
		return NULL;
	}
	return buf;
}

int write_report_prometheus(FILE *out, const struct report *r)
{
	struct hsearch_data seen = { 0 };
	struct owners ix;
	char **keys;
	size_t i, nkeys = 0;
	int err = 0;

	/* At most a series per finding: the table never fills. */
	keys = xcalloc(r->nfindings + 1, sizeof(*keys));
	if (!hcreate_r(2 * r->nfindings + 16, &seen)) {
		free(keys);
		return -errno;
	}
	owners_index(r, &ix);
	fputs("# HELP uringlint_check_status Result of a uringlint check: 0 pass, 1 warn, 2 fail, "
	      "-1 skip, 3 error, 4 info (advice).\n# TYPE uringlint_check_status gauge\n", out);
	for (i = 0; i < r->nfindings && !err; i++) {
		const struct finding *f = &r->findings[i];
		unsigned int number = 1;
		struct series me;
		ENTRY e, *hit;
		size_t k, run = 0;
		char others[48];
		int worst;

		/* A check's findings on one process come in a row. */
		for (k = i; k-- > 0 && same_run(&r->findings[k], f) && run <= FOLD_AFTER;)
			run++;
		if (run > FOLD_AFTER)
			continue;
		if (run == FOLD_AFTER) {
			for (k = i, worst = -1; k < r->nfindings && same_run(&r->findings[k], f); k++)
				if (status_value(r->findings[k].status) > worst)
					worst = status_value(r->findings[k].status);
			snprintf(others, sizeof(others), "pid %d (others)", f->pid);
			series_of(&ix, f, others, true, &me);
		} else {
			series_of(&ix, f, f->subject, false, &me);
			worst = status_value(f->status);
		}

		/*
		 * The last guard: a collector drops every sample of a series
		 * given twice, and says so at each scrape. Whatever the findings
		 * (a repeated --dir, two subjects that differ only past the
		 * bound, two processes with no unit and no pid in their
		 * subjects, anywhere in the report), a series already written
		 * gets a number in its subject, the next one free.
		 */
		for (;;) {
			e.key = series_labels(r, f, &me, number);
			e.data = NULL;
			if (!e.key) {
				err = -ENOMEM;
				break;
			}
			if (!hsearch_r(e, FIND, &hit, &seen))
				break;
			free(e.key);
			number++;
		}
		free(me.subject);
		if (err)
			break;
		keys[nkeys++] = e.key;
		if (!hsearch_r(e, ENTER, &hit, &seen)) {
			err = -errno;
			break;
		}
		fprintf(out, "uringlint_check_status{%s} %d\n", e.key, worst);
	}
	hdestroy_r(&seen);
	for (i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
	free(ix.v);
	if (err)
		return err;
	write_metrics(out, &r->metrics);
	fprintf(out, "# HELP uringlint_build_info The uringlint version and the liburing it was built with.\n"
		     "# TYPE uringlint_build_info gauge\n"
		     "uringlint_build_info{version=\"%s\",liburing=\"%s\"} 1\n",
		uringlint_version, liburing_build_version);
	fprintf(out, "# HELP uringlint_last_run_timestamp_seconds When this report was made.\n"
		     "# TYPE uringlint_last_run_timestamp_seconds gauge\n"
		     "uringlint_last_run_timestamp_seconds %lld\n",
		(long long)time(NULL));
	return ferror(out) ? -EIO : 0;
}
