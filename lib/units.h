/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_UNITS_H
#define URINGLINT_UNITS_H

#include <stddef.h>
#include <stdint.h>

#define BYTES_STR_MAX 32

/* "8 MiB", "400 KiB", "1.5 GiB", "4095 B"; UINT64_MAX prints "unlimited". */
const char *format_bytes(uint64_t v, char buf[BYTES_STR_MAX]);

#endif
