/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_NETLINK_H
#define URINGLINT_NETLINK_H

/* lib/netlink/: netlink: dump requests and the socket diagnostics they answer. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "procfs.h"

/* nl_dump.c */

/*
 * NETLINK_SOCK_DIAG dumps, shared by the inet (sock_diag.c) and unix
 * (unix_diag.c) readers: the walk over one buffer of answers, and the
 * request and receive loop. Read-only, answered for the network namespace
 * of the netlink socket, that is uringlint's own.
 */

/*
 * Called for each SOCK_DIAG_BY_FAMILY message with its payload (after the
 * netlink header): 0 to go on, or -errno to stop the walk with it.
 */
typedef int (*nl_each_fn)(const void *payload, size_t len, void *arg);

/*
 * Walks one buffer of netlink messages: 1 at NLMSG_DONE, 0 when more is to
 * come, the request's error (NLMSG_ERROR), -EBADMSG when a message is cut
 * or of another type, or what each returned.
 */
int nl_walk(const void *buf, size_t len, nl_each_fn each, void *arg);

/* Sends req (its nlmsghdr first) on a new NETLINK_SOCK_DIAG socket and walks every answer: 0 or -errno. */
int nl_dump(const void *req, size_t reqlen, nl_each_fn each, void *arg);


/* sock_diag.c */

/*
 * TCP LISTEN sockets as NETLINK_SOCK_DIAG reports them: the only place the
 * kernel shows a listener's backlog limit (inet_diag_msg's idiag_wqueue is
 * sk_max_ack_backlog for a LISTEN socket, idiag_rqueue its accept queue).
 * Read-only: a dump request, as ss sends it, answered for the network
 * namespace of the netlink socket, that is uringlint's own.
 */
struct diag_listener {
	uint64_t inode;
	uint32_t queued;	/* connections in the accept queue (sk_ack_backlog) */
	uint32_t backlog;	/* listen()'s backlog as the kernel took it (capped by somaxconn) */
};

struct diag_listeners {
	struct diag_listener *v;	/* sorted by inode after sock_diag_listeners */
	size_t n, cap;
};

/*
 * Parses one buffer of netlink messages answering a dump, keeping the
 * LISTEN sockets whose inode is in want (sorted, nwant of them; NULL: all). Returns
 * 1 at NLMSG_DONE, 0 when more is to come, the request's error
 * (NLMSG_ERROR), -EBADMSG when a message is cut or not a sock_diag one,
 * -ENOMEM.
 */
int sock_diag_parse(const void *buf, size_t len, const uint64_t *want, size_t nwant,
		    struct diag_listeners *t);

/*
 * Dumps the TCP listeners of AF_INET and AF_INET6 through a
 * NETLINK_SOCK_DIAG socket and keeps those in want (sorted). 0 or -errno.
 */
int sock_diag_listeners(const uint64_t *want, size_t nwant, struct diag_listeners *t);
/* The listener with this inode, or NULL. */
const struct diag_listener *diag_listener_find(const struct diag_listeners *t, uint64_t inode);
void diag_listeners_free(struct diag_listeners *t);


/* unix_diag.c */

/*
 * The unix sockets of uringlint's own network namespace through
 * NETLINK_SOCK_DIAG (unix_diag, as ss -x reads them): each socket's inode,
 * type, state and name with its length, so a name keeps every byte (a
 * newline, a NUL) and no name can pass for another socket, as a path
 * printed raw in /proc/net/unix can.
 */

/*
 * Parses one buffer of netlink messages answering the dump into t (each
 * name also as the table prints it, in path). Returns 1 at NLMSG_DONE, 0
 * when more is to come, the request's error (NLMSG_ERROR), -EBADMSG when a
 * message or attribute is cut or not a unix_diag one, -ENOMEM.
 */
int unix_diag_parse(const void *buf, size_t len, struct unix_table *t);

/* Dumps every unix socket of this network namespace into t: 0 or -errno. */
int unix_diag_dump(struct unix_table *t);


#endif
