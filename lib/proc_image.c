// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The program behind a process, so findings can speak its language:
 * uringlint's application table recognises MariaDB by its exe, qemu by
 * its, and a runtime by the library it maps. Only the path column of
 * /proc/PID/maps is read; that needs the same access as /proc/PID/fd.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc_image.h"

static void add_lib(struct proc_image *im, const char *base, size_t n)
{
	size_t i;

	if (im->nlibs == PROC_IMAGE_MAX_LIBS)
		return;
	for (i = 0; i < im->nlibs; i++)
		if (strlen(im->libs[i]) == n && !memcmp(im->libs[i], base, n))
			return;
	im->libs[im->nlibs] = strndup(base, n);
	if (!im->libs[im->nlibs])
		return;
	if (!strncmp(base, "liburing.so", 11) || !strncmp(base, "liburing-ffi.so", 15))
		im->liburing = true;
	im->nlibs++;
}

/* "7f..-7f.. r-xp 00000000 fe:01 1234   /usr/lib/x86_64-linux-gnu/liburing.so.2.3" */
void proc_image_parse_maps(const char *text, struct proc_image *im)
{
	const char *line = text;

	while (line && *line) {
		const char *eol = strchr(line, '\n'), *end = eol ? eol : line + strlen(line);
		const char *path = memchr(line, '/', (size_t)(end - line)), *base, *p;

		if (path) {
			for (base = p = path; p < end; p++)
				if (*p == '/')
					base = p + 1;
			/* A shared object: "lib.so" or "lib.so.N", not " (deleted)" noise. */
			p = memmem(base, (size_t)(end - base), ".so", 3);
			if (p && (p + 3 == end || p[3] == '.' || p[3] == ' ')) {
				const char *stop = memchr(base, ' ', (size_t)(end - base));

				add_lib(im, base, (size_t)((stop ? stop : end) - base));
			}
		}
		line = eol ? eol + 1 : NULL;
	}
}

void proc_image_collect(const struct sysroot *sr, pid_t pid, struct proc_image *im)
{
	char path[64], target[4096], *text = NULL, *base;
	int exe_err, maps_err;
	size_t len;

	memset(im, 0, sizeof(*im));
	snprintf(path, sizeof(path), "proc/%d/exe", (int)pid);
	exe_err = sysroot_readlink(sr, path, target, sizeof(target));
	if (!exe_err) {
		base = strrchr(target, '/');
		base = base ? base + 1 : target;
		/* A name longer than NAME_MAX's 255 bytes cannot be: cut, not overrun. */
		memcpy(im->exe, base, strnlen(base, sizeof(im->exe) - 1));
		im->exe[strnlen(base, sizeof(im->exe) - 1)] = '\0';
	}
	snprintf(path, sizeof(path), "proc/%d/maps", (int)pid);
	maps_err = sysroot_read_file(sr, path, 64 * 1024 * 1024, &text, &len);
	if (!maps_err)
		proc_image_parse_maps(text, im);
	free(text);
	if (exe_err && maps_err)
		fact_fail(&im->e, maps_err, "cannot read '/%s' or its exe: %s", path,
			  strerror(-maps_err));
}

void proc_image_free(struct proc_image *im)
{
	size_t i;

	for (i = 0; i < im->nlibs; i++)
		free(im->libs[i]);
	im->nlibs = 0;
}
