// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "fiemap.h"

#define BATCH 256

int fiemap_count(int fd, uint32_t max, uint32_t *extents, uint32_t *unwritten, bool *truncated)
{
	struct fiemap *fm;
	uint64_t start = 0;
	uint32_t i;
	bool last = false;

	*extents = *unwritten = 0;
	*truncated = false;
	fm = calloc(1, sizeof(*fm) + BATCH * sizeof(struct fiemap_extent));
	if (!fm)
		return -ENOMEM;
	while (!last) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = FIEMAP_MAX_OFFSET - start;
		fm->fm_extent_count = BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0) {
			int err = errno == ENOTTY ? -EOPNOTSUPP : -errno;

			free(fm);
			return err;
		}
		if (!fm->fm_mapped_extents)
			break;
		for (i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &fm->fm_extents[i];

			(*extents)++;
			if (e->fe_flags & FIEMAP_EXTENT_UNWRITTEN)
				(*unwritten)++;
			if (e->fe_flags & FIEMAP_EXTENT_LAST)
				last = true;
			start = e->fe_logical + e->fe_length;
		}
		if (*extents >= max && !last) {
			*truncated = true;
			break;
		}
	}
	free(fm);
	return 0;
}
