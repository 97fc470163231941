/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_HTML_LAYOUT_H
#define URINGLINT_HTML_LAYOUT_H

/*
 * What the three parts of the drawing share (html_drawing.h): its units,
 * the thread roles, the drawing being written, the JSON getters, and the
 * elements that carry findings. html_drawing.c writes the whole and the
 * findings, html_cpus.c the CPUs and their threads, html_rings.c each
 * process's rings and files.
 */
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "report.h"

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
#define LINK_PROCS_MAX 3	/* lines from rings to their threads up to this many processes */
#define CHARS(w) ((size_t)((w) - 12) / 7)	/* monospace 11.5px: about 7 px a character */

/* Thread roles in the drawing, in the order a CPU lists them. */
enum role { ROLE_SUBMIT, ROLE_SQPOLL, ROLE_IOWQ, ROLE_DSTATE, ROLE_OTHER, ROLES };

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
	struct json_object *procs;	/* the processes inventory, for their scenes */
	struct thr *thr;		/* by process, in the JSON's order */
	size_t nthr;
	struct placed *placed;
	size_t nplaced, capplaced;
	int width, y;
	/*
	 * The item being opened had nothing measured on it (a file with no
	 * request while watched, or not watched): a fail judged from its flags
	 * is drawn dashed amber, red being kept for what was measured wrong.
	 */
	bool unmeasured;
};

/* What a finding can be drawn on: by its subject ("cpu N", "pid P", "pid P fd N ..."). */
enum target { ON_NOTHING, ON_CPU, ON_PROC, ON_FD, ON_RING, ON_TID };

static inline struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static inline const char *str(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static inline double dbl(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	return v && (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double))
		       ? json_object_get_double(v) : 0;
}

static inline long num(struct json_object *o, const char *key, long none)
{
	struct json_object *v = get(o, key);

	return v && (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double))
		       ? (long)json_object_get_int64(v) : none;
}

static inline size_t len(struct json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

/* The worst status of the findings on a target, STATUS_PASS for none; first: its index. */
enum check_status dr_worst_on(const struct drawing *d, enum target t, int pid, long n,
			      size_t *first);
/*
 * Opens an element's group: a link to its first finding when it has one,
 * its class (its level's outline), and its tooltip: what (text, escaped
 * with flags) then the findings. Closed by dr_close_item().
 */
void dr_open_item(struct drawing *d, enum target t, int pid, long n, const char *cls,
		  const char *what, unsigned int flags);
void dr_close_item(struct drawing *d, enum target t, int pid, long n);
void dr_text(struct drawing *d, int x, int y, const char *cls, const char *s, size_t max,
	     unsigned int flags);

/* html_cpus.c: every thread's role, read once (0 or -ENOMEM); the CPU grid. */
int dr_threads_read(struct drawing *d, struct json_object *procs);
void dr_draw_cpus(struct drawing *d, struct json_object *host);
/* The devices the processes' scenes measured, a box each with its iostat numbers. */
void dr_draw_devices(struct drawing *d);
/* html_rings.c: a process's heading, rings and files. */
void dr_draw_process(struct drawing *d, struct json_object *proc);

#endif
