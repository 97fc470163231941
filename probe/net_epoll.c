// SPDX-License-Identifier: GPL-2.0-or-later
/* The baseline server: epoll_wait, accept4, recv, send, as most servers do today. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "net_impl.h"

#define EV_LISTEN 0x100000000ull
#define EV_STOP 0x200000000ull
#define EV_BATCH 64

static void drop(int ep, int *fd)
{
	epoll_ctl(ep, EPOLL_CTL_DEL, *fd, NULL);
	close(*fd);
	*fd = -1;
}

static void accept_all(struct net_worker *w, int ep, int lfd, int *conns)
{
	struct epoll_event ev = { .events = EPOLLIN };
	unsigned int slot;
	int fd, one = 1;

	while ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		for (slot = 0; slot < w->sh->max_conns && conns[slot] >= 0; slot++)
			;
		if (slot == w->sh->max_conns) {
			net_note_error(&w->errors, &w->first_error, -EMFILE);
			close(fd);
			continue;
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		ev.data.u64 = slot;
		if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev)) {
			net_note_error(&w->errors, &w->first_error, -errno);
			close(fd);
			continue;
		}
		conns[slot] = fd;
		w->conns++;
	}
	if (errno != EAGAIN)
		net_note_error(&w->errors, &w->first_error, -errno);
}

/* Echoes what is there; a send that cannot take a small echo at once is a lost connection. */
static void echo(struct net_worker *w, int ep, int *fd, char *buf, size_t cap)
{
	ssize_t n, s;

	n = recv(*fd, buf, cap, 0);
	if (n <= 0) {
		if (n < 0 && errno != EAGAIN && errno != ECONNRESET)
			net_note_error(&w->errors, &w->first_error, -errno);
		if (n == 0 || errno != EAGAIN)
			drop(ep, fd);
		return;
	}
	s = send(*fd, buf, (size_t)n, MSG_NOSIGNAL);
	if (s != n) {
		net_note_error(&w->errors, &w->first_error, s < 0 ? -errno : -EAGAIN);
		drop(ep, fd);
		return;
	}
	w->echoed_bytes += (uint64_t)n;
}

int net_epoll_serve(struct net_worker *w)
{
	struct epoll_event ev = { .events = EPOLLIN }, evs[EV_BATCH];
	size_t cap = (size_t)w->sh->msg_size * 4;
	int ep, *conns = NULL, n, i;
	char *buf = NULL;
	bool stop = false;
	unsigned int k;

	ep = epoll_create1(EPOLL_CLOEXEC);
	conns = malloc(w->sh->max_conns * sizeof(*conns));
	buf = malloc(cap);
	if (ep < 0 || !conns || !buf) {
		w->err = ep < 0 ? -errno : -ENOMEM;
		snprintf(w->why, sizeof(w->why), "epoll set-up failed: %s", strerror(-w->err));
		goto out;
	}
	for (k = 0; k < w->sh->max_conns; k++)
		conns[k] = -1;
	for (k = 0; k < w->sh->naddr; k++) {
		ev.data.u64 = EV_LISTEN | k;
		epoll_ctl(ep, EPOLL_CTL_ADD, w->lfd[k], &ev);
	}
	ev.data.u64 = EV_STOP;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, w->stopfd, &ev)) {
		w->err = -errno;
		snprintf(w->why, sizeof(w->why), "epoll_ctl failed: %s", strerror(errno));
	}
out:
	if (!net_worker_ready(w))
		stop = true;
	while (!stop) {
		n = epoll_wait(ep, evs, EV_BATCH, -1);
		if (n < 0 && errno != EINTR) {
			net_note_error(&w->errors, &w->first_error, -errno);
			break;
		}
		for (i = 0; i < n; i++) {
			uint64_t d = evs[i].data.u64;

			if (d == EV_STOP)
				stop = true;
			else if (d & EV_LISTEN)
				accept_all(w, ep, w->lfd[d & 1], conns);
			else if (conns[d] >= 0)
				echo(w, ep, &conns[d], buf, cap);
		}
	}
	for (k = 0; conns && k < w->sh->max_conns; k++)
		if (conns[k] >= 0)
			close(conns[k]);
	if (ep >= 0)
		close(ep);
	free(conns);
	free(buf);
	return w->err;
}
