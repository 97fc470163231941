// SPDX-License-Identifier: GPL-2.0-or-later
/* NETLINK_SOCK_DIAG dumps: see netlink.h. */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <limits.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "netlink.h"

int nl_walk(const void *buf, size_t len, nl_each_fn each, void *arg)
{
	const struct nlmsghdr *h = buf;
	int left = len > INT_MAX ? INT_MAX : (int)len;
	int err;

	for (; mnl_nlmsg_ok(h, left); h = mnl_nlmsg_next(h, &left)) {
		const struct nlmsgerr *e = mnl_nlmsg_get_payload(h);

		if (h->nlmsg_type == NLMSG_DONE)
			return 1;
		if (h->nlmsg_type == NLMSG_ERROR)
			return h->nlmsg_len >= mnl_nlmsg_size(sizeof(*e)) && e->error < 0 &&
			       e->error > -4096 ? e->error : -EBADMSG;
		if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY)
			return -EBADMSG;
		err = each(e, mnl_nlmsg_get_payload_len(h), arg);
		if (err)
			return err;
	}
	/* What mnl_nlmsg_ok refused is a message cut or of a length below its header. */
	return left > 0 ? -EBADMSG : 0;
}

int nl_dump(const void *req, size_t reqlen, nl_each_fn each, void *arg)
{
	struct mnl_socket *nl = mnl_socket_open2(NETLINK_SOCK_DIAG, SOCK_CLOEXEC);
	struct timeval tv = { .tv_sec = 2 };
	long buf[32768 / sizeof(long)];
	int ret = 0;

	if (!nl)
		return -errno;
	/* A kernel that never answers must not hang the audit. */
	setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (mnl_socket_sendto(nl, req, reqlen) < 0)
		ret = -errno;
	while (!ret) {
		struct sockaddr_nl from;
		socklen_t fromlen = sizeof(from);
		/* recvfrom, not mnl_socket_recvfrom: the sender's address says who answered. */
		ssize_t n = recvfrom(mnl_socket_get_fd(nl), buf, sizeof(buf), 0,
				     (struct sockaddr *)&from, &fromlen);

		if (n < 0) {
			ret = errno == EAGAIN ? -ETIMEDOUT : -errno;
			break;
		}
		if (fromlen != sizeof(from) || from.nl_pid != 0)
			continue;	/* only the kernel answers */
		ret = nl_walk(buf, (size_t)n, each, arg);
	}
	mnl_socket_close(nl);
	return ret < 0 ? ret : 0;
}
