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
#include "apps.h"
#include "proc_facts.h"
#include "read_as.h"

/*
 * A QEMU system emulator's (or storage daemon's) -drive and -blockdev
 * options, or qemu-nbd's and
 * qemu-io's image and its --aio and --cache, which say how it opens each
 * image: read for a process whose program or name says which, and only
 * those options kept (a command line may hold secrets).
 */
static void collect_qemu(struct proc_facts *pf, const char *argv, size_t len)
{
	static const char *const tools[] = { "qemu-nbd", "qemu-io" };
	size_t i;

	/* qemu-storage-daemon's --blockdev is qemu-system's (comm cut to 15 bytes). */
	if (!strncmp(pf->exe, "qemu-system-", 12) || !strncmp(pf->comm, "qemu-system-", 12) ||
	    !strcmp(pf->exe, "qemu-storage-daemon") || !strcmp(pf->comm, "qemu-storage-da")) {
		qemu_drives_parse(argv, len, &pf->qemu);
		return;
	}
	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (!strcmp(pf->exe, tools[i]) || !strcmp(pf->comm, tools[i])) {
			qemu_tool_parse(tools[i], argv, len, &pf->qemu);
			return;
		}
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

/* Read as the smbd could (read_as.h): the file's text. */
static int smb_read(struct read_as *ra, FILE *out, void *arg)
{
	char *text;
	int err = read_as_file(ra, arg, &text);

	if (!err && fputs(text, out) == EOF)
		err = -EIO;
	free(text);
	return err;
}

/*
 * Its -s or --configfile file, else /etc/samba/smb.conf, read as the smbd
 * itself could (read_as.h): a user who names another file gets nothing
 * they could not read.
 */
static void collect_smb(const struct sysroot *sr, struct proc_facts *pf, const char *argv,
			size_t len)
{
	const char *conf;
	char *text = NULL;
	size_t tlen;

	if ((strcmp(pf->exe, "smbd") && strcmp(pf->comm, "smbd")) || !fact_ok(&pf->status.e))
		return;
	conf = smb_conf_arg(argv, len);
	if (!conf)
		conf = "/etc/samba/smb.conf";
	if (conf[0] == '/' && strlen(conf) < sizeof(pf->smb_conf_path) &&
	    !read_as_run(sr, pf, smb_read, (void *)conf, READ_AS_FILE_MAX, &text, &tlen) &&
	    !smb_conf_parse(text, &pf->smb))
		snprintf(pf->smb_conf_path, sizeof(pf->smb_conf_path), "%s", conf);
	free(text);
}

/* The reading of one server's option files: includes nest at most 10 deep, as MariaDB's. */
struct my_read {
	struct read_as *ra;
	struct my_cnf *c;
	unsigned int depth;
};

static void my_read_file(struct my_read *r, const char *path, bool must);

/* !includedir DIR: its *.cnf files, in name order, as the server reads them. */
static void my_read_dir(struct my_read *r, const char *dir)
{
	char path[4200];
	size_t n, i, len, dlen;
	char **names = read_as_list(r->ra, dir, &n);

	if (!names) {
		r->c->unread = true;
		return;
	}
	/* "!includedir /etc/mysql/conf.d/" as Debian writes it: one slash before the name. */
	dlen = strlen(dir);
	while (dlen > 1 && dir[dlen - 1] == '/')
		dlen--;
	for (i = 0; i < n; i++) {
		len = strlen(names[i]);
		if (len < 5 || strcmp(names[i] + len - 4, ".cnf"))
			continue;
		if (snprintf(path, sizeof(path), "%.*s/%s", (int)dlen, dir, names[i]) < (int)sizeof(path))
			my_read_file(r, path, true);
		else
			r->c->unread = true;
	}
	read_as_list_free(names, n);
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
	int err = read_as_file(r->ra, path, &text);

	/* A file read already (an include of itself) adds nothing: MariaDB's own reading stops too. */
	if (err == -ELOOP)
		return;
	if (err) {
		if (must || err != -ENOENT)
			r->c->unread = true;
		return;
	}
	my_cnf_parse(text, path, r->c, my_include, r);
	free(text);
}

struct my_args {
	const char *argv;
	size_t len;
};

/*
 * A MariaDB server's option files, in the order the server reads them
 * (mariadbd --help --verbose, 10.11: /etc/my.cnf, /etc/mysql/my.cnf,
 * ~/.my.cnf), or only its --defaults-file, or none with --no-defaults; then
 * its command line. ~/.my.cnf is not read: the server's home (Debian's
 * mysql user: /nonexistent) is not what root's would be. Read as the
 * server could (read_as.h); the settings come back whole.
 */
static int mariadb_read(struct read_as *ra, FILE *out, void *arg)
{
	const struct my_args *a = arg;
	struct my_cnf c = { 0 };
	struct my_read r = { .ra = ra, .c = &c };
	struct my_cnf_files files;

	my_cnf_files_of(a->argv, a->len, &files);
	if (files.defaults_file) {
		my_read_file(&r, files.defaults_file, true);
	} else if (!files.no_defaults) {
		my_read_file(&r, "/etc/my.cnf", false);
		my_read_file(&r, "/etc/mysql/my.cnf", false);
		if (files.extra_file)
			my_read_file(&r, files.extra_file, true);
	}
	return fwrite(&c, sizeof(c), 1, out) == 1 ? 0 : -EIO;
}

static void terminate(struct my_cnf_value *v)
{
	v->value[sizeof(v->value) - 1] = '\0';
	v->from[sizeof(v->from) - 1] = '\0';
}

static void collect_mariadb(const struct sysroot *sr, struct proc_facts *pf, const char *argv,
			    size_t len)
{
	struct my_args a = { argv, len };
	struct my_cnf *c;
	char *buf;
	size_t n;

	if ((strcmp(pf->exe, "mariadbd") && strcmp(pf->exe, "mysqld") &&
	     strcmp(pf->comm, "mariadbd") && strcmp(pf->comm, "mysqld")) || !fact_ok(&pf->status.e))
		return;
	c = calloc(1, sizeof(*c));
	if (!c)
		return;
	/* Files not read (refused, gone, past the time): only the command line is known. */
	if (!read_as_run(sr, pf, mariadb_read, &a, sizeof(*c), &buf, &n) && n == sizeof(*c))
		memcpy(c, buf, sizeof(*c));
	else
		c->unread = true;
	free(buf);
	terminate(&c->flush_method);
	terminate(&c->data_file_buffering);
	terminate(&c->native_aio);
	terminate(&c->linux_aio);
	my_cnf_apply_args(argv, len, c);
	pf->mariadb = c;
}

/* The programs whose settings are read, by executable or comm; a name ending in '-' a prefix. */
static const char *const programs[] = {
	"qemu-system-", "qemu-storage-daemon", "qemu-storage-da", "qemu-nbd", "qemu-io", "smbd",
	"mariadbd", "mysqld",
};

static bool one_of_them(const struct proc_facts *pf)
{
	size_t i, n;

	for (i = 0; i < sizeof(programs) / sizeof(programs[0]); i++) {
		n = strlen(programs[i]);
		if (programs[i][n - 1] != '-')
			n++;	/* the whole name, its NUL too */
		if (!strncmp(pf->exe, programs[i], n) || !strncmp(pf->comm, programs[i], n))
			return true;
	}
	return false;
}

void app_config_collect(const struct sysroot *sr, struct proc_facts *pf)
{
	char *argv;
	size_t len;

	/* Only a process one of them could be reads its command line. */
	if (!one_of_them(pf))
		return;
	if (sysroot_read_bytesf(sr, 1u << 20, &argv, &len, "proc/%d/cmdline", (int)pf->pid))
		return;
	collect_qemu(pf, argv, len);
	collect_smb(sr, pf, argv, len);
	collect_mariadb(sr, pf, argv, len);
	free(argv);
}
