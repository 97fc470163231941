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
#include <sys/time.h>
#include <unistd.h>

#include "array.h"
#include "sock_diag.h"

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

int sock_diag_parse(const void *buf, size_t len, const uint64_t *want, size_t nwant,
		    struct diag_listeners *t)
{
	const char *p = buf;

	while (len > 0) {
		struct nlmsghdr h;
		struct inet_diag_msg m;
		struct nlmsgerr e;
		size_t step;

		if (len < sizeof(h))
			return -EBADMSG;
		memcpy(&h, p, sizeof(h));
		if (h.nlmsg_len < sizeof(h) || h.nlmsg_len > len)
			return -EBADMSG;
		if (h.nlmsg_type == NLMSG_DONE)
			return 1;
		if (h.nlmsg_type == NLMSG_ERROR) {
			if (h.nlmsg_len < NLMSG_LENGTH(sizeof(e)))
				return -EBADMSG;
			memcpy(&e, p + NLMSG_HDRLEN, sizeof(e));
			return e.error < 0 && e.error > -4096 ? e.error : -EBADMSG;
		}
		if (h.nlmsg_type != SOCK_DIAG_BY_FAMILY || h.nlmsg_len < NLMSG_LENGTH(sizeof(m)))
			return -EBADMSG;
		memcpy(&m, p + NLMSG_HDRLEN, sizeof(m));
		if (m.idiag_state == DIAG_TCP_LISTEN &&
		    (!want || wanted(want, nwant, m.idiag_inode))) {
			if (t->n >= DIAG_MAX_LISTENERS)
				return -EBADMSG;
			if (array_grow(&t->v, &t->cap, t->n + 1))
				return -ENOMEM;
			t->v[t->n++] = (struct diag_listener){ .inode = m.idiag_inode,
							       .queued = m.idiag_rqueue,
							       .backlog = m.idiag_wqueue };
		}
		step = NLMSG_ALIGN(h.nlmsg_len);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return 0;
}

static int dump_family(int fd, uint8_t family, const uint64_t *want, size_t nwant,
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
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	long buf[8192 / sizeof(long)];
	int ret;

	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return -errno;
	do {
		struct sockaddr_nl from;
		socklen_t fromlen = sizeof(from);
		ssize_t n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fromlen);

		if (n < 0)
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		if (fromlen != sizeof(from) || from.nl_pid != 0)
			continue;	/* only the kernel answers */
		ret = sock_diag_parse(buf, (size_t)n, want, nwant, t);
	} while (ret == 0);
	return ret < 0 ? ret : 0;
}

static int inode_cmp(const void *a, const void *b)
{
	const struct diag_listener *x = a, *y = b;

	return (x->inode > y->inode) - (x->inode < y->inode);
}

int sock_diag_listeners(const uint64_t *want, size_t nwant, struct diag_listeners *t)
{
	struct timeval tv = { .tv_sec = 2 };
	int fd, ret;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return -errno;
	/* A kernel that never answers must not hang the audit. */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	ret = dump_family(fd, AF_INET, want, nwant, t);
	if (!ret)
		ret = dump_family(fd, AF_INET6, want, nwant, t);
	close(fd);
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
