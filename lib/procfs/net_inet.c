// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/PID/net/{tcp,tcp6,udp,udp6,raw,raw6,udplite,udplite6}: the kernel
 * prints them all as
 *
 *   "%4d: %08X:%04X %08X:%04X %02X %08X:%08X %02X:%08lX %08X %5u %8d %lu ..."
 *   sl  local    remote    st  tx_queue:rx_queue tr:when retrnsmt uid timeout inode
 *
 * with each IPv6 address as four %08X words. An address word is the
 * 32-bit value as it sits in memory, printed as a host-order integer, so
 * the bytes of the parsed word, stored back in host order, are the
 * address's bytes in network order (on the host that printed it). Ports
 * are printed after ntohs: as they are. Parsed by hand, not with sscanf:
 * a host with 100,000 sockets has 100,000 of these lines.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "procfs.h"
#include "parse.h"

static const char *const proto_names[] = {
	[NET_TCP] = "tcp",	   [NET_TCP6] = "tcp6",	  [NET_UDP] = "udp",
	[NET_UDP6] = "udp6",	   [NET_UNIX] = "unix",	  [NET_RAW] = "raw",
	[NET_RAW6] = "raw6",	   [NET_UDPLITE] = "udplite", [NET_UDPLITE6] = "udplite6",
};

const char *net_proto_name(enum net_proto p)
{
	return (unsigned int)p < NET_NPROTO ? proto_names[p] : "other";
}

bool net_proto_v6(enum net_proto p)
{
	return p == NET_TCP6 || p == NET_UDP6 || p == NET_RAW6 || p == NET_UDPLITE6;
}

/* include/net/tcp_states.h */
static const char *const state_names[] = {
	[1] = "ESTABLISHED", [2] = "SYN_SENT",	 [3] = "SYN_RECV",   [4] = "FIN_WAIT1",
	[5] = "FIN_WAIT2",   [6] = "TIME_WAIT",	 [7] = "CLOSE",	     [8] = "CLOSE_WAIT",
	[9] = "LAST_ACK",    [10] = "LISTEN",	 [11] = "CLOSING",   [12] = "NEW_SYN_RECV",
};

const char *inet_state_name(uint8_t state)
{
	return state < ARRAY_SIZE(state_names) && state_names[state] ? state_names[state]
								     : "UNKNOWN";
}

/* A cursor over one line: p moves, end is its newline. */
struct cur {
	const char *p, *end;
};

static void blanks(struct cur *c)
{
	while (c->p < c->end && *c->p == ' ')
		c->p++;
}

/* Exactly digits hex digits (the kernel's %08X, %04X, %02X): the value. */
static int hex_fixed(struct cur *c, int digits, uint32_t *out)
{
	if (parse_hex_fixed(c->p, c->end, digits, out))
		return -EBADMSG;
	c->p += digits;
	return 0;
}

/* After blanks, a decimal number that fits 64 bits. */
static int dec(struct cur *c, uint64_t *out)
{
	const char *s;
	uint64_t v = 0;

	blanks(c);
	s = c->p;
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		unsigned int d = (unsigned int)(*c->p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -EBADMSG;
		v = v * 10 + d;
		c->p++;
	}
	if (c->p == s)
		return -EBADMSG;
	*out = v;
	return 0;
}

static int expect(struct cur *c, char ch)
{
	if (c->p >= c->end || *c->p != ch)
		return -EBADMSG;
	c->p++;
	return 0;
}

/* After blanks, a token of anything but blanks (the timer columns, whose width varies). */
static int token(struct cur *c)
{
	const char *s;

	blanks(c);
	s = c->p;
	while (c->p < c->end && *c->p != ' ')
		c->p++;
	return c->p == s ? -EBADMSG : 0;
}

static int endpoint(struct cur *c, bool v6, uint8_t *addr, uint16_t *port)
{
	uint32_t w, p;
	int i;

	for (i = 0; i < (v6 ? 4 : 1); i++) {
		if (hex_fixed(c, 8, &w))
			return -EBADMSG;
		memcpy(addr + 4 * i, &w, sizeof(w));	/* host order: see the top */
	}
	if (expect(c, ':') || hex_fixed(c, 4, &p))
		return -EBADMSG;
	*port = (uint16_t)p;
	return 0;
}

static int parse_line(struct cur *c, bool v6, struct inet_sock *s)
{
	uint64_t sl, uid, ino;
	uint32_t st;

	memset(s, 0, sizeof(*s));
	if (dec(c, &sl) || expect(c, ':'))
		return -EBADMSG;
	blanks(c);
	if (endpoint(c, v6, s->local, &s->lport) || expect(c, ' ') ||
	    endpoint(c, v6, s->remote, &s->rport) || expect(c, ' ') || hex_fixed(c, 2, &st) ||
	    expect(c, ' ') || hex_fixed(c, 8, &s->tx_queue) || expect(c, ':') ||
	    hex_fixed(c, 8, &s->rx_queue))
		return -EBADMSG;
	s->state = (uint8_t)st;
	/* tr:tm->when, retrnsmt, uid, timeout (%8d: may be negative), inode */
	if (token(c) || token(c) || dec(c, &uid) || uid > UINT32_MAX || token(c) || dec(c, &ino))
		return -EBADMSG;
	s->uid = (uint32_t)uid;
	s->inode = ino;
	/* What follows the inode (ref, pointer, drops, ...) differs by table and version. */
	if (c->p < c->end && *c->p != ' ')
		return -EBADMSG;
	return 0;
}

int inet_table_parse(const char *text, bool v6, struct inet_table *t)
{
	const char *p = text, *nl;
	struct cur c;

	/* The header: "  sl  local_address ...", as every version prints it. */
	nl = strchr(p, '\n');
	if (!nl || nl - p > NET_LINE_MAX)
		return -EBADMSG;
	c = (struct cur){ p, nl };
	blanks(&c);
	if (c.end - c.p < 3 || strncmp(c.p, "sl ", 3))
		return -EBADMSG;
	for (p = nl + 1; *p; p = nl + 1) {
		nl = memchr(p, '\n', strnlen(p, NET_LINE_MAX + 1));
		if (!nl)
			return -EBADMSG;	/* a line too long, or cut before its newline */
		if (array_grow(&t->v, &t->cap, t->n + 1))
			return -ENOMEM;
		c = (struct cur){ p, nl };
		if (parse_line(&c, v6, &t->v[t->n]))
			return -EBADMSG;
		t->n++;
	}
	return 0;
}

void inet_table_free(struct inet_table *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

void inet_addr_text(const uint8_t *addr, bool v6, char *out, size_t outsz)
{
	char buf[INET6_ADDRSTRLEN];

	if (!inet_ntop(v6 ? AF_INET6 : AF_INET, addr, buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "?");
	snprintf(out, outsz, "%s", buf);
}

void inet_endpoint_text(const uint8_t *addr, uint16_t port, bool v6, char *out, size_t outsz)
{
	char buf[INET6_ADDRSTRLEN];

	inet_addr_text(addr, v6, buf, sizeof(buf));
	snprintf(out, outsz, v6 ? "[%s]:%u" : "%s:%u", buf, (unsigned int)port);
}
