// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "Over time" on the HTML page: for each watched process, its requests and
 * punts per 100 ms (watch.series) as bars, where people would rather look
 * than read: requests grey, punted ones red over them (a punt is measured
 * off the fast path), and the time the watch did not sample shaded, so an
 * empty bar there is read as unknown, not quiet. From the processes' JSON,
 * as the drawing reads it; a process not watched gets none.
 */
#include <stdio.h>

#include "html_drawing.h"
#include "xml_put.h"

#define SERIES_W 1200	/* px for the whole watch */
#define SERIES_H 60	/* px for the busiest bucket */

static long at(struct json_object *a, size_t i)
{
	struct json_object *v = json_object_array_get_idx(a, i);

	return v ? (long)json_object_get_int64(v) : 0;
}

/* Bucket i's bar of class cls, v of the scale's most, titled with its time and count. */
static void bar(FILE *out, const char *cls, const char *what, size_t i, double w, long v,
		long most, int bucket_ms)
{
	double h = (double)v * SERIES_H / (double)most;

	if (h <= 0)
		return;
	fprintf(out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
		"<title>%zu ms: %ld %s</title></rect>\n", cls, (double)i * w, SERIES_H - h,
		w > 1.5 ? w - 0.5 : w, h, i * (size_t)bucket_ms, v, what);
}

/* One process's bars; its largest bucket sets the scale. */
static void bars(FILE *out, int pid, struct json_object *reqs, struct json_object *punts,
		 struct json_object *sampled, int bucket_ms)
{
	size_t i, n = json_object_array_length(reqs);
	long most = 1, total_r = 0, total_p = 0;
	double w;

	for (i = 0; i < n; i++) {
		long v = at(reqs, i) > at(punts, i) ? at(reqs, i) : at(punts, i);

		most = v > most ? v : most;
		total_r += at(reqs, i);
		total_p += at(punts, i);
	}
	w = (double)SERIES_W / (double)(n ? n : 1);
	fprintf(out, "<figure class=\"series\" id=\"series-%d\"><figcaption>pid %d: %ld requests and "
		"%ld punts sampled, per %d ms (the busiest %ld)</figcaption>\n", pid, pid, total_r,
		total_p, bucket_ms, most);
	fprintf(out, "<svg width=\"%d\" height=\"%d\" role=\"img\">\n", SERIES_W, SERIES_H + 14);
	for (i = 0; i < n; i++) {
		double s = json_object_get_double(json_object_array_get_idx(sampled, i));

		/* Not sampled (in part): shaded under whatever was seen. */
		if (s < 1)
			fprintf(out, "<rect class=\"unsampled\" x=\"%.1f\" y=\"0\" width=\"%.1f\" "
				"height=\"%d\"><title>%zu: %.0f%% sampled</title></rect>\n",
				(double)i * w, w, SERIES_H, i * (size_t)bucket_ms, 100 * s);
		bar(out, "reqs", "requests", i, w, at(reqs, i), most, bucket_ms);
		bar(out, "punts", "punted", i, w, at(punts, i), most, bucket_ms);
	}
	fprintf(out, "<text x=\"0\" y=\"%d\">0 s</text><text x=\"%d\" y=\"%d\" "
		"text-anchor=\"end\">%.1f s</text>\n</svg></figure>\n", SERIES_H + 12, SERIES_W,
		SERIES_H + 12, (double)n * bucket_ms / 1000);
}

void html_series_write(FILE *out, struct json_object *procs)
{
	struct json_object *p, *w, *s, *reqs, *punts, *sampled, *v;
	bool header = false;
	int pid, bucket;
	size_t i;

	for (i = 0; i < json_object_array_length(procs); i++) {
		p = json_object_array_get_idx(procs, i);
		if (!json_object_object_get_ex(p, "watch", &w) || !w ||
		    !json_object_object_get_ex(w, "series", &s) || !s ||
		    !json_object_object_get_ex(s, "requests", &reqs) ||
		    !json_object_object_get_ex(s, "punts", &punts) ||
		    !json_object_object_get_ex(s, "sampled", &sampled) ||
		    !json_object_array_length(reqs))
			continue;
		if (!header)
			fputs("<h2>Over time</h2>\n<p class=\"notes\">Requests (grey) and punts to io-wq "
			      "(red) the watch sampled; shaded: time it did not sample.</p>\n", out);
		header = true;
		pid = json_object_object_get_ex(p, "pid", &v) ? json_object_get_int(v) : 0;
		bucket = json_object_object_get_ex(s, "bucket_ms", &v) ? json_object_get_int(v) : 100;
		bars(out, pid, reqs, punts, sampled, bucket > 0 ? bucket : 100);
	}
}
