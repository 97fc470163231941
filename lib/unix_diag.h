/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_UNIX_DIAG_H
#define URINGLINT_UNIX_DIAG_H

#include <stddef.h>

#include "net_unix.h"

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
