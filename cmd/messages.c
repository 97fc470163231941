// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one-line diagnostics every command prints on stderr. Apart from
 * main.c so that the fuzz harnesses of the config and merge readers link
 * without the command table.
 */
#include <stdarg.h>
#include <stdio.h>

#include "cmd.h"

void error_msg(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("uringlint: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("uringlint: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'uringlint --help'\n", stderr);
	return EXIT_USAGE;
}
