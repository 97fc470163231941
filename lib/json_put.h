/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_JSON_PUT_H
#define URINGLINT_JSON_PUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

/*
 * A JSON object written key by key, as json-c writes the object it would
 * have built (JSON_C_TO_STRING_SPACED: { "a": 1, "b": "x" }), without
 * building it: an audit's 10,000 files cost more as json-c objects (an
 * object, a hash table and a value each per key) than as their reading.
 * Strings keep json_bytes.h's rules and json-c's own escaping. An object
 * is put together in memory and written, and checked, at json_put_end().
 */
struct json_put {
	FILE *out;
	char *buf;			/* the open object, reused from one to the next */
	size_t len, cap;
	bool any;			/* the open object has a key */
	bool failed;
};

void json_put_init(struct json_put *p, FILE *out);
void json_put_free(struct json_put *p);

void json_put_begin(struct json_put *p);
/*
 * The writers take the key's length from the literal (key "" makes any
 * other key a build error): an audit writes 13 keys for each of 10,000
 * files, and their strlen() showed in its profile.
 */
void json_put_int_n(struct json_put *p, const char *key, size_t klen, int64_t v);
/* The value, or null when it is not known. */
void json_put_int_known_n(struct json_put *p, const char *key, size_t klen, bool known,
			  int64_t v);
void json_put_bool_n(struct json_put *p, const char *key, size_t klen, bool v);
/* As json_bytes_string(); NULL writes null. */
void json_put_string_n(struct json_put *p, const char *key, size_t klen, const char *s);
/* As json_add_bytes(): KEY_base64 follows when s is not UTF-8. */
void json_put_bytes_n(struct json_put *p, const char *key, size_t klen, const char *s);
/* v in octal, as the string "0NNN" (open flags, as printf "0%o" writes them). */
void json_put_octal_n(struct json_put *p, const char *key, size_t klen, unsigned int v);

/* The key as written after another: ", \"KEY\": " (put_key() drops the comma for the first). */
#define JSON_PUT_KEY(key) (", \"" key "\": "), sizeof(", \"" key "\": ") - 1
#define json_put_int(p, key, v) json_put_int_n((p), JSON_PUT_KEY(key), (v))
#define json_put_int_known(p, key, known, v) json_put_int_known_n((p), JSON_PUT_KEY(key), (known), (v))
#define json_put_bool(p, key, v) json_put_bool_n((p), JSON_PUT_KEY(key), (v))
#define json_put_string(p, key, s) json_put_string_n((p), JSON_PUT_KEY(key), (s))
#define json_put_bytes(p, key, s) json_put_bytes_n((p), JSON_PUT_KEY(key), (s))
#define json_put_octal(p, key, v) json_put_octal_n((p), JSON_PUT_KEY(key), (v))
/* Closes the object: 0, or -EIO when some write failed. */
int json_put_end(struct json_put *p);

/*
 * An object too large to build whole: o (its small keys, as json-c writes
 * them) without its closing brace, then ', "KEY": [', for the caller to
 * stream the array's objects and close with "] }". Puts o. 0 or -EIO.
 */
int json_put_head(FILE *out, struct json_object *o, const char *key);

#endif
