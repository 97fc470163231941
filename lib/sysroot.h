/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_SYSROOT_H
#define URINGLINT_SYSROOT_H

#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "path_walk.h"

/*
 * Every read of /proc and /sys goes through a sysroot: an opened directory
 * fd that is "/" on the live system, or a captured tree given with --root.
 * Paths are relative ("proc/self/status"). For a captured tree, lookups use
 * openat2(RESOLVE_IN_ROOT) so that symlinks inside the tree cannot reach
 * the real filesystem.
 */
struct sysroot_record;

struct sysroot {
	int dirfd;
	bool live;
	bool walk;	/* no openat2 (before 5.6): resolve in user space instead */
	char path[4096];
	struct sysroot_record *rec;	/* non-NULL: every successful read is recorded */
};

/*
 * The recording mode, for capture: each file read (with the bytes read),
 * each link read (with its target) and each directory listed, by the path
 * the collector asked for. A replay of the same collectors reads no path
 * that is not in the record.
 */
enum sysroot_kind {
	SR_FILE,
	SR_LINK,
	SR_DIR,
	SR_DENIED,	/* refused for want of permission (EACCES, EPERM): not in the tree */
};

struct sysroot_read {
	enum sysroot_kind kind;
	char *rel;
	char *data;	/* SR_FILE: the bytes, SR_LINK: the target; NULL otherwise */
	size_t len;
	int err;	/* SR_DENIED: the -errno */
};

struct sysroot_record {
	struct sysroot_read *v;
	size_t n, cap;
	int err;	/* the first allocation failure: the record is incomplete */
};

/* Starts recording into rec (zeroed by the caller); sysroot_record_free releases it. */
void sysroot_record_start(struct sysroot *sr, struct sysroot_record *rec);
void sysroot_record_free(struct sysroot_record *rec);

/* Default cap for one /proc or /sys file: far above any real one. */
#define SYSROOT_READ_MAX (1024 * 1024)

int sysroot_open(struct sysroot *sr, const char *root);
void sysroot_close(struct sysroot *sr);

/* Opens a regular file read-only without blocking on FIFOs; returns fd or -errno. */
int sysroot_open_file(const struct sysroot *sr, const char *rel);

/* Whether a regular file is there (a runtime's marker); its content is not read. */
bool sysroot_exists(const struct sysroot *sr, const char *rel);

/*
 * Reads a whole file into a NUL-terminated heap buffer (*buf, *len).
 * Returns 0 or -errno: -EFBIG past max bytes, -EINVAL for a file that is not
 * regular, -EILSEQ for content with a NUL byte (no /proc text file has one).
 */
/*
 * The same into the caller's buffer of bufsz bytes, for the many small
 * files one pass reads (an audit of 10,000 fds reads 10,000 fdinfo files of
 * about 100 bytes: a heap buffer for each cost more than parsing it).
 * -EFBIG when the file does not fit in bufsz - 1 bytes.
 */
int sysroot_read_into(const struct sysroot *sr, const char *rel, char *buf, size_t bufsz,
		      size_t *len);
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

/*
 * The inode rel names, links followed (proc/PID/exe: the program file
 * itself), on the live system only: a captured tree holds the link, not
 * the file, so there it is -EOPNOTSUPP. Not recorded. 0 or -errno.
 */
struct stat;
int sysroot_stat_live(const struct sysroot *sr, const char *rel, struct stat *st);

/*
 * A directory whose entries are read by name, many of them (an audit reads
 * proc/PID/fd/N and proc/PID/fdinfo/N for 10,000 fds). On the live host,
 * unrecorded, each name is looked up from the directory's own fd: one path
 * component, not four, measured 10% of such an audit. Elsewhere (a captured
 * tree, a capture's recording) the entry is read by its whole path through
 * the root, with the same rules and the same record as any other.
 * name is one component: -EINVAL for anything with a '/', "." or "..".
 * sysroot_dir_open fails (-errno) when the live directory cannot be
 * opened; d then reads by whole paths, and a caller may go on with it.
 * A directory path too long for rel fails with -ENAMETOOLONG, and so does
 * every read of d after it. Only proc/ and sys/ are read by name: they hold
 * only kernel files.
 */
struct sysroot_dir {
	const struct sysroot *sr;
	int dirfd;		/* -1: entries by their whole path */
	int err;		/* -ENAMETOOLONG: rel did not fit, and every read fails so */
	char rel[128];
};

int sysroot_dir_open(const struct sysroot *sr, const char *rel, struct sysroot_dir *d);
/* The same with rel printf-style; past PATH_MAX, -ENAMETOOLONG as for a rel too long. */
__attribute__((format(printf, 3, 4))) int sysroot_dir_openf(const struct sysroot *sr,
							    struct sysroot_dir *d,
							    const char *fmt, ...);
void sysroot_dir_close(struct sysroot_dir *d);
int sysroot_dir_read_into(const struct sysroot_dir *d, const char *name, char *buf,
			  size_t bufsz, size_t *len);
int sysroot_dir_readlink(const struct sysroot_dir *d, const char *name, char *out,
			 size_t outsz);

/* Opens a directory for listing (sys/block/DEV/slaves, proc); NULL with errno set. */
DIR *sysroot_opendir(const struct sysroot *sr, const char *rel);

/*
 * A directory's fd on the live host, for a system call that names a kernel
 * object by it (a cgroup for perf_event_open): fd, or -EOPNOTSUPP for a
 * captured tree, which has no such object, or -errno.
 */
int sysroot_open_live_dir(const struct sysroot *sr, const char *rel);

/*
 * A file's statx through the root, links followed (proc/PID/fd/N: the file
 * the fd holds), as the kernel gives it for the mask asked. Not recorded.
 * 0 or -errno.
 */
struct statx;
int sysroot_statx(const struct sysroot *sr, const char *rel, unsigned int mask,
		  struct statx *stx);
/*
 * A regular file, links followed (proc/PID/fd/N), opened read-only for
 * what an fd tells without reading the file (FIEMAP, cachestat), only if
 * it is regular: opening a FIFO could block and a device node could act.
 * The check is made on an O_PATH handle and the read handle reopened from
 * it, so a swapped fd cannot slip through. fd, or -EINVAL for a file that
 * is not regular, or -errno. Not recorded.
 */
int sysroot_open_regular(const struct sysroot *sr, const char *rel);
/*
 * A directory reached through links (proc/PID/root), as an O_PATH fd to
 * walk below with openat: fd or -errno. Not recorded.
 */
int sysroot_open_path_dir(const struct sysroot *sr, const char *rel);

/*
 * The same readers with the path given printf-style: a path that does not
 * fit PATH_MAX fails with -ENAMETOOLONG (NULL and errno for opendir) instead
 * of reading a truncated, different path.
 */
__attribute__((format(printf, 5, 6))) int sysroot_read_filef(const struct sysroot *sr, size_t max,
							     char **buf, size_t *len,
							     const char *fmt, ...);
__attribute__((format(printf, 5, 6))) int sysroot_read_bytesf(const struct sysroot *sr, size_t max,
							      char **buf, size_t *len,
							      const char *fmt, ...);
__attribute__((format(printf, 4, 5))) int sysroot_read_linef(const struct sysroot *sr, char *out,
							     size_t outsz, const char *fmt, ...);
__attribute__((format(printf, 4, 5))) int sysroot_read_namef(const struct sysroot *sr, char *out,
							     size_t outsz, const char *fmt, ...);
__attribute__((format(printf, 4, 5))) int sysroot_readlinkf(const struct sysroot *sr, char *out,
							    size_t outsz, const char *fmt, ...);
__attribute__((format(printf, 2, 3))) DIR *sysroot_opendirf(const struct sysroot *sr,
							    const char *fmt, ...);
__attribute__((format(printf, 3, 4))) int sysroot_stat_livef(const struct sysroot *sr,
							     struct stat *st, const char *fmt, ...);
__attribute__((format(printf, 4, 5))) int sysroot_statxf(const struct sysroot *sr,
							 unsigned int mask, struct statx *stx,
							 const char *fmt, ...);
__attribute__((format(printf, 2, 3))) int sysroot_open_regularf(const struct sysroot *sr,
								const char *fmt, ...);
__attribute__((format(printf, 2, 3))) int sysroot_open_path_dirf(const struct sysroot *sr,
								 const char *fmt, ...);
__attribute__((format(printf, 2, 3))) bool sysroot_existsf(const struct sysroot *sr,
							   const char *fmt, ...);
/* Formats a relative path: 0, or -ENAMETOOLONG when it does not fit out. */
__attribute__((format(printf, 3, 4))) int sysroot_pathf(char *out, size_t outsz,
							const char *fmt, ...);
/* The same from a va_list, for other printf-style readers (fact.h's). */
__attribute__((format(printf, 3, 0))) int sysroot_vpathf(char *out, size_t outsz,
							 const char *fmt, va_list ap);

/*
 * The body of a printf-style reader (its last parameters fmt, ...): fmt's
 * path into rel_, a PATH_MAX buffer, and return call on it, or, for a path
 * that does not fit, do on_err (err_ holds -ENAMETOOLONG): never a read of
 * a cut path. SYSROOT_WITH_PATH returns err_.
 */
#define SYSROOT_WITH_PATH_ELSE(fmt, call, on_err)                      \
	do {                                                           \
		char rel_[PATH_MAX];                                   \
		va_list ap_;                                           \
		int err_;                                              \
								       \
		va_start(ap_, fmt);                                    \
		err_ = sysroot_vpathf(rel_, sizeof(rel_), fmt, ap_);   \
		va_end(ap_);                                           \
		if (err_) {                                            \
			on_err;                                        \
		}                                                      \
		return call;                                           \
	} while (0)
#define SYSROOT_WITH_PATH(fmt, call) SYSROOT_WITH_PATH_ELSE(fmt, call, return err_)

/* A short human explanation of an error returned by the functions above. */
const char *sysroot_strerror(int err);

#endif
