/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PARSE_H
#define URINGLINT_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Strict number parsing for kernel text: the whole token must be a number in
 * range, surrounding blanks allowed. Return 0 or -EINVAL / -ERANGE.
 */
int parse_i64(const char *s, int base, int64_t *out);
int parse_u64(const char *s, int base, uint64_t *out);

/*
 * A byte count with an optional binary suffix: "65536", "64M", "64MiB",
 * "1G", "512k". 0 or -EINVAL / -ERANGE.
 */
int parse_size(const char *s, uint64_t *out);

/*
 * Finds "Key:<blanks>value" in a "Key:\tvalue" per line text (status,
 * fdinfo) and copies the value, trimmed, to out. Returns 0, -ENOENT or
 * -EOVERFLOW.
 */
int parse_keyed_value(const char *text, const char *key, char *out, unsigned outsz);

#endif
