// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The backlog of TCP listeners through NETLINK_SOCK_DIAG (inet_diag, as
 * ss -ltn reads it): an inet_diag_req_v2 dump of the LISTEN state, one
 * family at a time, answered by SOCK_DIAG_BY_FAMILY messages that each
 * carry a struct inet_diag_msg, then NLMSG_DONE.
 */
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "array.h"
#include "netlink.h"

#define DIAG_TCP_LISTEN 10	/* include/net/tcp_states.h */
/* More listeners than this in one namespace is not a real host: refused. */
#define DIAG_MAX_LISTENERS (1u << 20)

static bool wanted(const uint64_t *want, size_t nwant, uint64_t ino)
{
	size_t lo = 0, hi = nwant;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (want[mid] == ino)
			return true;
		if (want[mid] < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

struct listen_walk {
	const uint64_t *want;
	size_t nwant;
	struct diag_listeners *t;
};

static int each_listener(const void *payload, size_t len, void *arg)
{
	struct listen_walk *w = arg;
	struct inet_diag_msg m;

	if (len < sizeof(m))
		return -EBADMSG;
	memcpy(&m, payload, sizeof(m));
	if (m.idiag_state != DIAG_TCP_LISTEN || (w->want && !wanted(w->want, w->nwant, m.idiag_inode)))
		return 0;
	if (w->t->n >= DIAG_MAX_LISTENERS)
		return -EBADMSG;
	if (array_grow(&w->t->v, &w->t->cap, w->t->n + 1))
		return -ENOMEM;
	w->t->v[w->t->n++] = (struct diag_listener){ .inode = m.idiag_inode,
						     .queued = m.idiag_rqueue,
						     .backlog = m.idiag_wqueue };
	return 0;
}

int sock_diag_parse(const void *buf, size_t len, const uint64_t *want, size_t nwant,
		    struct diag_listeners *t)
{
	struct listen_walk w = { want, nwant, t };

	return nl_walk(buf, len, each_listener, &w);
}

static int dump_family(uint8_t family, const uint64_t *want, size_t nwant,
		       struct diag_listeners *t)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req = {
		.nlh = { .nlmsg_len = sizeof(req), .nlmsg_type = SOCK_DIAG_BY_FAMILY,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP, .nlmsg_seq = family },
		.r = { .sdiag_family = family, .sdiag_protocol = IPPROTO_TCP,
		       .idiag_states = 1u << DIAG_TCP_LISTEN },
	};
	struct listen_walk w = { want, nwant, t };

	return nl_dump(&req, sizeof(req), each_listener, &w);
}

static int inode_cmp(const void *a, const void *b)
{
	const struct diag_listener *x = a, *y = b;

	return (x->inode > y->inode) - (x->inode < y->inode);
}

int sock_diag_listeners(const uint64_t *want, size_t nwant, struct diag_listeners *t)
{
	int ret = dump_family(AF_INET, want, nwant, t);

	if (!ret)
		ret = dump_family(AF_INET6, want, nwant, t);
	if (!ret && t->n > 1)
		qsort(t->v, t->n, sizeof(*t->v), inode_cmp);
	return ret;
}

const struct diag_listener *diag_listener_find(const struct diag_listeners *t, uint64_t inode)
{
	struct diag_listener key = { .inode = inode };

	return t->n ? bsearch(&key, t->v, t->n, sizeof(*t->v), inode_cmp) : NULL;
}

void diag_listeners_free(struct diag_listeners *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}
