// SPDX-License-Identifier: GPL-2.0-or-later
/* Well-formed UTF-8 as RFC 3629 and Unicode's table 3-7 define it. */
#include <string.h>

#include "output.h"

size_t utf8_seq_len(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t c, min;
	size_t len, i;

	if (!n)
		return 0;
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if (u[0] >= 0xc2 && u[0] <= 0xdf) {
		len = 2, c = u[0] & 0x1f, min = 0x80;
	} else if (u[0] >= 0xe0 && u[0] <= 0xef) {
		len = 3, c = u[0] & 0x0f, min = 0x800;
	} else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
		len = 4, c = u[0] & 0x07, min = 0x10000;
	} else {
		return 0;	/* continuation byte, 0xc0/0xc1 (always overlong), 0xf5+ */
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (u[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

bool utf8_valid(const char *s)
{
	size_t n = strlen(s), len;
	uint32_t cp;

	for (; n; s += len, n -= len) {
		len = utf8_seq_len(s, n, &cp);
		if (!len)
			return false;
	}
	return true;
}
