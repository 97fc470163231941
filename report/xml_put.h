/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_XML_PUT_H
#define URINGLINT_XML_PUT_H

#include <stddef.h>
#include <stdio.h>

/*
 * Writes text into XML character data or an attribute value: escaped as in
 * text output first (lib/output/escape.c: no control character, well-formed UTF-8,
 * nothing XML 1.0 refuses), then & < > " ' as entities. flags are
 * escape_text()'s (ESCAPE_KEEP_BACKSLASH for text from the JSON document,
 * already escaped); max, when not 0, shortens it to that many bytes.
 */
void xml_put(FILE *out, const char *text, size_t max, unsigned int flags);

#endif
