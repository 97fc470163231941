// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>

#include "output.h"

/*
 * Prints text that starts at column col, breaking at spaces before width
 * and continuing at column indent. width 0 prints it on one line.
 */
void text_wrap(FILE *out, const char *text, size_t col, size_t indent, size_t width)
{
	const char *p = text;

	while (*p) {
		size_t room = width > col ? width - col : 0;
		size_t len = strlen(p), cut;

		if (!width || len <= room || room < 20) {
			fputs(p, out);
			break;
		}
		cut = room;
		while (cut > 0 && p[cut] != ' ')
			cut--;
		if (cut == 0) {
			/* One long word (a path): let it overflow rather than split it. */
			cut = strcspn(p, " ");
			if (!p[cut]) {
				fputs(p, out);
				break;
			}
		}
		fprintf(out, "%.*s\n%*s", (int)cut, p, (int)indent, "");
		p += cut + 1;
		col = indent;
	}
	fputc('\n', out);
}
