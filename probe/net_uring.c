// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The io_uring servers: one ring per worker, submissions and completions
 * reaped in one io_uring_enter per pass. uring: accept, recv and send, one
 * shot each; send-zc: the send is IORING_OP_SEND_ZC, and the buffer waits
 * for its notification; napi: uring with IORING_REGISTER_NAPI; multishot:
 * multishot accept and multishot recv into a provided buffer ring, each
 * armed once and armed again only when the kernel ends it.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "net_impl.h"
#include "procfs.h"
#include "sysroot.h"

enum { OP_ACCEPT, OP_RECV, OP_SEND, OP_STOP };

#define UD(op, slot) ((uint64_t)(slot) << 8 | (op))
#define UD_OP(ud) ((unsigned int)((ud) & 0xff))
#define UD_SLOT(ud) ((unsigned int)((ud) >> 8))

struct conn {
	int fd;			/* -1: free, or closed while requests are in flight */
	bool open;
	unsigned int inflight;	/* requests of this connection the kernel holds */
	bool sending, zc_notif, zc_res;
	uint32_t len, sent;	/* bytes in buf; of them in the send in flight */
	char *buf;
};

struct userver {
	struct net_worker *w;
	struct io_uring ring;
	bool multishot, zc, stop;
	struct conn *conns;
	size_t cap;			/* bytes of each connection's buffer */
	struct io_uring_buf_ring *br;	/* multishot: the provided buffers */
	size_t br_size;
	unsigned int nbufs;
	char *bufs;
	bool ring_ok;
};

/*
 * A free SQE. With the SQ full it is handed to the kernel first; when the
 * kernel takes none (its CQ overflowing), the worker stops with the error
 * rather than lose a request: NULL then, and the caller arms nothing.
 */
static struct io_uring_sqe *sqe_get(struct userver *s)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);
	int ret;

	if (!sqe) {
		s->w->enters++;
		ret = io_uring_submit(&s->ring);
		sqe = io_uring_get_sqe(&s->ring);
		if (!sqe) {
			net_note_error(&s->w->errors, &s->w->first_error, ret < 0 ? ret : -EBUSY);
			s->stop = true;
		}
	}
	return sqe;
}

static void arm_accept(struct userver *s, unsigned int k)
{
	struct io_uring_sqe *sqe = sqe_get(s);

	if (!sqe)
		return;
	if (s->multishot)
		io_uring_prep_multishot_accept(sqe, s->w->lfd[k], NULL, NULL, 0);
	else
		io_uring_prep_accept(sqe, s->w->lfd[k], NULL, NULL, 0);
	io_uring_sqe_set_data64(sqe, UD(OP_ACCEPT, k));
}

static void arm_recv(struct userver *s, unsigned int slot)
{
	struct io_uring_sqe *sqe = sqe_get(s);
	struct conn *c = &s->conns[slot];

	if (!sqe)
		return;
	if (s->multishot) {
		io_uring_prep_recv_multishot(sqe, c->fd, NULL, 0, 0);
		sqe->flags |= IOSQE_BUFFER_SELECT;
		sqe->buf_group = NET_BGID;
	} else {
		io_uring_prep_recv(sqe, c->fd, c->buf, s->cap, 0);
	}
	io_uring_sqe_set_data64(sqe, UD(OP_RECV, slot));
	c->inflight++;
}

static void arm_send(struct userver *s, unsigned int slot)
{
	struct io_uring_sqe *sqe = sqe_get(s);
	struct conn *c = &s->conns[slot];

	if (!sqe)
		return;
	if (s->zc) {
		io_uring_prep_send_zc(sqe, c->fd, c->buf, c->len, MSG_NOSIGNAL, 0);
		if (s->w->sh->zc_usage)
			sqe->ioprio |= IORING_SEND_ZC_REPORT_USAGE;
		c->zc_res = true;
	} else {
		io_uring_prep_send(sqe, c->fd, c->buf, c->len, MSG_NOSIGNAL);
	}
	io_uring_sqe_set_data64(sqe, UD(OP_SEND, slot));
	c->sending = true;
	c->sent = c->len;
	c->inflight++;
}

/*
 * The fd is closed, and the slot reused, only once no request of the
 * connection is left: one still in the SQ would find the fd closed.
 */
static void conn_close(struct conn *c)
{
	c->open = false;
	if (!c->inflight && c->fd >= 0) {
		close(c->fd);
		c->fd = -1;
	}
}

static void conn_put(struct conn *c)
{
	c->inflight--;
	if (!c->open)
		conn_close(c);
}

static void on_accept(struct userver *s, const struct io_uring_cqe *cqe, unsigned int k)
{
	struct net_worker *w = s->w;
	unsigned int slot;
	int one = 1;

	if (cqe->res >= 0) {
		for (slot = 0; slot < w->sh->max_conns && s->conns[slot].fd >= 0; slot++)
			;
		if (slot == w->sh->max_conns) {
			net_note_error(&w->errors, &w->first_error, -EMFILE);
			close(cqe->res);
		} else {
			struct conn *c = &s->conns[slot];

			setsockopt(cqe->res, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
			c->fd = cqe->res;
			c->open = true;
			c->len = c->sent = 0;
			c->sending = c->zc_notif = c->zc_res = false;
			w->conns++;
			arm_recv(s, slot);
		}
	} else if (cqe->res != -ECANCELED) {
		net_note_error(&w->errors, &w->first_error, cqe->res);
	}
	if (s->multishot && (cqe->flags & IORING_CQE_F_MORE))
		return;
	if (s->multishot)
		w->rearms++;
	if (!s->stop)
		arm_accept(s, k);
}

static void recycle(struct userver *s, unsigned int bid)
{
	io_uring_buf_ring_add(s->br, s->bufs + (size_t)bid * s->w->sh->msg_size, s->w->sh->msg_size,
			      (unsigned short)bid, io_uring_buf_ring_mask(s->nbufs), 0);
	io_uring_buf_ring_advance(s->br, 1);
}

static void on_recv(struct userver *s, const struct io_uring_cqe *cqe, unsigned int slot)
{
	struct conn *c = &s->conns[slot];
	struct net_worker *w = s->w;
	bool more = s->multishot && (cqe->flags & IORING_CQE_F_MORE);

	if (cqe->res > 0 && s->multishot) {
		unsigned int bid = cqe->flags >> IORING_CQE_BUFFER_SHIFT;

		/* Copied out so the buffer goes back to the ring at once. */
		if (c->len + (uint32_t)cqe->res <= s->cap) {
			memcpy(c->buf + c->len, s->bufs + (size_t)bid * w->sh->msg_size,
			       (size_t)cqe->res);
			c->len += (uint32_t)cqe->res;
		} else {
			net_note_error(&w->errors, &w->first_error, -EOVERFLOW);
		}
		recycle(s, bid);
	} else if (cqe->res > 0) {
		c->len = (uint32_t)cqe->res;
	} else if (cqe->res == -ENOBUFS) {
		w->enobufs++;
	} else if (cqe->res < 0 && cqe->res != -ECONNRESET && cqe->res != -ECANCELED) {
		net_note_error(&w->errors, &w->first_error, cqe->res);
	}
	if (cqe->res == 0 || (cqe->res < 0 && cqe->res != -ENOBUFS))
		conn_close(c);		/* the client closed, or the connection failed */
	if (c->open && cqe->res > 0 && !c->sending)
		arm_send(s, slot);
	if (!more) {
		conn_put(c);
		if (s->multishot && c->open) {
			w->rearms++;
			arm_recv(s, slot);
		}
	}
}

/* The send, or SEND_ZC's result or notification, is done with the buffer: what next. */
static void send_done(struct userver *s, unsigned int slot)
{
	struct conn *c = &s->conns[slot];

	c->sending = false;
	if (!c->open)
		return;
	if (c->len)
		arm_send(s, slot);	/* a short send's rest, or what came meanwhile */
	else if (!s->multishot)
		arm_recv(s, slot);
}

static void on_send(struct userver *s, const struct io_uring_cqe *cqe, unsigned int slot)
{
	struct conn *c = &s->conns[slot];
	struct net_worker *w = s->w;

	if (cqe->flags & IORING_CQE_F_NOTIF) {
		w->zc_notifs++;
		if (w->sh->zc_usage && ((uint32_t)cqe->res & IORING_NOTIF_USAGE_ZC_COPIED))
			w->zc_copied++;
		c->zc_notif = false;
		conn_put(c);
		if (!c->zc_res)
			send_done(s, slot);
		return;
	}
	if (cqe->res >= 0) {
		uint32_t n = (uint32_t)cqe->res;

		w->echoed_bytes += n;
		memmove(c->buf, c->buf + n, c->len - n);
		c->len -= n;
	} else {
		if (cqe->res != -ECONNRESET && cqe->res != -EPIPE && cqe->res != -ECANCELED)
			net_note_error(&w->errors, &w->first_error, cqe->res);
		conn_close(c);
	}
	c->zc_res = false;
	if (cqe->flags & IORING_CQE_F_MORE) {
		c->zc_notif = true;	/* the buffer is the kernel's until the notification */
		c->inflight++;
	}
	conn_put(c);
	if (!c->zc_notif)
		send_done(s, slot);
}

static void arm_stop(struct userver *s)
{
	struct io_uring_sqe *sqe = sqe_get(s);

	if (!sqe)
		return;
	/* Poll, not read: a read of an eventfd could go to io-wq and count as a punt. */
	io_uring_prep_poll_add(sqe, s->w->stopfd, POLLIN);
	io_uring_sqe_set_data64(sqe, UD(OP_STOP, 0));
}

static int setup_bufs(struct userver *s)
{
	struct io_uring_buf_reg reg = { .bgid = NET_BGID };
	unsigned int i;
	int ret;

	/* Twice the connections a worker may hold, so the ring runs dry only by a fault. */
	for (s->nbufs = 64; s->nbufs < 2 * s->w->sh->max_conns && s->nbufs < 32768; s->nbufs <<= 1)
		;
	s->br_size = s->nbufs * sizeof(struct io_uring_buf);
	s->br = mmap(NULL, s->br_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->br == MAP_FAILED) {
		s->br = NULL;
		return -errno;
	}
	s->bufs = malloc((size_t)s->nbufs * s->w->sh->msg_size);
	if (!s->bufs)
		return -ENOMEM;
	reg.ring_addr = (uintptr_t)s->br;
	reg.ring_entries = s->nbufs;
	ret = io_uring_register_buf_ring(&s->ring, &reg, 0);
	if (ret)
		return ret;
	io_uring_buf_ring_init(s->br);
	for (i = 0; i < s->nbufs; i++)
		io_uring_buf_ring_add(s->br, s->bufs + (size_t)i * s->w->sh->msg_size,
				      s->w->sh->msg_size, (unsigned short)i,
				      io_uring_buf_ring_mask(s->nbufs), (int)i);
	io_uring_buf_ring_advance(s->br, (int)s->nbufs);
	return 0;
}

/*
 * Whether this ring's fdinfo says NAPI is enabled (6.12+ prints it), read
 * as an audit reads any ring's: through the sysroot and the one parser.
 */
static bool napi_in_fdinfo(int ring_fd)
{
	struct uring_fdinfo u = { 0 };
	struct sysroot sr;
	char *text = NULL;
	bool on = false;
	size_t len;

	if (sysroot_open(&sr, "/"))
		return false;
	if (!sysroot_read_filef(&sr, SYSROOT_READ_MAX, &text, &len, "proc/self/fdinfo/%d", ring_fd) &&
	    !uring_fdinfo_parse(text, &u))
		on = u.has_napi && u.napi_on;
	uring_fdinfo_free(&u);
	free(text);
	sysroot_close(&sr);
	return on;
}

static int setup(struct userver *s)
{
	struct net_worker *w = s->w;
	unsigned int entries = 64, k;
	int ret;

	while (entries < 4 * w->sh->max_conns + 8 && entries < 32768)
		entries <<= 1;
	ret = io_uring_queue_init(entries, &s->ring, 0);
	if (ret < 0) {
		snprintf(w->why, sizeof(w->why), "io_uring_setup() failed: %s", strerror(-ret));
		return ret;
	}
	s->ring_ok = true;
	s->cap = (size_t)w->sh->msg_size * 4;
	s->conns = calloc(w->sh->max_conns, sizeof(*s->conns));
	for (k = 0; s->conns && k < w->sh->max_conns; k++) {
		s->conns[k].fd = -1;
		s->conns[k].buf = malloc(s->cap);
		if (!s->conns[k].buf)
			break;
	}
	if (!s->conns || k < w->sh->max_conns) {
		snprintf(w->why, sizeof(w->why), "out of memory for %u connections", w->sh->max_conns);
		return -ENOMEM;
	}
	if (s->multishot && (ret = setup_bufs(s))) {
		snprintf(w->why, sizeof(w->why), "the provided buffer ring failed: %s", strerror(-ret));
		return ret;
	}
	if (w->sh->mode == NM_NAPI) {
		struct net_uring_napi napi = { .busy_poll_to = 50 };

		ret = io_uring_register(s->ring.ring_fd, NET_IORING_REGISTER_NAPI, &napi, 1);
		if (ret) {
			snprintf(w->why, sizeof(w->why), "IORING_REGISTER_NAPI failed: %s", strerror(-ret));
			return ret;
		}
		w->napi_fdinfo = napi_in_fdinfo(s->ring.ring_fd);
	}
	for (k = 0; k < w->sh->naddr; k++)
		arm_accept(s, k);
	arm_stop(s);
	return 0;
}

static void teardown(struct userver *s)
{
	unsigned int k;

	/*
	 * The ring first: a recv or send still armed on poll holds its own
	 * reference to the socket, so closing the fd would not cancel it, and
	 * its task work could write into a buffer already freed. Exiting the
	 * ring cancels every request it holds; a cancelled one copies nothing.
	 */
	if (s->ring_ok)
		io_uring_queue_exit(&s->ring);
	for (k = 0; s->conns && k < s->w->sh->max_conns; k++) {
		if (s->conns[k].fd >= 0)
			close(s->conns[k].fd);
		free(s->conns[k].buf);
	}
	free(s->conns);
	if (s->br)
		munmap(s->br, s->br_size);
	free(s->bufs);
}

int net_uring_serve(struct net_worker *w)
{
	struct userver s = { .w = w, .multishot = w->sh->mode == NM_MULTISHOT,
			     .zc = w->sh->mode == NM_SEND_ZC };
	struct io_uring_cqe *cqe;
	unsigned int head, n;
	int ret;

	w->err = setup(&s);
	if (!net_worker_ready(w))
		goto out;
	while (!s.stop) {
		w->enters++;
		ret = io_uring_submit_and_wait(&s.ring, 1);
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY) {
			net_note_error(&w->errors, &w->first_error, ret);
			break;
		}
		n = 0;
		io_uring_for_each_cqe(&s.ring, head, cqe) {
			unsigned int slot = UD_SLOT(cqe->user_data);

			n++;
			switch (UD_OP(cqe->user_data)) {
			case OP_STOP:
				s.stop = true;
				break;
			case OP_ACCEPT:
				on_accept(&s, cqe, slot);
				break;
			case OP_RECV:
				on_recv(&s, cqe, slot);
				break;
			case OP_SEND:
				on_send(&s, cqe, slot);
				break;
			}
		}
		io_uring_cq_advance(&s.ring, n);
	}
out:
	teardown(&s);
	return w->err;
}
