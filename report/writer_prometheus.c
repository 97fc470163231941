// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The node_exporter textfile-collector format (Prometheus text exposition
 * 0.0.4): one series per finding, the probe's numbers, and the run's time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "escape.h"
#include "version.h"
#include "writer.h"
#include "xalloc.h"

/*
 * A label value from a subject that may quote a name from the host: shown
 * as in text output (escape.h), so UTF-8 with no control character, and
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

static void probe_family(FILE *out, struct json_object *probe, const char *name, const char *help,
			 const char *key, const char *sub)
{
	struct json_object *arr;
	size_t i;

	fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
	for (int part = 0; part < 2; part++) {
		if (!json_object_object_get_ex(probe, part ? "contrast" : "modes", &arr))
			continue;
		for (i = 0; i < json_object_array_length(arr); i++) {
			struct json_object *m = json_object_array_get_idx(arr, i), *v = NULL;

			if (sub) {
				struct json_object *lat;

				if (json_object_object_get_ex(m, "lat_us", &lat))
					json_object_object_get_ex(lat, sub, &v);
			} else {
				json_object_object_get_ex(m, key, &v);
			}
			if (!v)
				continue;
			fprintf(out, "%s{mode=\"%s\"%s%s%s} %.17g\n", name,
				json_object_get_string(json_object_object_get(m, "mode")),
				sub ? ",quantile=\"" : "", sub ? key : "", sub ? "\"" : "",
				json_object_get_double(v));
		}
	}
}

static bool same_run(const struct finding *a, const struct finding *b)
{
	return a->check == b->check && a->pid == b->pid && a->pid > 0;
}

/* The probe's latency quantiles under one family, scaled from microseconds. */
static void latency_family(FILE *out, struct json_object *probe, const char *name, double scale)
{
	static const char *const keys[] = { "p50", "p99", "p999" };
	static const char *const qs[] = { "0.5", "0.99", "0.999" };

	/* One family, three quantiles: print them under the single TYPE line. */
	for (int q = 0; q < 3; q++) {
		for (int part = 0; part < 2; part++) {
			struct json_object *arr;
			size_t k;

			if (!json_object_object_get_ex(probe, part ? "contrast" : "modes", &arr))
				continue;
			for (k = 0; k < json_object_array_length(arr); k++) {
				struct json_object *m = json_object_array_get_idx(arr, k), *lat, *v;

				if (!json_object_object_get_ex(m, "lat_us", &lat) ||
				    !json_object_object_get_ex(lat, keys[q], &v))
					continue;
				fprintf(out, "%s{mode=\"%s\",quantile=\"%s\"} %.17g\n", name,
					json_object_get_string(json_object_object_get(m, "mode")),
					qs[q], json_object_get_double(v) * scale);
			}
		}
	}
}

/* probe --net: one family of a key of probe.net.modes[], or its latency quantiles. */
static void net_family(FILE *out, struct json_object *net, const char *name, const char *type,
		       const char *help, const char *key, double scale)
{
	static const char *const keys[] = { "p50", "p99", "p999" };
	static const char *const qs[] = { "0.5", "0.99", "0.999" };
	struct json_object *arr, *m, *v, *lat;
	size_t i;
	int q;

	if (!json_object_object_get_ex(net, "modes", &arr))
		return;
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
	for (q = key ? 2 : 0; q < 3; q++) {
		for (i = 0; i < json_object_array_length(arr); i++) {
			m = json_object_array_get_idx(arr, i);
			if (key ? !json_object_object_get_ex(m, key, &v) || !v
				: !json_object_object_get_ex(m, "lat_us", &lat) ||
				  !json_object_object_get_ex(lat, keys[q], &v))
				continue;
			fprintf(out, "%s{mode=\"%s\"", name,
				json_object_get_string(json_object_object_get(m, "mode")));
			if (!key)
				fprintf(out, ",quantile=\"%s\"", qs[q]);
			fprintf(out, "} %.17g\n", json_object_get_double(v) * scale);
		}
	}
}

static void net_families(FILE *out, struct json_object *probe)
{
	struct json_object *net, *fast;

	if (!json_object_object_get_ex(probe, "net", &net))
		return;
	net_family(out, net, "uringlint_probe_net_messages_per_second", "gauge",
		   "Echoed messages per second the network probe measured per mode.", "msgs_per_sec", 1);
	net_family(out, net, "uringlint_probe_net_latency_seconds", "summary",
		   "Round-trip time of the network probe per mode.", NULL, 1e-6);
	net_family(out, net, "uringlint_probe_net_punts", "gauge",
		   "Socket requests punted to io-wq during the network probe, per mode.", "punts", 1);
	net_family(out, net, "uringlint_probe_net_enters_per_message", "gauge",
		   "io_uring_enter calls per echoed message, per mode.", "enters_per_msg", 1);
	if (json_object_object_get_ex(net, "fast_path", &fast))
		fprintf(out, "# HELP uringlint_probe_net_fast_path 1 when no socket request of the "
			     "network probe was punted to io-wq, else 0.\n"
			     "# TYPE uringlint_probe_net_fast_path gauge\n"
			     "uringlint_probe_net_fast_path %d\n", json_object_get_boolean(fast));
}

/*
 * A finding's series: its subject, and for a process, who runs it. A
 * process of a service loses its pid from the subject: the unit names it,
 * and a restart would otherwise start a new series (the pid stays in the
 * text and JSON reports). Scopes, sessions and containers keep the pid,
 * since their names are as short-lived as it is.
 */
struct series {
	char *subject;			/* escaped as a label value */
	const char *unit, *container;	/* "" none */
};

/* The owners by pid, for a lookup per finding and per earlier finding of its check. */
struct owners {
	const struct report_owner **v;
	size_t n;
};

static int by_pid(const void *a, const void *b)
{
	const struct report_owner *x = *(const struct report_owner *const *)a,
				  *y = *(const struct report_owner *const *)b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static void owners_index(const struct report *r, struct owners *ix)
{
	size_t i;

	ix->n = r->nowners;
	ix->v = ix->n ? xcalloc(ix->n, sizeof(*ix->v)) : NULL;
	for (i = 0; i < ix->n; i++)
		ix->v[i] = &r->owners[i];
	if (ix->n)
		qsort(ix->v, ix->n, sizeof(*ix->v), by_pid);
}

static const struct report_owner *owner_find(const struct owners *ix, int pid)
{
	struct report_owner key = { .pid = pid };
	const struct report_owner *k = &key, **hit;

	if (pid <= 0 || !ix->n)
		return NULL;
	hit = bsearch(&k, ix->v, ix->n, sizeof(*ix->v), by_pid);
	return hit ? *hit : NULL;
}

static void series_of(const struct owners *ix, const struct finding *f, const char *subject,
		      bool keep_pid, struct series *s)
{
	const struct report_owner *o = owner_find(ix, f->pid);
	char prefix[32];
	size_t n;

	s->unit = o ? o->unit : "";
	s->container = o ? o->container : "";
	n = (size_t)snprintf(prefix, sizeof(prefix), "pid %d", f->pid);
	if (o && o->stable && !keep_pid && !strncmp(subject, prefix, n) &&
	    (!subject[n] || subject[n] == ' '))
		subject = subject[n] ? subject + n + 1 : "process";
	s->subject = label_of(subject);
}

static bool same_series(const struct series *a, const struct series *b)
{
	return !strcmp(a->subject, b->subject) && !strcmp(a->unit, b->unit) &&
	       !strcmp(a->container, b->container);
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
}

int write_report_prometheus(FILE *out, const struct report *r)
{
	struct json_object *fast;
	struct owners ix;
	size_t i;

	owners_index(r, &ix);
	fputs("# HELP uringlint_check_status Result of a uringlint check: 0 pass, 1 warn, 2 fail, "
	      "-1 skip, 3 error, 4 info (advice).\n# TYPE uringlint_check_status gauge\n", out);
	for (i = 0; i < r->nfindings; i++) {
		const struct finding *f = &r->findings[i];
		struct series me, other;
		unsigned int dup = 0;
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
		 * A series must be unique: a repeated subject (--dir twice), two
		 * that differ only past the bound, or two processes of one
		 * service, gets a number.
		 */
		for (k = i; k-- > 0 && r->findings[k].check == f->check;) {
			series_of(&ix, &r->findings[k], r->findings[k].subject, false, &other);
			dup += same_series(&me, &other);
			free(other.subject);
		}
		fprintf(out, "uringlint_check_status{id=\"%s\",subject=\"", f->check->id);
		put_label(out, me.subject);
		if (dup)
			fprintf(out, " #%u", dup + 1);
		fputc('"', out);
		put_owner(out, &me);
		fprintf(out, ",severity=\"%s\",command=\"%s\"} %d\n",
			severity_name(f->check->severity), r->command, worst);
		free(me.subject);
	}
	free(ix.v);
	if (r->probe && json_object_object_get_ex(r->probe, "net", NULL))
		net_families(out, r->probe);
	if (r->probe && json_object_object_get_ex(r->probe, "modes", NULL)) {
		probe_family(out, r->probe, "uringlint_probe_iops", "IOPS the probe measured per mode.",
			     "iops", NULL);
		/*
		 * The first family predates the naming conventions and stays as it
		 * was, since names are never renamed; the second is the same in the
		 * base unit, typed as the quantiles it holds (a summary may omit
		 * _sum and _count).
		 */
		fputs("# HELP uringlint_probe_latency_microseconds Completion latency per mode.\n"
		      "# TYPE uringlint_probe_latency_microseconds gauge\n", out);
		latency_family(out, r->probe, "uringlint_probe_latency_microseconds", 1);
		fputs("# HELP uringlint_probe_latency_seconds Completion latency per mode.\n"
		      "# TYPE uringlint_probe_latency_seconds summary\n", out);
		latency_family(out, r->probe, "uringlint_probe_latency_seconds", 1e-6);
		probe_family(out, r->probe, "uringlint_probe_punts",
			     "Requests punted to io-wq during the probe, per mode.", "punts", NULL);
		if (json_object_object_get_ex(r->probe, "fast_path", &fast))
			fprintf(out, "# HELP uringlint_probe_fast_path 1 when no O_DIRECT request of the "
				     "probe was punted to io-wq, else 0.\n"
				     "# TYPE uringlint_probe_fast_path gauge\n"
				     "uringlint_probe_fast_path %d\n", json_object_get_boolean(fast));
	}
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
