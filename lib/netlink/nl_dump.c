// SPDX-License-Identifier: GPL-2.0-or-later
/* NETLINK_SOCK_DIAG dumps: see netlink.h. */
#include <errno.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "netlink.h"

int nl_walk(const void *buf, size_t len, nl_each_fn each, void *arg)
{
	const char *p = buf;
	int err;

	while (len > 0) {
		struct nlmsghdr h;
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
		if (h.nlmsg_type != SOCK_DIAG_BY_FAMILY || h.nlmsg_len < NLMSG_HDRLEN)
			return -EBADMSG;
		err = each(p + NLMSG_HDRLEN, h.nlmsg_len - NLMSG_HDRLEN, arg);
		if (err)
			return err;
		step = NLMSG_ALIGN(h.nlmsg_len);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return 0;
}

int nl_dump(const void *req, size_t reqlen, nl_each_fn each, void *arg)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 2 };
	long buf[32768 / sizeof(long)];
	int fd, ret = 0;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return -errno;
	/* A kernel that never answers must not hang the audit. */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (sendto(fd, req, reqlen, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		ret = -errno;
	while (!ret) {
		struct sockaddr_nl from;
		socklen_t fromlen = sizeof(from);
		ssize_t n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fromlen);

		if (n < 0) {
			ret = errno == EAGAIN ? -ETIMEDOUT : -errno;
			break;
		}
		if (fromlen != sizeof(from) || from.nl_pid != 0)
			continue;	/* only the kernel answers */
		ret = nl_walk(buf, (size_t)n, each, arg);
	}
	close(fd);
	return ret < 0 ? ret : 0;
}
