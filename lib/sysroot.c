// SPDX-License-Identifier: GPL-2.0-or-later
/* The root every /proc and /sys read goes through (see sysroot.h). */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "array.h"
#include "path_walk.h"
#include "sysroot.h"

void sysroot_record_start(struct sysroot *sr, struct sysroot_record *rec)
{
	sr->rec = rec;
}

void sysroot_record_free(struct sysroot_record *rec)
{
	size_t i;

	for (i = 0; i < rec->n; i++) {
		free(rec->v[i].rel);
		free(rec->v[i].data);
	}
	free(rec->v);
	memset(rec, 0, sizeof(*rec));
}

/*
 * A read refused for want of permission: what a capture without root lacks.
 * Other failures (a file that is not there) a replay meets the same way.
 */
static void record_denied(const struct sysroot *sr, const char *rel, int err);

/* Keeps a copy of what was read; an allocation failure marks the record incomplete. */
static void record(const struct sysroot *sr, enum sysroot_kind kind, const char *rel,
		   const char *data, size_t len)
{
	struct sysroot_record *rec = sr->rec;
	struct sysroot_read *r;

	if (!rec || rec->err)
		return;
	if (array_grow(&rec->v, &rec->cap, rec->n + 1)) {
		rec->err = -ENOMEM;
		return;
	}
	r = &rec->v[rec->n];
	while (*rel == '/')
		rel++;
	r->kind = kind;
	r->len = len;
	r->err = 0;
	r->rel = strdup(rel);
	r->data = data ? malloc(len + 1) : NULL;
	if (!r->rel || (data && !r->data)) {
		free(r->rel);
		free(r->data);
		rec->err = -ENOMEM;
		return;
	}
	if (data) {
		memcpy(r->data, data, len);
		r->data[len] = '\0';
	}
	rec->n++;
}

int sysroot_open(struct sysroot *sr, const char *root)
{
	const char *path = root ? root : "/";
	struct stat st;
	int fd, pfd;

	memset(sr, 0, sizeof(*sr));
	sr->dirfd = -1;
	if (strlen(path) >= sizeof(sr->path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (root) {
		/* A captured tree must at least have proc/ to be worth judging. */
		pfd = openat(fd, "proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		if (pfd < 0) {
			int err = errno == ELOOP ? -ENOTDIR : -errno;

			close(fd);
			return err;
		}
		close(pfd);
		/* Before 5.6 (or under valgrind 3.19) path_walk_open stands in. */
		struct open_how how = { .flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
					.resolve = RESOLVE_IN_ROOT };
		pfd = (int)syscall(SYS_openat2, fd, "proc", &how, sizeof(how));
		if (pfd < 0 && errno == ENOSYS)
			sr->walk = true;
		else if (pfd >= 0)
			close(pfd);
	}
	if (fstat(fd, &st) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	sr->dirfd = fd;
	sr->live = !root;
	snprintf(sr->path, sizeof(sr->path), "%s", path);
	return 0;
}

void sysroot_close(struct sysroot *sr)
{
	if (sr->dirfd >= 0)
		close(sr->dirfd);
	sr->dirfd = -1;
}

static int open_in_root(const struct sysroot *sr, const char *rel, int flags)
{
	struct open_how how = {
		.flags = (unsigned long long)flags,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	while (*rel == '/')
		rel++;
	if (sr->live) {
		fd = openat(sr->dirfd, rel, flags);
		return fd < 0 ? -errno : (int)fd;
	}
	if (sr->walk) {
		/* openat2(RESOLVE_IN_ROOT) in user space, for kernels before 5.6. */
		struct path_walk w = { .rootfd = sr->dirfd, .in_root = true };

		return path_walk_open(&w, rel, flags);
	}
	/*
	 * With RESOLVE_IN_ROOT the kernel fails a lookup through ".." with
	 * EAGAIN when a rename or a mount anywhere on the host raced it, as it
	 * then cannot prove the walk stayed inside (fs/namei.c, handle_dots():
	 * the rename_lock and mount_lock sequence checks, since 5.6; openat2(2):
	 * "the caller may choose to retry"). A captured tree's sys/class links
	 * hold "../..", and a busy host renames files all the time. A few
	 * tries, then the error.
	 */
	for (int tries = 0; tries < 8; tries++) {
		fd = syscall(SYS_openat2, sr->dirfd, rel, &how, sizeof(how));
		if (fd >= 0 || errno != EAGAIN)
			break;
	}
	if (fd < 0)
		return -errno;
	return (int)fd;
}

int sysroot_open_file(const struct sysroot *sr, const char *rel)
{
	struct stat st;
	int fd;

	/* O_NONBLOCK: a FIFO planted in a captured tree must not hang us. */
	fd = open_in_root(sr, rel, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return fd;
	/*
	 * The live proc/ and sys/ hold only kernel files: spare the fstat that
	 * a captured tree needs (an audit of 10,000 fds reads 10,000 files).
	 */
	if (sr->live && (!strncmp(rel, "proc/", 5) || !strncmp(rel, "sys/", 4)))
		return fd;
	if (fstat(fd, &st) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	return fd;
}

static void record_denied(const struct sysroot *sr, const char *rel, int err)
{
	struct sysroot_record *rec = sr->rec;

	if (!rec || (err != -EACCES && err != -EPERM))
		return;
	record(sr, SR_DENIED, rel, NULL, 0);
	if (rec->n && rec->v[rec->n - 1].kind == SR_DENIED)
		rec->v[rec->n - 1].err = err;
}

bool sysroot_exists(const struct sysroot *sr, const char *rel)
{
	int fd = sysroot_open_file(sr, rel);

	if (fd < 0)
		return false;
	close(fd);
	/* Recorded empty: the callers ask only whether it is there (/.dockerenv). */
	record(sr, SR_FILE, rel, "", 0);
	return true;
}

int sysroot_stat_live(const struct sysroot *sr, const char *rel, struct stat *st)
{
	while (*rel == '/')
		rel++;
	if (!sr->live)
		return -EOPNOTSUPP;
	return fstatat(sr->dirfd, rel, st, 0) ? -errno : 0;
}

int sysroot_statx(const struct sysroot *sr, const char *rel, unsigned int mask,
		  struct statx *stx)
{
	while (*rel == '/')
		rel++;
	return statx(sr->dirfd, rel, 0, mask, stx) ? -errno : 0;
}

int sysroot_open_regular(const struct sysroot *sr, const char *rel)
{
	char self[64];
	struct stat st;
	int pfd, fd;

	while (*rel == '/')
		rel++;
	pfd = openat(sr->dirfd, rel, O_PATH | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	if (fstat(pfd, &st)) {
		fd = -errno;
	} else if (!S_ISREG(st.st_mode)) {
		fd = -EINVAL;
	} else {
		snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
		fd = open(self, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			fd = -errno;
	}
	close(pfd);
	return fd;
}

int sysroot_open_path_dir(const struct sysroot *sr, const char *rel)
{
	int fd;

	while (*rel == '/')
		rel++;
	fd = openat(sr->dirfd, rel, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* One read(2), again when a signal cut it short: bytes, 0 at the end, or -errno. */
static ssize_t read_retry(int fd, void *buf, size_t n)
{
	ssize_t got;

	do
		got = read(fd, buf, n);
	while (got < 0 && errno == EINTR);
	return got < 0 ? -errno : got;
}

static int read_whole(const struct sysroot *sr, const char *rel, size_t max, char **buf,
		      size_t *len, bool text)
{
	size_t cap = max < 4096 ? max + 1 : 4096, used = 0;
	char *data, *grown;
	ssize_t n;
	int fd, err = 0;

	*buf = NULL;
	*len = 0;
	fd = sysroot_open_file(sr, rel);
	if (fd < 0) {
		record_denied(sr, rel, fd);
		return fd;
	}
	data = malloc(cap + 1);
	if (!data) {
		close(fd);
		return -ENOMEM;
	}
	/* Room for max + 1 bytes: reading one byte past max proves the file is too big. */
	for (;;) {
		if (used == cap) {
			if (cap > max) {
				err = -EFBIG;
				break;
			}
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			grown = realloc(data, cap + 1);
			if (!grown) {
				err = -ENOMEM;
				break;
			}
			data = grown;
		}
		n = read_retry(fd, data + used, cap - used);
		if (n <= 0) {
			err = (int)n;
			break;
		}
		used += (size_t)n;
	}
	if (!err && used > max)
		err = -EFBIG;
	close(fd);
	if (!err && text && memchr(data, '\0', used))
		err = -EILSEQ;
	if (err) {
		free(data);
		return err;
	}
	data[used] = '\0';
	record(sr, SR_FILE, rel, data, used);
	*buf = data;
	*len = used;
	return 0;
}

/* Reads fd to its end into buf and closes it: sysroot_read_into's contract. */
static int read_fd_into(int fd, char *buf, size_t bufsz, size_t *len)
{
	size_t used = 0;
	ssize_t n;
	int err = 0;

	/* To the end of the file, as read_whole: a full buffer is a file too big for it. */
	for (;;) {
		if (used == bufsz - 1) {
			err = -EFBIG;
			break;
		}
		n = read_retry(fd, buf + used, bufsz - 1 - used);
		if (n <= 0) {
			err = (int)n;
			break;
		}
		used += (size_t)n;
	}
	close(fd);
	if (!err && memchr(buf, '\0', used))
		err = -EILSEQ;
	if (err)
		return err;
	buf[used] = '\0';
	*len = used;
	return 0;
}

int sysroot_read_into(const struct sysroot *sr, const char *rel, char *buf, size_t bufsz,
		      size_t *len)
{
	int fd, err;

	*len = 0;
	if (!bufsz)
		return -EFBIG;
	fd = sysroot_open_file(sr, rel);
	if (fd < 0) {
		record_denied(sr, rel, fd);
		return fd;
	}
	err = read_fd_into(fd, buf, bufsz, len);
	if (!err)
		record(sr, SR_FILE, rel, buf, *len);
	return err;
}

int sysroot_read_file(const struct sysroot *sr, const char *rel, size_t max, char **buf,
		      size_t *len)
{
	return read_whole(sr, rel, max, buf, len, true);
}

int sysroot_read_bytes(const struct sysroot *sr, const char *rel, size_t max, char **buf,
		       size_t *len)
{
	return read_whole(sr, rel, max, buf, len, false);
}

int sysroot_read_line(const struct sysroot *sr, const char *rel, char *out,
		      size_t outsz)
{
	char *buf, *start, *end;
	size_t len, n;
	int err;

	err = sysroot_read_file(sr, rel, 64 * 1024, &buf, &len);
	if (err)
		return err;
	start = buf;
	while (*start == ' ' || *start == '\t')
		start++;
	end = strchr(start, '\n');
	if (!end)
		end = start + strlen(start);
	while (end > start && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	n = (size_t)(end - start);
	if (n >= outsz) {
		free(buf);
		return -EOVERFLOW;
	}
	memcpy(out, start, n);
	out[n] = '\0';
	free(buf);
	return 0;
}

int sysroot_read_name(const struct sysroot *sr, const char *rel, char *out, size_t outsz)
{
	char *buf;
	size_t len;
	int err;

	err = sysroot_read_file(sr, rel, 4096, &buf, &len);
	if (err)
		return err;
	if (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	if (len >= outsz) {
		free(buf);
		return -EOVERFLOW;
	}
	memcpy(out, buf, len + 1);
	free(buf);
	return 0;
}

int sysroot_readlink(const struct sysroot *sr, const char *rel, char *out, size_t outsz)
{
	ssize_t n;
	int fd;

	while (*rel == '/')
		rel++;
	if (sr->live) {
		n = readlinkat(sr->dirfd, rel, out, outsz);
	} else {
		/* The link itself, found inside the root, read without following it. */
		fd = open_in_root(sr, rel, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return fd;
		n = readlinkat(fd, "", out, outsz);
		if (n < 0 && errno == ENOENT)
			errno = EINVAL;	/* not a symlink */
		close(fd);
	}
	if (n < 0) {
		int err = -errno;

		record_denied(sr, rel, err);
		return err;
	}
	if ((size_t)n >= outsz)
		return -ENAMETOOLONG;
	out[n] = '\0';
	record(sr, SR_LINK, rel, out, (size_t)n);
	return 0;
}

int sysroot_open_live_dir(const struct sysroot *sr, const char *rel)
{
	if (!sr->live)
		return -EOPNOTSUPP;
	return open_in_root(sr, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

DIR *sysroot_opendir(const struct sysroot *sr, const char *rel)
{
	DIR *d;
	int fd;

	fd = open_in_root(sr, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		record_denied(sr, rel, fd);
		errno = -fd;
		return NULL;
	}
	d = fdopendir(fd);
	if (!d) {
		int err = errno;

		close(fd);
		errno = err;
		return NULL;
	}
	record(sr, SR_DIR, rel, NULL, 0);
	return d;
}

const char *sysroot_strerror(int err)
{
	switch (err) {
	case -EINVAL:
		return "not a regular file";
	case -EFBIG:
		return "file too large";
	case -EILSEQ:
		return "file contains a NUL byte";
	case -EOVERFLOW:
		return "line too long";
	case -EXDEV:
		return "path leads outside the root";
	default:
		return strerror(-err);
	}
}

/* One name in the directory, never a path through it. */
static bool plain_name(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

/*
 * Where an entry of d is read: 0 by name from the directory's fd, 1 by the
 * whole path it puts in path, or -errno (the directory's own error, a name
 * that is not one component, a path that does not fit).
 */
static int dir_entry(const struct sysroot_dir *d, const char *name, char *path, size_t pathsz)
{
	int err;

	if (d->err)
		return d->err;
	if (!plain_name(name))
		return -EINVAL;
	if (d->dirfd >= 0)
		return 0;
	err = sysroot_pathf(path, pathsz, "%s/%s", d->rel, name);
	return err ? err : 1;
}

int sysroot_dir_open(const struct sysroot *sr, const char *rel, struct sysroot_dir *d)
{
	d->sr = sr;
	d->dirfd = -1;
	d->err = sysroot_pathf(d->rel, sizeof(d->rel), "%s", rel);
	if (d->err)
		return d->err;	/* and every read fails the same: no entry of a cut path */
	while (*rel == '/')
		rel++;
	/*
	 * Only on the live host, unrecorded, and in proc/ and sys/, which hold
	 * only kernel files (no regular-file check is needed, as
	 * sysroot_open_file trusts them): a captured tree is read through its
	 * root's rules, and a recording keeps every path whole.
	 */
	if (sr->live && !sr->rec && (!strncmp(rel, "proc/", 5) || !strncmp(rel, "sys/", 4))) {
		int fd = open_in_root(sr, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fd < 0)
			return fd;
		d->dirfd = fd;
	}
	return 0;
}

void sysroot_dir_close(struct sysroot_dir *d)
{
	if (d->dirfd >= 0)
		close(d->dirfd);
	d->dirfd = -1;
}

int sysroot_dir_read_into(const struct sysroot_dir *d, const char *name, char *buf,
			  size_t bufsz, size_t *len)
{
	char path[PATH_MAX];
	int fd, where;

	*len = 0;
	where = dir_entry(d, name, path, sizeof(path));
	if (where < 0)
		return where;
	if (where)
		return sysroot_read_into(d->sr, path, buf, bufsz, len);
	if (!bufsz)
		return -EFBIG;
	/* The live proc/ and sys/ hold only kernel files, as sysroot_open_file trusts. */
	fd = openat(d->dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	return read_fd_into(fd, buf, bufsz, len);
}

int sysroot_dir_readlink(const struct sysroot_dir *d, const char *name, char *out,
			 size_t outsz)
{
	char path[PATH_MAX];
	ssize_t n;
	int where;

	where = dir_entry(d, name, path, sizeof(path));
	if (where < 0)
		return where;
	if (where)
		return sysroot_readlink(d->sr, path, out, outsz);
	n = readlinkat(d->dirfd, name, out, outsz);
	if (n < 0)
		return -errno;
	if ((size_t)n >= outsz)
		return -ENAMETOOLONG;
	out[n] = '\0';
	return 0;
}
