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
#include "writer.h"

/*
 * A label value from a subject that may quote a name from the host: shown
 * as in text output (escape.h), so UTF-8 with no control character, and
 * bounded, since every distinct value is a series a collector keeps.
 */
#define LABEL_MAX 512

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

int write_report_prometheus(FILE *out, const struct report *r)
{
	size_t i;

	fputs("# HELP uringlint_check_status Result of a uringlint check: 0 pass, 1 warn, 2 fail, "
	      "-1 skip, 3 error.\n# TYPE uringlint_check_status gauge\n", out);
	for (i = 0; i < r->nfindings; i++) {
		const struct finding *f = &r->findings[i];
		char *label = label_of(f->subject), *other;
		unsigned int dup = 0;
		size_t k;

		/*
		 * A series must be unique: a repeated subject (--dir twice), or two
		 * that differ only past the bound, gets a number.
		 */
		for (k = i; k-- > 0 && r->findings[k].check == f->check;) {
			other = label_of(r->findings[k].subject);
			dup += !strcmp(other, label);
			free(other);
		}
		fprintf(out, "uringlint_check_status{id=\"%s\",subject=\"", f->check->id);
		put_label(out, label);
		free(label);
		if (dup)
			fprintf(out, " #%u", dup + 1);
		fprintf(out, "\",severity=\"%s\",command=\"%s\"} %d\n",
			severity_name(f->check->severity), r->command, status_value(f->status));
	}
	if (r->probe) {
		probe_family(out, r->probe, "uringlint_probe_iops", "IOPS the probe measured per mode.",
			     "iops", NULL);
		fputs("# HELP uringlint_probe_latency_microseconds Completion latency per mode.\n"
		      "# TYPE uringlint_probe_latency_microseconds gauge\n", out);
		/* One family, three quantiles: print them under the single TYPE line. */
		for (int q = 0; q < 3; q++) {
			static const char *const keys[] = { "p50", "p99", "p999" };
			static const char *const qs[] = { "0.5", "0.99", "0.999" };
			struct json_object *arr;
			size_t k;

			for (int part = 0; part < 2; part++) {
				if (!json_object_object_get_ex(r->probe, part ? "contrast" : "modes", &arr))
					continue;
				for (k = 0; k < json_object_array_length(arr); k++) {
					struct json_object *m = json_object_array_get_idx(arr, k), *lat, *v;

					if (!json_object_object_get_ex(m, "lat_us", &lat) ||
					    !json_object_object_get_ex(lat, keys[q], &v))
						continue;
					fprintf(out, "uringlint_probe_latency_microseconds{mode=\"%s\","
						     "quantile=\"%s\"} %.17g\n",
						json_object_get_string(json_object_object_get(m, "mode")),
						qs[q], json_object_get_double(v));
				}
			}
		}
		probe_family(out, r->probe, "uringlint_probe_punts",
			     "Requests punted to io-wq during the probe, per mode.", "punts", NULL);
	}
	fprintf(out, "# HELP uringlint_last_run_timestamp_seconds When this report was made.\n"
		     "# TYPE uringlint_last_run_timestamp_seconds gauge\n"
		     "uringlint_last_run_timestamp_seconds %lld\n",
		(long long)time(NULL));
	return ferror(out) ? -EIO : 0;
}
