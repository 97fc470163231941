/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_METRICS_H
#define URINGLINT_METRICS_H

#include <stddef.h>

/*
 * Measured numbers a report carries for the writers that export series
 * (Prometheus): families in the order they were declared, each sample
 * under its family in the order it was added. The layer that measured
 * fills them from its own structs, so no writer reads numbers back out of
 * another format. A family is written with its HELP and TYPE even when it
 * has no sample.
 */
enum metric_type { METRIC_GAUGE, METRIC_SUMMARY };

struct metric_family {
	char *name, *help;
	enum metric_type type;
};

struct metric_sample {
	size_t family;
	char *labels;		/* name="value",...: a host's names through metrics_label_value; "" none */
	double value;
};

struct metrics {
	struct metric_family *fam;
	size_t nfam, fam_cap;
	struct metric_sample *s;
	size_t ns, s_cap;
};

/* Declares a family (again: the same family). 0 or -ENOMEM. */
int metrics_family(struct metrics *m, const char *name, enum metric_type type, const char *help);
/* A sample of family name, declared before: 0, -ENOENT undeclared, -ENOMEM. */
__attribute__((format(printf, 4, 5)))
int metrics_sample(struct metrics *m, const char *name, double value, const char *labels_fmt, ...);
/*
 * A name from the host (a comm, a device) as a label value: shown as in
 * text output (lib/output/escape.c), bounded, with the exposition format's escapes.
 * NULL when out of memory.
 */
char *metrics_label_value(const char *s);
const char *metric_type_name(enum metric_type t);
void metrics_free(struct metrics *m);

#endif
