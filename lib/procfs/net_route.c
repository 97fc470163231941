// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/net/route: which interfaces carry the default route. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs.h"

#define RTF_UP_FLAG 0x1u	/* linux/route.h RTF_UP, without pulling in the header */

/* One whitespace-separated field: its start and length; p is moved past it. */
static size_t field(const char **p, const char **start)
{
	size_t n;

	while (**p == ' ' || **p == '\t')
		(*p)++;
	*start = *p;
	n = strcspn(*p, " \t\n");
	*p += n;
	return n;
}

static int hex_field(const char **p, unsigned long *v)
{
	const char *s;
	char buf[16], *end;
	size_t n = field(p, &s);

	if (!n || n >= sizeof(buf))
		return -EBADMSG;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*v = strtoul(buf, &end, 16);
	return *end ? -EBADMSG : 0;
}

static bool known(char names[][NET_IFNAME_MAX], size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/*
 * "Iface Destination Gateway Flags RefCnt Use Metric Mask MTU Window IRTT"
 * (net/ipv4/fib_trie.c, fib_route_seq_show): the fields this reads are
 * the first four and the eighth.
 */
int net_route_default_ifaces(const char *text, char names[][NET_IFNAME_MAX], size_t max,
			     size_t *n)
{
	const char *p = text, *nl, *s;
	unsigned long dest, gw, flags, skip, mask;
	char name[NET_IFNAME_MAX];
	size_t len;
	int i;

	*n = 0;
	if (strncmp(p, "Iface\tDestination\tGateway", 25))
		return -EBADMSG;
	nl = strchr(p, '\n');
	for (p = nl ? nl + 1 : p + strlen(p); *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		len = field(&p, &s);
		if (!len)
			continue;	/* a blank line */
		if (len >= sizeof(name))
			return -EBADMSG;
		memcpy(name, s, len);
		name[len] = '\0';
		if (hex_field(&p, &dest) || hex_field(&p, &gw) || hex_field(&p, &flags))
			return -EBADMSG;
		for (i = 0; i < 3; i++)		/* RefCnt, Use, Metric */
			if (hex_field(&p, &skip))
				return -EBADMSG;
		if (hex_field(&p, &mask))
			return -EBADMSG;
		if (dest || mask || !(flags & RTF_UP_FLAG) || known(names, *n, name))
			continue;
		if (*n < max)
			memcpy(names[(*n)++], name, sizeof(name));
	}
	return 0;
}
