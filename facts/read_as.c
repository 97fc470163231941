// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading what a process names, as the process could (see read_as.h). */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/openat2.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "caps.h"
#include "read_as.h"

/* An O_PATH handle on path in the process's root, links kept inside it. */
static int open_path(const struct read_as *ra, const char *path, bool dir)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC | (dir ? O_DIRECTORY : 0),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int fd;

	while (*path == '/')
		path++;
	fd = (int)syscall(SYS_openat2, ra->rootfd, *path ? path : ".", &how, sizeof(how));
	return fd < 0 ? -errno : fd;
}

/* The read handle of an O_PATH one, the access judged with the caller's credentials. */
static int reopen(int pathfd, int flags)
{
	char self[64];
	int fd;

	snprintf(self, sizeof(self), "/proc/self/fd/%d", pathfd);
	fd = open(self, flags | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	return fd < 0 ? -errno : fd;
}

static int read_all(int fd, size_t size, char **text)
{
	size_t n = 0;
	ssize_t got;

	*text = malloc(size + 1);
	if (!*text)
		return -ENOMEM;
	while (n < size) {
		got = read(fd, *text + n, size - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(*text);
			*text = NULL;
			return -errno;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	(*text)[n] = '\0';
	/* The readers stop at a NUL; the servers read on: a NUL is a line end here. */
	for (size_t i = 0; i < n; i++)
		if (!(*text)[i])
			(*text)[i] = '\n';
	return 0;
}

int read_as_file(struct read_as *ra, const char *path, char **text)
{
	struct stat st;
	unsigned int i;
	int pfd, fd, err;

	*text = NULL;
	if (path[0] != '/')
		return -EINVAL;
	if (ra->files >= READ_AS_FILES)
		return -EMFILE;
	if (ra->rootfd < 0) {
		char rel[4200];
		size_t len;

		/* A captured tree: its sysroot reads regular files only. */
		if (sysroot_pathf(rel, sizeof(rel), "proc/%d/root%s", (int)ra->pid, path))
			return -ENAMETOOLONG;
		err = sysroot_read_file(ra->sr, rel, READ_AS_FILE_MAX, text, &len);
		if (!err)
			ra->files++;
		return err;
	}
	pfd = open_path(ra, path, false);
	if (pfd < 0)
		return pfd;
	if (fstat(pfd, &st) || !S_ISREG(st.st_mode)) {
		close(pfd);
		return -EINVAL;
	}
	for (i = 0; i < ra->files; i++)
		if (ra->seen[i].dev == st.st_dev && ra->seen[i].ino == st.st_ino) {
			close(pfd);
			return -ELOOP;
		}
	if (st.st_size > (off_t)READ_AS_FILE_MAX) {
		close(pfd);
		return -EFBIG;
	}
	ra->seen[ra->files].dev = st.st_dev;
	ra->seen[ra->files].ino = st.st_ino;
	ra->files++;
	fd = reopen(pfd, O_RDONLY);
	close(pfd);
	if (fd < 0)
		return fd;
	err = read_all(fd, (size_t)st.st_size, text);
	close(fd);
	return err;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void read_as_list_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

char **read_as_list(struct read_as *ra, const char *path, size_t *n)
{
	char **names = NULL, **v, rel[4200];
	struct dirent *de;
	DIR *d = NULL;
	int pfd, fd;

	*n = 0;
	if (ra->rootfd < 0) {
		if (sysroot_pathf(rel, sizeof(rel), "proc/%d/root%s", (int)ra->pid, path))
			return NULL;
		d = sysroot_opendir(ra->sr, rel);
	} else if ((pfd = open_path(ra, path, true)) >= 0) {
		fd = reopen(pfd, O_RDONLY | O_DIRECTORY);
		close(pfd);
		d = fd >= 0 ? fdopendir(fd) : NULL;
		if (!d && fd >= 0)
			close(fd);
	}
	if (!d)
		return NULL;
	while ((de = readdir(d)) && *n < 256) {
		if (de->d_name[0] == '.')
			continue;
		v = realloc(names, (*n + 1) * sizeof(*names));
		if (!v)
			break;
		names = v;
		if (!(names[*n] = strdup(de->d_name)))
			break;
		(*n)++;
	}
	closedir(d);
	if (*n > 1)
		qsort(names, *n, sizeof(*names), by_name);
	if (!names)
		names = calloc(1, sizeof(*names));
	return names;
}

/*
 * In the child: the process's real uid, gid and groups, when uringlint may
 * take them. Not root, it is the process's own user or nothing, and without
 * the capabilities a service of its own user holds (CAP_DAC_READ_SEARCH
 * would read what the process cannot).
 */
static int become(const struct proc_status *ps)
{
	if (geteuid() != 0) {
		if (ps->uids[0] != geteuid())
			return -EPERM;
		return cap_any_effective() ? cap_drop_all() : 0;
	}
	if (setgroups(ps->ngroups, ps->groups) || setresgid(ps->gids[0], ps->gids[0], ps->gids[0]) ||
	    setresuid(ps->uids[0], ps->uids[0], ps->uids[0]))
		return -errno;
	return 0;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int read_as_run(const struct sysroot *sr, const struct proc_facts *pf,
		int (*fn)(struct read_as *ra, FILE *out, void *arg), void *arg, size_t max,
		char **buf, size_t *len)
{
	struct read_as ra = { .sr = sr, .pid = pf->pid, .rootfd = -1 };
	int p[2], status, err = 0;
	uint64_t end;
	size_t cap;
	pid_t kid;

	*buf = NULL;
	*len = 0;
	if (!fact_ok(&pf->status.e) || pf->status.st.groups_truncated)
		return -EPERM;
	if (!sr->live) {
		FILE *m = open_memstream(buf, len);

		if (!m)
			return -ENOMEM;
		err = fn(&ra, m, arg);
		if (fclose(m) && !err)
			err = -ENOMEM;
		return err;
	}
	/* The root opened as root; walked below it with the process's credentials. */
	ra.rootfd = sysroot_open_path_dirf(sr, "proc/%d/root", (int)pf->pid);
	if (ra.rootfd < 0)
		return ra.rootfd;
	if (pipe2(p, O_CLOEXEC)) {
		err = -errno;
		close(ra.rootfd);
		return err;
	}
	kid = fork();
	if (kid < 0) {
		err = -errno;
		close(p[0]);
		close(p[1]);
		close(ra.rootfd);
		return err;
	}
	if (!kid) {
		FILE *out;

		close(p[0]);
		signal(SIGPIPE, SIG_DFL);
		if (become(&pf->status.st) || !(out = fdopen(p[1], "w")))
			_exit(3);
		_exit(fn(&ra, out, arg) || fclose(out) ? 1 : 0);
	}
	close(p[1]);
	close(ra.rootfd);
	cap = max + 1;		/* a byte past max says there was more */
	*buf = malloc(cap + 1);
	end = now_ms() + READ_AS_MS;
	while (*buf) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		uint64_t t = now_ms();
		ssize_t got;

		if (t >= end || poll(&pfd, 1, (int)(end - t)) == 0) {
			err = -ETIMEDOUT;
			break;
		}
		got = read(p[0], *buf + *len, cap - *len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		*len += (size_t)got;
		if (*len == cap) {
			err = -EFBIG;
			break;
		}
	}
	close(p[0]);
	if (!*buf)
		err = -ENOMEM;
	if (err)
		kill(kid, SIGKILL);
	while (waitpid(kid, &status, 0) < 0 && errno == EINTR)
		;
	if (!err && (!WIFEXITED(status) || WEXITSTATUS(status)))
		err = WIFEXITED(status) && WEXITSTATUS(status) == 3 ? -EPERM : -EIO;
	if (err) {
		free(*buf);
		*buf = NULL;
		*len = 0;
		return err;
	}
	(*buf)[*len] = '\0';
	return 0;
}
