/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROC_IMAGE_H
#define URINGLINT_PROC_IMAGE_H

#include <stddef.h>
#include <sys/types.h>

#include "fact.h"
#include "sysroot.h"

#define PROC_IMAGE_MAX_LIBS 256

/* What program a process runs: its executable and the shared objects it maps. */
struct proc_image {
	struct fact_err e;		/* neither could be read */
	char exe[256];			/* basename of /proc/PID/exe, "" unknown */
	char *libs[PROC_IMAGE_MAX_LIBS];	/* basenames of mapped *.so files, distinct */
	size_t nlibs;
	bool liburing;			/* a liburing is mapped */
};

/* Reads proc/PID/exe and proc/PID/maps (paths only, never the memory). */
void proc_image_collect(const struct sysroot *sr, pid_t pid, struct proc_image *im);
void proc_image_free(struct proc_image *im);

/* The basenames of the mapped files in a maps text; exported for the fuzzer. */
void proc_image_parse_maps(const char *text, struct proc_image *im);

#endif
