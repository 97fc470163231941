// SPDX-License-Identifier: GPL-2.0-or-later
/* A path walked a component at a time (see path_walk.h). */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "array.h"
#include "path_walk.h"

#define LINKS_MAX 40	/* as the kernel's path walk (MAXSYMLINKS) */

ssize_t path_next(char *rest, char *comp, bool *last)
{
	const char *p = rest;
	size_t len;

	while (*p == '/')
		p++;
	len = strcspn(p, "/");
	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(comp, p, len);
	comp[len] = '\0';
	p += len;
	*last = !p[strspn(p, "/")];
	memmove(rest, p, strlen(p) + 1);
	return (ssize_t)len;
}

int path_splice(char *rest, size_t restsz, const char *link)
{
	size_t n = strlen(link), r = strlen(rest);

	if (r + n + 2 > restsz)
		return -ENAMETOOLONG;
	memmove(rest + n + 1, rest, r + 1);
	memcpy(rest, link, n);
	rest[n] = '/';
	return 0;
}

int path_step(char *resolved, size_t sz, const char *comp)
{
	size_t n = strlen(resolved);

	if (!strcmp(comp, ".."))  {
		char *slash = strrchr(resolved, '/');

		*(slash ? slash : resolved) = '\0';
		return 0;
	}
	if (n + 1 + strlen(comp) >= sz)
		return -ENAMETOOLONG;
	if (n)
		resolved[n++] = '/';
	strcpy(resolved + n, comp);
	return 0;
}

/* Closes the directories of a walk, all but the start at [0]. */
static void walk_close(int *stack, unsigned int depth)
{
	while (depth)
		close(stack[depth--]);
}

/*
 * The path walked so far, for a message: as path_step, but a relative path
 * keeps the ".." that climb above where it started.
 */
static void seen_step(char *seen, size_t sz, const char *comp, bool abs)
{
	size_t n = strlen(seen);

	if (!abs && !strcmp(comp, "..") &&
	    (!n || !strcmp(seen, "..") || (n >= 3 && !strcmp(seen + n - 3, "/.."))))
		comp = n ? "/.." : "..";
	else if (!strcmp(comp, "."))
		return;
	else {
		/* A path too long for it fails in the walk itself. */
		path_step(seen, sz, comp);
		return;
	}
	if (n + strlen(comp) < sz)
		strcpy(seen + n, comp);
}

/* Whether a link the walk met may be followed: with owned_links, root's and the caller's only. */
static bool may_follow(const struct path_walk *w, const struct stat *st, bool abs,
		       const char *seen)
{
	if (!w->owned_links || st->st_uid == 0 || st->st_uid == geteuid())
		return true;
	if (w->refusal)
		snprintf(w->refusal->why, sizeof(w->refusal->why),
			 "'%s%s' is a symbolic link owned by uid %u", abs ? "/" : "",
			 *seen ? seen : ".", (unsigned int)st->st_uid);
	return false;
}

/*
 * The walk keeps the directories it went down on a stack: in_root, ".."
 * goes back up it and never above the root, as RESOLVE_IN_ROOT does.
 * Otherwise ".." is the directory's real parent, opened from it, as the
 * kernel's own walk takes it. seen is the path walked so far, for a
 * refusal's message only.
 */
int path_walk_open(const struct path_walk *w, const char *path, int flags)
{
	char rest[2 * PATH_MAX], link[PATH_MAX], comp[NAME_MAX + 1], seen[PATH_MAX] = "";
	int stack[PATH_MAX / 2], fd, ret;
	unsigned int depth = 0, links = 0;
	bool abs = !w->in_root && path[0] == '/';

	stack[0] = w->in_root || abs ? w->rootfd : w->startfd;
	if (strlen(path) >= sizeof(rest))
		return -ENAMETOOLONG;
	strcpy(rest, path);
	for (;;) {
		struct stat st;
		ssize_t len, n;
		bool last;

		len = path_next(rest, comp, &last);
		if (len < 0) {
			ret = (int)len;
			break;
		}
		if (!len) {
			fd = openat(stack[depth], ".", flags);
			ret = fd < 0 ? -errno : fd;
			break;
		}
		if (!strcmp(comp, ".") && !last)
			continue;
		seen_step(seen, sizeof(seen), comp, abs);
		if (!strcmp(comp, "..")) {
			if (w->in_root) {
				if (depth)
					close(stack[depth--]);
				continue;
			}
			fd = openat(stack[depth], "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
			if (fd < 0) {
				ret = -errno;
				break;
			}
			if (depth)
				close(stack[depth]);
			else
				depth++;
			stack[depth] = fd;
			continue;
		}
		if (last && (flags & O_NOFOLLOW)) {
			fd = openat(stack[depth], comp, flags);
			ret = fd < 0 ? -errno : fd;
			break;
		}
		fd = openat(stack[depth], comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st)) {
			ret = -errno;
			if (fd >= 0)
				close(fd);
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			if (!may_follow(w, &st, abs, seen)) {
				close(fd);
				ret = -EACCES;
				break;
			}
			/* The link read is the one whose owner was looked at. */
			n = readlinkat(fd, "", link, sizeof(link) - 1);
			close(fd);
			if (++links > LINKS_MAX) {
				ret = -ELOOP;
				break;
			}
			if (n <= 0) {
				ret = n < 0 ? -errno : -ENAMETOOLONG;
				break;
			}
			link[n] = '\0';
			/* rest becomes LINK/rest; an absolute LINK starts over at the root. */
			ret = path_splice(rest, sizeof(rest), link);
			if (ret)
				break;
			if (link[0] == '/') {
				walk_close(stack, depth);
				depth = 0;
				stack[0] = w->rootfd;
				abs = !w->in_root;
				seen[0] = '\0';
			} else {
				path_step(seen, sizeof(seen), "..");	/* the link's own name */
			}
			continue;
		}
		if (last) {
			close(fd);
			fd = openat(stack[depth], comp, flags | O_NOFOLLOW);
			ret = fd < 0 ? -errno : fd;
			break;
		}
		if (!S_ISDIR(st.st_mode) || depth + 1 >= ARRAY_SIZE(stack)) {
			close(fd);
			ret = S_ISDIR(st.st_mode) ? -ENAMETOOLONG : -ENOTDIR;
			break;
		}
		stack[++depth] = fd;
	}
	walk_close(stack, depth);
	return ret;
}

int path_open_owned(const char *path, int flags, struct path_refusal *refusal)
{
	struct open_how how = {
		.flags = (unsigned long long)flags,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	struct path_walk w = {
		.startfd = AT_FDCWD,
		.owned_links = true,
		.refusal = refusal,
	};
	long fd;
	int ret;

	refusal->why[0] = '\0';
	/*
	 * ELOOP: a link somewhere on the path, which the walk judges. ENOSYS
	 * and E2BIG: no openat2 (before 5.6), EPERM: a seccomp filter that
	 * refuses it (a container's default profile before openat2 was known).
	 */
	fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
	if (fd >= 0)
		return (int)fd;
	if (errno != ELOOP && errno != ENOSYS && errno != E2BIG && errno != EPERM)
		return -errno;
	w.rootfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (w.rootfd < 0)
		return -errno;
	ret = path_walk_open(&w, path, flags);
	close(w.rootfd);
	return ret;
}
