/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_UTF8_H
#define URINGLINT_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The length (1 to 4) of the well-formed UTF-8 sequence at s, of at most n
 * bytes, and its code point in *cp; 0 when s does not start one: a stray
 * continuation byte, an overlong form, a surrogate, past U+10FFFF, or cut
 * short. Names from other processes are bytes, not text: this is the test.
 */
size_t utf8_seq_len(const char *s, size_t n, uint32_t *cp);

/* Whether the NUL-terminated s is well-formed UTF-8 throughout. */
bool utf8_valid(const char *s);

#endif
