/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_NET_INET_H
#define URINGLINT_NET_INET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The socket tables of /proc/PID/net, in the order a collector reads them:
 * the common ones first, so that a process whose sockets are all found
 * there costs no more reads.
 */
enum net_proto {
	NET_TCP,
	NET_TCP6,
	NET_UDP,
	NET_UDP6,
	NET_UNIX,
	NET_RAW,
	NET_RAW6,
	NET_UDPLITE,
	NET_UDPLITE6,
	NET_NPROTO,
	NET_OTHER = NET_NPROTO,	/* in no table read */
};

/* "tcp", "udp6", ...; the name of the file under /proc/PID/net too. "other" past the tables. */
const char *net_proto_name(enum net_proto p);
/* Whether the table has IPv6 addresses (32 hex digits). */
bool net_proto_v6(enum net_proto p);

/*
 * One line of tcp, tcp6, udp, udp6, raw, raw6, udplite or udplite6, all
 * printed by the kernel in the same columns (get_tcp4_sock,
 * udp4_format_sock, raw_sock_seq_show and their IPv6 twins). Addresses are
 * in network byte order, an IPv4 one in the first 4 bytes.
 */
struct inet_sock {
	uint64_t inode;		/* 0: no socket of a process (TIME_WAIT, a request) */
	uint8_t local[16], remote[16];
	uint16_t lport, rport;
	uint8_t state;		/* TCP_ESTABLISHED 1 ... TCP_NEW_SYN_RECV 12 */
	uint32_t tx_queue, rx_queue;	/* a listener's rx_queue: its accept queue now */
	uint32_t uid;
};

struct inet_table {
	struct inet_sock *v;
	size_t n, cap;
};

/* The longest line any of these tables has (tcp6: 178 bytes); longer is not the kernel's. */
#define NET_LINE_MAX 512

/*
 * Parses a whole table: its header, then one socket a line. 0, -EBADMSG
 * when the header or any line is not the kernel's (a truncated last line
 * too: the kernel ends each with a newline), -ENOMEM. Appends to t.
 */
int inet_table_parse(const char *text, bool v6, struct inet_table *t);
void inet_table_free(struct inet_table *t);

/* "LISTEN", "ESTABLISHED", ...; "UNKNOWN" past the kernel's states. */
const char *inet_state_name(uint8_t state);
#define INET_LISTEN 10

/*
 * An address as people write it: "127.0.0.1", "::1", and with a port
 * "127.0.0.1:8080" or "[::1]:8080". out needs INET_ADDR_MAX bytes.
 */
#define INET_ADDR_MAX 56
void inet_addr_text(const uint8_t *addr, bool v6, char *out, size_t outsz);
void inet_endpoint_text(const uint8_t *addr, uint16_t port, bool v6, char *out, size_t outsz);

#endif
