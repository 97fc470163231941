// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * smb.conf as smb.conf(5) describes it (Debian 12, Samba 4.17): sections in
 * brackets, "name = value" lines, comments from ';' or '#' at the start of
 * a line, a trailing backslash continuing a line, and parameter names
 * matched without regard to case or blanks ("aio read size" is
 * "aioreadsize"). [global] holds defaults for every share; [homes] and
 * [printers] are shares too.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps.h"

/* A share's parameters as given: -1 (or unset) where it leaves them to [global]. */
struct given {
	int uring;		/* -1 unset, 0 or 1 */
	long aio_read, aio_write;	/* -1 unset */
};

/* The parameter's name without blanks, lowercased, into out. */
static void squeeze(const char *s, size_t len, char *out, size_t outsz)
{
	size_t i, n = 0;

	for (i = 0; i < len && n + 1 < outsz; i++)
		if (!isspace((unsigned char)s[i]))
			out[n++] = (char)tolower((unsigned char)s[i]);
	out[n] = '\0';
}

static void trim(char **s, char **end)
{
	while (*s < *end && isspace((unsigned char)**s))
		(*s)++;
	while (*end > *s && isspace((unsigned char)(*end)[-1]))
		(*end)--;
}

/* Whether the list (blank- or comma-separated) names io_uring. */
static bool lists_uring(const char *v, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t j = i;

		while (j < len && !isspace((unsigned char)v[j]) && v[j] != ',')
			j++;
		if (j - i == 8 && !strncmp(v + i, "io_uring", 8))
			return true;
		i = j + 1;
	}
	return false;
}

static int new_share(struct smb_conf *c, struct given **g, size_t *ng, const char *name,
		     size_t len)
{
	struct smb_share *v = realloc(c->v, (c->n + 1) * sizeof(*v));
	struct given *gv;

	if (!v)
		return -ENOMEM;
	c->v = v;
	gv = realloc(*g, (*ng + 1) * sizeof(*gv));
	if (!gv)
		return -ENOMEM;
	*g = gv;
	memset(&c->v[c->n], 0, sizeof(c->v[c->n]));
	snprintf(c->v[c->n].name, sizeof(c->v[c->n].name), "%.*s", (int)len, name);
	(*g)[*ng] = (struct given){ -1, -1, -1 };
	c->n++;
	(*ng)++;
	return 0;
}

static void set(struct given *g, const char *key, char *v, char *end)
{
	char *num_end;
	long n;

	trim(&v, &end);
	if (!strcmp(key, "vfsobjects") || !strcmp(key, "vfsobject")) {
		g->uring = lists_uring(v, (size_t)(end - v));
		return;
	}
	if (strcmp(key, "aioreadsize") && strcmp(key, "aiowritesize"))
		return;
	n = strtol(v, &num_end, 0);
	if (num_end == v || n < 0)
		return;	/* not a number: smbd keeps the default too */
	if (!strcmp(key, "aioreadsize"))
		g->aio_read = n;
	else
		g->aio_write = n;
}

int smb_conf_parse(const char *text, struct smb_conf *c)
{
	struct given global = { -1, -1, -1 }, *given = NULL, *cur = &global;
	size_t ngiven = 0, i;
	const char *p = text;
	char *line = NULL;
	size_t cap = 0;
	int err = 0;

	memset(c, 0, sizeof(*c));
	while (*p && !err) {
		size_t len = 0;
		char *s, *end, *eq, key[64];

		/* One logical line: a trailing backslash joins the next. */
		for (;;) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) : strlen(p);
			bool more = n && p[n - 1] == '\\';
			char *grown;

			if (len + n + 1 > cap) {
				cap = (len + n + 1) * 2;
				grown = realloc(line, cap);
				if (!grown) {
					err = -ENOMEM;
					break;
				}
				line = grown;
			}
			memcpy(line + len, p, more ? n - 1 : n);
			len += more ? n - 1 : n;
			line[len] = '\0';
			p = nl ? nl + 1 : p + n;
			if (!more || !nl)
				break;
		}
		if (err)
			break;
		s = line;
		end = line + len;
		trim(&s, &end);
		if (s == end || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			char *close = memchr(s, ']', (size_t)(end - s));
			char *name = s + 1, *name_end = close ? close : end;

			trim(&name, &name_end);
			if (name_end - name == 6 && !strncasecmp(name, "global", 6)) {
				cur = &global;
				continue;
			}
			err = new_share(c, &given, &ngiven, name, (size_t)(name_end - name));
			cur = err ? cur : &given[ngiven - 1];
			continue;
		}
		eq = memchr(s, '=', (size_t)(end - s));
		if (!eq)
			continue;
		squeeze(s, (size_t)(eq - s), key, sizeof(key));
		if (!strcmp(key, "include") || !strcmp(key, "configfile"))
			c->includes = true;
		set(cur, key, eq + 1, end);
	}
	free(line);
	if (err) {
		free(given);
		smb_conf_free(c);
		return err;
	}
	/* Each share: its own, else [global]'s, else the default. */
	for (i = 0; i < c->n; i++) {
		struct smb_share *sh = &c->v[i];
		const struct given *g = &given[i];

		sh->uring = g->uring >= 0 ? g->uring : global.uring > 0;
		sh->aio_read_size = g->aio_read >= 0 ? g->aio_read
				    : global.aio_read >= 0 ? global.aio_read : 1;
		sh->aio_write_size = g->aio_write >= 0 ? g->aio_write
				     : global.aio_write >= 0 ? global.aio_write : 1;
	}
	free(given);
	return 0;
}

void smb_conf_free(struct smb_conf *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}
