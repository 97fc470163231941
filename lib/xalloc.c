// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "xalloc.h"

static __attribute__((noreturn)) void oom(void)
{
	static const char msg[] = "uringlint: out of memory\n";

	/* stdio may itself need memory: write(2) directly. */
	ssize_t n = write(STDERR_FILENO, msg, sizeof(msg) - 1);

	(void)n;
	_exit(3);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	void *q = reallocarray(p, n ? n : 1, size ? size : 1);

	if (!q)
		oom();
	return q;
}

void xarray_grow_size(void *pp, size_t *cap, size_t need, size_t size)
{
	if (array_grow_size(pp, cap, need, size))
		oom();
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom();
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		oom();
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}
