/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_JSON_BYTES_H
#define URINGLINT_JSON_BYTES_H

#include <json-c/json.h>

/*
 * JSON strings for bytes that may not be UTF-8 (file paths, comm, mount
 * sources). json-c writes a string's bytes as they are, and a document
 * with a byte that is not UTF-8 is not JSON (RFC 8259, section 8.1).
 *
 * The contract: a string that is well-formed UTF-8 is carried exactly.
 * Otherwise each byte that is not part of a well-formed sequence is
 * written as the four characters \xHH (so the key stays readable), and
 * where the bytes matter (paths, comm, subject, evidence) a sibling key
 * KEY_base64 holds the exact bytes in base64 (RFC 4648, with padding).
 * KEY_base64 is absent when KEY is exact.
 */

/* The string, with bytes that are not UTF-8 as \xHH; never NULL. */
struct json_object *json_bytes_string(const char *s);

/* The bytes in base64 (RFC 4648, with padding), on the heap; never NULL. */
char *json_base64(const void *s, size_t n);

/* Adds key (as json_bytes_string) and, when s is not UTF-8, key_base64. s NULL adds null. */
void json_add_bytes(struct json_object *o, const char *key, const char *s);

#endif
