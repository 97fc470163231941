/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PATH_WALK_H
#define URINGLINT_PATH_WALK_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

/*
 * Walking a path one component at a time, as the kernel does (the walk
 * before openat2, the walk that follows only trusted links, and capture's
 * tree writer). path_next moves the next component of rest into comp
 * (NAME_MAX + 1 bytes), sets *last when none follows, and returns its
 * length (0: rest is used up) or -ENAMETOOLONG. path_splice puts a
 * symlink's target in front of what rest has left: 0 or -ENAMETOOLONG.
 * path_step makes resolved (relative, no leading '/') resolved/comp, or its
 * parent for "..": 0 or -ENAMETOOLONG.
 */
ssize_t path_next(char *rest, char *comp, bool *last);
int path_splice(char *rest, size_t restsz, const char *link);
int path_step(char *resolved, size_t sz, const char *comp);

/* Why a walk refused a symbolic link: one phrase for a message, "" if it did not. */
struct path_refusal {
	char why[PATH_MAX + 96];	/* "'/srv/reports' is a symbolic link owned by uid 65534" */
};

struct path_walk {
	int rootfd;		/* where an absolute path or link starts */
	int startfd;		/* where a relative path starts (AT_FDCWD); unused in_root */
	bool in_root;		/* openat2's RESOLVE_IN_ROOT: ".." and "/" stay at rootfd */
	bool owned_links;	/* follow a link only when root or the caller (euid) owns it */
	struct path_refusal *refusal;	/* with owned_links: filled on -EACCES */
};

/*
 * Opens path with flags, each component opened O_PATH | O_NOFOLLOW from the
 * one before, so that no component is looked up twice by name; a link is
 * read through the fd that was checked. The last component is opened with
 * flags | O_NOFOLLOW. After 40 links, -ELOOP, as the kernel does. Returns
 * an fd or -errno; -EACCES with *refusal filled for a link not followed.
 */
int path_walk_open(const struct path_walk *w, const char *path, int flags);

/*
 * Opens a path a user named (-o's directory, --trace's, --config, a report
 * to merge) so that no symbolic link another user owns is followed, on any
 * component: root runs into directories other users own, and such a user
 * can swap a directory of theirs for a link to one they cannot write or
 * read. A link owned by root or the caller is followed (/var/run, a
 * deployment's own links), another's never: the kernel's protected_symlinks
 * rule for a sticky directory (followed when the follower owns the link),
 * held on every directory, as OpenSSH's safe_path holds its files. openat2's
 * RESOLVE_NO_SYMLINKS opens a path with no link at all in one atomic
 * lookup; a path with a link, or a kernel before 5.6, takes the walk.
 * Returns an fd or -errno; -EACCES with *refusal filled for a refused link.
 */
int path_open_owned(const char *path, int flags, struct path_refusal *refusal);

#endif
