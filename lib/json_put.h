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
void json_put_int(struct json_put *p, const char *key, int64_t v);
/* The value, or null when it is not known. */
void json_put_int_known(struct json_put *p, const char *key, bool known, int64_t v);
void json_put_bool(struct json_put *p, const char *key, bool v);
/* As json_bytes_string(); NULL writes null. */
void json_put_string(struct json_put *p, const char *key, const char *s);
/* As json_add_bytes(): KEY_base64 follows when s is not UTF-8. */
void json_put_bytes(struct json_put *p, const char *key, const char *s);
/* Closes the object: 0, or -EIO when some write failed. */
int json_put_end(struct json_put *p);

#endif
