/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_NET_TABLES_H
#define URINGLINT_NET_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fact.h"
#include "procfs.h"
#include "sysroot.h"

/*
 * The socket tables of one network namespace, each read at most once, when
 * a process of the namespace has a socket the tables read so far lack.
 * /proc/PID/net is the namespace of PID, whoever reads it, so a process in
 * another namespace is read from its own tables. A table read for one
 * process is a snapshot: a socket another process of the namespace made
 * after it is not found there, and is listed as such, never guessed.
 */
struct net_ns {
	uint64_t ino;			/* /proc/PID/ns/net's inode; 0 unknown: not shared */
	unsigned int tried;		/* bit per enum net_proto: read, or tried */
	struct fact_err e[NET_NPROTO];	/* why a table could not be had (absent: -ENOENT) */
	struct inet_table inet[NET_NPROTO];	/* sorted by inode (unix's stays empty) */
	struct unix_table unx;			/* sorted by inode */
	/* the LISTEN lines of each inet table, by address and port */
	const struct inet_sock **listen[NET_NPROTO];
	size_t nlisten[NET_NPROTO];
};

/* The namespaces met during one run (an audit of several processes). */
struct net_cache {
	struct net_ns **v;
	size_t n, cap;
};

/* A table this large is refused (-EFBIG): 64 MiB holds some 400,000 sockets. */
#define NET_TABLE_MAX (64u << 20)

/* The inode of pid's network namespace (proc/PID/ns/net), 0 when it cannot be read. */
uint64_t net_ns_inode(const struct sysroot *sr, pid_t pid);

/*
 * The namespace of pid: the cached one with its inode, or a new one (added
 * to the cache when its inode is known; otherwise the caller's, to free
 * with net_ns_free). NULL when out of memory.
 */
struct net_ns *net_cache_get(struct net_cache *c, const struct sysroot *sr, pid_t pid,
			     bool *owned);
void net_cache_free(struct net_cache *c);
void net_ns_free(struct net_ns *ns);

/* Reads table p of the namespace through pid, once: 0 or -errno (also kept in ns->e[p]). */
int net_ns_read(struct net_ns *ns, const struct sysroot *sr, pid_t pid, enum net_proto p);

/*
 * The line of table p with this inode: NULL when there is none, and when two
 * lines claim it (a unix path that holds a newline can forge one), *ambiguous.
 */
const struct inet_sock *net_ns_inet(const struct net_ns *ns, enum net_proto p, uint64_t ino,
				    bool *ambiguous);
const struct unix_sock *net_ns_unix(const struct net_ns *ns, uint64_t ino, bool *ambiguous);

/* LISTEN sockets of table p on this address and port. */
size_t net_ns_listeners(const struct net_ns *ns, enum net_proto p, const uint8_t *addr,
			uint16_t port);

#endif
