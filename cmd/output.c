// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where a command's output goes: standard output, or -o FILE written
 * whole or not at all.
 *
 * uringlint often runs as root into directories other users can write (a
 * shared reports folder, node_exporter's textfile directory), so -o never
 * opens the name it is given. Its directory is opened once; the name in it
 * is looked at without following it (a symbolic link, a FIFO, a device, a
 * socket or a directory there is refused, so nothing another user planted
 * can redirect the report or block the run); the report is written into an
 * unnamed O_TMPFILE in that directory, linked under a temporary name and
 * renamed over the name, all relative to the one directory fd. A reader
 * (the textfile collector, a fleet's scp) sees the old file or the new one,
 * never half of one; a run killed while writing leaves nothing behind,
 * because the file has no name until it is whole. Linux has no link that
 * replaces a name, so the temporary name exists for the few microseconds
 * between the link and the rename: SIGKILL there (nothing holds it off)
 * leaves it, and the next run for the same name removes it (stale_temps).
 *
 * The new file belongs to whoever runs uringlint. Its permission bits are
 * the old file's when the old file was theirs, otherwise 0666 less the
 * umask; never set-user-ID, set-group-ID or sticky: a report is data.
 * Only a user who cannot create a file in the directory (never root) has a
 * writable file of their own, with no other link, written in place.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "path_walk.h"

struct out_file {
	int dirfd;		/* the directory -o names, opened once */
	const char *base;	/* the last component of -o */
	int fd;			/* what the report is written to */
	bool in_place;		/* fd is the old file itself */
	char tmp[NAME_MAX + 1];	/* the name the O_EXCL fallback created, "" if none */
	struct path_refusal refusal;	/* a link on the way to the directory not followed */
};

/*
 * Opens -o's directory: everything but the last component, through no
 * symbolic link another user owns (path_walk.h). Everything after is done
 * relative to this one fd, so a component swapped for a link later cannot
 * redirect the write.
 */
static int open_dir(const char *path, const char **base, struct path_refusal *refusal)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd;

	if (!slash) {
		*base = path;
		dir = NULL;
	} else {
		*base = slash + 1;
		dir = strndup(path, slash == path ? 1 : (size_t)(slash - path));
		if (!dir)
			return -ENOMEM;
	}
	if (!**base || !strcmp(*base, ".") || !strcmp(*base, "..")) {
		free(dir);
		return -EISDIR;
	}
	if (strlen(*base) > NAME_MAX - 24) {	/* room for the temporary name */
		free(dir);
		return -ENAMETOOLONG;
	}
	fd = path_open_owned(dir ? dir : ".", O_PATH | O_DIRECTORY | O_CLOEXEC, refusal);
	free(dir);
	return fd;
}

static mode_t default_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/* An unnamed file in the directory, or an O_EXCL one where O_TMPFILE is not supported. */
static int open_temp(struct out_file *o, mode_t mode)
{
	int i;

	o->fd = openat(o->dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (o->fd >= 0)
		return fchmod(o->fd, mode) ? -errno : 0;
	if (errno != EOPNOTSUPP && errno != EISDIR)
		return -errno;
	for (i = 0; i < 100; i++) {
		snprintf(o->tmp, sizeof(o->tmp), ".%s.%d.%d", o->base, (int)getpid(), i);
		o->fd = openat(o->dirfd, o->tmp,
			       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (o->fd >= 0)
			return fchmod(o->fd, mode) ? -errno : 0;
		if (errno != EEXIST)
			break;
	}
	o->tmp[0] = '\0';
	return -errno;
}

/*
 * The old file written in place: for a user who may write the file but not
 * create one beside it. Opened without following a link or blocking, and
 * written only if it is still the regular file of theirs that was looked at.
 */
static int open_in_place(struct out_file *o, const struct stat *old)
{
	struct stat st;

	o->fd = openat(o->dirfd, o->base, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (o->fd < 0)
		return -errno;
	if (fstat(o->fd, &st))
		return -errno;
	if (st.st_dev != old->st_dev || st.st_ino != old->st_ino || !S_ISREG(st.st_mode) ||
	    st.st_nlink != 1)
		return -EAGAIN;
	o->in_place = true;
	return ftruncate(o->fd, 0) ? -errno : 0;
}

/* Whether name is a temporary name of o's: ".BASE.PID.N"; *pid is PID. */
static bool temp_name(const struct out_file *o, const char *name, long *pid)
{
	size_t n = strlen(o->base);
	char *end;

	if (name[0] != '.' || strncmp(name + 1, o->base, n) || name[n + 1] != '.' ||
	    !isdigit((unsigned char)name[n + 2]))
		return false;
	*pid = strtol(name + n + 2, &end, 10);
	if (*end != '.' || !isdigit((unsigned char)end[1]))
		return false;
	end += strspn(end + 1, "0123456789") + 1;
	return !*end;
}

/*
 * Removes what a run killed between publish's link and rename left: the
 * caller's own regular files under a temporary name of this -o whose
 * process is gone. One of a live run is left (its rename is coming), as
 * is anything of another user's.
 */
static void stale_temps(const struct out_file *o)
{
	struct dirent *e;
	struct stat st;
	long pid;
	DIR *d;
	int fd;

	fd = openat(o->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;		/* a directory we may not list: nothing of ours to find */
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((e = readdir(d))) {
		if (!temp_name(o, e->d_name, &pid) || pid <= 0 || pid > INT_MAX ||
		    pid == getpid() || !(kill((pid_t)pid, 0) && errno == ESRCH))
			continue;
		if (!fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode) &&
		    st.st_uid == geteuid())
			unlinkat(fd, e->d_name, 0);
	}
	closedir(d);
}

/* Looks at the name -o gives without following it; 0 or -errno, *why for a refusal. */
static int open_output(const char *path, struct out_file *o, const char **why)
{
	struct stat st;
	bool exists, mine;
	int err;

	o->dirfd = open_dir(path, &o->base, &o->refusal);
	if (o->dirfd == -EACCES && o->refusal.why[0]) {
		*why = o->refusal.why;
		return -EINVAL;
	}
	if (o->dirfd < 0)
		return o->dirfd;
	exists = !fstatat(o->dirfd, o->base, &st, AT_SYMLINK_NOFOLLOW);
	if (!exists && errno != ENOENT)
		return -errno;
	if (exists && !S_ISREG(st.st_mode)) {
		*why = S_ISLNK(st.st_mode)  ? "it is a symbolic link, which -o never follows" :
		       S_ISDIR(st.st_mode)  ? "it is a directory" :
		       S_ISFIFO(st.st_mode) ? "it is a FIFO; -o writes only regular files" :
					      "it is not a regular file; -o writes only regular files";
		return -EINVAL;
	}
	mine = exists && st.st_uid == geteuid();
	if (exists)
		stale_temps(o);
	err = open_temp(o, mine ? st.st_mode & 0777 : default_mode());
	if (err && exists && mine && (err == -EACCES || err == -EPERM) && geteuid() != 0)
		err = open_in_place(o, &st);
	if (err == -EAGAIN) {
		*why = "it changed while it was opened";
		return -EINVAL;
	}
	return err;
}

/*
 * Gives the whole file its name. Signals that end the process are held
 * off for the few system calls between the link and the rename, so that a
 * temporary name is not left behind by Ctrl-C or a service stop.
 */
static int publish(struct out_file *o)
{
	char proc[64], tmp[NAME_MAX + 1];
	sigset_t all, old;
	int err = 0, i;

	if (o->in_place)
		return 0;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (!o->tmp[0]) {
		/* Straight to the name when it is free; linkat never replaces. */
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
		for (i = 0; i < 100; i++) {
			const char *name = i ? tmp : o->base;

			if (i)
				snprintf(tmp, sizeof(tmp), ".%s.%d.%d", o->base, (int)getpid(), i);
			/* AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; /proc/self/fd does not. */
			if (!linkat(o->fd, "", o->dirfd, name, AT_EMPTY_PATH) ||
			    !linkat(AT_FDCWD, proc, o->dirfd, name, AT_SYMLINK_FOLLOW)) {
				if (i)
					snprintf(o->tmp, sizeof(o->tmp), "%s", tmp);
				break;
			}
			if (errno != EEXIST) {
				err = -errno;
				break;
			}
		}
		if (i == 100)
			err = -EEXIST;
		if (!err && !i)
			goto out;
	}
	if (!err && renameat(o->dirfd, o->tmp, o->dirfd, o->base))
		err = -errno;
	if (!err)
		o->tmp[0] = '\0';
out:
	if (err && o->tmp[0])
		unlinkat(o->dirfd, o->tmp, 0);
	o->tmp[0] = '\0';
	sigprocmask(SIG_SETMASK, &old, NULL);
	return err;
}

int cmd_write_output(const struct global_opts *g, int (*write)(FILE *out, const void *data),
		     const void *data)
{
	return cmd_write_file(g->output, write, data);
}

int cmd_write_file(const char *path, int (*write)(FILE *out, const void *data), const void *data)
{
	struct out_file o = { .dirfd = -1, .fd = -1 };
	const char *why = NULL;
	FILE *out = stdout;
	int err;

	if (path) {
		err = open_output(path, &o, &why);
		if (!err && !(out = fdopen(o.fd, "w")))
			err = -errno;
		if (err) {
			if (why)
				error_msg("cannot write '%s': %s", path, why);
			else
				error_msg("cannot open '%s': %s", path, strerror(-err));
			if (o.fd >= 0)
				close(o.fd);
			goto out;
		}
	}
	errno = 0;
	err = write(out, data);
	if (fflush(out) != 0 || ferror(out))
		err = errno ? -errno : -EIO;
	if (path) {
		if (!err && fsync(o.fd))
			err = -errno;
		if (!err)
			err = publish(&o);
		if (fclose(out) != 0 && !err)
			err = errno ? -errno : -EIO;
	}
	if (err)
		error_msg("cannot write '%s': %s", path ? path : "standard output",
			  strerror(-err));
out:
	if (o.tmp[0])
		unlinkat(o.dirfd, o.tmp, 0);
	if (o.dirfd >= 0)
		close(o.dirfd);
	return err ? EXIT_CANNOT : 0;
}
