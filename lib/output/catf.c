// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "output.h"

#define CUT_MARK "…"
#define MARK_LEN (sizeof(CUT_MARK) - 1)

/*
 * How many of buf's first end bytes to keep so that no character is cut
 * short at the end: a lead byte whose sequence runs past end goes, with the
 * continuation bytes after it (at most 3 looked back over, whatever the bytes).
 */
static size_t whole_chars(const char *buf, size_t end)
{
	size_t k = end, i, len;
	unsigned char lead;

	for (i = 0; i < 3 && k > 0 && ((unsigned char)buf[k - 1] & 0xc0) == 0x80; i++)
		k--;
	if (!k)
		return end;
	lead = (unsigned char)buf[k - 1];
	len = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
	return k - 1 + len <= end ? end : k - 1;
}

/* Whether buf (n bytes of bufsz) was cut already: the mark within a character of the end. */
static bool cut_already(const char *buf, size_t n, size_t bufsz)
{
	return n + 1 + 3 >= bufsz && n >= MARK_LEN && !memcmp(buf + n - MARK_LEN, CUT_MARK, MARK_LEN);
}

/*
 * A text that did not fit ends in CUT_MARK, cut on a character boundary,
 * so a reader sees that something is missing; appends after a cut add
 * nothing. A buffer too small for the mark is cut without one.
 */
void catf(char *buf, size_t bufsz, const char *fmt, ...)
{
	size_t n = strlen(buf), end;
	va_list ap;
	int want;

	if (!bufsz || cut_already(buf, n, bufsz))
		return;
	va_start(ap, fmt);
	want = n + 1 < bufsz ? vsnprintf(buf + n, bufsz - n, fmt, ap) : vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (want <= 0 || (n + 1 < bufsz && (size_t)want < bufsz - n))
		return;
	if (bufsz <= MARK_LEN + 1) {
		buf[whole_chars(buf, bufsz - 1)] = '\0';
		return;
	}
	/* Cut: room for the mark, back to the start of a character. */
	end = whole_chars(buf, bufsz - 1 - MARK_LEN);
	memcpy(buf + end, CUT_MARK, MARK_LEN + 1);
}
