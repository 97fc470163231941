// SPDX-License-Identifier: GPL-2.0-or-later
/* An object written key by key, as json-c would write it (see output.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

#define JSON_PUT_FLAGS (JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE)

void json_put_init(struct json_put *p, FILE *out)
{
	*p = (struct json_put){ .out = out };
}

void json_put_free(struct json_put *p)
{
	free(p->buf);
	p->buf = NULL;
	p->cap = p->len = 0;
}

char *json_put_grow(struct json_put *p, size_t len)
{
	char *grown;
	size_t cap = p->cap ? p->cap : 2 * JSON_PUT_BLOCK;

	while (cap < p->len + len)
		cap *= 2;
	grown = realloc(p->buf, cap);
	if (!grown) {
		p->failed = true;
		return NULL;
	}
	p->buf = grown;
	p->cap = cap;
	p->len += len;
	return p->buf + p->len - len;
}

static void put_raw(struct json_put *p, const char *s)
{
	if (!s)
		p->failed = true;
	else
		json_put_len(p, s, strlen(s));
}

/* A json-c value, written as json-c writes it, and let go. */
static void put_value(struct json_put *p, struct json_object *v)
{
	put_raw(p, json_object_to_json_string_ext(v, JSON_PUT_FLAGS));
	json_object_put(v);
}

/*
 * Whether json-c would write s as it is, its length in *len: no control
 * byte, quote or backslash ('/' stays), and UTF-8 (lib/output/json_bytes.c). Eight
 * bytes at a time within the string's length (the classic has-less and
 * has-byte tests: each sets a byte's top bit where that byte matches); an
 * audit scans the path of each of 10,000 files.
 */
static bool plain(const char *s, size_t *len)
{
	const uint64_t ones = 0x0101010101010101ULL, tops = 0x8080808080808080ULL;
	size_t n = strlen(s), i;
	uint64_t any = 0, bad = 0;

	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t x, q, b;

		memcpy(&x, s + i, 8);
		q = x ^ (ones * '"');
		b = x ^ (ones * '\\');
		bad |= ((x - ones * ' ') & ~x) | ((q - ones) & ~q) | ((b - ones) & ~b);
		any |= x;
	}
	if (bad & tops)
		return false;
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < ' ' || c == '"' || c == '\\')
			return false;
		any |= c;
	}
	*len = n;
	return !(any & tops) || utf8_valid(s);
}

/* The string's value; true when it was plain (so UTF-8: no base64 sibling needed). */
static bool put_string(struct json_put *p, const char *key, size_t klen, const char *s)
{
	size_t len;
	char *d;

	json_put_key(p, key, klen);
	if (!s) {
		json_put_len(p, "null", 4);
		return true;
	}
	if (plain(s, &len)) {
		d = json_put_room(p, len + 2);
		if (d) {
			d[0] = '"';
			memcpy(d + 1, s, len);
			d[len + 1] = '"';
		}
		return true;
	}
	put_value(p, json_bytes_string(s));
	return false;
}

void json_put_string_n(struct json_put *p, const char *key, size_t klen, const char *s)
{
	put_string(p, key, klen, s);
}

void json_put_bytes_n(struct json_put *p, const char *key, size_t klen, const char *s)
{
	struct json_object *o, *b64 = NULL;
	char name[64];

	/* A plain string is valid UTF-8: the common case scans it once. */
	if (put_string(p, key, klen, s) || utf8_valid(s))
		return;
	/* Rare: json_add_bytes() itself says what the sibling holds. */
	o = json_object_new_object();
	snprintf(name, sizeof(name), "%.*s", (int)klen - 6, key + 3);
	json_add_bytes(o, name, s);
	/* key is ", \"KEY\": ": the sibling is ", \"KEY_base64\": ". */
	snprintf(name, sizeof(name), "%.*s_base64\": ", (int)klen - 3, key);
	json_put_key(p, name, strlen(name));
	snprintf(name, sizeof(name), "%.*s_base64", (int)klen - 6, key + 3);
	json_object_object_get_ex(o, name, &b64);
	put_raw(p, b64 ? json_object_to_json_string_ext(b64, JSON_PUT_FLAGS) : NULL);
	json_object_put(o);
}

int json_put_end(struct json_put *p)
{
	/* json-c writes an empty object "{ }" too */
	if (p->any)
		json_put_len(p, " }", 2);
	else
		json_put_len(p, "{ }", 3);
	if (p->len >= JSON_PUT_BLOCK)
		return json_put_flush(p);
	return p->failed ? -EIO : 0;
}

int json_put_flush(struct json_put *p)
{
	/* One writer per stream here: no lock to take per block. */
	if (!p->failed && p->len && fwrite_unlocked(p->buf, 1, p->len, p->out) != p->len)
		p->failed = true;
	p->len = 0;
	return p->failed ? -EIO : 0;
}

int json_put_head(FILE *out, struct json_object *o, const char *key)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED |
							  JSON_C_TO_STRING_NOSLASHESCAPE);
	const char *end = s ? strrchr(s, '}') : NULL;
	int err = 0;

	if (!end || fwrite(s, 1, (size_t)(end - s), out) != (size_t)(end - s) ||
	    fprintf(out, ", \"%s\": [", key) < 0)
		err = -EIO;
	json_object_put(o);
	return err;
}
