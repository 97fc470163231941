// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * MariaDB option files as its mysys/my_default.c reads them (10.11, the
 * server Debian 12 ships): "[group]" lines, "name", "name = value" and
 * "name=value" lines, comments from '#' or ';' at the start of a line and
 * from a '#' after a blank, values in matching quotes, "!include FILE"
 * and "!includedir DIR" where they stand. Option names match as the
 * server's my_getopt matches them: '-' and '_' alike, case kept, with the
 * prefixes loose- (no error when unknown), skip- and disable- (a boolean
 * off) and enable- (on); maximum- sets a limit, not the option.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "apps.h"

static const char *const server_groups[] = {
	"mysqld", "server", "mariadb", "mariadbd", "client-server", "galera",
};

/* A group's name is one of the server's; versioned says it is one with "-X.Y" after. */
static bool server_group(const char *g, size_t len, bool *versioned)
{
	size_t i, n;

	*versioned = false;
	for (i = 0; i < sizeof(server_groups) / sizeof(server_groups[0]); i++) {
		n = strlen(server_groups[i]);
		if (len < n || strncasecmp(g, server_groups[i], n))
			continue;
		if (len == n)
			return true;
		if (g[n] == '-' && len > n + 1 && isdigit((unsigned char)g[n + 1]))
			*versioned = true;
	}
	return false;
}

/* Whether name (len bytes) is want, '-' and '_' alike. */
static bool name_is(const char *name, size_t len, const char *want)
{
	size_t i;

	if (strlen(want) != len)
		return false;
	for (i = 0; i < len; i++) {
		char a = name[i] == '_' ? '-' : name[i];

		if (a != want[i])
			return false;
	}
	return true;
}

static bool prefix(const char **name, size_t *len, const char *p)
{
	size_t n = strlen(p);
	size_t i;

	if (*len <= n)
		return false;
	for (i = 0; i < n; i++)
		if (((*name)[i] == '_' ? '-' : (*name)[i]) != p[i])
			return false;
	*name += n;
	*len -= n;
	return true;
}

static struct my_cnf_value *setting(struct my_cnf *c, const char *name, size_t len, bool *boolean)
{
	*boolean = false;
	if (name_is(name, len, "innodb-flush-method"))
		return &c->flush_method;
	if (name_is(name, len, "innodb-linux-aio"))
		return &c->linux_aio;
	*boolean = true;
	if (name_is(name, len, "innodb-data-file-buffering"))
		return &c->data_file_buffering;
	if (name_is(name, len, "innodb-use-native-aio"))
		return &c->native_aio;
	return NULL;
}

static void set(struct my_cnf_value *v, const char *val, size_t vlen, const char *from)
{
	snprintf(v->value, sizeof(v->value), "%.*s", (int)vlen, val);
	snprintf(v->from, sizeof(v->from), "%s", from);
}

/*
 * One option, its name without "--" (nlen bytes) and its value (NULL when
 * none was given), from a file or the command line. Returns whether the
 * name was one of ours that takes a value and was given none (the command
 * line then takes the next argument).
 */
static bool apply(struct my_cnf *c, const char *name, size_t nlen, const char *val, size_t vlen,
		  const char *from)
{
	struct my_cnf_value *v;
	bool boolean, off = false, on = false;

	prefix(&name, &nlen, "loose-");
	if (prefix(&name, &nlen, "maximum-"))
		return false;
	if (prefix(&name, &nlen, "skip-") || prefix(&name, &nlen, "disable-"))
		off = true;
	else if (prefix(&name, &nlen, "enable-"))
		on = true;
	v = setting(c, name, nlen, &boolean);
	if (!v)
		return false;
	if (boolean && !val) {
		set(v, off ? "OFF" : "ON", off ? 3 : 2, from);
		return false;
	}
	/* skip-NAME=VALUE and a value-taking option with a prefix are the server's error. */
	if ((off || on) || !val)
		return !val && !off && !on;
	set(v, val, vlen, from);
	return false;
}

/* Removes matching quotes, or a comment from a '#' after a blank. */
static void value_bounds(const char **s, const char **end)
{
	const char *p;

	while (*s < *end && isspace((unsigned char)**s))
		(*s)++;
	if (*end - *s >= 2 && (**s == '"' || **s == '\'')) {
		p = memchr(*s + 1, **s, (size_t)(*end - *s - 1));
		if (p) {
			(*s)++;
			*end = p;
			return;
		}
	}
	for (p = *s; p < *end; p++)
		if (*p == '#' && (p == *s || isspace((unsigned char)p[-1]))) {
			*end = p;
			break;
		}
	while (*end > *s && isspace((unsigned char)(*end)[-1]))
		(*end)--;
}

void my_cnf_parse(const char *text, const char *from, struct my_cnf *c, my_cnf_include_fn inc,
		  void *arg)
{
	const char *line = text;
	bool in_server = false;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		const char *end = nl ? nl : line + strlen(line);
		const char *s = line, *eq, *vs, *ve;
		char path[4096];

		line = nl ? nl + 1 : NULL;
		while (s < end && isspace((unsigned char)*s))
			s++;
		while (end > s && isspace((unsigned char)end[-1]))
			end--;
		if (s == end || *s == '#' || *s == ';')
			continue;
		if (*s == '!') {
			bool dir = end - s > 11 && !strncmp(s, "!includedir", 11) &&
				   isspace((unsigned char)s[11]);
			bool file = !dir && end - s > 8 && !strncmp(s, "!include", 8) &&
				    isspace((unsigned char)s[8]);

			if (!dir && !file)
				continue;
			s += dir ? 11 : 8;
			while (s < end && isspace((unsigned char)*s))
				s++;
			if ((size_t)(end - s) >= sizeof(path) || !inc) {
				c->unread = true;
				continue;
			}
			snprintf(path, sizeof(path), "%.*s", (int)(end - s), s);
			inc(arg, path, dir);
			continue;
		}
		if (*s == '[') {
			const char *close = memchr(s, ']', (size_t)(end - s));
			bool versioned;

			if (!close) {
				in_server = false;
				continue;
			}
			s++;
			while (s < close && isspace((unsigned char)*s))
				s++;
			while (close > s && isspace((unsigned char)close[-1]))
				close--;
			in_server = server_group(s, (size_t)(close - s), &versioned);
			c->versioned |= versioned;
			continue;
		}
		if (!in_server)
			continue;
		eq = memchr(s, '=', (size_t)(end - s));
		ve = eq ? eq : end;
		while (ve > s && isspace((unsigned char)ve[-1]))
			ve--;
		if (!eq) {
			apply(c, s, (size_t)(ve - s), NULL, 0, from);
			continue;
		}
		vs = eq + 1;
		{
			const char *vend = end;

			value_bounds(&vs, &vend);
			apply(c, s, (size_t)(ve - s), vs, (size_t)(vend - vs), from);
		}
	}
}

/* The next argument after a, or NULL at the end (the last may be cut: not NUL-ended). */
static const char *next_arg(const char *a, const char *end)
{
	size_t n = strnlen(a, (size_t)(end - a));

	return a + n < end ? a + n + 1 : NULL;
}

void my_cnf_files_of(const char *argv, size_t len, struct my_cnf_files *f)
{
	const char *end = argv + len, *a;

	memset(f, 0, sizeof(*f));
	/* The server reads these only as the first arguments, before any other. */
	for (a = argv ? next_arg(argv, end) : NULL; a && a < end; a = next_arg(a, end)) {
		size_t n = strnlen(a, (size_t)(end - a));

		if (n == (size_t)(end - a))
			break;
		if (!strcmp(a, "--no-defaults"))
			f->no_defaults = true;
		else if (!strncmp(a, "--defaults-file=", 16))
			f->defaults_file = a + 16;
		else if (!strncmp(a, "--defaults-extra-file=", 22))
			f->extra_file = a + 22;
		else if (strncmp(a, "--defaults-group-suffix=", 24) && strcmp(a, "--print-defaults"))
			break;
	}
}

void my_cnf_apply_args(const char *argv, size_t len, struct my_cnf *c)
{
	const char *end = argv + len, *a;

	for (a = argv ? next_arg(argv, end) : NULL; a && a < end; a = next_arg(a, end)) {
		size_t n = strnlen(a, (size_t)(end - a));
		const char *eq, *val;

		if (n == (size_t)(end - a) || n < 3 || strncmp(a, "--", 2))
			continue;
		eq = memchr(a, '=', n);
		if (eq) {
			apply(c, a + 2, (size_t)(eq - a - 2), eq + 1, n - (size_t)(eq - a) - 1,
			      "its command line");
			continue;
		}
		/* "--innodb-flush-method fsync": the value is the next argument. */
		if (apply(c, a + 2, n - 2, NULL, 0, "its command line")) {
			val = next_arg(a, end);
			if (val && strnlen(val, (size_t)(end - val)) < (size_t)(end - val)) {
				apply(c, a + 2, n - 2, val, strlen(val), "its command line");
				a = val;
			}
		}
	}
}

static bool is_off(const char *v)
{
	return !strcasecmp(v, "OFF") || !strcmp(v, "0") || !strcasecmp(v, "FALSE");
}

static bool is_on(const char *v)
{
	return !strcasecmp(v, "ON") || !strcmp(v, "1") || !strcasecmp(v, "TRUE");
}

bool my_cnf_buffered(const struct my_cnf *c, const struct my_cnf_value **why)
{
	/* MariaDB 10.11's innodb_flush_method: fsync 0, O_DSYNC 1, littlesync 2, nosync 3. */
	static const char *const buffered[] = { "fsync", "O_DSYNC", "littlesync", "nosync",
						"0", "1", "2", "3" };
	size_t i;

	*why = NULL;
	if (c->data_file_buffering.value[0] && is_on(c->data_file_buffering.value)) {
		*why = &c->data_file_buffering;
		return true;
	}
	for (i = 0; i < sizeof(buffered) / sizeof(buffered[0]); i++)
		if (!strcasecmp(c->flush_method.value, buffered[i])) {
			*why = &c->flush_method;
			return true;
		}
	return false;
}

bool my_cnf_no_uring(const struct my_cnf *c, const struct my_cnf_value **why)
{
	*why = NULL;
	if (c->native_aio.value[0] && is_off(c->native_aio.value))
		*why = &c->native_aio;
	else if (!strcasecmp(c->linux_aio.value, "aio"))
		*why = &c->linux_aio;
	return *why != NULL;
}

const char *my_cnf_name(const struct my_cnf *c, const struct my_cnf_value *v)
{
	if (v == &c->flush_method)
		return "innodb_flush_method";
	if (v == &c->data_file_buffering)
		return "innodb_data_file_buffering";
	if (v == &c->native_aio)
		return "innodb_use_native_aio";
	if (v == &c->linux_aio)
		return "innodb_linux_aio";
	return "";
}
