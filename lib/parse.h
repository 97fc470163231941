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

/* A count from 1 to max: 0, -EINVAL or -ERANGE (0 is out of range). */
int parse_count(const char *s, unsigned int max, unsigned int *out);

/* The kernel's PID_MAX_LIMIT on 64-bit: no PID is larger. */
#define PARSE_PID_MAX 4194304u

/* A process ID, 1 to PARSE_PID_MAX: 0, -EINVAL or -ERANGE. */
int parse_pid(const char *s, int *out);

/*
 * Finds "Key:<blanks>value" in a "Key:\tvalue" per line text (status,
 * fdinfo) and copies the value, trimmed, to out. Returns 0, -ENOENT or
 * -EOVERFLOW.
 */
int parse_keyed_value(const char *text, const char *key, char *out, unsigned outsz);

/* The value of a hex digit, either case, or -1. */
int parse_hex_digit(char c);

/*
 * Exactly digits (1 to 8) hex digits at p, before end: the kernel's fixed
 * widths (%08X, %04X). 0 or -EBADMSG.
 */
int parse_hex_fixed(const char *p, const char *end, int digits, uint32_t *out);

#endif
