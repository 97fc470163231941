/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROC_SOCKETS_H
#define URINGLINT_PROC_SOCKETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fact.h"
#include "net_tables.h"
#include "procfs.h"

/*
 * One socket of a process: an fd whose link is socket:[INODE], or a
 * socket only in a ring's file table (a direct descriptor, or one whose fd
 * was closed after it was registered), joined with the line of its
 * namespace's tables that has its inode.
 */
struct proc_socket {
	int fd;			/* -1: only in a ring's file table */
	uint64_t inode;
	enum net_proto proto;	/* NET_OTHER: in no table read (netlink, packet, ...) */
	bool ambiguous;		/* two table lines claim its inode: neither is taken */
	bool dup;		/* another fd of the process is the same socket (dup) */
	int ring_fd;		/* the first ring whose UserFiles names it; -1 none */
	struct inet_sock in;	/* inet tables */
	struct unix_sock un;	/* unix: un.path is this socket's own copy */
	/* a TCP listener's backlog limit, from sock_diag (see proc_sockets.backlog_e) */
	bool has_backlog;
	uint32_t backlog;
};

/* The process's LISTEN sockets on one address and port (unix: one listener each). */
struct proc_listener {
	enum net_proto proto;
	size_t first;		/* index of its first socket, for the address */
	int *fds;		/* this process's fds; a socket only in a ring is not one */
	size_t nfds, cap;
	size_t ours;		/* this process's sockets in it, fds or not */
	/*
	 * LISTEN sockets on it in the namespace: > 1 a reuseport group, or
	 * sockets bound to different devices (the tables do not show which)
	 */
	size_t in_netns;
};

struct proc_sockets {
	struct fact_err e;	/* the first table that could not be had, and why */
	uint64_t netns;		/* 0 unknown (the link unreadable) */
	unsigned int tables;	/* bit per enum net_proto read */
	bool unix_from_diag;	/* unix sockets from sock_diag, not the table */
	struct proc_socket *v;
	size_t n, cap;
	struct proc_listener *listeners;
	size_t nlisteners, lcap;
	/*
	 * UserFiles slots that name a socket only by its protocol ("TCP",
	 * "UNIX": kernels before 6.14 print the dentry name); which socket each
	 * is cannot be known.
	 */
	unsigned int registered_unidentified;
	bool rings_unknown;	/* a ring's UserFiles could not be read */

	/*
	 * With a TCP listener: why its backlog limit is not known (sock_diag
	 * answers for uringlint's own namespace, live), and the TCP LISTEN
	 * sockets of the whole namespace (tcp and tcp6), every process's.
	 */
	struct fact_err backlog_e;
	bool ns_tcp_listeners_known;
	size_t ns_tcp_listeners;
	struct proc_netstat {
		/* read with the sockets: counts since the namespace was created */
		struct netstat_reading {
			struct fact_err e;
			struct netstat_listen c;
			uint64_t t_ns;		/* CLOCK_MONOTONIC */
		} at;
		/* audit --watch: read just before it starts and just after it ends */
		bool watched;
		struct netstat_reading begin, end;
	} netstat;
};

/* Records an fd whose link is target ("socket:[INODE]"), from the fd listing: 0 or -errno. */
int proc_sockets_add_fd(struct proc_sockets *ps, int fd, const char *target);

struct proc_facts;
/*
 * Joins the process's sockets with its namespace's tables (through cache,
 * or tables of its own when cache is NULL), marks the ones its rings
 * registered, adds the ones only its rings hold, and groups its listeners.
 */
void proc_sockets_collect(const struct sysroot *sr, struct proc_facts *pf,
			  struct net_cache *cache);
void proc_sockets_free(struct proc_sockets *ps);

/* The process's TCP LISTEN sockets, each counted once (fds or only in a ring). */
size_t proc_sockets_tcp_listening(const struct proc_sockets *ps);
/* Reads the namespace's listen counters through /proc/PID/net/netstat. */
void proc_netstat_read(const struct sysroot *sr, pid_t pid, struct netstat_reading *r);
/*
 * The growth of the counters over the watch: false when either reading
 * failed, a counter is missing, or one went backwards (another namespace
 * behind the same PID is not the same count).
 */
bool proc_netstat_delta(const struct proc_netstat *n, uint64_t *overflows, uint64_t *drops);

/* Whether a socket is registered with a ring: 1 yes, 0 no, -1 cannot be known. */
int proc_socket_registered(const struct proc_sockets *ps, const struct proc_socket *s);

/* "127.0.0.1:80", "[::1]:80", a unix path, or NULL (unbound, or not identified). */
const char *proc_socket_local(const struct proc_socket *s, char *buf, size_t bufsz);
/* The peer of an inet socket, NULL otherwise. */
const char *proc_socket_remote(const struct proc_socket *s, char *buf, size_t bufsz);
/* "LISTEN", "ESTABLISHED", ...; NULL when not identified. */
const char *proc_socket_state(const struct proc_socket *s);

#endif
