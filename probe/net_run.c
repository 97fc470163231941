// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The network probe, one mode after another: listeners, server workers and
 * clients are made for the mode and all gone before the next, so each
 * mode's counters see only its own work. The tracepoints are counted on
 * every thread of the probe with perf_event_open (root).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "net_impl.h"
#include "procfs.h"
#include "tracefs.h"

#define LAT_CAP_TOTAL (4u << 20)	/* round trips kept per mode, over all clients */

enum { TP_ENTER, TP_POLL_ARM, TP_PUNT, TP__COUNT };

static const char *const tp_names[TP__COUNT] = {
	[TP_ENTER] = "syscalls/sys_enter_io_uring_enter",
	[TP_POLL_ARM] = "io_uring/io_uring_poll_arm",
	[TP_PUNT] = "io_uring/io_uring_queue_async_work",
};

struct tps {
	bool ok;
	struct tp_format fmt[TP__COUNT];
	struct tp_counter c[TP__COUNT];
};

/* A listener of the reuseport group on addr; port 0 the first time, then the group's. */
static int listener(struct sockaddr_storage *addr, socklen_t len, bool nonblock, int backlog)
{
	int fd, one = 1;

	fd = socket(addr->ss_family, SOCK_STREAM | SOCK_CLOEXEC | (nonblock ? SOCK_NONBLOCK : 0), 0);
	if (fd < 0)
		return -errno;
	if ((addr->ss_family == AF_INET6 &&
	     setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one))) ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)addr, len) || listen(fd, backlog) ||
	    getsockname(fd, (struct sockaddr *)addr, &len)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

static void loopback(struct sockaddr_storage *ss, socklen_t *len, bool v6)
{
	memset(ss, 0, sizeof(*ss));
	if (v6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_loopback;
		*len = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		a->sin_family = AF_INET;
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		*len = sizeof(*a);
	}
}

/* io-wq workers of this process now: punts leave them behind for a while. */
static unsigned int count_iou_wrk(void)
{
	char path[64], comm[32];
	struct task_iter it;
	unsigned int n = 0;
	pid_t tid;

	if (task_iter_open(&it, NULL, getpid()))
		return 0;
	while ((tid = task_iter_next(&it))) {
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)tid);
		f = fopen(path, "re");
		if (f && fgets(comm, sizeof(comm), f) && !strncmp(comm, "iou-wrk-", 8))
			n++;
		if (f)
			fclose(f);
	}
	task_iter_close(&it);
	return n;
}

static double tv_us(const struct timeval *a, const struct timeval *b)
{
	return (double)(b->tv_sec - a->tv_sec) * 1e6 + (double)(b->tv_usec - a->tv_usec);
}

static double cpu_us(const struct rusage *a, const struct rusage *b)
{
	return tv_us(&a->ru_utime, &b->ru_utime) + tv_us(&a->ru_stime, &b->ru_stime);
}

struct run {
	struct net_shared sh;
	struct net_worker *w;
	struct net_client *c;
	unsigned int nw, nc, started_w, started_c;
	uint64_t tp0[TP__COUNT];
	struct rusage self0, self1;
};

static void sum_up(struct run *x, struct net_result *r, struct net_mode_result *m, struct tps *tp)
{
	uint32_t *lat;
	size_t nlat = 0;
	unsigned int i;
	uint64_t span = 0;

	for (i = 0; i < x->nc; i++)
		nlat += x->c[i].nlat;
	lat = malloc((nlat ? nlat : 1) * sizeof(*lat));
	nlat = 0;
	for (i = 0; i < x->nc; i++) {
		const struct net_client *c = &x->c[i];

		m->messages += c->messages;
		if (c->errors)
			net_note_error(&m->errors, &m->first_error, c->first_error);
		m->errors += c->errors ? c->errors - 1 : 0;
		if (c->t1 - c->t0 > span)
			span = c->t1 - c->t0;
		if (lat && c->nlat) {
			memcpy(lat + nlat, c->lat, c->nlat * sizeof(*lat));
			nlat += c->nlat;
		}
	}
	if (lat)
		latency_summarize(lat, nlat, m->hist, &m->p50_us, &m->p99_us, &m->p999_us);
	free(lat);
	m->conns_min = UINT32_MAX;
	m->napi_fdinfo = x->nw > 0;
	for (i = 0; i < x->nw; i++) {
		const struct net_worker *w = &x->w[i];

		m->echoes += w->echoed_bytes / r->msg_size;
		if (w->errors)
			net_note_error(&m->errors, &m->first_error, w->first_error);
		m->errors += w->errors ? w->errors - 1 : 0;
		m->enters += w->enters;
		m->enobufs += w->enobufs;
		m->rearms += w->rearms;
		m->zc_notifs += w->zc_notifs;
		m->zc_copied += w->zc_copied;
		m->vcsw += (uint64_t)(w->ru1.ru_nvcsw - w->ru0.ru_nvcsw);
		m->ivcsw += (uint64_t)(w->ru1.ru_nivcsw - w->ru0.ru_nivcsw);
		m->cpu_us += cpu_us(&w->ru0, &w->ru1);
		m->napi_fdinfo &= w->napi_fdinfo;
		m->conns_min = w->conns < m->conns_min ? w->conns : m->conns_min;
		m->conns_max = w->conns > m->conns_max ? w->conns : m->conns_max;
	}
	if (!x->nw)
		m->conns_min = 0;
	m->tracepoints = tp->ok;
	if (tp->ok) {
		m->enters = tp_counter_read(&tp->c[TP_ENTER]) - x->tp0[TP_ENTER];
		m->poll_arms = tp_counter_read(&tp->c[TP_POLL_ARM]) - x->tp0[TP_POLL_ARM];
		m->punts = tp_counter_read(&tp->c[TP_PUNT]) - x->tp0[TP_PUNT];
	}
	m->process_cpu_us = cpu_us(&x->self0, &x->self1);
	m->seconds = (double)span / 1e9;
	m->msgs_per_sec = m->seconds > 0 ? (double)m->messages / m->seconds : 0;
}

/* Counters on every thread of the probe, the mode's threads included; false without them. */
static bool tps_open(struct tps *tp, struct net_result *r, struct run *x)
{
	unsigned int i;
	int err;

	for (i = 0; tp->ok && i < TP__COUNT; i++) {
		err = tp_counter_open(&tp->c[i], &tp->fmt[i], getpid());
		if (err) {
			snprintf(r->tp_why, sizeof(r->tp_why), "perf_event_open on %s failed: %s",
				 tp_names[i], strerror(-err));
			while (i--)
				tp_counter_close(&tp->c[i]);
			tp->ok = false;
			return false;
		}
		x->tp0[i] = tp_counter_read(&tp->c[i]);
	}
	return tp->ok;
}

static void tps_close(struct tps *tp)
{
	for (unsigned int i = 0; tp->ok && i < TP__COUNT; i++)
		tp_counter_close(&tp->c[i]);
}

static int make_listeners(struct run *x, const struct net_result *r)
{
	unsigned int i, a;
	int fd;

	for (a = 0; a < x->sh.naddr; a++) {
		for (i = 0; i < x->nw; i++) {
			fd = listener(&x->sh.addr[a], x->sh.addrlen[a], x->sh.mode == NM_EPOLL,
				      (int)r->connections);
			if (fd < 0)
				return fd;
			x->w[i].lfd[a] = fd;
		}
	}
	for (i = 0; i < x->nw; i++) {
		x->w[i].stopfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (x->w[i].stopfd < 0)
			return -errno;
	}
	return 0;
}

static void close_all(struct run *x)
{
	unsigned int i, a;

	for (i = 0; x->w && i < x->nw; i++) {
		for (a = 0; a < 2; a++)
			if (x->w[i].lfd[a] >= 0)
				close(x->w[i].lfd[a]);
		if (x->w[i].stopfd >= 0)
			close(x->w[i].stopfd);
	}
	for (i = 0; x->c && i < x->nc; i++)
		free(x->c[i].lat);
	free(x->w);
	free(x->c);
}

static int spawn(struct run *x, struct net_result *r)
{
	unsigned int i, first = 0, per, extra;

	for (i = 0; i < x->nw; i++) {
		x->w[i].started = !pthread_create(&x->w[i].th, NULL, net_worker_main, &x->w[i]);
		x->started_w += x->w[i].started;
	}
	per = r->connections / x->nc;
	extra = r->connections % x->nc;
	for (i = 0; i < x->nc; i++) {
		struct net_client *c = &x->c[i];

		c->sh = &x->sh;
		c->first = first;
		c->n = per + (i < extra);
		first += c->n;
		c->cap = LAT_CAP_TOTAL / x->nc;
		c->lat = malloc(c->cap * sizeof(*c->lat));
		if (!c->lat)
			c->cap = 0;
		c->started = !pthread_create(&c->th, NULL, net_client_main, c);
		x->started_c += c->started;
	}
	return x->started_w == x->nw && x->started_c == x->nc ? 0 : -EAGAIN;
}

/* The clients are done: each worker's eventfd ends its loop. */
static void stop_workers(struct run *x)
{
	uint64_t one = 1;
	unsigned int i;

	for (i = 0; i < x->nw; i++)
		if (write(x->w[i].stopfd, &one, sizeof(one)) != sizeof(one))
			x->w[i].errors++;
	for (i = 0; i < x->nw; i++)
		if (x->w[i].started)
			pthread_join(x->w[i].th, NULL);
}

static void run_mode(const struct net_opts *o, struct net_result *r, enum net_mode mode,
		     struct tps *tp, bool zc_usage)
{
	struct net_mode_result *m = &r->modes[mode];
	struct run x = { .nw = o->workers };
	unsigned int i;
	int err;

	x.nc = o->workers < o->connections ? o->workers : o->connections;
	x.sh = (struct net_shared){ .mode = mode, .msg_size = o->msg_size,
				    .duration_ms = o->duration_ms, .max_conns = o->connections,
				    .zc_usage = zc_usage, .naddr = r->ipv6 ? 2 : 1 };
	loopback(&x.sh.addr[0], &x.sh.addrlen[0], false);
	loopback(&x.sh.addr[1], &x.sh.addrlen[1], true);
	net_gate_init(&x.sh.ready);
	net_gate_init(&x.sh.go);
	x.w = calloc(x.nw, sizeof(*x.w));
	x.c = calloc(x.nc, sizeof(*x.c));
	if (!x.w || !x.c) {
		fact_fail(&m->e, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < x.nw; i++) {
		x.w[i] = (struct net_worker){ .sh = &x.sh, .cpu = r->cpus[i],
					      .lfd = { -1, -1 }, .stopfd = -1 };
	}
	err = make_listeners(&x, r);
	if (err) {
		fact_fail(&m->e, err, "a loopback listener failed: %s", strerror(-err));
		goto out;
	}
	err = spawn(&x, r);
	net_gate_wait_for(&x.sh.ready, x.started_w + x.started_c);
	for (i = 0; !err && i < x.nw; i++)
		if (x.w[i].err) {
			err = x.w[i].err;
			fact_fail(&m->e, err, "%s", x.w[i].why);
		}
	if (err && fact_ok(&m->e))
		fact_fail(&m->e, err, "starting the probe's threads failed: %s", strerror(-err));
	x.sh.abort = err != 0;
	if (!err)
		tps_open(tp, r, &x);
	getrusage(RUSAGE_SELF, &x.self0);
	net_gate_open(&x.sh.ready);
	net_gate_wait_for(&x.sh.go, x.started_c);
	net_gate_open(&x.sh.go);
	for (i = 0; i < x.nc; i++)
		if (x.c[i].started)
			pthread_join(x.c[i].th, NULL);
	m->iou_wrk = count_iou_wrk();
	stop_workers(&x);
	getrusage(RUSAGE_SELF, &x.self1);
	if (!err) {
		sum_up(&x, r, m, tp);
		tps_close(tp);
		if (!m->messages)
			fact_fail(&m->e, m->first_error ? m->first_error : -EIO,
				  "no message came back in %.1f s%s%s", o->duration_ms / 1000.0,
				  m->first_error ? ": " : "", m->first_error ? strerror(-m->first_error) : "");
		m->ran = fact_ok(&m->e);
	}
out:
	close_all(&x);
	net_gate_destroy(&x.sh.ready);
	net_gate_destroy(&x.sh.go);
}

/* The CPUs this process may run on, in order: worker i is pinned to the i-th (modulo). */
static int worker_cpus(struct net_result *r)
{
	int allowed[NET_MAX_WORKERS];
	unsigned int n = 0, i;
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set)) {
		fact_fail(&r->e, -errno, "sched_getaffinity failed: %s", strerror(errno));
		return r->e.err;
	}
	for (i = 0; i < CPU_SETSIZE && n < NET_MAX_WORKERS; i++)
		if (CPU_ISSET(i, &set))
			allowed[n++] = (int)i;
	if (!n) {
		fact_fail(&r->e, -ESRCH, "no CPU is allowed to this process");
		return r->e.err;
	}
	for (i = 0; i < r->workers; i++)
		r->cpus[i] = allowed[i % n];
	return 0;
}

static void ipv6_check(struct net_result *r)
{
	struct sockaddr_storage a;
	socklen_t len;
	int fd;

	loopback(&a, &len, true);
	fd = listener(&a, len, false, 1);
	r->ipv6 = fd >= 0;
	if (fd >= 0)
		close(fd);
	else
		snprintf(r->ipv6_why, sizeof(r->ipv6_why), "no listener on [::1]: %s", strerror(-fd));
}

int net_run(const struct net_opts *o, struct net_result *r)
{
	struct tps tp = { .ok = true };
	unsigned int i;
	int err;

	memset(r, 0, sizeof(*r));
	r->workers = o->workers;
	r->connections = o->connections;
	r->msg_size = o->msg_size;
	r->duration_ms = o->duration_ms;
	err = worker_cpus(r);
	if (err)
		return err;
	ipv6_check(r);
	for (i = 0; tp.ok && i < TP__COUNT; i++)
		tp.ok = !tp_format_load(tp_names[i], &tp.fmt[i], r->tp_why, sizeof(r->tp_why));
	for (i = 0; i < NM__COUNT; i++) {
		struct net_mode_result *m = &r->modes[i];
		char why[200];
		bool zc_usage;

		if (!(o->modes & (1u << i))) {
			fact_fail(&m->e, -ECANCELED, "not selected by --mode");
			continue;
		}
		err = net_try_mode((enum net_mode)i, &zc_usage, &m->needs, why, sizeof(why));
		if (err) {
			fact_fail(&m->e, err, "%s", why);
			continue;
		}
		if (o->progress)
			fprintf(stderr, "\ruringlint probe: net mode %s (%u ms)   ", net_mode_name(i),
				o->duration_ms);
		m->zc_usage = zc_usage;
		run_mode(o, r, (enum net_mode)i, &tp, zc_usage);
	}
	if (o->progress)
		fputs("\r\033[K", stderr);
	return 0;
}
