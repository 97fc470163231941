/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_VERSION_H
#define URINGLINT_VERSION_H

/* Set at build time from the Makefile (pkg-config for the libraries). */
extern const char uringlint_version[];
extern const char liburing_build_version[];
extern const char libproc2_build_version[];

#endif
