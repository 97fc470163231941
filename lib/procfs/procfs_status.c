// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "procfs.h"

static int keyed_i64(const char *text, const char *key, int64_t *out)
{
	char val[128];
	int err;

	err = parse_keyed_value(text, key, val, sizeof(val));
	if (err)
		return err;
	return parse_i64(val, 10, out);
}

/* "Uid:\t0\t0\t0\t0": real, effective, saved, fs. */
static int four_ids(const char *text, const char *key, unsigned int out[4])
{
	char val[128], *p, *end;
	unsigned long v;
	int i;

	if (parse_keyed_value(text, key, val, sizeof(val)))
		return -EBADMSG;
	for (i = 0, p = val; i < 4; i++, p = end) {
		errno = 0;
		v = strtoul(p, &end, 10);
		if (end == p || errno || v > 0xffffffffUL || (*end && *end != '\t' && *end != ' '))
			return -EBADMSG;
		out[i] = (unsigned int)v;
	}
	return 0;
}

/* "VmLck:\t       0 kB"; kernel threads have no such line, which leaves 0. */
static int keyed_kb(const char *text, const char *key, uint64_t *out)
{
	char val[128], *kb;

	if (parse_keyed_value(text, key, val, sizeof(val)))
		return 0;
	kb = strstr(val, " kB");
	if (kb)
		*kb = '\0';
	return parse_u64(val, 10, out) ? -EBADMSG : 0;
}

static int parse_groups(const char *text, struct proc_status *st)
{
	char val[4096], *p, *end;
	unsigned long g;

	/* An empty "Groups:" line is normal; a missing one is not. */
	if (parse_keyed_value(text, "Groups", val, sizeof(val)) == -ENOENT)
		return -EBADMSG;
	for (p = val; *p;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		errno = 0;
		g = strtoul(p, &end, 10);
		if (end == p || errno || g > 0xffffffffUL)
			return -EBADMSG;
		if (st->ngroups < STATUS_MAX_GROUPS)
			st->groups[st->ngroups++] = (gid_t)g;
		else
			st->groups_truncated = true;
		p = end;
	}
	return 0;
}

/*
 * "Name:" is the comm escaped by fs/proc/array.c proc_task_name():
 * string_escape_str(ESCAPE_SPACE | ESCAPE_SPECIAL, only "\n\\"), so a
 * newline is "\n" and a backslash "\\"; every other byte is as it is,
 * blanks included, so the value is not trimmed.
 */
static int decode_name(const char *text, char *out, size_t outsz)
{
	const char *val = !strncmp(text, "Name:\t", 6) ? text : strstr(text, "\nName:\t");
	size_t n = 0;

	if (!val)
		return -ENOENT;
	val += *val == '\n' ? 7 : 6;
	for (; *val && *val != '\n'; val++) {
		char c = *val;

		if (c == '\\' && (val[1] == 'n' || val[1] == '\\'))
			c = *++val == 'n' ? '\n' : '\\';
		if (n + 1 >= outsz)
			return -EOVERFLOW;
		out[n++] = c;
	}
	out[n] = '\0';
	return 0;
}

/*
 * NSpid (4.1+): the pid in each PID namespace from the reader's down, so
 * its last field is the pid the process has in its own, and their number
 * how deep that namespace is below the reader's. Absent, or not a list of
 * pids: 0 levels (no claim of a namespace), the rest of the status kept.
 */
static void parse_nspid(const char *text, struct proc_status *st)
{
	char val[256], *p, *end;
	long long v;

	if (parse_keyed_value(text, "NSpid", val, sizeof(val)))
		return;
	for (p = val; *p;) {
		while (*p == '\t' || *p == ' ')
			p++;
		if (!*p)
			break;
		errno = 0;
		v = strtoll(p, &end, 10);
		if (end == p || errno || v <= 0 || v > 0x7fffffff) {
			st->nspid = 0;
			st->ns_levels = 0;
			return;
		}
		st->nspid = (pid_t)v;
		st->ns_levels++;
		p = end;
	}
}

int proc_status_parse(const char *text, struct proc_status *st)
{
	char val[256];
	int64_t v;

	memset(st, 0, sizeof(*st));
	st->seccomp = -1;
	st->seccomp_filters = -1;

	if (decode_name(text, st->name, sizeof(st->name)))
		return -EBADMSG;
	if (keyed_i64(text, "Tgid", &v) || v <= 0 || v > 0x7fffffff)
		return -EBADMSG;
	st->tgid = (pid_t)v;
	if (four_ids(text, "Uid", st->uids) || four_ids(text, "Gid", st->gids))
		return -EBADMSG;
	st->euid = st->uids[1];
	st->egid = st->gids[1];
	if (parse_groups(text, st))
		return -EBADMSG;
	if (parse_keyed_value(text, "CapEff", val, sizeof(val)) ||
	    parse_u64(val, 16, &st->cap_eff))
		return -EBADMSG;
	if (keyed_i64(text, "Threads", &v) || v < 0 || v > 0x7fffffff)
		return -EBADMSG;
	st->threads = (int)v;

	/* Lines newer than the oldest kernel we support: absent is fine, garbage is not. */
	if (parse_keyed_value(text, "Seccomp", val, sizeof(val)) == 0) {
		if (parse_i64(val, 10, &v) || v < 0 || v > 2)
			return -EBADMSG;
		st->seccomp = (int)v;
	}
	if (parse_keyed_value(text, "Seccomp_filters", val, sizeof(val)) == 0) {
		if (parse_i64(val, 10, &v) || v < 0 || v > 0x7fffffff)
			return -EBADMSG;
		st->seccomp_filters = (int)v;
	}
	if (keyed_kb(text, "VmLck", &st->vm_lck_kb) || keyed_kb(text, "VmPin", &st->vm_pin_kb))
		return -EBADMSG;
	parse_keyed_value(text, "Cpus_allowed_list", st->cpus_allowed_list,
			  sizeof(st->cpus_allowed_list));
	parse_nspid(text, st);
	return 0;
}

bool proc_status_all_root(const struct proc_status *st)
{
	return !st->uids[0] && !st->uids[1] && !st->uids[2] && !st->uids[3];
}

bool proc_status_has_cap(const struct proc_status *st, unsigned int bit)
{
	return bit < 64 && (st->cap_eff >> bit) & 1;
}

bool proc_status_in_group(const struct proc_status *st, gid_t gid)
{
	unsigned int i;

	if (st->egid == gid)
		return true;
	for (i = 0; i < st->ngroups; i++)
		if (st->groups[i] == gid)
			return true;
	return false;
}
