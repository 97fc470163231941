/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_APP_FIXES_H
#define URINGLINT_APP_FIXES_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Fixes in the application's words: the table lib/app_fixes.tbl (its format
 * is described at its top), compiled in, parsed into plain structs. A check
 * that has a finding about a process asks app_fixes_match() which known
 * application the process is, and app_fixes_find() for that application's
 * setting that fixes the finding's kind, to print next to the syscall-level fix.
 */

enum app_fix_kind {
	APP_FIX_BUFFERED,	/* data file without O_DIRECT */
	APP_FIX_APPEND,		/* O_APPEND or extending writes */
	APP_FIX_SPARSE,		/* holes or unwritten extents */
	APP_FIX_FORCE_ASYNC,	/* IOSQE_ASYNC on requests */
	APP_FIX_NO_URING,	/* configured to another I/O engine */
	APP_FIX_MEMLOCK,	/* ring setup failed with ENOMEM */
	APP_FIX_SQPOLL_CPU,	/* where the SQPOLL thread runs */
	APP_FIX_KINDS
};

enum app_match_what { APP_MATCH_COMM, APP_MATCH_EXE, APP_MATCH_LIB };

struct app_match {
	enum app_match_what what;
	char *pattern;		/* fnmatch(3) glob */
};

struct app_entry {
	char *id, *name, *note, *reference;
	struct app_match *match;
	size_t n_match;
	char **uring;		/* globs of basenames of files it uses io_uring on */
	size_t n_uring;
	char **plain;		/* globs of files it writes with plain syscalls */
	size_t n_plain;
	unsigned int line;	/* where the record starts in the table */
};

struct app_fix {
	size_t app;		/* index into app_fixes.apps */
	enum app_fix_kind kind;
	char *setting, *verified, *note, *reference;
	unsigned int line;
};

struct app_fixes {
	struct app_entry *apps;
	size_t n_apps;
	struct app_fix *fixes;
	size_t n_fixes;
};

/*
 * Parses LEN bytes of table text into T (emptied first). Returns 0, -ENOMEM,
 * or -EINVAL with "line N: why" in ERR (ERRLEN bytes; ERR may be NULL). On
 * error T is left empty.
 */
int app_fixes_parse(const char *text, size_t len, struct app_fixes *t, char *err, size_t errlen);
/* The compiled-in lib/app_fixes.tbl, and its parse. */
const char *app_fixes_builtin_text(void);
int app_fixes_builtin(struct app_fixes *t);
void app_fixes_free(struct app_fixes *t);

/* "buffered", "append", ...; -1 for an unknown name. */
const char *app_fix_kind_name(enum app_fix_kind kind);
int app_fix_kind_from_name(const char *name);
/* The id of the uringlint check whose finding the kind fixes, or NULL. */
const char *app_fix_kind_check(enum app_fix_kind kind);

/*
 * The first application with a rule that matches: COMM (/proc/PID/comm),
 * EXE (a path or basename; the basename is matched), or one of the N_LIBS
 * mapped files in LIBS (paths or basenames). Any of them may be NULL.
 */
const struct app_entry *app_fixes_match(const struct app_fixes *t, const char *comm,
					const char *exe, const char *const *libs, size_t n_libs);
/* The application's fix for KIND, or NULL when the table has none. */
const struct app_fix *app_fixes_find(const struct app_fixes *t, const struct app_entry *app,
				     enum app_fix_kind kind);
/* Whether the basename of PATH matches the application's Uring or Plain globs. */
bool app_entry_uses_uring(const struct app_entry *app, const char *path);
bool app_entry_writes_plain(const struct app_entry *app, const char *path);

#endif
