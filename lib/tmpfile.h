/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_TMPFILE_H
#define URINGLINT_TMPFILE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * uringlint's own temporary file in dir (preflight's O_DIRECT try, the probe): O_TMPFILE (gone with the last fd,
 * even after SIGKILL), else an O_EXCL name unlinked at once. Never follows
 * a symlink, never opens an existing file. Returns the fd or -errno.
 */
int tmpfile_open(const char *dir, int flags, bool *tmpfile);

/* Allocates size bytes and writes them once with O_DIRECT, so no extent stays unwritten. */
int tmpfile_fill(int fd, uint64_t size, uint32_t align, void (*progress)(uint64_t done,
									       uint64_t total));

#endif
