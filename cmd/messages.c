// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one-line diagnostics every command prints on stderr. Apart from
 * main.c so that the fuzz harnesses of the config and merge readers link
 * without the command table. A message may quote a path or a name from
 * the host, or an argument: it is escaped whole (lib/output/escape.c), so it stays
 * one line and cannot drive the terminal.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "output.h"
#include "xalloc.h"

__attribute__((format(printf, 1, 0)))
static void put_message(const char *fmt, va_list ap)
{
	char *msg = xvasprintf(fmt, ap), *shown = escape_text(msg, 0, 0);

	fprintf(stderr, "uringlint: %s", shown);
	free(shown);
	free(msg);
}

void error_msg(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	put_message(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put_message(fmt, ap);
	va_end(ap);
	fputs("\nTry 'uringlint --help'\n", stderr);
	return EXIT_USAGE;
}
