/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_ESCAPE_H
#define URINGLINT_ESCAPE_H

#include <stddef.h>

/*
 * The one rule for strings that reach a person: text, Markdown, JUnit,
 * Prometheus labels and stderr. Names come from other users' processes
 * (comm, thread names, file paths) and may hold any byte but NUL. Every
 * byte a terminal or a line-based reader could act on is shown as visible
 * ASCII, as ls -b and systemd's cescape do:
 *
 *   \a \b \t \n \v \f \r \e    those controls
 *   \xHH                        other C0 controls, DEL, bytes not UTF-8
 *   \uHHHH                      C1 controls, bidi and line-separator
 *                               marks, U+FFFE and U+FFFF
 *   \\                          a backslash, so the form is unambiguous
 *
 * Well-formed UTF-8 passes as it is. The result is well-formed UTF-8 with
 * no control character and nothing XML 1.0 refuses.
 */
enum escape_flags {
	/* Also backslash Markdown's metacharacters: the text renders as in text output. */
	ESCAPE_MARKDOWN = 1 << 0,
	/* For text that is already escaped (JSON): a backslash passes as it is. */
	ESCAPE_KEEP_BACKSLASH = 1 << 1,
};

/* What a shortened result ends with: visible, and plain ASCII. */
#define ESCAPE_ELLIPSIS "..."

/*
 * The escaped form of s, on the heap (never NULL: out of memory ends the
 * run). max 0: unbounded; otherwise at most max bytes (max > 3), shortened
 * at an escape or character boundary and ended with ESCAPE_ELLIPSIS.
 */
char *escape_text(const char *s, size_t max, unsigned int flags);

/*
 * s on the heap, whole when it has at most max bytes (max > 3), otherwise
 * cut at a UTF-8 character boundary to at most max bytes that end with
 * ESCAPE_ELLIPSIS. Not escaped: for a value from an input file that a
 * writer or an error message escapes on its way out, bounded first so
 * that a huge one cannot flood either.
 */
char *text_cut(const char *s, size_t max);

#endif
