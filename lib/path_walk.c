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

/* A walk under way: what is left of the path, the directories gone down, the links followed. */
struct walk_state {
	const struct path_walk *w;
	char rest[2 * PATH_MAX];
	char seen[PATH_MAX];		/* the path walked so far, for a refusal's message */
	int stack[PATH_MAX / 2];
	unsigned int depth, links;
	bool abs;
};

/* name opened in dirfd: the fd, or -errno. */
static int open_in(int dirfd, const char *name, int flags)
{
	int fd = openat(dirfd, name, flags);

	return fd < 0 ? -errno : fd;
}

/* "..": in_root, back up the stack and never above the root; else the directory's real parent. */
static int walk_dotdot(struct walk_state *s)
{
	int fd;

	if (s->w->in_root) {
		if (s->depth)
			close(s->stack[s->depth--]);
		return 0;
	}
	fd = openat(s->stack[s->depth], "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (s->depth)
		close(s->stack[s->depth]);
	else
		s->depth++;
	s->stack[s->depth] = fd;
	return 0;
}

/*
 * Follows the link fd (its O_PATH, with st its stat; closed here): rest
 * becomes LINK/rest, and an absolute LINK starts over at the root.
 */
static int walk_link(struct walk_state *s, int fd, const struct stat *st)
{
	char link[PATH_MAX];
	ssize_t n;
	int ret;

	if (!may_follow(s->w, st, s->abs, s->seen)) {
		close(fd);
		return -EACCES;
	}
	/* The link read is the one whose owner was looked at. */
	n = readlinkat(fd, "", link, sizeof(link) - 1);
	close(fd);
	if (++s->links > LINKS_MAX)
		return -ELOOP;
	if (n <= 0)
		return n < 0 ? -errno : -ENAMETOOLONG;
	link[n] = '\0';
	ret = path_splice(s->rest, sizeof(s->rest), link);
	if (ret)
		return ret;
	if (link[0] == '/') {
		walk_close(s->stack, s->depth);
		s->depth = 0;
		s->stack[0] = s->w->rootfd;
		s->abs = !s->w->in_root;
		s->seen[0] = '\0';
	} else {
		path_step(s->seen, sizeof(s->seen), "..");	/* the link's own name */
	}
	return 0;
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
	struct walk_state s = { .w = w };
	char comp[NAME_MAX + 1];
	int fd, ret;

	s.abs = !w->in_root && path[0] == '/';
	s.stack[0] = w->in_root || s.abs ? w->rootfd : w->startfd;
	if (strlen(path) >= sizeof(s.rest))
		return -ENAMETOOLONG;
	strcpy(s.rest, path);
	for (;;) {
		struct stat st;
		ssize_t len;
		bool last;

		len = path_next(s.rest, comp, &last);
		if (len < 0) {
			ret = (int)len;
			break;
		}
		if (!len) {
			ret = open_in(s.stack[s.depth], ".", flags);
			break;
		}
		if (!strcmp(comp, ".") && !last)
			continue;
		seen_step(s.seen, sizeof(s.seen), comp, s.abs);
		if (!strcmp(comp, "..")) {
			ret = walk_dotdot(&s);
			if (ret)
				break;
			continue;
		}
		if (last && (flags & O_NOFOLLOW)) {
			ret = open_in(s.stack[s.depth], comp, flags);
			break;
		}
		fd = openat(s.stack[s.depth], comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st)) {
			ret = -errno;
			if (fd >= 0)
				close(fd);
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			ret = walk_link(&s, fd, &st);
			if (ret)
				break;
			continue;
		}
		if (last) {
			close(fd);
			ret = open_in(s.stack[s.depth], comp, flags | O_NOFOLLOW);
			break;
		}
		if (!S_ISDIR(st.st_mode) || s.depth + 1 >= ARRAY_SIZE(s.stack)) {
			close(fd);
			ret = S_ISDIR(st.st_mode) ? -ENAMETOOLONG : -ENOTDIR;
			break;
		}
		s.stack[++s.depth] = fd;
	}
	walk_close(s.stack, s.depth);
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
