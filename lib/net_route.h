/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_NET_ROUTE_H
#define URINGLINT_NET_ROUTE_H

#include <stddef.h>

/* IFNAMSIZ, with its NUL: the longest interface name the kernel takes. */
#define NET_IFNAME_MAX 16

/*
 * The interfaces of the IPv4 default routes in /proc/net/route (a route
 * that is up, with destination and mask 0.0.0.0), each once, in table
 * order, at most max of them. 0, or -EBADMSG when the header is not the
 * kernel's or a line is cut short (a name too long, a field not hex).
 */
int net_route_default_ifaces(const char *text, char names[][NET_IFNAME_MAX], size_t max,
			     size_t *n);

#endif
