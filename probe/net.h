/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROBE_NET_H
#define URINGLINT_PROBE_NET_H

#include <stdbool.h>
#include <stdint.h>

#include "fact.h"
#include "latency.h"

/*
 * The network probe: a TCP echo over loopback inside this process. Server
 * threads, one a worker, each with its own ring (or epoll set) and its own
 * SO_REUSEPORT listeners on 127.0.0.1 and ::1, pinned to a CPU; client
 * threads keep a bounded number of connections in ping-pong for a bounded
 * time. Everything is a thread or an fd of this process, so nothing
 * outlives it, even SIGKILL.
 */
enum net_mode {
	NM_EPOLL,	/* baseline: epoll_wait, recv, send */
	NM_URING,	/* io_uring accept, recv and send, one shot each */
	NM_MULTISHOT,	/* multishot accept and recv, provided buffer ring (5.19, 6.0) */
	NM_SEND_ZC,	/* uring with IORING_OP_SEND_ZC (6.0) */
	NM_NAPI,	/* uring with IORING_REGISTER_NAPI (6.9) */
	NM__COUNT
};

#define NET_MAX_WORKERS 64
#define NET_MAX_CONNECTIONS 4096
#define NET_MSG_MIN 16		/* a sequence number and a check word */
#define NET_MSG_MAX 65536

struct net_opts {
	unsigned int workers;		/* server threads, each its own ring and listeners */
	unsigned int connections;	/* client connections in all */
	unsigned int duration_ms;	/* per mode */
	unsigned int msg_size;		/* bytes per message */
	unsigned int modes;		/* bit per enum net_mode */
	bool progress;
};

struct net_mode_result {
	struct fact_err e;	/* why the mode did not run: -ECANCELED not selected */
	bool ran;
	const char *needs;	/* the kernel lacks a feature: the version that brings it */
	double seconds;		/* the clients' timed window */
	uint64_t messages;	/* round trips the clients completed in the window */
	uint64_t echoes;	/* messages the servers echoed, setup to teardown */
	uint64_t errors;	/* failed requests, wrong echoes, connections lost */
	int first_error;	/* -errno of the first failed request */
	double msgs_per_sec;
	double p50_us, p99_us, p999_us;
	uint64_t hist[PROBE_HIST_BUCKETS];
	bool tracepoints;	/* enters, poll arms and punts from tracepoints */
	uint64_t enters;	/* io_uring_enter calls (tracepoint, else the servers' own) */
	uint64_t poll_arms;	/* io_uring:io_uring_poll_arm */
	uint64_t punts;		/* io_uring:io_uring_queue_async_work */
	unsigned int iou_wrk;	/* io-wq workers alive before the servers stopped */
	uint64_t enobufs;	/* recv completions with -ENOBUFS: provided buffers ran out */
	uint64_t rearms;	/* multishot requests that ended and were armed again */
	uint64_t vcsw, ivcsw;	/* context switches of the server threads */
	double cpu_us;		/* CPU time of the server threads */
	double process_cpu_us;	/* CPU time of the whole probe: servers and clients */
	uint64_t zc_notifs, zc_copied;	/* SEND_ZC notifications, and those saying "copied" */
	bool zc_usage;		/* the kernel took IORING_SEND_ZC_REPORT_USAGE */
	bool napi_fdinfo;	/* the ring's fdinfo shows "NAPI:\tenabled" (6.12+) */
	unsigned int conns_min, conns_max;	/* connections a worker accepted */
};

struct net_result {
	struct fact_err e;	/* the probe could not start: it says why */
	unsigned int workers, connections, msg_size, duration_ms;
	int cpus[NET_MAX_WORKERS];	/* the CPU each worker is pinned to */
	bool ipv6;		/* listeners on ::1 too */
	char ipv6_why[128];	/* why not */
	char tp_why[256];	/* why the tracepoints were not counted */
	struct net_mode_result modes[NM__COUNT];
};

const char *net_mode_name(enum net_mode m);
/* Whether the mode uses io_uring (every mode but the epoll baseline). */
bool net_mode_uring(enum net_mode m);
/* The defaults: workers on the allowed CPUs (at most 4), 16 connections, 2 s, 64 bytes, all. */
void net_opts_default(struct net_opts *o, unsigned int allowed_cpus);
/* A comma-separated list of modes, or "all": 0, or -EINVAL with *bad the bad word's start. */
int net_modes_parse(const char *list, unsigned int *modes, const char **bad);

/* Messages per second, and the per-message ratios, of one mode (0 when nothing was echoed). */
double net_per_msg(const struct net_mode_result *m, uint64_t count);

/*
 * Runs the probe. 0 when it ran (findings judge the rest), or -errno with
 * r->e set when it could not start.
 */
int net_run(const struct net_opts *o, struct net_result *r);

#endif
