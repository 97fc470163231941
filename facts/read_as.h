/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_READ_AS_H
#define URINGLINT_READ_AS_H

#include <dirent.h>
#include <stdio.h>
#include <sys/types.h>

#include "proc_facts.h"
#include "sysroot.h"

/*
 * Reading the files a process's command line or configuration names (a
 * MariaDB option file, an smb.conf) as the process itself could. Any user
 * names those paths, so root must not read them as root: on the live host
 * a child of uringlint takes the process's real uid, gid and groups, opens
 * each path from the process's root (openat2 RESOLVE_IN_ROOT: its links
 * stay inside it), regular files only, checked on an O_PATH handle before
 * a read handle is opened (opening a device or FIFO could act or block),
 * and hands back what it read within READ_AS_MS. A captured tree is read
 * through its sysroot. Every reading is bounded: READ_AS_FILES files of
 * READ_AS_FILE_MAX bytes, none read twice.
 */
#define READ_AS_MS 2000
#define READ_AS_FILES 64
#define READ_AS_FILE_MAX (1u << 20)

struct read_as {
	const struct sysroot *sr;
	pid_t pid;
	int rootfd;		/* the process's root in the child; -1 for a captured tree */
	unsigned int files;
	struct {
		dev_t dev;
		ino_t ino;
	} seen[READ_AS_FILES];
};

/*
 * A file at path (absolute, in the process's root): its text, NUL-ended,
 * with any NUL in it made a line end. 0, or -errno: -ENOENT, -EACCES as
 * the process would get them, -EINVAL not a regular file, -EFBIG, -ELOOP
 * read already, -EMFILE past READ_AS_FILES.
 */
int read_as_file(struct read_as *ra, const char *path, char **text);
/* The names in directory path (in the process's root), sorted; NULL with errno. */
char **read_as_list(struct read_as *ra, const char *path, size_t *n);
void read_as_list_free(char **names, size_t n);

/*
 * Runs fn as the process could: in a child with its credentials on the live
 * host, in place for a captured tree. What fn writes to out (at most max
 * bytes) comes back in *buf (malloc'ed). 0, or -errno (-ETIMEDOUT when the
 * child took longer than READ_AS_MS, -EPERM when it could not take the
 * process's credentials).
 */
int read_as_run(const struct sysroot *sr, const struct proc_facts *pf,
		int (*fn)(struct read_as *ra, FILE *out, void *arg), void *arg, size_t max,
		char **buf, size_t *len);

#endif
