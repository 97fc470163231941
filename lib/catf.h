/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_CATF_H
#define URINGLINT_CATF_H

#include <stddef.h>

/*
 * Appends to the NUL-terminated text in buf, printf-style: the messages
 * checks build piece by piece. What does not fit in bufsz is cut on a
 * character boundary and marked with "…"; appends after a cut add nothing.
 */
__attribute__((format(printf, 3, 4)))
void catf(char *buf, size_t bufsz, const char *fmt, ...);

#endif
