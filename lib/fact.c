// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>

#include "fact.h"
#include "sysroot.h"

void fact_fail(struct fact_err *f, int err, const char *fmt, ...)
{
	va_list ap;

	f->err = err;
	va_start(ap, fmt);
	vsnprintf(f->why, sizeof(f->why), fmt, ap);
	va_end(ap);
}

void fact_fail_read(struct fact_err *f, const char *path, int err)
{
	fact_fail(f, err, "cannot read '%s': %s", path, sysroot_strerror(err));
}
