// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/PID/net/unix, printed by unix_seq_show as
 *
 *   "%pK: %08X %08X %08X %04X %02X %5lu" and, when bound, ' ' and the path
 *   Num   RefCount Protocol Flags Type St Inode Path
 *
 * An abstract name is printed with '@' for its leading NUL (and for every
 * NUL in it); a filesystem path as its bytes, whatever they are.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "procfs.h"
#include "parse.h"

/* The longest line: a 16-digit %pK, the columns (43 bytes), a 108-byte path. */
#define UNIX_LINE_MAX 256
#define SO_ACCEPTCON 0x10000	/* __SO_ACCEPTCON, include/uapi/linux/net.h */

/* " " then exactly digits hex digits. */
static int col_hex(const char **pp, const char *end, int digits, uint32_t *out)
{
	const char *p = *pp;

	if (p >= end || *p++ != ' ' || parse_hex_fixed(p, end, digits, out))
		return -EBADMSG;
	*pp = p + digits;
	return 0;
}

static int parse_line(const char *p, const char *end, struct unix_sock *u)
{
	uint32_t ref, proto, flags, type, st;
	uint64_t ino = 0;
	const char *s;

	memset(u, 0, sizeof(*u));
	/* %pK: hex of pointer width, zeros when kptr_restrict hides it */
	for (s = p; p < end && parse_hex_digit(*p) >= 0; p++)
		;
	if (p == s || p - s > 16 || p >= end || *p++ != ':')
		return -EBADMSG;
	if (col_hex(&p, end, 8, &ref) || col_hex(&p, end, 8, &proto) ||
	    col_hex(&p, end, 8, &flags) || col_hex(&p, end, 4, &type) || col_hex(&p, end, 2, &st))
		return -EBADMSG;
	/* " %5lu": blanks pad it to five */
	if (p >= end || *p++ != ' ')
		return -EBADMSG;
	while (p < end && *p == ' ')
		p++;
	for (s = p; p < end && *p >= '0' && *p <= '9'; p++) {
		if (ino > (UINT64_MAX - 9) / 10)
			return -EBADMSG;
		ino = ino * 10 + (uint64_t)(*p - '0');
	}
	if (p == s)
		return -EBADMSG;
	u->inode = ino;
	u->type = (uint16_t)type;
	u->st = (uint8_t)st;
	u->listening = flags & SO_ACCEPTCON;
	if (p == end)
		return 0;
	if (*p++ != ' ' || p == end)
		return -EBADMSG;
	u->path = strndup(p, (size_t)(end - p));
	return u->path ? 0 : -ENOMEM;
}

/* A line that is no socket after a bound socket: the rest of its path, after a newline. */
static int join_path(struct unix_sock *u, const char *p, const char *end)
{
	size_t old = strlen(u->path), add = (size_t)(end - p);
	char *path = realloc(u->path, old + 1 + add + 1);

	if (!path)
		return -ENOMEM;
	path[old] = '\n';
	memcpy(path + old + 1, p, add);
	path[old + 1 + add] = '\0';
	u->path = path;
	return 0;
}

struct by_inode {
	uint64_t inode;
	size_t i;
};

static int by_inode_cmp(const void *a, const void *b)
{
	const struct by_inode *x = a, *y = b;

	if (x->inode != y->inode)
		return x->inode < y->inode ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* Lines first..t->n that claim an inode twice: the line before each claim may hold a cut path. */
static int mark_suspects(struct unix_table *t, size_t first)
{
	size_t n = t->n - first, i;
	struct by_inode *v;

	if (n < 2)
		return 0;
	v = calloc(n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		v[i] = (struct by_inode){ t->v[first + i].inode, first + i };
	qsort(v, n, sizeof(*v), by_inode_cmp);
	for (i = 1; i < n; i++) {
		if (v[i].inode != v[i - 1].inode)
			continue;
		if (v[i].i > first)
			t->v[v[i].i - 1].path_suspect = true;
		if (v[i - 1].i > first)
			t->v[v[i - 1].i - 1].path_suspect = true;
	}
	free(v);
	return 0;
}

int unix_table_parse(const char *text, struct unix_table *t)
{
	const char *p = text, *nl;
	size_t first = t->n;
	uint32_t line = 0;
	int err;

	nl = strchr(p, '\n');
	if (!nl || strncmp(p, "Num ", 4))
		return -EBADMSG;
	for (p = nl + 1; *p; p = nl + 1) {
		line++;
		nl = strchr(p, '\n');
		if (!nl)
			return -EBADMSG;	/* cut short */
		if (array_grow(&t->v, &t->cap, t->n + 1))
			return -ENOMEM;
		err = (size_t)(nl - p) > UNIX_LINE_MAX ? -EBADMSG : parse_line(p, nl, &t->v[t->n]);
		if (err == -ENOMEM)
			return err;
		if (!err) {
			t->v[t->n++].line = line;
			continue;
		}
		/* No socket line: the rest of the path of the socket before it. */
		if (t->n > first && t->v[t->n - 1].path) {
			err = join_path(&t->v[t->n - 1], p, nl);
			if (err)
				return err;
		} else {
			t->skipped++;
		}
	}
	return mark_suspects(t, first);
}

void unix_table_free(struct unix_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->v[i].path);
		free(t->v[i].name);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

const char *unix_type_name(uint16_t type)
{
	switch (type) {
	case 1:
		return "STREAM";
	case 2:
		return "DGRAM";
	case 5:
		return "SEQPACKET";
	default:
		return "UNKNOWN";
	}
}

const char *unix_state_name(const struct unix_sock *u)
{
	static const char *const names[] = { "UNKNOWN", "UNCONNECTED", "CONNECTING",
					     "ESTABLISHED", "DISCONNECTING" };

	if (u->listening)
		return "LISTEN";
	return u->st < sizeof(names) / sizeof(names[0]) ? names[u->st] : "UNKNOWN";
}
