/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_NET_UNIX_H
#define URINGLINT_NET_UNIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * One unix socket: a line of /proc/PID/net/unix (net/unix/af_unix.c,
 * unix_seq_show), or one answer of NETLINK_SOCK_DIAG (lib/unix_diag.h).
 */
struct unix_sock {
	uint64_t inode;
	uint16_t type;		/* SOCK_STREAM 1, SOCK_DGRAM 2, SOCK_SEQPACKET 5 */
	uint8_t st;		/* SS_UNCONNECTED 1 ... SS_DISCONNECTING 4 */
	bool listening;		/* __SO_ACCEPTCON in Flags: listen() was called */
	char *path;		/* NULL unbound; "@name" abstract (each NUL an '@'), as printed */
	char *name;		/* the name's exact bytes (sock_diag only), NULL when unknown */
	uint16_t name_len;
	/*
	 * The table only: the line after this one claims a socket another line
	 * also claims, so it may be the rest of this socket's path made to look
	 * like a socket: this path may be cut short.
	 */
	bool path_suspect;
	uint32_t line;		/* the table only: its line, from 1 after the header */
};

struct unix_table {
	struct unix_sock *v;
	size_t n, cap;
	size_t skipped;		/* lines that are no socket: see unix_table_parse */
	bool from_diag;		/* read through sock_diag, not the table */
};

/*
 * Parses the whole table. 0, -EBADMSG when the header is not the kernel's
 * or the last line is cut before its newline, -ENOMEM. A bound path may
 * hold a newline, which the kernel prints raw: a line that is no socket
 * line is the rest of the path before it, and is joined to it (or, after
 * an unbound socket, counted in skipped). A path made to hold what looks
 * like a whole socket line cannot be told apart from one; when that line
 * claims the inode of another line, the caller finds the inode twice
 * (net_ns_unix's *ambiguous, never either identity), and the socket of
 * the line before each claim is marked path_suspect. Appends to t.
 */
int unix_table_parse(const char *text, struct unix_table *t);
void unix_table_free(struct unix_table *t);

/* "STREAM", "DGRAM", "SEQPACKET", or "UNKNOWN". */
const char *unix_type_name(uint16_t type);
/* As ss says it: "LISTEN", "ESTABLISHED" (connected), "UNCONNECTED", "CONNECTING", ... */
const char *unix_state_name(const struct unix_sock *u);

#endif
