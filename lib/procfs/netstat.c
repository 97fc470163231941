// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/PID/net/netstat: netstat_seq_show prints each group of counters
 * as a line of names and a line of values with the same prefix:
 *
 *   TcpExt: SyncookiesSent SyncookiesRecv ... ListenOverflows ListenDrops ...
 *   TcpExt: 0 0 ... 3 3 ...
 *   IpExt: InNoRoutes ...
 *
 * Only TcpExt's ListenOverflows and ListenDrops are taken; every pair is
 * checked, so a file that is not the kernel's is refused as a whole.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "procfs.h"
#include "parse.h"

/* The longest name a kernel counter has is some 40 bytes. */
#define NAME_MAX_LEN 64

struct line {
	const char *p, *end;	/* after the prefix's colon, and the newline */
	const char *prefix;
	size_t plen;
};

/* Splits off "Prefix:"; false when the line has none, or one of other bytes. */
static bool line_split(const char *p, const char *end, struct line *l)
{
	const char *c = p;

	while (c < end && isalnum((unsigned char)*c))
		c++;
	if (c == p || c == end || *c != ':')
		return false;
	*l = (struct line){ .p = c + 1, .end = end, .prefix = p, .plen = (size_t)(c - p) };
	return true;
}

/* The next blank-separated token of a line: its length, 0 at the end. */
static size_t token(const char **p, const char *end, const char **tok)
{
	const char *s = *p;

	while (s < end && *s == ' ')
		s++;
	*tok = s;
	while (s < end && *s != ' ')
		s++;
	*p = s;
	return (size_t)(s - *tok);
}

static int take(const char *name, size_t nlen, const char *val, size_t vlen,
		struct netstat_listen *out)
{
	char num[24];
	uint64_t v;
	bool *has;
	uint64_t *dst;

	if (nlen == 15 && !strncmp(name, "ListenOverflows", 15)) {
		has = &out->has_overflows;
		dst = &out->overflows;
	} else if (nlen == 11 && !strncmp(name, "ListenDrops", 11)) {
		has = &out->has_drops;
		dst = &out->drops;
	} else {
		return 0;
	}
	if (*has || vlen >= sizeof(num))
		return -EBADMSG;
	memcpy(num, val, vlen);
	num[vlen] = '\0';
	if (parse_u64(num, 10, &v))
		return -EBADMSG;
	*has = true;
	*dst = v;
	return 0;
}

/* One pair: every name a counter name, every value a number, as many of each. */
static int parse_pair(const struct line *names, const struct line *values,
		      struct netstat_listen *out)
{
	const char *np = names->p, *vp = values->p, *name, *val;
	bool tcpext = names->plen == 6 && !strncmp(names->prefix, "TcpExt", 6);
	size_t nlen, vlen, i;
	int err;

	if (names->plen != values->plen || strncmp(names->prefix, values->prefix, names->plen))
		return -EBADMSG;
	for (;;) {
		nlen = token(&np, names->end, &name);
		vlen = token(&vp, values->end, &val);
		if (!nlen && !vlen)
			return 0;
		if (!nlen || !vlen || nlen > NAME_MAX_LEN)
			return -EBADMSG;
		for (i = 0; i < nlen; i++)
			if (!isalnum((unsigned char)name[i]) && name[i] != '_')
				return -EBADMSG;
		for (i = 0; i < vlen; i++)
			if (!isdigit((unsigned char)val[i]))
				return -EBADMSG;
		if (tcpext) {
			err = take(name, nlen, val, vlen, out);
			if (err)
				return err;
		}
	}
}

int netstat_parse(const char *text, struct netstat_listen *out)
{
	struct line names = { 0 }, l;
	bool pending = false;
	const char *p = text;
	int err;

	memset(out, 0, sizeof(*out));
	while (*p) {
		const char *end = strchr(p, '\n');

		if (!end)
			return -EBADMSG;	/* the kernel ends every line with a newline */
		if (!line_split(p, end, &l))
			return -EBADMSG;
		if (!pending) {
			names = l;
		} else {
			err = parse_pair(&names, &l, out);
			if (err)
				return err;
		}
		pending = !pending;
		p = end + 1;
	}
	return pending ? -EBADMSG : 0;
}
