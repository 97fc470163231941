// SPDX-License-Identifier: GPL-2.0-or-later
/* The socket tables of each network namespace, read once (see net_tables.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "net_tables.h"
#include "netlink.h"

#define TABLE_PATH "proc/%d/net/%s"	/* pid, table: read and named in messages */

static int inet_by_inode(const void *a, const void *b)
{
	uint64_t x = ((const struct inet_sock *)a)->inode, y = ((const struct inet_sock *)b)->inode;

	return x < y ? -1 : x > y;
}

static int unix_by_inode(const void *a, const void *b)
{
	uint64_t x = ((const struct unix_sock *)a)->inode, y = ((const struct unix_sock *)b)->inode;

	return x < y ? -1 : x > y;
}

static int listen_cmp(const void *a, const void *b)
{
	const struct inet_sock *x = *(const struct inet_sock *const *)a,
			       *y = *(const struct inet_sock *const *)b;
	int c = memcmp(x->local, y->local, sizeof(x->local));

	return c ? c : (x->lport > y->lport) - (x->lport < y->lport);
}

uint64_t net_ns_inode(const struct sysroot *sr, pid_t pid)
{
	char link[64];
	uint64_t ino;
	int n = 0;

	if (sysroot_readlinkf(sr, link, sizeof(link), "proc/%d/ns/net", (int)pid) ||
	    sscanf(link, "net:[%" SCNu64 "]%n", &ino, &n) != 1 || (size_t)n != strlen(link))
		return 0;
	return ino;
}

struct net_ns *net_cache_get(struct net_cache *c, const struct sysroot *sr, pid_t pid,
			     bool *owned)
{
	uint64_t ino = net_ns_inode(sr, pid);
	struct net_ns *ns;
	size_t i;

	*owned = false;
	for (i = 0; ino && i < c->n; i++)
		if (c->v[i]->ino == ino)
			return c->v[i];
	ns = calloc(1, sizeof(*ns));
	if (!ns)
		return NULL;
	ns->ino = ino;
	if (!ino || array_grow(&c->v, &c->cap, c->n + 1)) {
		*owned = true;	/* not shared: no inode to know it again by */
		return ns;
	}
	c->v[c->n++] = ns;
	return ns;
}

void net_ns_free(struct net_ns *ns)
{
	int p;

	if (!ns)
		return;
	for (p = 0; p < NET_NPROTO; p++) {
		inet_table_free(&ns->inet[p]);
		free(ns->listen[p]);
	}
	unix_table_free(&ns->unx);
	free(ns);
}

void net_cache_free(struct net_cache *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		net_ns_free(c->v[i]);
	free(c->v);
	memset(c, 0, sizeof(*c));
}

/* The LISTEN lines of an inet table, for the reuseport groups. */
static int index_listeners(struct net_ns *ns, enum net_proto p)
{
	const struct inet_table *t = &ns->inet[p];
	size_t i, n = 0;

	for (i = 0; i < t->n; i++)
		n += t->v[i].state == INET_LISTEN;
	if (!n)
		return 0;
	ns->listen[p] = calloc(n, sizeof(*ns->listen[p]));
	if (!ns->listen[p])
		return -ENOMEM;
	for (i = 0; i < t->n; i++)
		if (t->v[i].state == INET_LISTEN)
			ns->listen[p][ns->nlisten[p]++] = &t->v[i];
	qsort(ns->listen[p], n, sizeof(*ns->listen[p]), listen_cmp);
	return 0;
}

static int parse_table(struct net_ns *ns, enum net_proto p, const char *text)
{
	int err;

	if (p == NET_UNIX) {
		err = unix_table_parse(text, &ns->unx);
		if (!err && ns->unx.n)
			qsort(ns->unx.v, ns->unx.n, sizeof(*ns->unx.v), unix_by_inode);
		return err;
	}
	err = inet_table_parse(text, net_proto_v6(p), &ns->inet[p]);
	if (err)
		return err;
	if (ns->inet[p].n)
		qsort(ns->inet[p].v, ns->inet[p].n, sizeof(*ns->inet[p].v), inet_by_inode);
	return index_listeners(ns, p);
}

/*
 * Unix sockets from sock_diag, which gives each name with its length: on
 * the live system, for uringlint's own namespace (the only one a netlink
 * socket answers for), and not while capturing, whose tree must replay
 * with the table it holds. 0, or -errno to read the table instead.
 */
static int unix_from_diag(struct net_ns *ns, const struct sysroot *sr)
{
	static uint64_t own;
	int err;

	if (!sr->live || sr->rec || !ns->ino)
		return -EOPNOTSUPP;
	if (!own)
		own = net_ns_inode(sr, getpid());
	if (ns->ino != own)
		return -EOPNOTSUPP;
	err = unix_diag_dump(&ns->unx);
	if (err) {
		/* Refused (a sandbox without AF_NETLINK): the table, read with its own rules. */
		unix_table_free(&ns->unx);
		return err;
	}
	if (ns->unx.n > 1)
		qsort(ns->unx.v, ns->unx.n, sizeof(*ns->unx.v), unix_by_inode);
	return 0;
}

int net_ns_read(struct net_ns *ns, const struct sysroot *sr, pid_t pid, enum net_proto p)
{
	char *text;
	size_t len;
	int err;

	if (ns->tried & 1u << p)
		return ns->e[p].err;
	ns->tried |= 1u << p;
	if (p == NET_UNIX && !unix_from_diag(ns, sr))
		return 0;
	err = sysroot_read_filef(sr, NET_TABLE_MAX, &text, &len, TABLE_PATH, (int)pid,
				 net_proto_name(p));
	if (err == -EFBIG) {
		fact_fail(&ns->e[p], err, "'" TABLE_PATH "' is larger than %u MiB: its sockets are "
			  "not identified", (int)pid, net_proto_name(p), NET_TABLE_MAX >> 20);
		return err;
	}
	if (err) {
		fact_fail_readf(&ns->e[p], err, TABLE_PATH, (int)pid, net_proto_name(p));
		return err;
	}
	err = parse_table(ns, p, text);
	free(text);
	if (err) {
		/* Half a table is no table: nothing of it is used. */
		if (p == NET_UNIX)
			unix_table_free(&ns->unx);
		else
			inet_table_free(&ns->inet[p]);
		if (err == -EBADMSG)
			fact_fail(&ns->e[p], err, "cannot parse '" TABLE_PATH "': unexpected content",
				  (int)pid, net_proto_name(p));
		else
			fact_fail(&ns->e[p], err, "cannot read '" TABLE_PATH "': %s", (int)pid,
				  net_proto_name(p), strerror(-err));
	}
	return err;
}

/* The element equal to key, or NULL; NULL and *ambiguous when two are. */
static const void *find_unique(const void *key, const void *v, size_t n, size_t size,
			       int (*cmp)(const void *, const void *), bool *ambiguous)
{
	const char *hit = n ? bsearch(key, v, n, size, cmp) : NULL, *lo = v, *hi = lo + n * size;

	if (hit && ((hit > lo && !cmp(hit - size, key)) ||
		    (hit + size < hi && !cmp(hit + size, key)))) {
		*ambiguous = true;
		return NULL;
	}
	return hit;
}

const struct inet_sock *net_ns_inet(const struct net_ns *ns, enum net_proto p, uint64_t ino,
				    bool *ambiguous)
{
	struct inet_sock key = { .inode = ino };

	return ino ? find_unique(&key, ns->inet[p].v, ns->inet[p].n, sizeof(key), inet_by_inode,
				 ambiguous)
		   : NULL;
}

const struct unix_sock *net_ns_unix(const struct net_ns *ns, uint64_t ino, bool *ambiguous)
{
	struct unix_sock key = { .inode = ino };

	return ino ? find_unique(&key, ns->unx.v, ns->unx.n, sizeof(key), unix_by_inode, ambiguous)
		   : NULL;
}

size_t net_ns_listeners(const struct net_ns *ns, enum net_proto p, const uint8_t *addr,
			uint16_t port)
{
	struct inet_sock key = { .lport = port };
	const struct inet_sock *kp = &key;
	const struct inet_sock **v = ns->listen[p];
	size_t lo = 0, hi = ns->nlisten[p], mid, n = 0;

	memcpy(key.local, addr, sizeof(key.local));
	/* the first at or after the key, then every one equal to it */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (listen_cmp(&v[mid], &kp) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo + n < ns->nlisten[p] && !listen_cmp(&v[lo + n], &kp))
		n++;
	return n;
}
