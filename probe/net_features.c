// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What each network mode needs, tried on this kernel before the mode runs:
 * opcodes through io_uring_get_probe(), flags and registrations by using
 * them on a loopback pair of the probe's own. A refusal with EINVAL is the
 * kernel lacking the feature, named with the version that brings it; any
 * other errno is said as it is. Never decided from the version string.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <liburing.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "net_impl.h"

#define TRY_TIMEOUT_NS 1000000000LL

/* One completion within a second; its result, or -ETIME. */
static int wait_one(struct io_uring *ring, unsigned int *flags)
{
	struct __kernel_timespec ts = { .tv_sec = TRY_TIMEOUT_NS / 1000000000LL };
	struct io_uring_cqe *cqe;
	int ret;

	ret = io_uring_submit_and_wait_timeout(ring, &cqe, 1, &ts, NULL);
	if (ret < 0)
		return ret;
	ret = cqe->res;
	if (flags)
		*flags = cqe->flags;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

/* A listener on 127.0.0.1 and a client connected to it: 0 or -errno. */
static int pair_listen(int *lfd, int *cfd)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);

	*cfd = -1;
	*lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*lfd < 0)
		return -errno;
	if (bind(*lfd, (struct sockaddr *)&a, sizeof(a)) || listen(*lfd, 4) ||
	    getsockname(*lfd, (struct sockaddr *)&a, &len))
		return -errno;
	*cfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*cfd < 0)
		return -errno;
	return connect(*cfd, (struct sockaddr *)&a, sizeof(a)) ? -errno : 0;
}

static void close_fds(int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

static int lacks(const char **needs, const char *version, char *why, size_t whysz,
		 const char *what, int err)
{
	*needs = err == -EINVAL ? version : NULL;
	if (err == -EINVAL)
		snprintf(why, whysz, "%s needs Linux %s: this kernel refused it (EINVAL)", what, version);
	else
		snprintf(why, whysz, "%s failed: %s", what, strerror(-err));
	return err;
}

/* Accept, recv, send and poll: the opcodes of every io_uring mode. */
static int try_opcodes(enum net_mode m, const char **needs, char *why, size_t whysz)
{
	static const struct {
		int op;
		const char *name, *since;
	} ops[] = {
		{ IORING_OP_POLL_ADD, "IORING_OP_POLL_ADD", "5.1" },
		{ IORING_OP_ACCEPT, "IORING_OP_ACCEPT", "5.5" },
		{ IORING_OP_RECV, "IORING_OP_RECV", "5.6" },
		{ IORING_OP_SEND, "IORING_OP_SEND", "5.6" },
		{ IORING_OP_SEND_ZC, "IORING_OP_SEND_ZC", "6.0" },
	};
	struct io_uring_probe *p;
	struct io_uring ring;
	size_t i;
	int ret;

	ret = io_uring_queue_init(4, &ring, 0);
	if (ret < 0) {
		snprintf(why, whysz, "io_uring_setup() failed: %s", strerror(-ret));
		return ret;
	}
	p = io_uring_get_probe_ring(&ring);
	io_uring_queue_exit(&ring);
	if (!p) {
		*needs = "5.6";
		snprintf(why, whysz, "io_uring_register(IORING_REGISTER_PROBE) failed: the opcode "
			 "probe and the socket opcodes need Linux 5.6");
		return -EOPNOTSUPP;
	}
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (ops[i].op == IORING_OP_SEND_ZC && m != NM_SEND_ZC)
			continue;
		if (!io_uring_opcode_supported(p, ops[i].op)) {
			*needs = ops[i].since;
			snprintf(why, whysz, "%s needs Linux %s: this kernel's opcode probe lacks it",
				 ops[i].name, ops[i].since);
			io_uring_free_probe(p);
			return -EOPNOTSUPP;
		}
	}
	io_uring_free_probe(p);
	return 0;
}

/* A provided buffer ring, multishot accept, then multishot recv. */
static int try_multishot(const char **needs, char *why, size_t whysz)
{
	struct io_uring_buf_reg reg = { .ring_entries = 4, .bgid = NET_BGID };
	int fds[3] = { -1, -1, -1 }, ret;
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	static char bufs[4][64];
	unsigned int flags = 0;
	size_t sz = 4096;
	void *br;

	ret = io_uring_queue_init(8, &ring, 0);
	if (ret < 0) {
		snprintf(why, whysz, "io_uring_setup() failed: %s", strerror(-ret));
		return ret;
	}
	br = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (br == MAP_FAILED) {
		ret = -errno;
		snprintf(why, whysz, "mmap of a buffer ring failed: %s", strerror(errno));
		goto out_ring;
	}
	reg.ring_addr = (uintptr_t)br;
	ret = io_uring_register_buf_ring(&ring, &reg, 0);
	if (ret) {
		lacks(needs, "5.19", why, whysz, "a provided buffer ring (IORING_REGISTER_PBUF_RING)", ret);
		goto out_map;
	}
	io_uring_buf_ring_init(br);
	for (int i = 0; i < 4; i++)
		io_uring_buf_ring_add(br, bufs[i], sizeof(bufs[i]), (unsigned short)i,
				      io_uring_buf_ring_mask(4), i);
	io_uring_buf_ring_advance(br, 4);
	ret = pair_listen(&fds[0], &fds[1]);
	if (ret) {
		snprintf(why, whysz, "a loopback connection failed: %s", strerror(-ret));
		goto out_map;
	}
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_multishot_accept(sqe, fds[0], NULL, NULL, 0);
	ret = wait_one(&ring, &flags);
	if (ret < 0 || !(flags & IORING_CQE_F_MORE)) {
		lacks(needs, "5.19", why, whysz, "multishot accept (IORING_ACCEPT_MULTISHOT)",
		      ret < 0 ? ret : -EINVAL);
		if (ret >= 0)
			close(ret);
		ret = ret < 0 ? ret : -EINVAL;
		goto out_fds;
	}
	fds[2] = ret;
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_recv_multishot(sqe, fds[2], NULL, 0, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = NET_BGID;
	if (write(fds[1], "x", 1) != 1) {
		ret = -errno;
		snprintf(why, whysz, "a loopback send failed: %s", strerror(errno));
		goto out_fds;
	}
	ret = wait_one(&ring, &flags);
	if (ret < 0 || !(flags & IORING_CQE_F_MORE)) {
		lacks(needs, "6.0", why, whysz, "multishot recv (IORING_RECV_MULTISHOT)",
		      ret < 0 ? ret : -EINVAL);
		ret = ret < 0 ? ret : -EINVAL;
		goto out_fds;
	}
	ret = 0;
out_fds:
	close_fds(fds, 3);
out_map:
	/* The ring first: a multishot recv it still holds selects from these buffers. */
	io_uring_queue_exit(&ring);
	munmap(br, sz);
	return ret;
out_ring:
	io_uring_queue_exit(&ring);
	return ret;
}

/* One zero-copy send, asking whether it was copied; its notification too. */
static int try_send_zc(bool *zc_usage, char *why, size_t whysz)
{
	int fds[3] = { -1, -1, -1 }, ret, tries;
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	unsigned int flags;
	char buf[64] = "x";

	ret = io_uring_queue_init(8, &ring, 0);
	if (ret < 0) {
		snprintf(why, whysz, "io_uring_setup() failed: %s", strerror(-ret));
		return ret;
	}
	ret = pair_listen(&fds[0], &fds[1]);
	if (!ret && (fds[2] = accept4(fds[0], NULL, NULL, SOCK_CLOEXEC)) < 0)
		ret = -errno;
	if (ret) {
		snprintf(why, whysz, "a loopback connection failed: %s", strerror(-ret));
		goto out;
	}
	*zc_usage = true;
	for (tries = 0; tries < 2; tries++) {
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_send_zc(sqe, fds[2], buf, sizeof(buf), 0, 0);
		if (*zc_usage)
			sqe->ioprio |= IORING_SEND_ZC_REPORT_USAGE;
		flags = 0;
		ret = wait_one(&ring, &flags);
		if (flags & IORING_CQE_F_MORE)
			wait_one(&ring, NULL);	/* the notification */
		if (ret != -EINVAL || !*zc_usage)
			break;
		*zc_usage = false;	/* a kernel without REPORT_USAGE refuses it: send without */
	}
	if (ret < 0)
		snprintf(why, whysz, "IORING_OP_SEND_ZC failed: %s", strerror(-ret));
	else
		ret = 0;
out:
	close_fds(fds, 3);
	io_uring_queue_exit(&ring);
	return ret;
}

static int try_napi(const char **needs, char *why, size_t whysz)
{
	struct net_uring_napi napi = { .busy_poll_to = 50 };
	struct io_uring ring;
	int ret;

	ret = io_uring_queue_init(4, &ring, 0);
	if (ret < 0) {
		snprintf(why, whysz, "io_uring_setup() failed: %s", strerror(-ret));
		return ret;
	}
	ret = io_uring_register(ring.ring_fd, NET_IORING_REGISTER_NAPI, &napi, 1);
	if (ret == -EOPNOTSUPP)
		snprintf(why, whysz, "IORING_REGISTER_NAPI: this kernel was built without "
			 "CONFIG_NET_RX_BUSY_POLL (EOPNOTSUPP)");
	else if (ret)
		lacks(needs, "6.9", why, whysz, "IORING_REGISTER_NAPI", ret);
	io_uring_queue_exit(&ring);
	return ret;
}

int net_try_mode(enum net_mode m, bool *zc_usage, const char **needs, char *why, size_t whysz)
{
	int ret;

	*needs = NULL;
	*zc_usage = false;
	if (m == NM_EPOLL)
		return 0;
	ret = try_opcodes(m, needs, why, whysz);
	if (ret)
		return ret;
	switch (m) {
	case NM_MULTISHOT:
		return try_multishot(needs, why, whysz);
	case NM_SEND_ZC:
		return try_send_zc(zc_usage, why, whysz);
	case NM_NAPI:
		return try_napi(needs, why, whysz);
	default:
		return 0;
	}
}
