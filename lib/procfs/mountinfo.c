// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "procfs.h"
#include "sysroot.h"

/*
 * Copies one space-separated field, decoding \040-style octal escapes. A
 * field longer than out (a mount point or source anyone in a user
 * namespace may choose) ends in "..." rather than be cut unseen: shown, it
 * says so; as a mount point, it matches no path instead of a wrong one.
 */
static const char *field(const char *p, char *out, size_t outsz)
{
	size_t n = 0;
	bool cut = false;

	while (*p == ' ')
		p++;
	while (*p && *p != ' ' && *p != '\n') {
		char c = *p;

		if (c == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' &&
		    p[3] >= '0' && p[3] <= '7') {
			c = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
			p += 3;
		}
		if (n + 1 < outsz)
			out[n++] = c;
		else
			cut = true;
		p++;
	}
	if (cut && outsz > 4)
		memcpy(out + outsz - 4, "...", 3);
	if (outsz)
		out[n] = '\0';
	return p;
}

static int parse_line(const char *line, struct mount_entry *m)
{
	char tmp[64];
	const char *p;

	memset(m, 0, sizeof(*m));
	if (sscanf(line, "%u %u %u:%u", &m->id, &m->parent, &m->major, &m->minor) != 4)
		return -EBADMSG;
	p = field(line, tmp, sizeof(tmp));
	p = field(p, tmp, sizeof(tmp));
	p = field(p, tmp, sizeof(tmp));
	p = field(p, m->root, sizeof(m->root));
	p = field(p, m->mount_point, sizeof(m->mount_point));
	p = field(p, m->options, sizeof(m->options));
	/* Optional fields ("shared:1 master:2") until a lone "-". */
	for (;;) {
		p = field(p, tmp, sizeof(tmp));
		if (!tmp[0])
			return -EBADMSG;
		if (!strcmp(tmp, "-"))
			break;
	}
	p = field(p, m->fstype, sizeof(m->fstype));
	p = field(p, m->source, sizeof(m->source));
	field(p, m->super_options, sizeof(m->super_options));
	if (!m->fstype[0] || m->mount_point[0] != '/')
		return -EBADMSG;
	return 0;
}

int mountinfo_parse(const char *text, struct mount_entry **entries, size_t *n)
{
	struct mount_entry *arr = NULL;
	size_t cap = 0, cnt = 0;
	const char *p = text;

	*entries = NULL;
	*n = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');

		if (p[0] != '\n') {
			if (array_grow(&arr, &cap, cnt + 1)) {
				free(arr);
				return -ENOMEM;
			}
			if (parse_line(p, &arr[cnt])) {
				free(arr);
				return -EBADMSG;
			}
			cnt++;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	if (!cnt) {
		free(arr);
		return -EBADMSG;
	}
	*entries = arr;
	*n = cnt;
	return 0;
}

/* "/" prefixes everything; "/data" prefixes "/data" and "/data/x", not "/database". */
static size_t prefix_len(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (n == 1 && mp[0] == '/')
		return 1;
	if (strncmp(mp, path, n) || (path[n] != '\0' && path[n] != '/'))
		return 0;
	return n;
}

const struct mount_entry *mountinfo_find(const struct mount_entry *e, size_t n, const char *path,
					 bool match_dev, unsigned int major, unsigned int minor)
{
	const struct mount_entry *best = NULL;
	size_t i, best_len = 0, len;

	for (i = 0; i < n; i++) {
		if (match_dev && (e[i].major != major || e[i].minor != minor))
			continue;
		len = prefix_len(e[i].mount_point, path);
		if (len && len >= best_len) {
			best = &e[i];
			best_len = len;
		}
	}
	return best;
}

bool mount_has_option(const char *options, const char *opt)
{
	size_t n = strlen(opt);
	const char *p = options;

	while (p && *p) {
		if (!strncmp(p, opt, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

/* Mount tables of thousands of mounts (containers) pass 1 MiB: read up to 16. */
int mountinfo_read(const struct sysroot *sr, const char *rel, struct mount_entry **entries,
		   size_t *n)
{
	size_t len;
	char *text;
	int err;

	*entries = NULL;
	*n = 0;
	err = sysroot_read_file(sr, rel, 16 * 1024 * 1024, &text, &len);
	if (err)
		return err;
	err = mountinfo_parse(text, entries, n);
	free(text);
	return err;
}
