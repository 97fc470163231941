/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_SYSROOT_H
#define URINGLINT_SYSROOT_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * Every read of /proc and /sys goes through a sysroot: an opened directory
 * fd that is "/" on the live system, or a captured tree given with --root.
 * Paths are relative ("proc/self/status"). For a captured tree, lookups use
 * openat2(RESOLVE_IN_ROOT) so that symlinks inside the tree cannot reach
 * the real filesystem.
 */
struct sysroot {
	int dirfd;
	bool live;
	bool walk;	/* no openat2 (before 5.6): resolve in user space instead */
	char path[4096];
};

/* Default cap for one /proc or /sys file: far above any real one. */
#define SYSROOT_READ_MAX (1024 * 1024)

int sysroot_open(struct sysroot *sr, const char *root);
void sysroot_close(struct sysroot *sr);

/* Opens a regular file read-only without blocking on FIFOs; returns fd or -errno. */
int sysroot_open_file(const struct sysroot *sr, const char *rel);

/*
 * Reads a whole file into a NUL-terminated heap buffer (*buf, *len).
 * Returns 0 or -errno: -EFBIG past max bytes, -EINVAL for a file that is not
 * regular, -EILSEQ for content with a NUL byte (no /proc text file has one).
 */
int sysroot_read_file(const struct sysroot *sr, const char *rel, size_t max,
		      char **buf, size_t *len);

/* As sysroot_read_file, for files with NUL separators (proc/PID/environ, cmdline). */
int sysroot_read_bytes(const struct sysroot *sr, const char *rel, size_t max, char **buf,
		       size_t *len);

/* Reads the first line of a small file (sysctls, sysfs attributes), trimmed. */
int sysroot_read_line(const struct sysroot *sr, const char *rel, char *out,
		      size_t outsz);

/*
 * Reads a file that holds one name and a newline (proc/PID/comm): the name
 * may hold any byte but NUL, newlines and blanks included, so only the
 * final newline is dropped. 0 or -errno (-EOVERFLOW past outsz).
 */
int sysroot_read_name(const struct sysroot *sr, const char *rel, char *out, size_t outsz);

/* The target of a symlink (proc/PID/fd/N), NUL-terminated; 0 or -errno (-ENAMETOOLONG). */
int sysroot_readlink(const struct sysroot *sr, const char *rel, char *out, size_t outsz);

/* Opens a directory for listing (sys/block/DEV/slaves, proc); NULL with errno set. */
DIR *sysroot_opendir(const struct sysroot *sr, const char *rel);

/* A short human explanation of an error returned by the functions above. */
const char *sysroot_strerror(int err);

#endif
