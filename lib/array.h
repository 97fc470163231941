/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_ARRAY_H
#define URINGLINT_ARRAY_H

/*
 * The number of elements of an array. Given a pointer instead, the second
 * term has a negative size and the build stops (the kernel's
 * __must_be_array), rather than dividing a pointer's size.
 */
#define ARRAY_SIZE(a)                                                                         \
	(sizeof(a) / sizeof((a)[0]) +                                                         \
	 0 * sizeof(char[1 - 2 * __builtin_types_compatible_p(__typeof__(a),                  \
							      __typeof__(&(a)[0]))]))

#endif
