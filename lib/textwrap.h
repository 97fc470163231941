/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_TEXTWRAP_H
#define URINGLINT_TEXTWRAP_H

#include <stddef.h>
#include <stdio.h>

/*
 * Prints text and a newline, starting at column col, breaking at spaces
 * before width and continuing at column indent. width 0: one line.
 */
void text_wrap(FILE *out, const char *text, size_t col, size_t indent, size_t width);

#endif
