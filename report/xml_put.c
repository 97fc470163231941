// SPDX-License-Identifier: GPL-2.0-or-later
/* Text into XML: the escapes of JUnit and HTML output, in one place. */
#include <stdlib.h>

#include "output.h"
#include "xml_put.h"

void xml_put(FILE *out, const char *text, size_t max, unsigned int flags)
{
	char *shown = escape_text(text ? text : "", max > 3 ? max : 0, flags);

	for (const char *s = shown; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&apos;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
	free(shown);
}
