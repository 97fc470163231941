// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "catf.h"

#define CUT_MARK "…"

/*
 * A text that did not fit ends in CUT_MARK, cut on a character boundary,
 * so a reader sees that something is missing; appends after a cut add
 * nothing.
 */
void catf(char *buf, size_t bufsz, const char *fmt, ...)
{
	size_t n = strlen(buf), mark = sizeof(CUT_MARK) - 1, end;
	va_list ap;
	int want;

	if (bufsz <= mark + 1 || n + 1 >= bufsz)
		return;
	/* Cut already (the mark within a character's length of the end). */
	if (n + 1 + 3 >= bufsz && n >= mark && !memcmp(buf + n - mark, CUT_MARK, mark))
		return;
	va_start(ap, fmt);
	want = vsnprintf(buf + n, bufsz - n, fmt, ap);
	va_end(ap);
	if (want < 0 || (size_t)want < bufsz - n)
		return;
	/* Cut: room for the mark, back to the start of a UTF-8 character. */
	end = bufsz - 1 - mark;
	while (end > 0 && ((unsigned char)buf[end] & 0xc0) == 0x80)
		end--;
	memcpy(buf + end, CUT_MARK, mark + 1);
}
