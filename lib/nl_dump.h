/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_NL_DUMP_H
#define URINGLINT_NL_DUMP_H

#include <stddef.h>
#include <stdint.h>

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

#endif
