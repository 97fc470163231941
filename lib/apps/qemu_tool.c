// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The image a QEMU tool serves or exercises and how it opens it, from its
 * command line: qemu-nbd(8) and qemu-io, which take one FILENAME and the
 * engine and cache mode as options, parsed as their getopt_long does
 * (Debian 12, QEMU 7.2: qemu-nbd.c's sopt "hVb:o:p:rsnc:dvk:e:f:tl:x:T:D:AB:L",
 * qemu-io.c's "hVc:d:f:rsnCmki:t:T:U"), long options also by a unique
 * prefix. Both default to aio=threads and the page cache (qemu-nbd
 * writeback, qemu-io writethrough); -n (--nocache) is cache=none in both;
 * qemu-io's -k (--native-aio) is Linux AIO whatever -i says (the file driver
 * takes BDRV_O_NATIVE_AIO first). With --image-opts the FILENAME is an
 * option string: driver=...,file.filename=F,file.aio=...
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps.h"

struct qemu_tool {
	const char *prog;
	const char *short_arg;		/* short options that take an argument */
	const char *const *long_arg;	/* long options that take one (NULL ends) */
	const char *const *long_flag;	/* and those that take none (NULL ends) */
	char aio, cache, nocache, native;	/* their short letters, 0 none */
	const char *default_cache;	/* the cache mode without --cache */
};

static const char *const nbd_long[] = {
	"bind", "port", "socket", "offset", "bitmap", "connect", "load-snapshot", "cache", "aio",
	"discard", "detect-zeroes", "shared", "format", "object", "export-name", "description",
	"tls-creds", "tls-hostname", "tls-authz", "trace", "pid-file", "selinux-label", NULL,
};
static const char *const nbd_flags[] = {
	"help", "version", "read-only", "allocation-depth", "disconnect", "list", "snapshot",
	"nocache", "persistent", "verbose", "image-opts", "fork", NULL,
};
static const char *const io_long[] = {
	"cmd", "discard", "format", "cache", "trace", "object", "aio", NULL,
};
static const char *const io_flags[] = {
	"help", "version", "read-only", "snapshot", "nocache", "copy-on-read", "misalign",
	"native-aio", "image-opts", "force-share", NULL,
};

static const struct qemu_tool tools[] = {
	{ "qemu-nbd", "bopckeflxTDB", nbd_long, nbd_flags, 0, 0, 'n', 0, "writeback" },
	{ "qemu-io", "cdftTi", io_long, io_flags, 'i', 't', 'n', 'k', "writethrough" },
};

/*
 * The long option name[0..n) stands for, as getopt_long resolves it: the
 * exact name, else the one option it is a prefix of; NULL for none or more
 * than one. *arg: whether it takes an argument.
 */
static const char *long_option(const struct qemu_tool *t, const char *name, size_t n, bool *arg)
{
	const char *const *lists[2] = { t->long_arg, t->long_flag };
	const char *found = NULL;
	size_t l, i, hits = 0;

	for (l = 0; l < 2; l++)
		for (i = 0; lists[l][i]; i++) {
			if (strncmp(lists[l][i], name, n))
				continue;
			if (strlen(lists[l][i]) == n) {
				*arg = !l;
				return lists[l][i];
			}
			hits++;
			found = lists[l][i];
			*arg = !l;
		}
	return hits == 1 ? found : NULL;
}

static void set(char *dst, size_t n, const char *v)
{
	snprintf(dst, n, "%.*s", (int)n - 1, v);
}

/* What the options said, before the image is known. */
struct tool_opts {
	bool image_opts, native;
};

/* One option's effect on the drive: name is the long name, or the short letter. */
static void apply(const struct qemu_tool *t, struct qemu_drive *dr, const char *name, char letter,
		  const char *val, struct tool_opts *o)
{
	if ((name && !strcmp(name, "aio")) || (letter && letter == t->aio)) {
		set(dr->aio, sizeof(dr->aio), val);
	} else if ((name && !strcmp(name, "cache")) || (letter && letter == t->cache)) {
		set(dr->cache, sizeof(dr->cache), val);
	} else if ((name && !strcmp(name, "nocache")) || (letter && letter == t->nocache)) {
		set(dr->cache, sizeof(dr->cache), "none");
	} else if ((name && !strcmp(name, "native-aio")) || (letter && letter == t->native)) {
		o->native = true;
	} else if (name && !strcmp(name, "image-opts")) {
		o->image_opts = true;
	}
}

/* FILENAME under --image-opts: the file node's options, the engine and cache of it first. */
static int image_opts(const char *opts, struct qemu_drive *dr)
{
	struct qemu_drives one;
	int err;

	memset(&one, 0, sizeof(one));
	err = qemu_drive_pairs(opts, dr->option, true, &one);
	if (err || !one.n)
		return err;
	dr->file = one.v[0].file;
	if (one.v[0].aio[0])
		set(dr->aio, sizeof(dr->aio), one.v[0].aio);
	if (one.v[0].cache[0])
		set(dr->cache, sizeof(dr->cache), one.v[0].cache);
	if (one.v[0].direct_set) {
		dr->direct = one.v[0].direct;
		dr->direct_set = true;
	}
	free(one.v);
	return 0;
}

int qemu_tool_parse(const char *prog, const char *args, size_t len, struct qemu_drives *d)
{
	const struct qemu_tool *t = NULL;
	struct qemu_drive dr;
	char *argv;
	const char *a, *end, *file = NULL;
	struct tool_opts o = { 0 };
	bool opts_done = false, arg;
	size_t i;
	int err = 0;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (!strcmp(prog, tools[i].prog))
			t = &tools[i];
	if (!t)
		return -EINVAL;
	memset(&dr, 0, sizeof(dr));
	dr.option = t->prog;
	/* A copy that ends in a NUL whatever the last argument did. */
	argv = malloc(len + 1);
	if (!argv)
		return -ENOMEM;
	memcpy(argv, args, len);
	argv[len] = '\0';
	end = argv + len;
	/* argv[0] is the program. */
	a = argv + strnlen(argv, len) + 1;
	while (a < end) {
		size_t n = strnlen(a, (size_t)(end - a));
		const char *next = a + n + 1, *eq;

		if (opts_done || a[0] != '-' || !a[1]) {
			file = a;	/* getopt permutes: the last operand is the one */
		} else if (!strcmp(a, "--")) {
			opts_done = true;
		} else if (a[1] == '-') {
			const char *name;

			eq = strchr(a + 2, '=');
			name = long_option(t, a + 2, eq ? (size_t)(eq - a - 2) : n - 2, &arg);
			if (eq) {
				if (name)
					apply(t, &dr, name, 0, eq + 1, &o);
			} else if (name && arg) {
				if (next < end)
					apply(t, &dr, name, 0, next, &o);
				next += next < end ? strnlen(next, (size_t)(end - next)) + 1 : 0;
			} else if (name) {
				apply(t, &dr, name, 0, "", &o);
			}
		} else {
			/* -rn, -cnone, -c none: letters until one that takes an argument. */
			const char *p;

			for (p = a + 1; *p; p++) {
				if (!strchr(t->short_arg, *p)) {
					apply(t, &dr, NULL, *p, "", &o);
					continue;
				}
				if (p[1]) {
					apply(t, &dr, NULL, *p, p + 1, &o);
				} else if (next < end) {
					apply(t, &dr, NULL, *p, next, &o);
					next += strnlen(next, (size_t)(end - next)) + 1;
				}
				break;
			}
		}
		a = next;
	}
	if (file && o.image_opts)
		err = image_opts(file, &dr);
	else if (file && !(dr.file = strdup(file)))
		err = -ENOMEM;
	if (!err) {
		if (o.native)
			set(dr.aio, sizeof(dr.aio), "native");
		qemu_drive_settle(&dr);
		/* Said as given; the tool's own default when not. */
		dr.default_cache = t->default_cache;
		err = qemu_drive_add(d, &dr);
	} else {
		free(dr.file);
	}
	free(argv);
	return err;
}
