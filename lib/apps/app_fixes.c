// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The application fix table: "Key: value" records separated by blank lines
 * (see the top of lib/apps/app_fixes.tbl). The parser is strict, since the table
 * is data that people edit: an unknown key, a record without its Reference,
 * a Fix without a "run:" or "docs:" Verified, or a Fix for an application the
 * table does not define is an error with its line number, and the unit test
 * parses the compiled-in table, so a bad edit fails `make check`.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps.h"
#include "array.h"

static const char *const kind_names[APP_FIX_KINDS] = {
	[APP_FIX_BUFFERED] = "buffered",
	[APP_FIX_APPEND] = "append",
	[APP_FIX_SPARSE] = "sparse",
	[APP_FIX_FORCE_ASYNC] = "force-async",
	[APP_FIX_NO_URING] = "no-uring",
	[APP_FIX_MEMLOCK] = "memlock",
	[APP_FIX_SQPOLL_CPU] = "sqpoll-cpu",
};

static const char *const kind_checks[APP_FIX_KINDS] = {
	[APP_FIX_BUFFERED] = "fd-o-direct",
	[APP_FIX_APPEND] = "fd-append",
	[APP_FIX_SPARSE] = "file-extents",
	[APP_FIX_FORCE_ASYNC] = "iowq-punts",
	[APP_FIX_NO_URING] = NULL,
	[APP_FIX_MEMLOCK] = "proc-memlock",
	[APP_FIX_SQPOLL_CPU] = "sqpoll-cpu-placement",
};

const char *app_fix_kind_name(enum app_fix_kind kind)
{
	return (unsigned int)kind < APP_FIX_KINDS ? kind_names[kind] : NULL;
}

const char *app_fix_kind_check(enum app_fix_kind kind)
{
	return (unsigned int)kind < APP_FIX_KINDS ? kind_checks[kind] : NULL;
}

int app_fix_kind_from_name(const char *name)
{
	int k;

	for (k = 0; k < APP_FIX_KINDS; k++)
		if (!strcmp(name, kind_names[k]))
			return k;
	return -1;
}

/* The keys of both record types; which ones a type allows and needs is below. */
enum key { K_APP, K_FIX, K_NAME, K_MATCH, K_URING, K_PLAIN, K_NOTE, K_SETTING, K_VERIFIED,
	   K_TESTED, K_REFERENCE, K_COUNT };
static const char *const key_names[K_COUNT] = {
	"App", "Fix", "Name", "Match", "Uring", "Plain", "Note", "Setting", "Verified", "Tested",
	"Reference",
};
#define BIT(k) (1u << (k))
static const unsigned int app_allowed = BIT(K_APP) | BIT(K_NAME) | BIT(K_MATCH) | BIT(K_URING) |
					BIT(K_PLAIN) | BIT(K_NOTE) | BIT(K_REFERENCE);
static const unsigned int app_needed = BIT(K_APP) | BIT(K_NAME) | BIT(K_MATCH) | BIT(K_REFERENCE);
static const unsigned int fix_allowed = BIT(K_FIX) | BIT(K_SETTING) | BIT(K_VERIFIED) |
					BIT(K_TESTED) | BIT(K_NOTE) | BIT(K_REFERENCE);
static const unsigned int fix_needed = BIT(K_FIX) | BIT(K_SETTING) | BIT(K_VERIFIED) |
				       BIT(K_REFERENCE);

struct record {
	char *val[K_COUNT];
	unsigned int have;
	unsigned int line;	/* first line */
	int last;		/* the key a continuation line extends, -1 before any */
};

struct parser {
	struct app_fixes *t;
	char *err;
	size_t errlen;
	/* Fix records name their application by id: resolved once every App is read. */
	char **fix_app_ids;
	size_t apps_cap, fixes_cap, ids_cap;	/* of t->apps, t->fixes, fix_app_ids */
};

__attribute__((format(printf, 3, 4)))
static int fail(struct parser *p, unsigned int line, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (!p->err || !p->errlen)
		return -EINVAL;
	if (line)
		n = snprintf(p->err, p->errlen, "line %u: ", line);
	if (n >= 0 && (size_t)n < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static void record_clear(struct record *r)
{
	int k;

	for (k = 0; k < K_COUNT; k++)
		free(r->val[k]);
	memset(r, 0, sizeof(*r));
	r->last = -1;
}

/* Splits S on blanks into a new array of copies. */
static int split_words(const char *s, char ***out, size_t *n)
{
	char **v = NULL;
	size_t cnt = 0, cap = 0;

	*out = NULL;
	*n = 0;
	while (*s) {
		const char *w;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		w = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (array_grow(&v, &cap, cnt + 1))
			goto nomem;
		v[cnt] = strndup(w, (size_t)(s - w));
		if (!v[cnt])
			goto nomem;
		cnt++;
	}
	*out = v;
	*n = cnt;
	return 0;
nomem:
	while (cnt)
		free(v[--cnt]);
	free(v);
	return -ENOMEM;
}

static void free_words(char **v, size_t n)
{
	while (n)
		free(v[--n]);
	free(v);
}

static bool valid_id(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '-')
			return false;
	return true;
}

/* "comm:x exe:y lib:z" into the entry's rules. */
static int parse_match(struct parser *p, struct app_entry *a, const char *s, unsigned int line)
{
	char **words;
	size_t n, i;
	int ret = split_words(s, &words, &n);

	if (ret)
		return ret;
	a->match = calloc(n ? n : 1, sizeof(*a->match));
	if (!a->match) {
		free_words(words, n);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		static const char *const prefix[] = { "comm:", "exe:", "lib:" };
		size_t j;

		for (j = 0; j < 3; j++)
			if (!strncmp(words[i], prefix[j], strlen(prefix[j])) &&
			    words[i][strlen(prefix[j])])
				break;
		if (j == 3) {
			ret = fail(p, line, "match rule '%s' is not comm:, exe: or lib: and a pattern",
				   words[i]);
			break;
		}
		a->match[a->n_match].what = (enum app_match_what)j;
		a->match[a->n_match].pattern = strdup(words[i] + strlen(prefix[j]));
		if (!a->match[a->n_match].pattern) {
			ret = -ENOMEM;
			break;
		}
		a->n_match++;
	}
	free_words(words, n);
	if (!ret && !a->n_match)
		ret = fail(p, line, "Match has no rule");
	return ret;
}

static void entry_free(struct app_entry *a)
{
	size_t i;

	free(a->id);
	free(a->name);
	free(a->note);
	free(a->reference);
	for (i = 0; i < a->n_match; i++)
		free(a->match[i].pattern);
	free(a->match);
	free_words(a->uring, a->n_uring);
	free_words(a->plain, a->n_plain);
}

static char *take(struct record *r, enum key k)
{
	char *v = r->val[k];

	r->val[k] = NULL;
	return v;
}

static int finish_app(struct parser *p, struct record *r)
{
	struct app_fixes *t = p->t;
	struct app_entry *a;
	size_t i;
	int ret;

	if (!valid_id(r->val[K_APP]))
		return fail(p, r->line, "App id '%s' is not lowercase letters, digits and '-'",
			    r->val[K_APP]);
	for (i = 0; i < t->n_apps; i++)
		if (!strcmp(t->apps[i].id, r->val[K_APP]))
			return fail(p, r->line, "App '%s' is defined twice (first at line %u)",
				    r->val[K_APP], t->apps[i].line);
	if (array_grow(&t->apps, &p->apps_cap, t->n_apps + 1))
		return -ENOMEM;
	a = &t->apps[t->n_apps];
	memset(a, 0, sizeof(*a));
	t->n_apps++;
	a->line = r->line;
	ret = parse_match(p, a, r->val[K_MATCH], r->line);
	if (!ret && r->val[K_URING])
		ret = split_words(r->val[K_URING], &a->uring, &a->n_uring);
	if (!ret && r->val[K_PLAIN])
		ret = split_words(r->val[K_PLAIN], &a->plain, &a->n_plain);
	a->id = take(r, K_APP);
	a->name = take(r, K_NAME);
	a->note = take(r, K_NOTE);
	a->reference = take(r, K_REFERENCE);
	return ret;
}

static int finish_fix(struct parser *p, struct record *r)
{
	struct app_fixes *t = p->t;
	char app[64], kind[32], extra;
	struct app_fix *f;
	int k;

	if (sscanf(r->val[K_FIX], "%63s %31s %c", app, kind, &extra) != 2)
		return fail(p, r->line, "Fix '%s' is not APP-ID KIND", r->val[K_FIX]);
	k = app_fix_kind_from_name(kind);
	if (k < 0)
		return fail(p, r->line, "unknown kind '%s' (buffered, append, sparse, force-async, no-uring, memlock, sqpoll-cpu)",
			    kind);
	if (strncmp(r->val[K_VERIFIED], "run:", 4) && strncmp(r->val[K_VERIFIED], "docs:", 5))
		return fail(p, r->line, "Verified must start with \"run:\" or \"docs:\"");
	/* Tested: the case that applies it, "tests/DIR/SUITE.sh: CASE" (tests/e2e/fixes.sh holds it). */
	if ((r->have & BIT(K_TESTED)) && (strncmp(r->val[K_TESTED], "tests/", 6) ||
					  !strstr(r->val[K_TESTED], ".sh: ")))
		return fail(p, r->line, "Tested must be \"tests/DIR/SUITE.sh: CASE\"");
	if (array_grow(&t->fixes, &p->fixes_cap, t->n_fixes + 1) ||
	    array_grow(&p->fix_app_ids, &p->ids_cap, t->n_fixes + 1))
		return -ENOMEM;
	p->fix_app_ids[t->n_fixes] = strdup(app);
	if (!p->fix_app_ids[t->n_fixes])
		return -ENOMEM;
	f = &t->fixes[t->n_fixes];
	memset(f, 0, sizeof(*f));
	t->n_fixes++;
	f->kind = (enum app_fix_kind)k;
	f->line = r->line;
	f->setting = take(r, K_SETTING);
	f->verified = take(r, K_VERIFIED);
	f->tested = take(r, K_TESTED);
	f->note = take(r, K_NOTE);
	f->reference = take(r, K_REFERENCE);
	return 0;
}

static int finish_record(struct parser *p, struct record *r)
{
	bool is_app = r->have & BIT(K_APP);
	unsigned int need = is_app ? app_needed : fix_needed;
	int k;

	if (!r->have)
		return 0;
	for (k = 0; k < K_COUNT; k++)
		if ((need & BIT(k)) && !(r->have & BIT(k)))
			return fail(p, r->line, "%s record lacks %s:", is_app ? "App" : "Fix",
				    key_names[k]);
	return is_app ? finish_app(p, r) : finish_fix(p, r);
}

/* Joins a continuation onto the value: one space between, blanks trimmed. */
static int append_value(char **val, const char *s, size_t n)
{
	size_t old = strlen(*val);
	char *v = realloc(*val, old + 1 + n + 1);

	if (!v)
		return -ENOMEM;
	if (old)
		v[old++] = ' ';
	memcpy(v + old, s, n);
	v[old + n] = '\0';
	*val = v;
	return 0;
}

static int parse_line(struct parser *p, struct record *r, const char *s, size_t n,
		      unsigned int line)
{
	const char *colon;
	size_t klen;
	int k;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (s[0] == ' ' || s[0] == '\t') {
		while (n && (*s == ' ' || *s == '\t'))
			s++, n--;
		if (r->last < 0)
			return fail(p, line, "continuation line without a key before it");
		return append_value(&r->val[r->last], s, n);
	}
	colon = memchr(s, ':', n);
	if (!colon)
		return fail(p, line, "not \"Key: value\"");
	klen = (size_t)(colon - s);
	for (k = 0; k < K_COUNT; k++)
		if (strlen(key_names[k]) == klen && !strncmp(s, key_names[k], klen))
			break;
	if (k == K_COUNT)
		return fail(p, line, "unknown key '%.*s'", (int)klen, s);
	if (!r->have) {
		if (k != K_APP && k != K_FIX)
			return fail(p, line, "a record starts with App: or Fix:, not %s:",
				    key_names[k]);
		r->line = line;
	} else if (!((r->have & BIT(K_APP) ? app_allowed : fix_allowed) & BIT(k))) {
		return fail(p, line, "%s: does not belong in %s record", key_names[k],
			    r->have & BIT(K_APP) ? "an App" : "a Fix");
	}
	if (r->have & BIT(k))
		return fail(p, line, "%s: given twice in one record", key_names[k]);
	s = colon + 1;
	n -= klen + 1;
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	r->val[k] = strndup(s, n);
	if (!r->val[k])
		return -ENOMEM;
	r->have |= BIT(k);
	r->last = k;
	return 0;
}

/* Every Fix to its App, and no two Fix records for one application and kind. */
static int resolve(struct parser *p)
{
	struct app_fixes *t = p->t;
	size_t i, j;

	for (i = 0; i < t->n_fixes; i++) {
		for (j = 0; j < t->n_apps; j++)
			if (!strcmp(t->apps[j].id, p->fix_app_ids[i]))
				break;
		if (j == t->n_apps)
			return fail(p, t->fixes[i].line, "Fix for '%s', which no App record defines",
				    p->fix_app_ids[i]);
		t->fixes[i].app = j;
		for (j = 0; j < i; j++)
			if (t->fixes[j].app == t->fixes[i].app && t->fixes[j].kind == t->fixes[i].kind)
				return fail(p, t->fixes[i].line, "a second Fix %s %s (first at line %u)",
					    p->fix_app_ids[i], kind_names[t->fixes[i].kind],
					    t->fixes[j].line);
	}
	return 0;
}

/* The text is not NUL-terminated: look at the line's N bytes only. */
static bool blank(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++, n--;
	return !n;
}

int app_fixes_parse(const char *text, size_t len, struct app_fixes *t, char *err, size_t errlen)
{
	struct parser p = { .t = t, .err = err, .errlen = errlen };
	const char *s = text, *end = text + len;
	struct record r;
	unsigned int line = 0;
	size_t i;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	if (err && errlen)
		err[0] = '\0';
	memset(&r, 0, sizeof(r));
	r.last = -1;
	while (s < end && !ret) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

		line++;
		if (memchr(s, '\0', n)) {
			ret = fail(&p, line, "a NUL byte");
		} else if (s[0] == '#') {
			/* a comment: the record goes on */
		} else if (blank(s, n)) {
			ret = finish_record(&p, &r);
			record_clear(&r);
		} else {
			ret = parse_line(&p, &r, s, n, line);
		}
		s += n + (nl ? 1 : 0);
	}
	if (!ret)
		ret = finish_record(&p, &r);
	record_clear(&r);
	if (!ret)
		ret = resolve(&p);
	for (i = 0; i < t->n_fixes; i++)
		free(p.fix_app_ids[i]);
	free(p.fix_app_ids);
	if (ret == -ENOMEM)
		fail(&p, 0, "out of memory");
	if (ret)
		app_fixes_free(t);
	return ret;
}

void app_fixes_free(struct app_fixes *t)
{
	size_t i;

	for (i = 0; i < t->n_apps; i++)
		entry_free(&t->apps[i]);
	free(t->apps);
	for (i = 0; i < t->n_fixes; i++) {
		free(t->fixes[i].setting);
		free(t->fixes[i].verified);
		free(t->fixes[i].tested);
		free(t->fixes[i].note);
		free(t->fixes[i].reference);
	}
	free(t->fixes);
	memset(t, 0, sizeof(*t));
}

/* The table, made into one C string literal by the Makefile. */
static const char builtin_text[] =
#include "app_fixes.tbl.h"
	;

const char *app_fixes_builtin_text(void)
{
	return builtin_text;
}

int app_fixes_builtin(struct app_fixes *t)
{
	return app_fixes_parse(builtin_text, sizeof(builtin_text) - 1, t, NULL, 0);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static bool rule_matches(const struct app_match *m, const char *comm, const char *exe,
			 const char *const *libs, size_t n_libs)
{
	size_t i;

	switch (m->what) {
	case APP_MATCH_COMM:
		return comm && !fnmatch(m->pattern, comm, 0);
	case APP_MATCH_EXE:
		return exe && !fnmatch(m->pattern, base_name(exe), 0);
	case APP_MATCH_LIB:
		for (i = 0; libs && i < n_libs; i++)
			if (libs[i] && !fnmatch(m->pattern, base_name(libs[i]), 0))
				return true;
		return false;
	}
	return false;
}

const struct app_entry *app_fixes_match(const struct app_fixes *t, const char *comm,
					const char *exe, const char *const *libs, size_t n_libs)
{
	size_t i, j;

	for (i = 0; i < t->n_apps; i++)
		for (j = 0; j < t->apps[i].n_match; j++)
			if (rule_matches(&t->apps[i].match[j], comm, exe, libs, n_libs))
				return &t->apps[i];
	return NULL;
}

const struct app_fix *app_fixes_find(const struct app_fixes *t, const struct app_entry *app,
				     enum app_fix_kind kind)
{
	size_t i;

	if (!app)
		return NULL;
	for (i = 0; i < t->n_fixes; i++)
		if (&t->apps[t->fixes[i].app] == app && t->fixes[i].kind == kind)
			return &t->fixes[i];
	return NULL;
}

static bool any_glob(char *const *globs, size_t n, const char *path)
{
	const char *b = base_name(path);
	size_t i;

	for (i = 0; i < n; i++)
		if (!fnmatch(globs[i], b, 0))
			return true;
	return false;
}

bool app_entry_uses_uring(const struct app_entry *app, const char *path)
{
	return any_glob(app->uring, app->n_uring, path);
}

bool app_entry_writes_plain(const struct app_entry *app, const char *path)
{
	return any_glob(app->plain, app->n_plain, path);
}
