/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_JSON_PUT_H
#define URINGLINT_JSON_PUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

/*
 * A JSON object written key by key, as json-c writes the object it would
 * have built (JSON_C_TO_STRING_SPACED: { "a": 1, "b": "x" }), without
 * building it: an audit's 10,000 files cost more as json-c objects (an
 * object, a hash table and a value each per key) than as their reading.
 * Strings keep json_bytes.h's rules and json-c's own escaping. Objects
 * (and json_put_raw()'s separators) are put together in memory and written
 * to out in blocks of about 64 KiB, the rest at json_put_flush(): nothing
 * else may write to out in between. The small writers are inline: with the
 * key's length a constant, each key is a few stores, not a call.
 */
struct json_put {
	FILE *out;
	char *buf;			/* what is not written yet */
	size_t len, cap;
	bool any;			/* the open object has a key */
	bool failed;
};

#define JSON_PUT_BLOCK (64 * 1024)

void json_put_init(struct json_put *p, FILE *out);
void json_put_free(struct json_put *p);

/* Room for len more bytes (the slow path of json_put_room). */
char *json_put_grow(struct json_put *p, size_t len);

/* Room for len more bytes, or NULL (then the writer has failed). */
static inline char *json_put_room(struct json_put *p, size_t len)
{
	if (__builtin_expect(p->failed, 0))
		return NULL;
	if (__builtin_expect(p->len + len > p->cap, 0))
		return json_put_grow(p, len);
	p->len += len;
	return p->buf + p->len - len;
}

static inline void json_put_len(struct json_put *p, const char *s, size_t len)
{
	char *d = json_put_room(p, len);

	if (d)
		memcpy(d, s, len);
}

/* Text between objects (", " in an array). */
static inline void json_put_raw(struct json_put *p, const char *s)
{
	json_put_len(p, s, strlen(s));
}

static inline void json_put_begin(struct json_put *p)
{
	p->any = false;
}

/*
 * Keys are the writer's own names: nothing in them to escape. key is
 * ", \"KEY\": " (JSON_PUT_KEY); the first of an object opens it, its comma
 * turned into the brace.
 */
static inline void json_put_key(struct json_put *p, const char *key, size_t len)
{
	char *d = json_put_room(p, len);

	if (!d)
		return;
	memcpy(d, key, len);
	if (!p->any)
		d[0] = '{';
	p->any = true;
}

static inline void json_put_int_n(struct json_put *p, const char *key, size_t klen, int64_t v)
{
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	char buf[24], *end = buf + sizeof(buf), *s = end;

	do {
		*--s = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--s = '-';
	json_put_key(p, key, klen);
	json_put_len(p, s, (size_t)(end - s));
}

/* The value, or null when it is not known. */
static inline void json_put_int_known_n(struct json_put *p, const char *key, size_t klen,
					bool known, int64_t v)
{
	if (known) {
		json_put_int_n(p, key, klen, v);
		return;
	}
	json_put_key(p, key, klen);
	json_put_len(p, "null", 4);
}

static inline void json_put_bool_n(struct json_put *p, const char *key, size_t klen, bool v)
{
	json_put_key(p, key, klen);
	if (v)
		json_put_len(p, "true", 4);
	else
		json_put_len(p, "false", 5);
}

/* v in octal, as the string "0NNN" (open flags, as printf "0%o" writes them). */
static inline void json_put_octal_n(struct json_put *p, const char *key, size_t klen,
				    unsigned int v)
{
	char buf[16], *end = buf + sizeof(buf), *s = end;

	*--s = '"';
	do {
		*--s = (char)('0' + (v & 7));
		v >>= 3;
	} while (v);
	*--s = '0';
	*--s = '"';
	json_put_key(p, key, klen);
	json_put_len(p, s, (size_t)(end - s));
}

/* A string of the writer's own ("rw"): nothing in it to escape or check. */
static inline void json_put_literal_n(struct json_put *p, const char *key, size_t klen,
				      const char *s, size_t len)
{
	char *d;

	json_put_key(p, key, klen);
	d = json_put_room(p, len + 2);
	if (!d)
		return;
	d[0] = '"';
	memcpy(d + 1, s, len);
	d[len + 1] = '"';
}

/* As json_bytes_string(); NULL writes null. */
void json_put_string_n(struct json_put *p, const char *key, size_t klen, const char *s);
/* As json_add_bytes(): KEY_base64 follows when s is not UTF-8. */
void json_put_bytes_n(struct json_put *p, const char *key, size_t klen, const char *s);

/* The key as written after another: ", \"KEY\": " (put_key() drops the comma for the first). */
#define JSON_PUT_KEY(key) (", \"" key "\": "), sizeof(", \"" key "\": ") - 1
#define json_put_int(p, key, v) json_put_int_n((p), JSON_PUT_KEY(key), (v))
#define json_put_int_known(p, key, known, v) json_put_int_known_n((p), JSON_PUT_KEY(key), (known), (v))
#define json_put_bool(p, key, v) json_put_bool_n((p), JSON_PUT_KEY(key), (v))
#define json_put_string(p, key, s) json_put_string_n((p), JSON_PUT_KEY(key), (s))
#define json_put_literal(p, key, s) json_put_literal_n((p), JSON_PUT_KEY(key), (s), sizeof(s) - 1)
#define json_put_bytes(p, key, s) json_put_bytes_n((p), JSON_PUT_KEY(key), (s))
#define json_put_octal(p, key, v) json_put_octal_n((p), JSON_PUT_KEY(key), (v))
/*
 * Closes the object, and writes what is put together once it passes
 * JSON_PUT_BLOCK: 0, or -EIO when some write failed.
 */
int json_put_end(struct json_put *p);
/* Writes what is left: 0, or -EIO when this or an earlier write failed. */
int json_put_flush(struct json_put *p);

/*
 * An object too large to build whole: o (its small keys, as json-c writes
 * them) without its closing brace, then ', "KEY": [', for the caller to
 * stream the array's objects and close with "] }". Puts o. 0 or -EIO.
 */
int json_put_head(FILE *out, struct json_object *o, const char *key);

#endif
