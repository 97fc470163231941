/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_NET_UNIX_H
#define URINGLINT_NET_UNIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One line of /proc/PID/net/unix (net/unix/af_unix.c, unix_seq_show). */
struct unix_sock {
	uint64_t inode;
	uint16_t type;		/* SOCK_STREAM 1, SOCK_DGRAM 2, SOCK_SEQPACKET 5 */
	uint8_t st;		/* SS_UNCONNECTED 1 ... SS_DISCONNECTING 4 */
	bool listening;		/* __SO_ACCEPTCON in Flags: listen() was called */
	char *path;		/* NULL unbound; "@name" abstract (each NUL an '@'), as printed */
};

struct unix_table {
	struct unix_sock *v;
	size_t n, cap;
	size_t skipped;		/* lines that are no socket: see unix_table_parse */
};

/*
 * Parses the whole table. 0, -EBADMSG when the header is not the kernel's
 * or the last line is cut before its newline, -ENOMEM. A bound path may
 * hold a newline, which the kernel prints raw: the rest of such a path is
 * a line that is no socket, counted in skipped, not taken for one. (A path
 * made to look like a whole socket line cannot be told apart: its inode
 * is then listed twice, and the first line wins.) Appends to t.
 */
int unix_table_parse(const char *text, struct unix_table *t);
void unix_table_free(struct unix_table *t);

/* "STREAM", "DGRAM", "SEQPACKET", or "UNKNOWN". */
const char *unix_type_name(uint16_t type);
/* As ss says it: "LISTEN", "ESTABLISHED" (connected), "UNCONNECTED", "CONNECTING", ... */
const char *unix_state_name(const struct unix_sock *u);

#endif
