// SPDX-License-Identifier: GPL-2.0-or-later
/* A recorded read, written into a tree that replays it (see tree_write.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tree_write.h"

#define LINKS_MAX 40	/* as the kernel's path walk */

/*
 * Opens the directory at rel in the tree, making each missing component;
 * a component that is not a directory (a link made earlier) is refused,
 * so no write can leave the tree. Returns an fd or -errno.
 */
static int tree_dir(int outfd, const char *rel)
{
	char comp[NAME_MAX + 1];
	int fd = dup(outfd), next;

	if (fd < 0)
		return -errno;
	while (*rel) {
		size_t len = strcspn(rel, "/");

		if (len > NAME_MAX) {
			close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(comp, rel, len);
		comp[len] = '\0';
		rel += len + (rel[len] == '/');
		if (!len)
			continue;
		if (mkdirat(fd, comp, 0755) && errno != EEXIST) {
			close(fd);
			return -errno;
		}
		next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		if (next < 0)
			return -errno;
		fd = next;
	}
	return fd;
}

/* The tree's directory that holds rel, made as needed; its name in *name. */
static int parent_of(const struct tree_writer *tw, const char *rel, const char **name)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(rel, '/');
	size_t n = slash ? (size_t)(slash - rel) : 0;

	if (n >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, rel, n);
	dir[n] = '\0';
	*name = slash ? slash + 1 : rel;
	return tree_dir(tw->outfd, dir);
}

static int make_link(struct tree_writer *tw, const char *rel, const char *target)
{
	const char *name;
	int dfd = parent_of(tw, rel, &name), err;

	if (dfd < 0)
		return dfd;
	err = symlinkat(target, dfd, name) ? -errno : 0;
	close(dfd);
	if (err == -EEXIST)
		return 0;	/* met on an earlier path */
	if (!err)
		tw->links++;
	return err;
}

static int make_file(struct tree_writer *tw, const char *rel, const char *data, size_t len)
{
	const char *name;
	ssize_t n = 0;
	size_t done = 0;
	int dfd = parent_of(tw, rel, &name), fd, err;

	if (dfd < 0)
		return dfd;
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	err = fd < 0 ? -errno : 0;
	close(dfd);
	if (err)
		return err;
	while (done < len && (n = write(fd, data + done, len - done)) > 0)
		done += (size_t)n;
	err = done < len ? (n < 0 ? -errno : -EIO) : 0;
	if (close(fd) && !err)
		err = -errno;
	if (!err)
		tw->files++;
	return err;
}

int tree_write(struct tree_writer *tw, const struct sysroot_read *r)
{
	char rest[2 * PATH_MAX], resolved[PATH_MAX] = "", comp[NAME_MAX + 1], target[PATH_MAX];
	unsigned int links = 0;
	int err;

	if (r->kind == SR_DENIED)
		return 0;	/* nothing to write: the capture says it is missing */
	if (strlen(r->rel) >= sizeof(rest))
		return -ENAMETOOLONG;
	strcpy(rest, r->rel);
	for (;;) {
		struct stat st;
		ssize_t len, n;
		bool last;

		len = path_next(rest, comp, &last);
		if (len < 0)
			return (int)len;
		if (!len)	/* the path named a directory, now made */
			break;
		if (!strcmp(comp, "."))
			continue;
		err = path_step(resolved, sizeof(resolved), comp);
		if (err)
			return err;
		if (!strcmp(comp, ".."))
			continue;
		/* The link the collector read is the record itself: never followed. */
		if (last && r->kind == SR_LINK)
			return make_link(tw, resolved, r->data);
		if (fstatat(tw->livefd, resolved, &st, AT_SYMLINK_NOFOLLOW) || !S_ISLNK(st.st_mode)) {
			if (!last)
				continue;
			if (r->kind == SR_FILE)
				return make_file(tw, resolved, r->data, r->len);
			break;
		}
		/* A link on the way (or at the end of a file's path): made, then followed. */
		n = readlinkat(tw->livefd, resolved, target, sizeof(target) - 1);
		if (n <= 0)
			return n < 0 ? -errno : -EINVAL;
		target[n] = '\0';
		err = make_link(tw, resolved, target);
		if (err)
			return err;
		if (++links > LINKS_MAX)
			return -ELOOP;
		/* rest becomes TARGET/rest from the link's directory, or from the root. */
		err = path_splice(rest, sizeof(rest), target);
		if (err)
			return err;
		if (target[0] == '/')
			resolved[0] = '\0';
		else
			path_step(resolved, sizeof(resolved), "..");
	}
	err = tree_dir(tw->outfd, resolved);
	if (err < 0)
		return err;
	close(err);
	tw->dirs++;
	return 0;
}
