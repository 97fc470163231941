// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unix sockets through NETLINK_SOCK_DIAG: a unix_diag_req dump of every
 * state with UDIAG_SHOW_NAME, answered by SOCK_DIAG_BY_FAMILY messages that
 * each carry a struct unix_diag_msg and, for a bound socket, a
 * UNIX_DIAG_NAME attribute holding the name's bytes (net/unix/diag.c,
 * sk_diag_dump_name: an abstract name with its leading NUL), then
 * NLMSG_DONE.
 */
#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "array.h"
#include "netlink.h"

/* include/net/tcp_states.h: what sk_state holds for a unix socket */
#define DIAG_ESTABLISHED 1
#define DIAG_SYN_SENT 2
#define DIAG_CLOSE 7
#define DIAG_LISTEN 10
/* include/uapi/linux/net.h: socket_state, as /proc/net/unix's St column shows it */
#define SS_UNCONNECTED 1
#define SS_CONNECTING 2
#define SS_CONNECTED 3
/* Far more than a real namespace holds: a dump past it is refused. */
#define DIAG_MAX_UNIX (4u << 20)
#define UNIX_NAME_MAX 108	/* sizeof(sun_path) */

/* The St column /proc/net/unix would show for a socket in this sk_state. */
static uint8_t table_state(uint8_t sk_state)
{
	switch (sk_state) {
	case DIAG_ESTABLISHED:
		return SS_CONNECTED;
	case DIAG_SYN_SENT:
		return SS_CONNECTING;
	default:
		return SS_UNCONNECTED;
	}
}

/* The name as the table prints it: each NUL an '@' (unix_seq_show). */
static char *table_path(const char *name, size_t len)
{
	char *path = malloc(len + 1);
	size_t i;

	if (!path)
		return NULL;
	for (i = 0; i < len; i++)
		path[i] = name[i] ? name[i] : '@';
	path[len] = '\0';
	return path;
}

/* The UNIX_DIAG_NAME attribute of one message, if any: 0, or -EBADMSG. */
static int find_name(const char *p, size_t len, const char **name, size_t *nlen)
{
	*name = NULL;
	*nlen = 0;
	while (len >= sizeof(struct rtattr)) {
		struct rtattr a;
		size_t step;

		memcpy(&a, p, sizeof(a));
		if (a.rta_len < sizeof(a) || a.rta_len > len)
			return -EBADMSG;
		if (a.rta_type == UNIX_DIAG_NAME) {
			*name = p + RTA_LENGTH(0);
			*nlen = a.rta_len - RTA_LENGTH(0);
			if (*nlen > UNIX_NAME_MAX)
				return -EBADMSG;
		}
		step = RTA_ALIGN(a.rta_len);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return 0;
}

static int add(struct unix_table *t, const struct unix_diag_msg *m, const char *name, size_t nlen)
{
	struct unix_sock *u;

	if (t->n >= DIAG_MAX_UNIX)
		return -EBADMSG;
	if (array_grow(&t->v, &t->cap, t->n + 1))
		return -ENOMEM;
	u = &t->v[t->n];
	memset(u, 0, sizeof(*u));
	u->inode = m->udiag_ino;
	u->type = m->udiag_type;
	u->st = table_state(m->udiag_state);
	u->listening = m->udiag_state == DIAG_LISTEN;
	/*
	 * A path's name ends in the NUL bind() stored with it (unix_mkname_bsd),
	 * which the table leaves out too: one, and only for a path.
	 */
	if (name && nlen && name[0] && !name[nlen - 1])
		nlen--;
	if (name && nlen) {
		u->name = malloc(nlen);
		u->path = table_path(name, nlen);
		if (!u->name || !u->path) {
			free(u->name);
			free(u->path);
			return -ENOMEM;
		}
		memcpy(u->name, name, nlen);
		u->name_len = (uint16_t)nlen;
	}
	t->n++;
	return 0;
}

static int each_unix(const void *payload, size_t len, void *arg)
{
	struct unix_table *t = arg;
	struct unix_diag_msg m;
	const char *name;
	size_t nlen;
	int err;

	if (len < sizeof(m))
		return -EBADMSG;
	memcpy(&m, payload, sizeof(m));
	if (m.udiag_family != AF_UNIX)
		return -EBADMSG;
	err = find_name((const char *)payload + NLMSG_ALIGN(sizeof(m)),
			len - NLMSG_ALIGN(sizeof(m)), &name, &nlen);
	return err ? err : add(t, &m, name, nlen);
}

int unix_diag_parse(const void *buf, size_t len, struct unix_table *t)
{
	t->from_diag = true;
	return nl_walk(buf, len, each_unix, t);
}

int unix_diag_dump(struct unix_table *t)
{
	struct {
		struct nlmsghdr nlh;
		struct unix_diag_req r;
	} req = {
		.nlh = { .nlmsg_len = sizeof(req), .nlmsg_type = SOCK_DIAG_BY_FAMILY,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP, .nlmsg_seq = 1 },
		.r = { .sdiag_family = AF_UNIX, .udiag_states = ~0u, .udiag_show = UDIAG_SHOW_NAME },
	};

	t->from_diag = true;
	return nl_dump(&req, sizeof(req), each_unix, t);
}
