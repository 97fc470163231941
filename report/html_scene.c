// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "The scene" on the HTML page: for each process whose scene was measured,
 * a table of its devices (iostat -x's columns) and of the CPUs its threads
 * ran on (vmstat's split), from the processes' JSON as the drawing reads
 * it. The drawing has no place for a device, so they stand in a table; a
 * scene not measured (a captured tree) gets none.
 */
#include <stdio.h>

#include "html_drawing.h"
#include "xml_put.h"

/* A number of o's key KEY as the JSON holds it, or "-" when it has none. */
static void cell(FILE *out, struct json_object *o, const char *key, const char *fmt)
{
	struct json_object *v;

	fputs("<td>", out);
	if (json_object_object_get_ex(o, key, &v) && v)
		fprintf(out, fmt, json_object_get_double(v));
	else
		fputs("-", out);
	fputs("</td>", out);
}

static void devices(FILE *out, struct json_object *scene)
{
	static const char *const keys[] = { "util_pct", "aqu_sz", "r_s", "w_s", "rkb_s", "wkb_s",
					    "r_await_ms", "w_await_ms", "in_flight" };
	struct json_object *devs, *d, *v;
	size_t i, k;

	if (!json_object_object_get_ex(scene, "devices", &devs) || !json_object_array_length(devs))
		return;
	fputs("<tr><th>device</th><th>role</th><th>%util</th><th>aqu-sz</th><th>r/s</th>"
	      "<th>w/s</th><th>rkB/s</th><th>wkB/s</th><th>r_await ms</th><th>w_await ms</th>"
	      "<th>in flight</th></tr>\n", out);
	for (i = 0; i < json_object_array_length(devs); i++) {
		d = json_object_array_get_idx(devs, i);
		fputs("<tr class=\"scene-dev\"><td>", out);
		if (json_object_object_get_ex(d, "name", &v))
			xml_put(out, json_object_get_string(v), 0, 0);
		fputs("</td><td>", out);
		if (json_object_object_get_ex(d, "role", &v))
			xml_put(out, json_object_get_string(v), 0, 0);
		fputs("</td>", out);
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			cell(out, d, keys[k], k == 8 ? "%.0f" : "%.2f");
		fputs("</tr>\n", out);
	}
}

static void cpus(FILE *out, struct json_object *scene)
{
	static const char *const keys[] = { "us", "sy", "wa", "hi", "si", "st", "id" };
	struct json_object *c, *list, *x, *v;
	size_t i, k;

	if (!json_object_object_get_ex(scene, "cpus", &c) || !c ||
	    !json_object_object_get_ex(c, "list", &list) || !json_object_array_length(list))
		return;
	fputs("<tr><th>CPU</th><th>us %</th><th>sy %</th><th>wa %</th><th>hi %</th><th>si %</th>"
	      "<th>st %</th><th>id %</th></tr>\n", out);
	for (i = 0; i < json_object_array_length(list); i++) {
		x = json_object_array_get_idx(list, i);
		fputs("<tr class=\"scene-cpu\"><td>", out);
		if (json_object_object_get_ex(x, "cpu", &v))
			fprintf(out, "%d", json_object_get_int(v));
		fputs("</td>", out);
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			cell(out, x, keys[k], "%.1f");
		fputs("</tr>\n", out);
	}
}

void html_scene_write(FILE *out, struct json_object *procs)
{
	struct json_object *p, *scene, *v;
	bool header = false;
	size_t i;

	for (i = 0; i < json_object_array_length(procs); i++) {
		p = json_object_array_get_idx(procs, i);
		if (!json_object_object_get_ex(p, "scene", &scene) || !scene ||
		    !json_object_object_get_ex(scene, "measured", &v) || !json_object_get_boolean(v))
			continue;
		if (!header)
			fputs("<h2>The scene</h2>\n", out);
		header = true;
		json_object_object_get_ex(p, "pid", &v);
		fprintf(out, "<table class=\"scene\" id=\"scene-%d\"><caption>pid %d", json_object_get_int(v),
			json_object_get_int(v));
		if (json_object_object_get_ex(scene, "seconds", &v) && v)
			fprintf(out, " over %.2f s", json_object_get_double(v));
		else
			fputs(", one reading (no window)", out);
		fputs("</caption>\n", out);
		devices(out, scene);
		cpus(out, scene);
		fputs("</table>\n", out);
	}
}
