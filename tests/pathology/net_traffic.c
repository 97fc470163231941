// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Network traffic on a ring, for the checks that judge how io_uring runs
 * socket requests. A client thread plays ping-pong with the ring's thread
 * over one TCP connection on 127.0.0.1: it writes a 64-byte message and
 * reads its echo, with plain blocking calls.
 *
 *   net-echo-poll   the server receives with single-shot recvs, each
 *                   submitted before the next message is there: each waits
 *                   on poll, none goes to io-wq
 *   net-echo-async  the same recvs carrying IOSQE_ASYNC: every one is
 *                   punted to io-wq
 *   net-echo-multishot  one multishot recv into a provided buffer ring of
 *                   64 buffers, each handed back as soon as it is echoed:
 *                   it stays armed
 *   multishot-dry   a multishot recv into a ring of 2 buffers of 16 bytes:
 *                   a message fills both, the recv ends with ENOBUFS, and
 *                   the server gives the buffers back and arms it again
 *
 * Each prints "ready PID" when the traffic runs, and at the end what it
 * did itself: "messages N", "recvs N" (recv requests submitted) and
 * "rearms N" (multishot recvs armed again after ending).
 * PATHOLOGY_NET_PACE_MS=N: the client waits N ms after each echo, for a
 * machine too slow to watch ping-pong at full speed (a guest under
 * software emulation).
 *
 *   shared-listener  one TCP listener and one ring shared by three worker
 *                   threads, which take turns under a lock to accept the
 *                   connections a client thread keeps opening; prints
 *                   "ready PID PORT", then "thread TID" for each worker
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "pathology.h"

#define MSG 64
#define BGID 7
#define UD_RECV 1
#define UD_SEND 2

enum net_mode { NET_POLL, NET_ASYNC, NET_MULTI, NET_DRY };

/* Single-shot recvs into one buffer; the others pick from the provided buffer ring. */
static bool single(enum net_mode m)
{
	return m == NET_POLL || m == NET_ASYNC;
}

struct net_server {
	enum net_mode mode;
	struct io_uring ring;
	int fd;
	struct io_uring_buf_ring *br;
	unsigned int nbufs, buf_size;
	char *bufs;
	char out[MSG * 4];
	unsigned long messages, recvs, rearms;
	size_t echoed;		/* bytes of the current message sent back */
};

/* The client: a message, then its echo, until stopped. */
static void *client(void *arg)
{
	int fd = *(int *)arg;
	char msg[MSG], back[MSG];
	const char *pace = getenv("PATHOLOGY_NET_PACE_MS");
	long pace_ms = pace ? atol(pace) : 0;

	memset(msg, 'm', sizeof(msg));
	while (!stop) {
		size_t got = 0;

		if (pace_ms > 0)
			sleep_ms(pace_ms);

		if (write(fd, msg, sizeof(msg)) != (ssize_t)sizeof(msg))
			break;
		while (got < sizeof(back)) {
			ssize_t n = read(fd, back + got, sizeof(back) - got);

			if (n <= 0)
				return NULL;
			got += (size_t)n;
		}
	}
	return NULL;
}

/* Hands every buffer back (all were used): the ring's tail moves past them again. */
static void buffers_give(struct net_server *s)
{
	unsigned int i;

	for (i = 0; i < s->nbufs; i++)
		io_uring_buf_ring_add(s->br, s->bufs + (size_t)i * s->buf_size, s->buf_size,
				      (unsigned short)i, io_uring_buf_ring_mask(s->nbufs), (int)i);
	io_uring_buf_ring_advance(s->br, (int)s->nbufs);
}

static void buffers_setup(struct net_server *s)
{
	struct io_uring_buf_reg reg = { 0 };
	int ret;

	s->nbufs = s->mode == NET_DRY ? 2 : 64;
	s->buf_size = s->mode == NET_DRY ? 16 : 4096;
	s->br = mmap(NULL, s->nbufs * sizeof(struct io_uring_buf), PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	s->bufs = malloc((size_t)s->nbufs * s->buf_size);
	if (s->br == MAP_FAILED || !s->bufs)
		die("buffer ring memory", ENOMEM);
	reg.ring_addr = (uintptr_t)s->br;
	reg.ring_entries = s->nbufs;
	reg.bgid = BGID;
	ret = io_uring_register_buf_ring(&s->ring, &reg, 0);
	if (ret)
		die("io_uring_register_buf_ring", -ret);
	io_uring_buf_ring_init(s->br);
	buffers_give(s);
}

static void arm_recv(struct net_server *s)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);

	if (single(s->mode)) {
		io_uring_prep_recv(sqe, s->fd, s->out, MSG, 0);
		if (s->mode == NET_ASYNC)
			sqe->flags |= IOSQE_ASYNC;
	} else {
		io_uring_prep_recv_multishot(sqe, s->fd, NULL, 0, 0);
		sqe->flags |= IOSQE_BUFFER_SELECT;
		sqe->buf_group = BGID;
	}
	io_uring_sqe_set_data64(sqe, UD_RECV);
	s->recvs++;
}

static void send_back(struct net_server *s, const char *data, size_t len)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);

	if (data != s->out)
		memcpy(s->out, data, len);
	io_uring_prep_send(sqe, s->fd, s->out, len, 0);
	io_uring_sqe_set_data64(sqe, UD_SEND);
}

/* One received CQE: echo what came, give the buffer back, arm again when the recv ended. */
static int on_recv(struct net_server *s, const struct io_uring_cqe *cqe)
{
	bool more = cqe->flags & IORING_CQE_F_MORE;

	if (cqe->res > 0) {
		const char *data = s->out;

		if (!single(s->mode)) {
			unsigned int bid = cqe->flags >> IORING_CQE_BUFFER_SHIFT;

			data = s->bufs + (size_t)bid * s->buf_size;
		}
		send_back(s, data, (size_t)cqe->res);
		s->echoed += (size_t)cqe->res;
		if (s->echoed >= MSG) {
			s->messages++;
			s->echoed -= MSG;
		}
	} else if (cqe->res == 0 || (cqe->res < 0 && cqe->res != -ENOBUFS)) {
		return cqe->res ? cqe->res : -ECONNRESET;
	}
	if (single(s->mode)) {
		arm_recv(s);
	} else if (s->mode == NET_DRY && cqe->res > 0) {
		/* Handed back only when the recv ended: it runs dry every two buffers. */
	} else if (s->mode == NET_MULTI && cqe->res > 0) {
		unsigned int bid = cqe->flags >> IORING_CQE_BUFFER_SHIFT;

		io_uring_buf_ring_add(s->br, s->bufs + (size_t)bid * s->buf_size, s->buf_size,
				      (unsigned short)bid, io_uring_buf_ring_mask(s->nbufs), 0);
		io_uring_buf_ring_advance(s->br, 1);
	}
	if (!more && !single(s->mode)) {
		/* Dry: both buffers were used; the poll mode hands each back as it goes. */
		if (s->mode == NET_DRY)
			buffers_give(s);
		arm_recv(s);
		s->rearms++;
	}
	return 0;
}

static void serve(struct net_server *s)
{
	while (!stop) {
		struct io_uring_cqe *cqe;
		unsigned int head, seen = 0;
		int ret = io_uring_submit_and_wait(&s->ring, 1);

		if (ret < 0 && ret != -EINTR)
			die("io_uring_submit_and_wait", -ret);
		io_uring_for_each_cqe(&s->ring, head, cqe) {
			seen++;
			if (cqe->user_data == UD_SEND && cqe->res < 0)
				die("send", -cqe->res);
			if (cqe->user_data == UD_RECV && on_recv(s, cqe))
				stop = 1;
		}
		io_uring_cq_advance(&s->ring, seen);
	}
}

/* A connected pair on 127.0.0.1: *server and *cl. */
static void connect_pair(int *server, int *cl)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int l, one = 1;

	l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&a, &len))
		die("listener on 127.0.0.1", errno);
	*cl = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*cl < 0 || connect(*cl, (struct sockaddr *)&a, sizeof(a)))
		die("connect to 127.0.0.1", errno);
	*server = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	if (*server < 0)
		die("accept", errno);
	setsockopt(*server, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(*cl, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	close(l);
}

static void net_traffic(enum net_mode mode)
{
	struct net_server s = { .mode = mode };
	pthread_t t;
	int cl;

	connect_pair(&s.fd, &cl);
	ring_init(&s.ring, 64, 0, 0, -1);
	if (!single(mode))
		buffers_setup(&s);
	arm_recv(&s);
	if (pthread_create(&t, NULL, client, &cl))
		die("pthread_create", EAGAIN);
	printf("ready %d\n", getpid());
	fflush(stdout);
	serve(&s);
	shutdown(cl, SHUT_RDWR);
	pthread_join(t, NULL);
	printf("messages %lu\nrecvs %lu\nrearms %lu\n", s.messages, s.recvs, s.rearms);
	fflush(stdout);
	io_uring_queue_exit(&s.ring);
	close(s.fd);
	close(cl);
}

struct shared {
	struct io_uring ring;
	pthread_mutex_t lock;
	int listener;
	pthread_barrier_t ready;
};

static void *shared_worker(void *arg)
{
	struct shared *sh = arg;

	printf("thread %ld\n", (long)gettid());
	fflush(stdout);
	pthread_barrier_wait(&sh->ready);
	while (!stop) {
		struct io_uring_cqe *cqe;
		int ret;

		pthread_mutex_lock(&sh->lock);
		io_uring_prep_accept(io_uring_get_sqe(&sh->ring), sh->listener, NULL, NULL,
				     SOCK_CLOEXEC);
		ret = io_uring_submit_and_wait(&sh->ring, 1);
		if (ret >= 0 && !io_uring_peek_cqe(&sh->ring, &cqe)) {
			if (cqe->res >= 0)
				close(cqe->res);
			io_uring_cqe_seen(&sh->ring, cqe);
		}
		pthread_mutex_unlock(&sh->lock);
	}
	return NULL;
}

/* Opens and closes connections to the listener, until stopped. */
static void *connector(void *arg)
{
	const struct sockaddr_in *a = arg;

	while (!stop) {
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (fd < 0)
			break;
		if (connect(fd, (const struct sockaddr *)a, sizeof(*a)))
			sleep_ms(1);
		close(fd);
		sleep_ms(1);
	}
	return NULL;
}

static void shared_listener(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct shared sh = { .lock = PTHREAD_MUTEX_INITIALIZER };
	socklen_t len = sizeof(a);
	pthread_t t[4];
	int i;

	sh.listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sh.listener < 0 || bind(sh.listener, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(sh.listener, 64) || getsockname(sh.listener, (struct sockaddr *)&a, &len))
		die("listener on 127.0.0.1", errno);
	ring_init(&sh.ring, 8, 0, 0, -1);
	pthread_barrier_init(&sh.ready, NULL, 4);
	printf("ready %d %u\n", getpid(), (unsigned int)ntohs(a.sin_port));
	fflush(stdout);
	for (i = 0; i < 3; i++)
		if (pthread_create(&t[i], NULL, shared_worker, &sh))
			die("pthread_create", EAGAIN);
	pthread_barrier_wait(&sh.ready);
	if (pthread_create(&t[3], NULL, connector, &a))
		die("pthread_create", EAGAIN);
	while (!stop)
		sleep_ms(50);
	/* A worker may wait for one more connection: the connector is gone, so make one. */
	for (i = 0; i < 3; i++) {
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (fd >= 0 && !connect(fd, (struct sockaddr *)&a, sizeof(a)))
			close(fd);
	}
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	io_uring_queue_exit(&sh.ring);
	close(sh.listener);
}

int net_traffic_mode(const char *mode)
{
	if (!strcmp(mode, "net-echo-poll"))
		net_traffic(NET_POLL);
	else if (!strcmp(mode, "net-echo-async"))
		net_traffic(NET_ASYNC);
	else if (!strcmp(mode, "net-echo-multishot"))
		net_traffic(NET_MULTI);
	else if (!strcmp(mode, "multishot-dry"))
		net_traffic(NET_DRY);
	else if (!strcmp(mode, "shared-listener"))
		shared_listener();
	else
		return 0;
	return 1;
}
