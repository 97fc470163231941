/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_NETSTAT_H
#define URINGLINT_NETSTAT_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The listen counters of /proc/PID/net/netstat (TcpExt), which count for
 * the whole network namespace of PID since it was created, every
 * listener of every process in it together: ListenOverflows, a connection
 * that completed its handshake while the accept queue was full (or a SYN
 * dropped for it), and ListenDrops, every connection a listener dropped,
 * overflows included.
 */
struct netstat_listen {
	bool has_overflows, has_drops;
	uint64_t overflows, drops;
};

/*
 * Parses the whole file: pairs of lines, "Prefix: Name Name ..." then
 * "Prefix: value value ...", as net/ipv4/proc.c prints them. 0 (the
 * counters the kernel lacks left unset), or -EBADMSG when a pair does not
 * match (another prefix, another count of fields, a value that is not a
 * number), a line is cut, or a counter is named twice.
 */
int netstat_parse(const char *text, struct netstat_listen *out);

#endif
