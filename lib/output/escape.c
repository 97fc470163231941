// SPDX-License-Identifier: GPL-2.0-or-later
/* The visible form of untrusted strings: see output.h for the rule. */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "output.h"
#include "xalloc.h"

#define MARKDOWN_META "\\`*_[]<>|&~"

struct out {
	char *p;
	size_t len, cap;
	unsigned int flags;
};

static void put(struct out *o, char c)
{
	bool meta = (o->flags & ESCAPE_MARKDOWN) && strchr(MARKDOWN_META, c);

	xarray_grow(&o->p, &o->cap, o->len + 3);	/* a backslash, c and the NUL */
	if (meta)
		o->p[o->len++] = '\\';
	o->p[o->len++] = c;
	o->p[o->len] = '\0';
}

static void puts_out(struct out *o, const char *s)
{
	for (; *s; s++)
		put(o, *s);
}

/* Code points that are valid but move the cursor, reorder the line or break XML. */
static bool hidden_code_point(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0xfffe || cp == 0xffff;
}

/*
 * An underscore between letters or digits never opens or closes emphasis
 * (CommonMark's flanking rules): io_uring_setup stays as it is.
 */
static bool inert_underscore(const char *start, const char *s, size_t n)
{
	return *s == '_' && s > start && n > 1 && isalnum((unsigned char)s[-1]) &&
	       isalnum((unsigned char)s[1]);
}

/* One character or byte of s; returns the bytes of s it took. */
static size_t put_unit(struct out *o, const char *start, const char *s, size_t n)
{
	static const char ctl[] = "\aa\bb\tt\nn\vv\ff\rr\033e";
	unsigned char c = (unsigned char)*s;
	const char *e;
	char buf[16];
	uint32_t cp;
	size_t len;

	if (c == '\\' && !(o->flags & ESCAPE_KEEP_BACKSLASH)) {
		puts_out(o, "\\\\");
		return 1;
	}
	if (c >= 0x20 && c < 0x7f) {
		unsigned int flags = o->flags;

		if (inert_underscore(start, s, n))
			o->flags &= ~(unsigned int)ESCAPE_MARKDOWN;
		put(o, (char)c);
		o->flags = flags;
		return 1;
	}
	if (c && (e = memchr(ctl, c, sizeof(ctl) - 1)) && !((e - ctl) & 1)) {
		put(o, '\\');
		put(o, e[1]);
		return 1;
	}
	len = c < 0x80 ? 0 : utf8_seq_len(s, n, &cp);
	if (!len) {
		snprintf(buf, sizeof(buf), "\\x%02x", c);
		puts_out(o, buf);
		return 1;
	}
	if (hidden_code_point(cp)) {
		snprintf(buf, sizeof(buf), "\\u%04x", (unsigned int)cp);
		puts_out(o, buf);
		return len;
	}
	for (size_t i = 0; i < len; i++)
		put(o, s[i]);
	return len;
}

char *escape_text(const char *s, size_t max, unsigned int flags)
{
	struct out o = { .flags = flags, .cap = 64 };
	size_t n = strlen(s), fit = 0, i = 0;
	const size_t room = max > sizeof(ESCAPE_ELLIPSIS) ? max - (sizeof(ESCAPE_ELLIPSIS) - 1) : 1;

	o.p = xcalloc(o.cap, 1);
	while (i < n) {
		i += put_unit(&o, s, s + i, n - i);
		if (o.len <= room)
			fit = o.len;	/* the last boundary that leaves room for the ellipsis */
		if (max && o.len > max)
			break;
	}
	if (max && o.len > max) {
		o.len = fit;
		o.flags &= ~(unsigned int)ESCAPE_MARKDOWN;
		puts_out(&o, ESCAPE_ELLIPSIS);
	}
	return o.p;
}

char *text_cut(const char *s, size_t max)
{
	const size_t room = max - (sizeof(ESCAPE_ELLIPSIS) - 1);
	size_t n = strnlen(s, max + 1), keep = 0;
	char *out;

	if (n <= max)
		return xstrdup(s);
	/* Whole characters, a stray byte counting as one, that leave room for the ellipsis. */
	while (keep < n) {
		uint32_t cp;
		size_t len = utf8_seq_len(s + keep, n - keep, &cp);

		if (!len)
			len = 1;
		if (keep + len > room)
			break;
		keep += len;
	}
	out = xcalloc(keep + sizeof(ESCAPE_ELLIPSIS), 1);
	memcpy(out, s, keep);
	memcpy(out + keep, ESCAPE_ELLIPSIS, sizeof(ESCAPE_ELLIPSIS));
	return out;
}
