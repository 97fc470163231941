// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A client thread of the network probe: its share of the connections, each
 * in ping-pong (one message out, wait for the whole echo, the next), driven
 * by epoll so one thread keeps many. Every echo is compared with what was
 * sent; the round trip is timed from the send to the echo's last byte.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "net_impl.h"

#define EV_BATCH 64
#define WAIT_MS 10	/* how late a client may notice the end of its window */

struct cconn {
	int fd;
	uint64_t seq, sent_at;
	uint32_t got;
	char *out, *in;
};

static int dial(struct net_client *c, unsigned int i)
{
	const struct net_shared *sh = c->sh;
	unsigned int a = i % sh->naddr;
	int fd, one = 1;

	fd = socket(sh->addr[a].ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (const struct sockaddr *)&sh->addr[a], sh->addrlen[a])) {
		int err = -errno;

		close(fd);
		return err;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	fcntl(fd, F_SETFL, O_NONBLOCK);
	return fd;
}

/* The next message: a sequence number, then bytes that follow from it. */
static bool send_next(struct net_client *c, struct cconn *k)
{
	uint32_t size = c->sh->msg_size, j;
	ssize_t sent;

	k->seq++;
	memcpy(k->out, &k->seq, sizeof(k->seq));
	for (j = sizeof(k->seq); j < size; j++)
		k->out[j] = (char)(k->seq * 31 + j);
	k->got = 0;
	k->sent_at = net_now_ns();
	sent = send(k->fd, k->out, size, MSG_NOSIGNAL);
	if (sent != (ssize_t)size) {
		net_note_error(&c->errors, &c->first_error, sent < 0 ? -errno : -EAGAIN);
		return false;
	}
	return true;
}

static void drop(int ep, struct cconn *k)
{
	epoll_ctl(ep, EPOLL_CTL_DEL, k->fd, NULL);
	close(k->fd);
	k->fd = -1;
}

/* Reads what came; a whole echo is checked, timed and answered with the next message. */
static void on_readable(struct net_client *c, int ep, struct cconn *k, uint64_t deadline)
{
	uint32_t size = c->sh->msg_size;
	ssize_t n;
	uint64_t now;

	n = recv(k->fd, k->in + k->got, size - k->got, 0);
	if (n <= 0) {
		if (n < 0 && errno == EAGAIN)
			return;
		net_note_error(&c->errors, &c->first_error, n ? -errno : -ECONNRESET);
		drop(ep, k);
		return;
	}
	k->got += (uint32_t)n;
	if (k->got < size)
		return;
	now = net_now_ns();
	if (memcmp(k->in, k->out, size)) {
		net_note_error(&c->errors, &c->first_error, -EBADMSG);
		drop(ep, k);
		return;
	}
	if (now > deadline)
		return;
	c->messages++;
	if (c->nlat < c->cap)
		c->lat[c->nlat++] = now - k->sent_at > UINT32_MAX ? UINT32_MAX
								: (uint32_t)(now - k->sent_at);
	if (!send_next(c, k))
		drop(ep, k);
}

void *net_client_main(void *arg)
{
	struct net_client *c = arg;
	struct epoll_event ev = { .events = EPOLLIN }, evs[EV_BATCH];
	struct cconn *conns = calloc(c->n, sizeof(*conns));
	char *bufs = malloc((size_t)c->n * 2 * c->sh->msg_size);
	uint64_t deadline;
	unsigned int i;
	int ep = epoll_create1(EPOLL_CLOEXEC), n;

	for (i = 0; conns && i < c->n; i++)
		conns[i].fd = -1;
	net_gate_arrive(&c->sh->ready);
	for (i = 0; conns && bufs && ep >= 0 && i < c->n; i++) {
		struct cconn *k = &conns[i];

		k->out = bufs + (size_t)i * 2 * c->sh->msg_size;
		k->in = k->out + c->sh->msg_size;
		k->fd = c->sh->abort ? -ECANCELED : dial(c, c->first + i);
		if (k->fd < 0) {
			net_note_error(&c->errors, &c->first_error, k->fd);
			continue;
		}
		ev.data.u32 = i;
		epoll_ctl(ep, EPOLL_CTL_ADD, k->fd, &ev);
	}
	if (!conns || !bufs || ep < 0)
		net_note_error(&c->errors, &c->first_error, ep < 0 ? -errno : -ENOMEM);
	net_gate_arrive(&c->sh->go);
	c->t0 = net_now_ns();
	deadline = c->t0 + (uint64_t)c->sh->duration_ms * 1000000ull;
	for (i = 0; !c->sh->abort && conns && bufs && i < c->n; i++)
		if (conns[i].fd >= 0 && !send_next(c, &conns[i]))
			drop(ep, &conns[i]);
	while (!c->sh->abort && conns && bufs && ep >= 0 && net_now_ns() < deadline) {
		n = epoll_wait(ep, evs, EV_BATCH, WAIT_MS);
		for (int j = 0; j < n; j++)
			if (conns[evs[j].data.u32].fd >= 0)
				on_readable(c, ep, &conns[evs[j].data.u32], deadline);
	}
	c->t1 = net_now_ns();
	for (i = 0; conns && i < c->n; i++)
		if (conns[i].fd >= 0)
			close(conns[i].fd);
	if (ep >= 0)
		close(ep);
	free(conns);
	free(bufs);
	return NULL;
}
