// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "procfs.h"

static int parse_limit_word(const char *w, uint64_t *out)
{
	if (!strcmp(w, "unlimited")) {
		*out = LIMIT_INFINITY;
		return 0;
	}
	return parse_u64(w, 10, out);
}

/*
 * Rows look like "Max locked memory         8388608   8388608   bytes": the
 * name is padded to 26 columns by the kernel, but we match the name and take
 * the next two words so a re-spaced capture still parses.
 */
static int find_row(const char *text, const char *name, struct rlimit_pair *p)
{
	const char *line = text;
	char soft[32], hard[32];
	size_t n = strlen(name);

	while (line && *line) {
		if (!strncmp(line, name, n) && (line[n] == ' ' || line[n] == '\t')) {
			if (sscanf(line + n, "%31s %31s", soft, hard) != 2)
				return -EBADMSG;
			if (parse_limit_word(soft, &p->soft) || parse_limit_word(hard, &p->hard))
				return -EBADMSG;
			return 0;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -EBADMSG;
}

int proc_limits_parse(const char *text, struct proc_limits *lim)
{
	memset(lim, 0, sizeof(*lim));
	if (find_row(text, "Max locked memory", &lim->memlock) ||
	    find_row(text, "Max processes", &lim->nproc) ||
	    find_row(text, "Max open files", &lim->nofile))
		return -EBADMSG;
	return 0;
}
