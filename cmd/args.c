// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Option values every command reads the same way: one function each, so a
 * bound or a message cannot differ between two commands, or between the
 * command line and the policy file (cmd/config.c uses the same bounds).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "parse.h"
#include "watch.h"

int arg_pid(const char *arg, pid_t *pid)
{
	int v;

	if (parse_pid(arg, &v))
		return usage_error("not a process ID: '%s'", arg);
	*pid = (pid_t)v;
	return 0;
}

int arg_count(const char *opt, const char *arg, unsigned int max, unsigned int *out)
{
	if (parse_count(arg, max, out))
		return usage_error("%s takes a number from 1 to %u, not '%s'", opt, max, arg);
	return 0;
}

int arg_watch(const char *arg, unsigned int *seconds)
{
	uint64_t v;

	if (parse_u64(arg, 10, &v) || v > WATCH_MAX_SECONDS)
		return usage_error("--watch takes seconds from 0 (never) to %d, not '%s'",
				   WATCH_MAX_SECONDS, arg);
	*seconds = (unsigned int)v;
	return 0;
}

int arg_dir(const char *dir)
{
	struct stat st;

	if (stat(dir, &st))
		return usage_error("cannot use --dir '%s': %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return usage_error("--dir '%s' is not a directory", dir);
	return 0;
}

int arg_live_only(const struct global_opts *g, const char *what)
{
	return g->root ? usage_error("%s; it cannot replay --root", what) : 0;
}

int arg_fail_on(struct global_opts *g, const char *arg)
{
	g->fail_on_given = true;
	if (!strcmp(arg, "warn"))
		g->fail_on = STATUS_WARN;
	else if (!strcmp(arg, "fail"))
		g->fail_on = STATUS_FAIL;
	else if (!strcmp(arg, "never"))
		g->fail_never = true;
	else
		return usage_error("--fail-on takes warn, fail or never, not '%s'", arg);
	if (strcmp(arg, "never"))
		g->fail_never = false;
	return 0;
}
