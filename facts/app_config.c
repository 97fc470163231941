// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Known applications' settings that matter to io_uring, from their command
 * lines and configuration files, each read inside the process's own root
 * (proc/PID/root) and kept only for the settings the checks name.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app_config.h"
#include "my_cnf.h"
#include "proc_facts.h"

/*
 * A QEMU system emulator's -drive and -blockdev options, which say how it
 * opens each image: read for a process whose program or name says QEMU
 * only, and only those options kept (a command line may hold secrets).
 */
static void collect_qemu(struct proc_facts *pf, const char *argv, size_t len)
{
	if (strncmp(pf->exe, "qemu-system-", 12) && strncmp(pf->comm, "qemu-system-", 12))
		return;
	qemu_drives_parse(argv, len, &pf->qemu);
}

/* smbd's -s FILE, -sFILE, --configfile=FILE or --configfile FILE; NULL for the default. */
static const char *smb_conf_arg(const char *argv, size_t len)
{
	const char *a = argv, *end = argv + len;

	while (a < end) {
		size_t n = strnlen(a, (size_t)(end - a));
		const char *next = a + n + 1;

		if ((!strcmp(a, "-s") || !strcmp(a, "--configfile")) && next < end &&
		    strnlen(next, (size_t)(end - next)) < (size_t)(end - next))
			return next;
		if (!strncmp(a, "--configfile=", 13) && n < (size_t)(end - a))
			return a + 13;
		if (!strncmp(a, "-s", 2) && n > 2 && n < (size_t)(end - a))
			return a + 2;
		a = next;
	}
	return NULL;
}

static void collect_smb(const struct sysroot *sr, struct proc_facts *pf, const char *argv,
			size_t len)
{
	char rel[512], *text = NULL;
	const char *conf;
	size_t tlen;

	/*
	 * Started by root (real or saved uid 0: the child serving a connection
	 * runs as the user, root saved): the path is root's choice, not a user's.
	 */
	if ((strcmp(pf->exe, "smbd") && strcmp(pf->comm, "smbd")) || !fact_ok(&pf->status.e) ||
	    (pf->status.st.uids[0] != 0 && pf->status.st.uids[2] != 0))
		return;
	conf = smb_conf_arg(argv, len);
	if (!conf)
		conf = "/etc/samba/smb.conf";
	if (conf[0] == '/' && strlen(conf) < sizeof(pf->smb_conf_path)) {
		snprintf(rel, sizeof(rel), "proc/%d/root%s", (int)pf->pid, conf);
		if (!sysroot_read_file(sr, rel, 1u << 20, &text, &tlen) &&
		    !smb_conf_parse(text, &pf->smb))
			snprintf(pf->smb_conf_path, sizeof(pf->smb_conf_path), "%s", conf);
	}
	free(text);
}

/*
 * Whether the process could read the file itself: a MariaDB server reads
 * its option files as the user it runs as (Debian's unit starts it as
 * mysql), so a user cannot have root read a file for them that they could
 * not read. Any uid 0 (started by root, dropped since) may read all.
 */
static bool readable_by(const struct proc_status *ps, const struct stat *st)
{
	unsigned int i;

	if (!ps->uids[0] || !ps->uids[1] || !ps->uids[2])
		return true;
	if (st->st_uid == ps->uids[1])
		return st->st_mode & S_IRUSR;
	if (st->st_gid == ps->gids[1])
		return st->st_mode & S_IRGRP;
	for (i = 0; i < ps->ngroups; i++)
		if (st->st_gid == ps->groups[i])
			return st->st_mode & S_IRGRP;
	return st->st_mode & S_IROTH;
}

/* An option file at path inside the process's root, 1 MiB at most; 0 or -errno. */
static int read_option_file(const struct sysroot *sr, const struct proc_facts *pf,
			    const char *path, char **text)
{
	char rel[4200];
	struct stat st;
	ssize_t got;
	size_t n = 0, cap = 1u << 20;
	int fd, err = 0;

	*text = NULL;
	if (path[0] != '/' || sysroot_pathf(rel, sizeof(rel), "proc/%d/root%s", (int)pf->pid, path))
		return -EINVAL;
	fd = sysroot_open_file(sr, rel);
	if (fd < 0)
		return fd;
	/* Judged on the file opened, not on its name, which could be swapped meanwhile. */
	if (fstat(fd, &st) || !readable_by(&pf->status.st, &st) || st.st_size > (off_t)cap) {
		close(fd);
		return -EACCES;
	}
	*text = malloc((size_t)st.st_size + 1);
	if (!*text) {
		close(fd);
		return -ENOMEM;
	}
	while (n < (size_t)st.st_size) {
		got = read(fd, *text + n, (size_t)st.st_size - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			err = got < 0 ? -errno : 0;
			break;
		}
		n += (size_t)got;
	}
	close(fd);
	(*text)[n] = '\0';
	if (err) {
		free(*text);
		*text = NULL;
	}
	return err;
}

/* The reading of one server's option files: includes nest at most 10 deep, as MariaDB's. */
struct my_read {
	const struct sysroot *sr;
	const struct proc_facts *pf;
	struct my_cnf *c;
	unsigned int depth;
};

static void my_read_file(struct my_read *r, const char *path, bool must);

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* !includedir DIR: its *.cnf files, in name order, as the server reads them. */
static void my_read_dir(struct my_read *r, const char *dir)
{
	char rel[4200], path[4200], **names = NULL;
	size_t n = 0, i, len;
	struct dirent *de;
	DIR *d;

	if (sysroot_pathf(rel, sizeof(rel), "proc/%d/root%s", (int)r->pf->pid, dir) ||
	    !(d = sysroot_opendir(r->sr, rel))) {
		r->c->unread = true;
		return;
	}
	while ((de = readdir(d)) && n < 256) {
		char **v;

		len = strlen(de->d_name);
		if (len < 5 || strcmp(de->d_name + len - 4, ".cnf"))
			continue;
		v = realloc(names, (n + 1) * sizeof(*names));
		if (!v || !(v[n] = strdup(de->d_name))) {
			names = v ? v : names;
			r->c->unread = true;
			break;
		}
		names = v;
		n++;
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), by_name);
	/* "!includedir /etc/mysql/conf.d/" as Debian writes it: one slash before the name. */
	len = strlen(dir);
	while (len > 1 && dir[len - 1] == '/')
		len--;
	for (i = 0; i < n; i++) {
		if (snprintf(path, sizeof(path), "%.*s/%s", (int)len, dir, names[i]) < (int)sizeof(path))
			my_read_file(r, path, true);
		else
			r->c->unread = true;
		free(names[i]);
	}
	free(names);
}

static void my_include(void *arg, const char *path, bool dir)
{
	struct my_read *r = arg;

	if (r->depth >= 10) {
		r->c->unread = true;
		return;
	}
	r->depth++;
	if (dir)
		my_read_dir(r, path);
	else
		my_read_file(r, path, true);
	r->depth--;
}

/* must: a file the server was told to read (a missing default file is no loss). */
static void my_read_file(struct my_read *r, const char *path, bool must)
{
	char *text;
	int err = read_option_file(r->sr, r->pf, path, &text);

	if (err) {
		if (must || err != -ENOENT)
			r->c->unread = true;
		return;
	}
	my_cnf_parse(text, path, r->c, my_include, r);
	free(text);
}

/*
 * A MariaDB server's option files, in the order the server reads them
 * (mariadbd --help --verbose, 10.11: /etc/my.cnf, /etc/mysql/my.cnf,
 * ~/.my.cnf), or only its --defaults-file, or none with --no-defaults; then
 * its command line. ~/.my.cnf is not read: the server's home (Debian's
 * mysql user: /nonexistent) is not what root's would be.
 */
static void collect_mariadb(const struct sysroot *sr, struct proc_facts *pf, const char *argv,
			    size_t len)
{
	struct my_cnf_files files;
	struct my_read r = { .sr = sr, .pf = pf };

	if ((strcmp(pf->exe, "mariadbd") && strcmp(pf->exe, "mysqld") &&
	     strcmp(pf->comm, "mariadbd") && strcmp(pf->comm, "mysqld")) || !fact_ok(&pf->status.e))
		return;
	r.c = calloc(1, sizeof(*r.c));
	if (!r.c)
		return;
	my_cnf_files_of(argv, len, &files);
	if (files.defaults_file) {
		my_read_file(&r, files.defaults_file, true);
	} else if (!files.no_defaults) {
		my_read_file(&r, "/etc/my.cnf", false);
		my_read_file(&r, "/etc/mysql/my.cnf", false);
		if (files.extra_file)
			my_read_file(&r, files.extra_file, true);
	}
	my_cnf_apply_args(argv, len, r.c);
	pf->mariadb = r.c;
}

void app_config_collect(const struct sysroot *sr, struct proc_facts *pf)
{
	char path[64], *argv;
	size_t len;

	/* Only a process one of them could be reads its command line. */
	if (strncmp(pf->exe, "qemu-system-", 12) && strncmp(pf->comm, "qemu-system-", 12) &&
	    strcmp(pf->exe, "smbd") && strcmp(pf->comm, "smbd") &&
	    strcmp(pf->exe, "mariadbd") && strcmp(pf->exe, "mysqld") &&
	    strcmp(pf->comm, "mariadbd") && strcmp(pf->comm, "mysqld"))
		return;
	snprintf(path, sizeof(path), "proc/%d/cmdline", (int)pf->pid);
	if (sysroot_read_bytes(sr, path, 1u << 20, &argv, &len))
		return;
	collect_qemu(pf, argv, len);
	collect_smb(sr, pf, argv, len);
	collect_mariadb(sr, pf, argv, len);
	free(argv);
}
