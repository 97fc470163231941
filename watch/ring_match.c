// SPDX-License-Identifier: GPL-2.0-or-later
/* A sampled ring, matched to its fd (see watch.h). */
#include <errno.h>
#include <stdlib.h>

#include "watch.h"

static bool has_ring_fd(const struct proc_facts *pf, int fd)
{
	size_t i;

	for (i = 0; i < pf->nrings; i++)
		if (pf->rings[i].fd == fd)
			return true;
	return false;
}

/* The fd of the one ring whose fdinfo names this SQPOLL thread; -1 for none or several. */
static int fd_of_sq_thread(const struct proc_facts *pf, pid_t tid)
{
	int fd = -1;
	size_t i;

	for (i = 0; i < pf->nrings; i++) {
		const struct uring_fdinfo *u = &pf->rings[i].u;

		if (!u->has_sq_thread || u->sq_thread != tid)
			continue;
		/* ATTACH_WQ rings share one thread: it cannot say which of them. */
		if (fd >= 0)
			return -1;
		fd = pf->rings[i].fd;
	}
	return fd;
}

static struct watch_ring_match match_one(const struct proc_facts *pf, const struct ut_ring *r)
{
	unsigned int k;

	/* Set up while watched: the fd it got then, though it may be closed by now. */
	if (r->created && r->created_fd >= 0)
		return (struct watch_ring_match){ r->created_fd, RING_MATCH_CREATE };
	if (r->fd >= 0 && !r->fd_ambiguous && has_ring_fd(pf, r->fd))
		return (struct watch_ring_match){ r->fd, RING_MATCH_ENTER };
	for (k = 0; k < r->nsubmitters; k++) {
		int fd;

		if (!r->submitters[k].sq_thread)
			continue;
		fd = fd_of_sq_thread(pf, r->submitters[k].tid);
		if (fd >= 0)
			return (struct watch_ring_match){ fd, RING_MATCH_SQPOLL };
	}
	return (struct watch_ring_match){ -1, RING_MATCH_NONE };
}

int ring_match(const struct proc_facts *pf, struct punt_watch *w)
{
	bool *shared;
	size_t i, j;

	free(w->matches);
	w->matches = calloc(w->ut.nrings ? w->ut.nrings : 1, sizeof(*w->matches));
	if (!w->matches)
		return -ENOMEM;
	for (i = 0; i < w->ut.nrings; i++)
		w->matches[i] = match_one(pf, &w->ut.rings[i]);
	/*
	 * Two rings on one fd: the fd was closed and reused. A ring seen being
	 * set up knows its own fd; a match by thread or SQPOLL thread cannot
	 * say which ring the fd held, so every such match on a shared fd goes.
	 */
	shared = calloc(w->ut.nrings ? w->ut.nrings : 1, sizeof(*shared));
	if (!shared)
		return -ENOMEM;
	/* First which matches share an fd, then drop them: dropping one must not hide another. */
	for (i = 0; i < w->ut.nrings; i++)
		for (j = 0; j < w->ut.nrings && !shared[i]; j++)
			shared[i] = j != i && w->matches[i].fd >= 0 &&
				    w->matches[j].fd == w->matches[i].fd;
	for (i = 0; i < w->ut.nrings; i++)
		if (shared[i] && w->matches[i].how != RING_MATCH_CREATE)
			w->matches[i] = (struct watch_ring_match){ -1, RING_MATCH_NONE };
	free(shared);
	return 0;
}

const char *ring_match_name(enum ring_match_how how)
{
	switch (how) {
	case RING_MATCH_CREATE:
		return "io_uring_create";
	case RING_MATCH_ENTER:
		return "io_uring_enter";
	case RING_MATCH_SQPOLL:
		return "sqpoll_thread";
	case RING_MATCH_NONE:
		break;
	}
	return NULL;
}
