/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_FIEMAP_H
#define URINGLINT_FIEMAP_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Counts a file's extents and its unwritten (allocated, never written)
 * ones with FS_IOC_FIEMAP, in batches, stopping after max extents
 * (*truncated then). 0 or -errno (-EOPNOTSUPP on filesystems without it).
 */
int fiemap_count(int fd, uint32_t max, uint32_t *extents, uint32_t *unwritten, bool *truncated);

#endif
