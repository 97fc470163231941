/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_MOUNTINFO_H
#define URINGLINT_MOUNTINFO_H

#include <stdbool.h>
#include <stddef.h>

/* One line of /proc/PID/mountinfo (proc(5)), octal escapes decoded. */
struct mount_entry {
	unsigned int id, parent;
	unsigned int major, minor;	/* st_dev of files on this mount */
	char root[1024];
	char mount_point[1024];
	char options[512];		/* per-mount: rw,relatime,... */
	char fstype[64];
	char source[512];
	char super_options[1024];	/* per-superblock: discard, ... */
};

/* 0 or -EBADMSG / -ENOMEM; *entries is a heap array the caller frees. */
int mountinfo_parse(const char *text, struct mount_entry **entries, size_t *n);

struct sysroot;

/*
 * Reads and parses a mount table under the sysroot ("proc/self/mountinfo"):
 * 0, or -errno of the read or the parse; *entries as mountinfo_parse.
 */
int mountinfo_read(const struct sysroot *sr, const char *rel, struct mount_entry **entries,
		   size_t *n);

/*
 * The mount a path lives on: the last entry (the top of a stack of mounts)
 * whose mount point is the longest directory prefix of path. With
 * major/minor given (live: from stat), entries of another device are
 * skipped, which sees through bind mounts and symlinked paths.
 */
const struct mount_entry *mountinfo_find(const struct mount_entry *e, size_t n, const char *path,
					 bool match_dev, unsigned int major, unsigned int minor);

/* Whether a comma-separated option list holds opt exactly ("sync", "lazytime"). */
bool mount_has_option(const char *options, const char *opt);

#endif
