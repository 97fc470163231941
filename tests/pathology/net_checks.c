// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * slow-accepter: a TCP listener on 127.0.0.1 with a backlog of 4, a ring
 * that accepts one connection a second (and closes it), and a client
 * thread that connects 50 times a second without waiting: the accept
 * queue stays full (5 waiting, one more than the backlog) and the
 * namespace's TcpExt ListenOverflows grows with each handshake the kernel
 * drops. The client keeps at most 256 sockets, closing the oldest. Prints
 * "ready PID PORT" once the queue is full.
 *
 * napi-prefer: a ring with NAPI registered (IORING_REGISTER_NAPI, 6.9+)
 * with prefer_busy_poll and 50 us, and a TCP socket that is neither bound
 * nor connected (so which device it would use cannot be told). napi-zero:
 * the same with a busy-poll time of 0 and no prefer_busy_poll. Print
 * "ready PID".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "pathology.h"

#define SLOW_BACKLOG 4
#define CLIENTS_KEPT 256

static struct sockaddr_in slow_addr;

static void *fast_client(void *arg)
{
	int fds[CLIENTS_KEPT], i;

	(void)arg;
	for (i = 0; i < CLIENTS_KEPT; i++)
		fds[i] = -1;
	for (i = 0; !stop; i = (i + 1) % CLIENTS_KEPT) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
		if (fds[i] >= 0)
			connect(fds[i], (struct sockaddr *)&slow_addr, sizeof(slow_addr));
		sleep_ms(20);
	}
	for (i = 0; i < CLIENTS_KEPT; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return NULL;
}

/* The accept queue's length as the kernel shows it: the LISTEN line's rx_queue. */
static unsigned int accept_queue(uint16_t port)
{
	unsigned int lport, st, rx = 0, q = 0;
	char line[512];
	FILE *f = fopen("/proc/self/net/tcp", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " %*d: %*x:%x %*x:%*x %x %*x:%x", &lport, &st, &rx) == 3 &&
		    lport == port && st == 10)
			q = rx;
	fclose(f);
	return q;
}

void slow_accepter(void)
{
	socklen_t len = sizeof(slow_addr);
	struct __kernel_timespec ts = { .tv_nsec = 100000000 };
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	pthread_t client;
	int l, i, ret;

	slow_addr = (struct sockaddr_in){ .sin_family = AF_INET,
					  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&slow_addr, sizeof(slow_addr)) ||
	    listen(l, SLOW_BACKLOG) || getsockname(l, (struct sockaddr *)&slow_addr, &len))
		die("listener on 127.0.0.1", errno);
	ring_init(&ring, 8, 0, 0, -1);
	if (pthread_create(&client, NULL, fast_client, NULL))
		die("pthread_create", EAGAIN);
	for (i = 0; i < 100 && accept_queue(ntohs(slow_addr.sin_port)) <= SLOW_BACKLOG; i++)
		sleep_ms(20);
	printf("ready %d %u\n", getpid(), (unsigned int)ntohs(slow_addr.sin_port));
	fflush(stdout);
	while (!stop) {
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_accept(sqe, l, NULL, NULL, 0);
		io_uring_submit(&ring);
		do
			ret = io_uring_wait_cqe_timeout(&ring, &cqe, &ts);
		while (ret == -ETIME && !stop);
		if (ret)
			break;
		if (cqe->res >= 0)
			close(cqe->res);
		io_uring_cqe_seen(&ring, cqe);
		for (i = 0; i < 10 && !stop; i++)
			sleep_ms(100);
	}
	pthread_join(client, NULL);
	io_uring_queue_exit(&ring);
	close(l);
}

/* struct io_uring_napi of 6.9; liburing 2.3 predates IORING_REGISTER_NAPI (27). */
struct patho_napi {
	uint32_t busy_poll_to;
	uint8_t prefer_busy_poll;
	uint8_t pad[3];
	uint64_t resv;
};

void napi_ring(unsigned int busy_poll_us, bool prefer)
{
	struct patho_napi napi = { .busy_poll_to = busy_poll_us, .prefer_busy_poll = prefer };
	struct io_uring ring;
	int s, ret;

	s = socket(AF_INET, SOCK_STREAM, 0);
	if (s < 0)
		die("socket", errno);
	ring_init(&ring, 8, 0, 0, -1);
	ret = io_uring_register(ring.ring_fd, 27, &napi, 1);
	if (ret < 0)
		die("IORING_REGISTER_NAPI", -ret);
	printf("ready %d\n", getpid());
	fflush(stdout);
	while (!stop)
		sleep_ms(50);
	io_uring_queue_exit(&ring);
	close(s);
}
