/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_FUZZ_H
#define URINGLINT_FUZZ_H

/*
 * Every harness defines LLVMFuzzerTestOneInput. Built with clang and
 * -fsanitize=fuzzer it is a libFuzzer target (`make fuzz`); built with the
 * project's compiler and replay.c it runs the saved regression inputs in
 * `make check`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Our parsers take NUL-terminated text, as sysroot_read_file gives it
 * (it refuses files with a NUL byte): cut the input at its first NUL.
 */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t n = nul ? (size_t)(nul - data) : size;
	char *s = malloc(n + 1);

	if (!s)
		abort();
	memcpy(s, data, n);
	s[n] = '\0';
	return s;
}

#endif
