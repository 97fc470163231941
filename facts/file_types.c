// SPDX-License-Identifier: GPL-2.0-or-later
/* Which of a process's files are not regular, read by directory (see file_types.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "file_types.h"

/* A directory that shows this many entries per file of ours, and more, is left for statx. */
#define DIR_ENTRIES_PER_FILE 16

/* 24 bytes: an audit of 10,000 files holds one each, and each page of them is a fault. */
struct named {
	struct proc_file *f;
	uint64_t ino;		/* from fdinfo; 0 unknown */
	uint16_t name;		/* where in f->path the name after the last '/' starts */
	uint16_t dirlen;	/* f->path up to that '/': 0 in / */
	bool done;
};

/* One directory's files together: the order among directories does not matter. */
static int dir_cmp(const struct named *x, const struct named *y)
{
	if (x->dirlen != y->dirlen)
		return x->dirlen < y->dirlen ? -1 : 1;
	return memcmp(x->f->path, y->f->path, x->dirlen);
}

static int ino_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct named *)a)->ino, y = ((const struct named *)b)->ino;

	return x < y ? -1 : x > y;
}

/*
 * By directory, then by inode number within it: an entry is looked up by
 * its d_ino, a number, and its name compared once, not searched by name.
 */
static int named_cmp(const void *a, const void *b)
{
	int c = dir_cmp(a, b);

	return c ? c : ino_cmp(a, b);
}

void proc_file_set_type(struct proc_file *f, mode_t mode)
{
	if (S_ISBLK(mode))
		f->type = PFILE_BLOCK;
	else if (!S_ISREG(mode))
		f->type = PFILE_OTHER;
}

static void type_by_statx(const struct sysroot *sr, pid_t pid, struct proc_file *f)
{
	struct statx stx;

	if (!sysroot_statxf(sr, STATX_TYPE, &stx, "proc/%d/fd/%d", (int)pid, f->fd) &&
	    (stx.stx_mask & STATX_TYPE))
		proc_file_set_type(f, stx.stx_mode);
}

/*
 * The directory by the path as the kernel printed it, which has no symlink:
 * one there now (the process renamed its way around) is not followed.
 */
static int open_dir(const struct named *n)
{
	struct open_how how = { .flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
				.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS };
	char dir[PATH_MAX];
	long fd;

	if (n->dirlen >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, n->f->path, n->dirlen);
	dir[n->dirlen] = '\0';
	fd = syscall(SYS_openat2, AT_FDCWD, n->dirlen ? dir : "/", &how, sizeof(how));
	return fd < 0 ? -errno : (int)fd;
}

/* Marks the files of v (one directory's, by inode number) that its entry de shows. */
static size_t types_from_entry(const struct proc_facts *pf, struct named *v, size_t n,
			       const struct dirent *de, dev_t dev)
{
	struct named key = { .ino = de->d_ino }, *hit;
	size_t i, marked = 0;

	hit = bsearch(&key, v, n, sizeof(*v), ino_cmp);
	if (!hit || de->d_type == DT_UNKNOWN)
		return 0;
	/* The same file open on several fds: every one of them. */
	for (i = (size_t)(hit - v); i > 0 && v[i - 1].ino == key.ino; i--)
		;
	/* The entry is the open file itself when its name, inode and device are the file's. */
	for (; i < n && v[i].ino == key.ino; i++) {
		const struct proc_mount *m = proc_file_mount(pf, v[i].f);

		if (v[i].done || !m || makedev(m->major, m->minor) != dev ||
		    strcmp(v[i].f->path + v[i].name, de->d_name))
			continue;
		proc_file_set_type(v[i].f, DTTOIF(de->d_type));
		v[i].done = true;
		marked++;
	}
	return marked;
}

static void types_from_dir(const struct proc_facts *pf, struct named *v, size_t n)
{
	size_t left = n, entries = 0;
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd;

	fd = open_dir(&v[0]);
	if (fd < 0)
		return;
	if (fstat(fd, &st) || !(d = fdopendir(fd))) {
		close(fd);
		return;
	}
	while (left && entries++ < n * DIR_ENTRIES_PER_FILE && (de = readdir(d)))
		left -= types_from_entry(pf, v, n, de, st.st_dev);
	closedir(d);
}

void file_types_resolve(const struct sysroot *sr, struct proc_facts *pf, const size_t *idx,
			size_t n)
{
	struct named *v = calloc(n ? n : 1, sizeof(*v));
	size_t i, k = 0, lo, hi;

	for (i = 0; v && i < n; i++) {
		struct proc_file *f = &pf->files[idx[i]];
		const char *slash = strrchr(f->path, '/');
		size_t name = slash ? (size_t)(slash - f->path) + 1 : 0;

		/* Past what the offsets hold (no readlink gives that): statx'd. */
		if (name > UINT16_MAX || strlen(f->path) > UINT16_MAX) {
			type_by_statx(sr, pf->pid, f);
			continue;
		}
		v[k].f = f;
		v[k].name = (uint16_t)name;
		v[k].dirlen = (uint16_t)(name - (name > 0));	/* the '/' before the name */
		v[k].ino = f->gen.ino;
		k++;
	}
	if (!v) {
		for (i = 0; i < n; i++)
			type_by_statx(sr, pf->pid, &pf->files[idx[i]]);
		return;
	}
	n = k;
	qsort(v, n, sizeof(*v), named_cmp);
	for (lo = 0; lo < n; lo = hi) {
		for (hi = lo + 1; hi < n && !dir_cmp(&v[lo], &v[hi]); hi++)
			;
		if (hi - lo >= FILE_TYPES_DIR_MIN)
			types_from_dir(pf, v + lo, hi - lo);
		for (i = lo; i < hi; i++)
			if (!v[i].done)
				type_by_statx(sr, pf->pid, v[i].f);
	}
	free(v);
}
