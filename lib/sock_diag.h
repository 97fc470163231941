/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_SOCK_DIAG_H
#define URINGLINT_SOCK_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

#endif
