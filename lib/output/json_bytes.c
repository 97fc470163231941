// SPDX-License-Identifier: GPL-2.0-or-later
/* Bytes into JSON that stays UTF-8, recoverably: see output.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "xalloc.h"

static char *base64(const unsigned char *s, size_t n)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char *out = xcalloc(4 * ((n + 2) / 3) + 1, 1), *p = out;
	size_t i;

	for (i = 0; i + 2 < n; i += 3, p += 4) {
		p[0] = abc[s[i] >> 2];
		p[1] = abc[(s[i] & 3) << 4 | s[i + 1] >> 4];
		p[2] = abc[(s[i + 1] & 15) << 2 | s[i + 2] >> 6];
		p[3] = abc[s[i + 2] & 63];
	}
	if (i < n) {
		p[0] = abc[s[i] >> 2];
		p[1] = abc[(s[i] & 3) << 4 | (i + 1 < n ? s[i + 1] >> 4 : 0)];
		p[2] = i + 1 < n ? abc[(s[i + 1] & 15) << 2] : '=';
		p[3] = '=';
	}
	return out;
}

char *json_base64(const void *s, size_t n)
{
	return base64(s, n);
}

struct json_object *json_bytes_string(const char *s)
{
	size_t n = strlen(s), len, used = 0;
	struct json_object *o;
	uint32_t cp;
	char *buf;

	if (utf8_valid(s))
		return json_object_new_string(s);
	buf = xcalloc(4 * n + 1, 1);
	while (n) {
		len = utf8_seq_len(s, n, &cp);
		if (len) {
			memcpy(buf + used, s, len);
			used += len;
		} else {
			used += (size_t)sprintf(buf + used, "\\x%02x", (unsigned char)*s);
			len = 1;
		}
		s += len;
		n -= len;
	}
	o = json_object_new_string_len(buf, (int)used);
	free(buf);
	return o;
}

void json_add_bytes(struct json_object *o, const char *key, const char *s)
{
	char *k, *b;

	if (!s) {
		json_object_object_add(o, key, NULL);
		return;
	}
	json_object_object_add(o, key, json_bytes_string(s));
	if (utf8_valid(s))
		return;
	k = xasprintf("%s_base64", key);
	b = base64((const unsigned char *)s, strlen(s));
	json_object_object_add(o, k, json_object_new_string(b));
	free(k);
	free(b);
}
