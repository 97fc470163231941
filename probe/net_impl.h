/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside the network probe: what its threads share. Not for other layers. */
#ifndef URINGLINT_PROBE_NET_IMPL_H
#define URINGLINT_PROBE_NET_IMPL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "net.h"

/*
 * A start line: threads arrive and wait until the main thread opens it.
 * Unlike a barrier it does not need every thread to exist, so a thread
 * that could not be created leaves no one waiting forever.
 */
struct net_gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned int arrived;
	bool open;
};

void net_gate_init(struct net_gate *g);
void net_gate_destroy(struct net_gate *g);
void net_gate_arrive(struct net_gate *g);		/* and wait until open */
void net_gate_wait_for(struct net_gate *g, unsigned int n);	/* main: n arrived */
void net_gate_open(struct net_gate *g);

/* What every thread of one mode's run shares; written before the gates open. */
struct net_shared {
	enum net_mode mode;
	unsigned int msg_size;
	unsigned int duration_ms;
	unsigned int max_conns;		/* connections one worker may hold */
	bool zc_usage;			/* SEND_ZC may ask for IORING_SEND_ZC_REPORT_USAGE */
	struct net_gate ready;		/* workers set up, clients created */
	struct net_gate go;		/* clients connected */
	bool abort;			/* a worker failed: clients stop at go */
	struct sockaddr_storage addr[2];	/* 127.0.0.1 and ::1, the listeners' port */
	socklen_t addrlen[2];
	unsigned int naddr;
};

struct net_worker {
	struct net_shared *sh;
	int cpu;
	int lfd[2];			/* its listeners, one per address */
	int stopfd;			/* an eventfd: readable when the mode ends */
	pthread_t th;
	bool started;
	int err;			/* -errno: setup failed, why says how */
	char why[160];
	uint64_t echoed_bytes, errors, enters, enobufs, rearms, zc_notifs, zc_copied;
	int first_error;
	unsigned int conns;
	bool napi_fdinfo;
	struct rusage ru0, ru1;
};

struct net_client {
	struct net_shared *sh;
	unsigned int first, n;		/* its connections: first..first+n-1 in all */
	pthread_t th;
	bool started;
	uint64_t messages, errors;
	int first_error;
	uint64_t t0, t1;		/* its timed window, CLOCK_MONOTONIC ns */
	uint32_t *lat;			/* round trips in ns */
	size_t nlat, cap;
};

uint64_t net_now_ns(void);
/* Records a failure: counts it, keeps the first errno. */
void net_note_error(uint64_t *errors, int *first, int err);

/* Server threads (net_epoll.c, net_uring.c), started by net_worker_main. */
void *net_worker_main(void *arg);
int net_epoll_serve(struct net_worker *w);
int net_uring_serve(struct net_worker *w);
/* Reports setup done (or failed), waits for the start; false when the run is off. */
bool net_worker_ready(struct net_worker *w);
void *net_client_main(void *arg);

/*
 * Tries what a mode needs on this kernel, with a small ring and a socket
 * pair of its own. 0, or -errno with why filled and, where the kernel lacks
 * the feature, *needs the version that brings it.
 */
int net_try_mode(enum net_mode m, bool *zc_usage, const char **needs, char *why, size_t whysz);

/* Locally defined where liburing 2.3's headers stop. */
#ifndef IORING_SEND_ZC_REPORT_USAGE
#define IORING_SEND_ZC_REPORT_USAGE (1U << 3)
#endif
#ifndef IORING_NOTIF_USAGE_ZC_COPIED
#define IORING_NOTIF_USAGE_ZC_COPIED (1U << 31)
#endif
#define NET_IORING_REGISTER_NAPI 27		/* 6.9 */

/* struct io_uring_napi of 6.9 (6.13 named two pad bytes; zero means the same). */
struct net_uring_napi {
	uint32_t busy_poll_to;	/* microseconds */
	uint8_t prefer_busy_poll;
	uint8_t pad[3];
	uint64_t resv;
};

#define NET_BGID 7		/* the provided buffer ring's group */

#endif
