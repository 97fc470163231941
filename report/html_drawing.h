/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_HTML_DRAWING_H
#define URINGLINT_HTML_DRAWING_H

#include <json-c/json.h>
#include <stdio.h>

#include "report.h"

/*
 * The SVG drawing of --format html: the CPUs (isolated, nohz_full, NUMA
 * node, the storage and network interrupts each takes), the audited
 * processes' threads placed on the CPU each last ran on (ring submitters,
 * SQPOLL threads, io-wq workers, threads in D state; what repeats folded),
 * and each process's rings with their setup, fill and punt share and the
 * files the watch saw, lines from each ring to its threads. Every element
 * a finding is about is outlined in its level's colour, with the findings
 * on hover and a link to them below the drawing (anchors "f" + index).
 * host: the JSON's host object; procs: its processes array (may be empty).
 * 0 or -EIO.
 */
int html_drawing_write(FILE *out, const struct report *r, struct json_object *host,
		       struct json_object *procs);

/* "The scene": each measured process scene's devices and CPUs in a table (html_scene.c). */
void html_scene_write(FILE *out, struct json_object *procs);
/* "Over time": each watched process's requests and punts per 100 ms (html_series.c). */
void html_series_write(FILE *out, struct json_object *procs);

#endif
