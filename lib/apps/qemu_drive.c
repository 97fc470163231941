// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A QEMU system emulator's disk images and how it opens them, from its
 * command line. The options as qemu-system(1) documents them (Debian 12,
 * QEMU 7.2): -drive file=F,aio=threads|native|io_uring,cache=writeback
 * (the default)|writethrough|unsafe|none|directsync,cache.direct=on|off;
 * -blockdev driver=file,filename=F,aio=...,cache.direct=...; a comma inside
 * a value is written twice. libvirt passes -blockdev as JSON, the cache
 * mode as {"cache": {"direct": true}}.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps.h"

/* The next key=value of an option string: ",," is a comma inside a value. */
static const char *next_pair(const char *s, char *key, size_t keysz, char *val, size_t valsz)
{
	size_t k = 0, v = 0;
	bool in_val = false;

	for (; *s; s++) {
		if (*s == ',') {
			if (s[1] != ',')
				break;
			s++;	/* an escaped comma, kept */
		} else if (*s == '=' && !in_val) {
			in_val = true;
			continue;
		}
		if (in_val && v + 1 < valsz)
			val[v++] = *s;
		else if (!in_val && k + 1 < keysz)
			key[k++] = *s;
	}
	key[k] = '\0';
	val[v] = '\0';
	return *s ? s + 1 : s;
}

bool qemu_cache_direct(const char *mode)
{
	/* bdrv_parse_cache_mode: "off" is "none"'s other name. */
	return !strcmp(mode, "none") || !strcmp(mode, "off") || !strcmp(mode, "directsync");
}

void qemu_drive_settle(struct qemu_drive *dr)
{
	/* An explicit cache.direct wins over the cache mode, whatever their order. */
	if (!dr->direct_set)
		dr->direct = qemu_cache_direct(dr->cache);
	dr->uring = !strcmp(dr->aio, "io_uring");
}

static bool on(const char *v)
{
	return !strcmp(v, "on") || !strcmp(v, "true") || !strcmp(v, "yes");
}

/*
 * A local file: an absolute path, or a relative one with no ':'. Anything
 * else is a protocol (nbd:, iscsi://, https://, json:{...}) whose engine and
 * page cache are not the host file's, and whose URL may carry a password.
 */
static bool local_file(const char *f)
{
	return f[0] == '/' || (f[0] && !strchr(f, ':'));
}

int qemu_drive_add(struct qemu_drives *d, struct qemu_drive *dr)
{
	struct qemu_drive *v;

	/* No file (a CD drive left empty, a node of another node), or not a local one. */
	if (!dr->file || !local_file(dr->file)) {
		free(dr->file);
		dr->file = NULL;
		return 0;
	}
	v = realloc(d->v, (d->n + 1) * sizeof(*v));
	if (!v) {
		free(dr->file);
		return -ENOMEM;
	}
	d->v = v;
	d->v[d->n++] = *dr;
	return 0;
}

int qemu_drive_pairs(const char *opts, const char *option, bool file_driver,
		     struct qemu_drives *d)
{
	struct qemu_drive dr = { .option = option };
	char key[64], val[4096];
	const char *s = opts;

	while (*s) {
		s = next_pair(s, key, sizeof(key), val, sizeof(val));
		if (!strcmp(key, "file") || !strcmp(key, "filename") ||
		    !strcmp(key, "file.filename")) {
			free(dr.file);
			dr.file = strdup(val);
			if (!dr.file)
				return -ENOMEM;
		} else if (!strcmp(key, "aio") || !strcmp(key, "file.aio")) {
			snprintf(dr.aio, sizeof(dr.aio), "%.*s", (int)sizeof(dr.aio) - 1, val);
		} else if (!strcmp(key, "cache") || !strcmp(key, "file.cache")) {
			snprintf(dr.cache, sizeof(dr.cache), "%.*s", (int)sizeof(dr.cache) - 1, val);
		} else if (!strcmp(key, "cache.direct") || !strcmp(key, "file.cache.direct")) {
			dr.direct = on(val);
			dr.direct_set = true;
		} else if (!strcmp(key, "driver")) {
			file_driver |= !strcmp(val, "file") || !strcmp(val, "host_device");
		}
	}
	if (!file_driver) {
		free(dr.file);
		return 0;
	}
	qemu_drive_settle(&dr);
	return qemu_drive_add(d, &dr);
}

/* -blockdev {"driver": "file", "filename": ..., "aio": ..., "cache": {"direct": ...}}. */
static int parse_json(const char *opts, struct qemu_drives *d)
{
	struct json_object *o = json_tokener_parse(opts), *v, *c;
	struct qemu_drive dr = { .option = "-blockdev" };
	const char *driver;
	int err = 0;

	if (!o || !json_object_is_type(o, json_type_object))
		goto out;
	driver = json_object_object_get_ex(o, "driver", &v) ? json_object_get_string(v) : "";
	if (strcmp(driver, "file") && strcmp(driver, "host_device"))
		goto out;
	if (!json_object_object_get_ex(o, "filename", &v))
		goto out;
	dr.file = strdup(json_object_get_string(v));
	if (!dr.file) {
		err = -ENOMEM;
		goto out;
	}
	if (json_object_object_get_ex(o, "aio", &v))
		snprintf(dr.aio, sizeof(dr.aio), "%.*s", (int)sizeof(dr.aio) - 1, json_object_get_string(v));
	if (json_object_object_get_ex(o, "cache", &c) && json_object_object_get_ex(c, "direct", &v)) {
		dr.direct = json_object_get_boolean(v);
		dr.direct_set = true;
	}
	qemu_drive_settle(&dr);
	err = qemu_drive_add(d, &dr);
out:
	json_object_put(o);
	return err;
}

int qemu_drives_parse(const char *args, size_t len, struct qemu_drives *d)
{
	/* A copy that ends in a NUL whatever the last argument did. */
	char *argv = malloc(len + 1);
	const char *a = argv, *end = argv + len, *opt;
	int err = 0;

	memset(d, 0, sizeof(*d));
	if (!argv)
		return -ENOMEM;
	memcpy(argv, args, len);
	argv[len] = '\0';
	while (a < end && !err) {
		size_t n = strnlen(a, (size_t)(end - a));
		const char *next = a + n + 1;

		/* "-drive X", "--drive X", and "-drive=X" alike. */
		opt = a[0] == '-' && a[1] == '-' ? a + 1 : a;
		if (!strcmp(opt, "-drive") || !strcmp(opt, "-blockdev")) {
			if (next >= end)
				break;
			if (!strcmp(opt, "-blockdev") && next[0] == '{')
				err = parse_json(next, d);
			else
				err = qemu_drive_pairs(next, !strcmp(opt, "-drive") ? "-drive" : "-blockdev",
						       !strcmp(opt, "-drive"), d);
			next += strnlen(next, (size_t)(end - next)) + 1;
		} else if (!strncmp(opt, "-drive=", 7)) {
			err = qemu_drive_pairs(opt + 7, "-drive", true, d);
		} else if (!strncmp(opt, "-blockdev=", 10)) {
			/* qemu-storage-daemon's --blockdev=VALUE, JSON or key=value. */
			err = opt[10] == '{' ? parse_json(opt + 10, d)
					     : qemu_drive_pairs(opt + 10, "-blockdev", false, d);
		}
		a = next;
	}
	free(argv);
	if (err)
		qemu_drives_free(d);
	return err;
}

void qemu_drives_free(struct qemu_drives *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->v[i].file);
	free(d->v);
	memset(d, 0, sizeof(*d));
}

const struct qemu_drive *qemu_drive_of(const struct qemu_drives *d, const char *path)
{
	size_t i, pl = strlen(path);

	for (i = 0; i < d->n; i++) {
		const char *f = d->v[i].file;
		/* A relative file= names the image from qemu's working directory. */
		const char *g = f[0] == '.' && f[1] == '/' ? f + 2 : f;
		size_t gl = strlen(g);

		if (!strcmp(f, path))
			return &d->v[i];
		if (f[0] != '/' && gl && gl < pl && path[pl - gl - 1] == '/' &&
		    !strcmp(path + pl - gl, g))
			return &d->v[i];
	}
	return NULL;
}
