// SPDX-License-Identifier: GPL-2.0-or-later
/* The measured numbers a report carries for series (see metrics.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "output.h"
#include "metrics.h"

static int family_index(const struct metrics *m, const char *name, size_t *ix)
{
	size_t i;

	for (i = 0; i < m->nfam; i++)
		if (!strcmp(m->fam[i].name, name)) {
			*ix = i;
			return 0;
		}
	return -ENOENT;
}

int metrics_family(struct metrics *m, const char *name, enum metric_type type, const char *help)
{
	struct metric_family *f;
	size_t ix;

	if (!family_index(m, name, &ix))
		return 0;
	if (array_grow(&m->fam, &m->fam_cap, m->nfam + 1))
		return -ENOMEM;
	f = &m->fam[m->nfam];
	f->name = strdup(name);
	f->help = strdup(help);
	f->type = type;
	if (!f->name || !f->help) {
		free(f->name);
		free(f->help);
		return -ENOMEM;
	}
	m->nfam++;
	return 0;
}

int metrics_sample(struct metrics *m, const char *name, double value, const char *labels_fmt, ...)
{
	struct metric_sample *s;
	va_list ap;
	size_t ix;
	int n;

	if (family_index(m, name, &ix))
		return -ENOENT;
	if (array_grow(&m->s, &m->s_cap, m->ns + 1))
		return -ENOMEM;
	s = &m->s[m->ns];
	va_start(ap, labels_fmt);
	n = vasprintf(&s->labels, labels_fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	s->family = ix;
	s->value = value;
	m->ns++;
	return 0;
}

char *metrics_label_value(const char *s)
{
	char *shown = escape_text(s, 512, 0), *out, *o;
	const char *p;

	if (!shown)
		return NULL;
	/* Each byte at most two: a backslash before \\ and ", "\\n" for a newline. */
	out = malloc(2 * strlen(shown) + 1);
	for (p = shown, o = out; out && *p; p++) {
		if (*p == '\\' || *p == '"')
			*o++ = '\\';
		if (*p == '\n') {
			*o++ = '\\';
			*o++ = 'n';
			continue;
		}
		*o++ = *p;
	}
	if (out)
		*o = '\0';
	free(shown);
	return out;
}

const char *metric_type_name(enum metric_type t)
{
	return t == METRIC_SUMMARY ? "summary" : "gauge";
}

void metrics_free(struct metrics *m)
{
	size_t i;

	for (i = 0; i < m->nfam; i++) {
		free(m->fam[i].name);
		free(m->fam[i].help);
	}
	for (i = 0; i < m->ns; i++)
		free(m->s[i].labels);
	free(m->fam);
	free(m->s);
	memset(m, 0, sizeof(*m));
}
