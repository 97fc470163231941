// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "procfs.h"

/*
 * A process may map tens of thousands of areas (vm.max_map_count is 65530
 * by default, each line up to a path long): read as much as fdinfo may be.
 */
#define MAPS_READ_MAX (64u << 20)

/* Shared libraries that drive io_uring, by the start of their file name. */
static const char *const runtimes[] = {
	"liburing.so",		/* liburing */
	"liburing-ffi.so",	/* liburing 2.4+, for other languages' bindings */
};

static bool is_runtime(const char *path, size_t len)
{
	const char *base = path;
	size_t i, n;

	for (i = 0; i < len; i++)
		if (path[i] == '/')
			base = path + i + 1;
	n = len - (size_t)(base - path);
	for (i = 0; i < ARRAY_SIZE(runtimes); i++)
		if (n >= strlen(runtimes[i]) && !strncmp(base, runtimes[i], strlen(runtimes[i])))
			return true;
	return false;
}

/* Skips one field and the blanks after it; NULL when the line ends first. */
static const char *skip_field(const char *p, const char *end)
{
	if (p >= end || *p == ' ')
		return NULL;
	while (p < end && *p != ' ')
		p++;
	while (p < end && *p == ' ')
		p++;
	return p;
}

/* "libc.so.6", "liburing.so.2.3", "libfoo.so": a shared object, kept by its basename. */
static void add_lib(struct proc_maps *m, const char *path, size_t len)
{
	const char *base = path, *so;
	size_t i, n;

	for (i = 0; i < len; i++)
		if (path[i] == '/')
			base = path + i + 1;
	n = len - (size_t)(base - path);
	/* " (deleted)" follows a replaced file's name. */
	if (memchr(base, ' ', n))
		n = (size_t)((const char *)memchr(base, ' ', n) - base);
	so = memmem(base, n, ".so", 3);
	if (!so || !(so + 3 == base + n || so[3] == '.') || m->nlibs == PROC_MAPS_MAX_LIBS)
		return;
	for (i = 0; i < m->nlibs; i++)
		if (strlen(m->libs[i]) == n && !memcmp(m->libs[i], base, n))
			return;
	m->libs[m->nlibs] = strndup(base, n);
	if (m->libs[m->nlibs])
		m->nlibs++;
}

static int parse_line(const char *line, const char *end, struct proc_maps *m)
{
	const char *p = line;
	size_t len;
	int i;

	/* address, perms, offset, dev, inode; the path, if any, is the rest. */
	for (i = 0; i < 5; i++) {
		p = skip_field(p, end);
		if (!p)
			return -EBADMSG;
	}
	if (!isxdigit((unsigned char)line[0]) || !memchr(line, '-', (size_t)(end - line)))
		return -EBADMSG;
	m->mappings++;
	len = (size_t)(end - p);
	if (len == strlen("anon_inode:[io_uring]") && !strncmp(p, "anon_inode:[io_uring]", len))
		m->uring_maps++;
	else if (len >= 6 && !strncmp(p, "/[aio]", 6))
		m->aio_contexts++;
	else if (!m->runtime[0] && len && p[0] == '/' && is_runtime(p, len)) {
		m->runtime_truncated = len >= sizeof(m->runtime);
		snprintf(m->runtime, sizeof(m->runtime), "%.*s", (int)len, p);
	}
	if (len && p[0] == '/')
		add_lib(m, p, len);
	return 0;
}

int proc_maps_parse(const char *text, struct proc_maps *m)
{
	const char *line = text;

	memset(m, 0, sizeof(*m));
	while (*line) {
		const char *end = strchr(line, '\n');

		if (!end)
			end = line + strlen(line);
		if (end > line && parse_line(line, end, m)) {
			proc_maps_free(m);
			memset(m, 0, sizeof(*m));
			return -EBADMSG;
		}
		line = *end ? end + 1 : end;
	}
	return 0;
}

void proc_maps_collect(const struct sysroot *sr, pid_t pid, struct proc_maps *m)
{
	char path[64], *text;
	size_t len;
	int err;

	memset(m, 0, sizeof(*m));
	snprintf(path, sizeof(path), "proc/%d/maps", (int)pid);
	err = sysroot_read_file(sr, path, MAPS_READ_MAX, &text, &len);
	if (err) {
		fact_fail_read(&m->e, path, err);
		return;
	}
	if (proc_maps_parse(text, m))
		fact_fail(&m->e, -EBADMSG, "cannot parse '%s': unexpected content", path);
	free(text);
}

void proc_maps_free(struct proc_maps *m)
{
	size_t i;

	for (i = 0; i < m->nlibs; i++)
		free(m->libs[i]);
	m->nlibs = 0;
}
