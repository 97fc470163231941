// SPDX-License-Identifier: GPL-2.0-or-later
#include "version.h"

#ifndef URINGLINT_VERSION
#error "URINGLINT_VERSION is set by the Makefile"
#endif

const char uringlint_version[] = URINGLINT_VERSION;
/* liburing 2.3 has no run-time version call: this is what we built with. */
const char liburing_build_version[] = LIBURING_VERSION;
/* libproc2 (procps 4) has no run-time version call either. */
const char libproc2_build_version[] = LIBPROC2_VERSION;
