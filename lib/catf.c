// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "catf.h"

void catf(char *buf, size_t bufsz, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= bufsz)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, bufsz - n, fmt, ap);
	va_end(ap);
}
