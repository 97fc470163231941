// SPDX-License-Identifier: GPL-2.0-or-later
/* The network probe's threads: the start gates, and a server worker's life. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "net_impl.h"

uint64_t net_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void net_note_error(uint64_t *errors, int *first, int err)
{
	if (!(*errors)++)
		*first = err;
}

void net_gate_init(struct net_gate *g)
{
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	g->arrived = 0;
	g->open = false;
}

void net_gate_destroy(struct net_gate *g)
{
	pthread_cond_destroy(&g->cv);
	pthread_mutex_destroy(&g->mu);
}

void net_gate_arrive(struct net_gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->arrived++;
	pthread_cond_broadcast(&g->cv);
	while (!g->open)
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
}

void net_gate_wait_for(struct net_gate *g, unsigned int n)
{
	pthread_mutex_lock(&g->mu);
	while (g->arrived < n)
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
}

void net_gate_open(struct net_gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->open = true;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

bool net_worker_ready(struct net_worker *w)
{
	net_gate_arrive(&w->sh->ready);
	if (w->err)
		return false;
	getrusage(RUSAGE_THREAD, &w->ru0);
	return true;
}

void *net_worker_main(void *arg)
{
	struct net_worker *w = arg;
	cpu_set_t set;

	/* Thread per core: the worker, its ring and its listener stay on one CPU. */
	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		w->err = -errno;
		snprintf(w->why, sizeof(w->why), "pinning a worker to CPU %d failed: %s", w->cpu,
			 strerror(errno));
		net_worker_ready(w);
		return NULL;
	}
	if (w->sh->mode == NM_EPOLL)
		net_epoll_serve(w);
	else
		net_uring_serve(w);
	getrusage(RUSAGE_THREAD, &w->ru1);
	return NULL;
}
