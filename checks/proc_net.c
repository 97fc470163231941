// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A network service's listeners, from the socket inventory: a
 * SO_REUSEPORT group (more than one LISTEN socket on one address and port
 * in a namespace: the kernel shows no other trace of the option) or one
 * shared listener, said plainly; what happens to the connections queued
 * on a group's listener when it closes; and the accept queues as read.
 *
 * net-accept-backlog: each TCP listener's accept queue against its backlog
 * (sock_diag) as read, and the namespace's TcpExt ListenOverflows over
 * --watch, attributed to the process only when its listeners are all the
 * namespace has.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"

static bool tcp(enum net_proto p)
{
	return p == NET_TCP || p == NET_TCP6;
}

/*
 * tcp_migrate_req as it applies to the process: the sysctl is per network
 * namespace, and uringlint reads its own. -1 unknown, and why in buf.
 */
static int migrate_req(const struct check_ctx *ctx, char *why, size_t n)
{
	const struct host_facts *hf = ctx->host;
	const struct proc_sockets *ps = &ctx->proc->sockets;

	if (!fact_ok(&hf->tcp_migrate_req.e)) {
		snprintf(why, n, "net.ipv4.tcp_migrate_req could not be read (%s; it exists from 5.14)",
			 hf->tcp_migrate_req.e.why);
		return -1;
	}
	if (hf->netns && ps->netns && hf->netns != ps->netns) {
		snprintf(why, n, "the process runs in another network namespace (net:[%llu]), whose "
			 "net.ipv4.tcp_migrate_req is its own", (unsigned long long)ps->netns);
		return -1;
	}
	return hf->tcp_migrate_req.value != 0;
}

/* The connections waiting in the accept queues of this process's listeners of group l. */
static uint64_t accept_queue(const struct proc_sockets *ps, const struct proc_listener *l)
{
	const struct proc_socket *first = &ps->v[l->first];
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < ps->n; i++) {
		const struct proc_socket *s = &ps->v[i];

		if (s->proto == l->proto && !s->ambiguous && s->in.state == first->in.state &&
		    s->in.lport == first->in.lport && !memcmp(s->in.local, first->in.local,
							      sizeof(s->in.local)))
			n += s->in.rx_queue;
	}
	return n;
}

void check_net_listeners(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct proc_sockets *ps = &pf->sockets;
	unsigned int groups = 0, shared = 0, warned = 0;
	uint64_t queued = 0;
	char subject[128], addr[80], why[512], list[512] = "", accepts[256];
	size_t i, used = 0;
	struct finding *fi;

	if (!proc_usable(c, ctx, true))
		return;
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	for (i = 0; i < ps->nlisteners; i++) {
		const struct proc_listener *l = &ps->listeners[i];
		const struct proc_socket *s = &ps->v[l->first];
		uint64_t q = accept_queue(ps, l);
		int migrate, w;

		if (!tcp(l->proto) || !proc_socket_local(s, addr, sizeof(addr)))
			continue;
		queued += q;
		w = snprintf(list + used, sizeof(list) - used, "%s%s %s%s (accept queue %llu)",
			     used ? ", " : "", net_proto_name(l->proto), addr,
			     l->in_netns > 1 ? " reuseport" : "", (unsigned long long)q);
		if (w > 0 && (size_t)w < sizeof(list) - used)
			used += (size_t)w;
		if (l->in_netns < 2) {
			shared++;
			continue;
		}
		groups++;
		migrate = migrate_req(ctx, why, sizeof(why));
		if (migrate != 0)
			continue;
		warned++;
		snprintf(subject, sizeof(subject), "pid %d %s %s", (int)pf->pid, net_proto_name(l->proto),
			 addr);
		fi = proc_add(c, ctx, STATUS_WARN, subject,
			      "%s is a SO_REUSEPORT group of %zu listeners (%zu of them this "
			      "process's), and net.ipv4.tcp_migrate_req is 0: when one of them closes "
			      "(a worker restarts or exits), the connections in its accept queue are "
			      "aborted instead of moving to the others",
			      addr, l->in_netns, l->ours);
		finding_set_fix(fi, "sysctl -w net.ipv4.tcp_migrate_req=1 (5.14+), and set it in "
				    "/etc/sysctl.d/ to keep it");
		finding_ev_int(fi, "group", (int64_t)l->in_netns);
		finding_ev_int(fi, "ours", (int64_t)l->ours);
	}
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!fact_ok(&ps->e) && !groups && !shared) {
		proc_fact_missing(c, ctx, subject, &ps->e);
		return;
	}
	if (!groups && !shared) {
		proc_add(c, ctx, STATUS_SKIP, subject, "no TCP listener");
		return;
	}
	if (warned)
		return;
	why[0] = '\0';
	if (groups && migrate_req(ctx, why, sizeof(why)) < 0) {
		proc_add(c, ctx, STATUS_SKIP, subject, "%u SO_REUSEPORT group%s (%s), but %s: what "
			 "happens to a closing listener's queue is not judged", groups,
			 groups == 1 ? "" : "s", list, why);
		return;
	}
	net_accept_threads(ctx, accepts, sizeof(accepts));
	fi = proc_add(c, ctx, STATUS_PASS, subject,
		      "%u SO_REUSEPORT group%s%s and %u listener%s of its own, shared by whichever "
		      "threads accept on it: %s; %llu connection%s waiting to be accepted as read%s",
		      groups, groups == 1 ? "" : "s",
		      groups ? " (net.ipv4.tcp_migrate_req on: a closing listener's queue moves)" : "",
		      shared, shared == 1 ? "" : "s", list, (unsigned long long)queued,
		      queued == 1 ? "" : "s", accepts);
	finding_ev_int(fi, "reuseport_groups", groups);
	finding_ev_int(fi, "single_listeners", shared);
}

/*
 * net.core.somaxconn and net.ipv4.tcp_max_syn_backlog as they apply to the
 * process, in text: per network namespace, read in uringlint's own. false
 * when they are not the process's.
 */
static bool backlog_sysctls(const struct check_ctx *ctx, char *buf, size_t n)
{
	const struct host_facts *hf = ctx->host;
	const struct proc_sockets *ps = &ctx->proc->sockets;

	if (hf->netns && ps->netns && hf->netns != ps->netns) {
		snprintf(buf, n, "net.core.somaxconn and net.ipv4.tcp_max_syn_backlog not known: the "
			 "process runs in another network namespace (net:[%llu]), whose sysctls are "
			 "its own", (unsigned long long)ps->netns);
		return false;
	}
	if (!fact_ok(&hf->somaxconn.e) || !fact_ok(&hf->tcp_max_syn_backlog.e)) {
		snprintf(buf, n, "%s", !fact_ok(&hf->somaxconn.e) ? hf->somaxconn.e.why
								  : hf->tcp_max_syn_backlog.e.why);
		return false;
	}
	snprintf(buf, n, "net.core.somaxconn %lld, net.ipv4.tcp_max_syn_backlog %lld",
		 (long long)hf->somaxconn.value, (long long)hf->tcp_max_syn_backlog.value);
	return true;
}

/* One listener in a message: "tcp 127.0.0.1:80 accept queue 5 of backlog 4 (full)". */
struct backlog_list {
	char text[768];
	size_t used;
	unsigned int full, unknown;	/* full now; with a queue whose limit is not known */
	uint32_t full_backlog;		/* the backlog of a full one */
};

static void backlog_add(struct backlog_list *bl, const struct proc_socket *s)
{
	char addr[INET_ADDR_MAX];
	bool full = s->has_backlog && s->in.rx_queue > s->backlog;
	int w;

	proc_socket_local(s, addr, sizeof(addr));
	if (s->has_backlog)
		w = snprintf(bl->text + bl->used, sizeof(bl->text) - bl->used,
			     "%s%s %s accept queue %u of backlog %u%s", bl->used ? ", " : "",
			     net_proto_name(s->proto), addr, s->in.rx_queue, s->backlog,
			     full ? " (full)" : "");
	else
		w = snprintf(bl->text + bl->used, sizeof(bl->text) - bl->used,
			     "%s%s %s accept queue %u", bl->used ? ", " : "",
			     net_proto_name(s->proto), addr, s->in.rx_queue);
	if (w > 0 && (size_t)w < sizeof(bl->text) - bl->used)
		bl->used += (size_t)w;
	if (full) {
		bl->full++;
		bl->full_backlog = s->backlog;
	}
	bl->unknown += !s->has_backlog && s->in.rx_queue > 0;
}

/* Whose the namespace's listen counters are, in words; true when they are this process's. */
static bool overflow_owner(const struct proc_sockets *ps, size_t ours, char *buf, size_t n)
{
	if (ps->ns_tcp_listeners_known && ps->ns_tcp_listeners == ours) {
		snprintf(buf, n, "they count for the whole network namespace, not per process, and "
			 "its %zu TCP listener%s %s this process's, so they are its own", ours,
			 ours == 1 ? "" : "s", ours == 1 ? "is" : "are all");
		return true;
	}
	if (ps->ns_tcp_listeners_known)
		snprintf(buf, n, "they count for the whole network namespace, not per process: "
			 "namespace-wide, over its %zu TCP listeners, %zu of them this process's",
			 ps->ns_tcp_listeners, ours);
	else
		snprintf(buf, n, "they count for the whole network namespace, not per process: "
			 "namespace-wide, its other listeners unknown");
	return false;
}

static void backlog_fix(struct finding *fi, const struct check_ctx *ctx, bool sysctls,
			const struct backlog_list *bl)
{
	const struct host_facts *hf = ctx->host;

	if (sysctls && bl->full && (int64_t)bl->full_backlog >= hf->somaxconn.value)
		finding_set_fix(fi, "the backlog is at net.core.somaxconn (%lld), which caps it: "
				"raise somaxconn (sysctl -w net.core.somaxconn=N, kept in "
				"/etc/sysctl.d/) and the listen() backlog, and accept faster (more "
				"accepting threads, multishot accept)", (long long)hf->somaxconn.value);
	else
		finding_set_fix(fi, "accept faster (more accepting threads or rings, multishot "
				"accept), or give listen() a larger backlog (net.core.somaxconn caps "
				"it; net.ipv4.tcp_max_syn_backlog bounds the SYN queue when syncookies "
				"are off)");
}

/* The process's listeners and the namespace's counters, as accept-backlog judges them. */
struct accept_view {
	struct backlog_list bl;
	char sysctl[400], owner[256], why[400], life[400];
	uint64_t ov, dr;		/* ListenOverflows, ListenDrops grown over --watch */
	bool sysctls, delta, ours_only;
	double secs;			/* the watch's length */
};

static void accept_gather(const struct check_ctx *ctx, size_t ours, struct accept_view *v)
{
	const struct proc_sockets *ps = &ctx->proc->sockets;
	const struct proc_netstat *ns = &ps->netstat;
	size_t i;

	for (i = 0; i < ps->n; i++) {
		const struct proc_socket *s = &ps->v[i];

		if ((s->proto == NET_TCP || s->proto == NET_TCP6) && !s->ambiguous && !s->dup &&
		    s->in.state == INET_LISTEN)
			backlog_add(&v->bl, s);
	}
	v->sysctls = backlog_sysctls(ctx, v->sysctl, sizeof(v->sysctl));
	v->ours_only = overflow_owner(ps, ours, v->owner, sizeof(v->owner));
	v->delta = proc_netstat_delta(ns, &v->ov, &v->dr);
	v->secs = (double)(ns->end.t_ns - ns->begin.t_ns) / 1e9;
	if (!fact_ok(&ps->backlog_e))
		snprintf(v->why, sizeof(v->why), "; the backlog limit is not visible (%s)",
			 ps->backlog_e.why);
	if (fact_ok(&ns->at.e))
		snprintf(v->life, sizeof(v->life), "the namespace's lifetime TcpExt ListenOverflows "
			 "total was %llu, which may be from long ago, and it is not judged",
			 (unsigned long long)ns->at.c.overflows);
	else
		snprintf(v->life, sizeof(v->life), "the lifetime ListenOverflows could not be read "
			 "(%s)", ns->at.e.why);
}

/* Connections dropped over the watch, or a queue full as read: the finding, else NULL. */
static struct finding *accept_problem(const struct check *c, struct check_ctx *ctx,
				      const char *subject, const struct accept_view *v)
{
	const struct backlog_list *bl = &v->bl;
	struct finding *fi;

	if (v->delta && v->ov) {
		bool fail = v->ours_only || bl->full;

		fi = proc_add(c, ctx, fail ? STATUS_FAIL : STATUS_WARN, subject,
			      "TcpExt ListenOverflows grew by %llu (ListenDrops by %llu) in the %.1f s "
			      "of --watch: connections that completed their handshake were dropped "
			      "because an accept queue was full; %s. %s%s; %s",
			      (unsigned long long)v->ov, (unsigned long long)v->dr, v->secs, v->owner,
			      bl->text, v->why, v->sysctl);
	} else if (bl->full) {
		fi = proc_add(c, ctx, STATUS_WARN, subject,
			      "%u listener%s accept queue full as read (more waiting than the "
			      "backlog): %s; %s. A full queue drops or delays new connections; %s%s",
			      bl->full, bl->full == 1 ? "'s" : "s'", bl->text, v->sysctl,
			      v->delta ? "ListenOverflows did not grow over --watch: the queue "
					 "was full without dropping"
				       : "overflows are judged only from their growth over --watch: ",
			      v->delta ? "" : v->life);
	} else {
		return NULL;
	}
	backlog_fix(fi, ctx, v->sysctls, bl);
	return fi;
}

/*
 * No problem seen, but what could not be seen keeps the pass back: the
 * counters not compared over the watch, unreadable, or a queue whose limit
 * is unknown. Returns whether it reported so.
 */
static bool accept_unjudged(const struct check *c, struct check_ctx *ctx, const char *subject,
			    const struct accept_view *v)
{
	const struct proc_netstat *ns = &ctx->proc->sockets.netstat;

	if (ns->watched && !v->delta) {
		const struct fact_err *e = !fact_ok(&ns->begin.e) ? &ns->begin.e : &ns->end.e;

		if (!fact_ok(e) && fact_status(e) == STATUS_ERROR) {
			proc_fact_missing(c, ctx, subject, e);
			return true;
		}
		proc_add(c, ctx, STATUS_SKIP, subject,
			      "TcpExt ListenOverflows could not be compared over the watch (%s): %s%s",
			      fact_ok(e) ? "a counter went backwards" : e->why, v->bl.text, v->why);
		return true;
	}
	if (!v->delta && !fact_ok(&ns->at.e) && ns->at.e.err != -ENOENT) {
		/* Unreadable or garbage, not just absent from an older capture: not passed. */
		proc_fact_missing(c, ctx, subject, &ns->at.e);
		return true;
	}
	if (v->bl.unknown && !v->delta) {
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "%s%s: with connections waiting, whether a queue is full is not known, and "
			 "overflows are counted only over --watch", v->bl.text, v->why);
		return true;
	}
	return false;
}

static struct finding *accept_pass(const struct check *c, struct check_ctx *ctx,
				   const char *subject, const struct accept_view *v)
{
	if (v->delta)
		return proc_add(c, ctx, STATUS_PASS, subject,
				"TcpExt ListenOverflows did not grow in the %.1f s of --watch "
				"(ListenDrops by %llu; %s); no accept queue full as read: %s%s; %s",
				v->secs, (unsigned long long)v->dr,
				v->ours_only
					? "the namespace's TCP listeners are all this process's"
					: "counted for the whole network namespace, not per process",
				v->bl.text, v->why, v->sysctl);
	return proc_add(c, ctx, STATUS_PASS, subject,
			"no accept queue full as read: %s%s; %s. Overflows are judged only "
			"from their growth over --watch: %s",
			v->bl.text, v->why, v->sysctl, v->life);
}

void check_net_accept_backlog(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct proc_sockets *ps = &pf->sockets;
	struct accept_view v = { .bl = { .used = 0 } };
	struct finding *fi;
	char subject[64];
	size_t ours;

	if (!proc_usable(c, ctx, true))
		return;
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	ours = proc_sockets_tcp_listening(ps);
	if (!ours) {
		if (!fact_ok(&ps->e))
			proc_fact_missing(c, ctx, subject, &ps->e);
		else
			proc_add(c, ctx, STATUS_SKIP, subject, "no TCP listener");
		return;
	}
	accept_gather(ctx, ours, &v);
	fi = accept_problem(c, ctx, subject, &v);
	if (!fi) {
		if (accept_unjudged(c, ctx, subject, &v))
			return;
		fi = accept_pass(c, ctx, subject, &v);
	}
	finding_ev_int(fi, "full_listeners", v.bl.full);
	if (v.delta) {
		finding_ev_int(fi, "listen_overflows_delta", (int64_t)v.ov);
		finding_ev_int(fi, "listen_drops_delta", (int64_t)v.dr);
		finding_ev_bool(fi, "attributed", v.ours_only);
	}
	if (fact_ok(&ps->netstat.at.e))
		finding_ev_int(fi, "listen_overflows_lifetime", (int64_t)ps->netstat.at.c.overflows);
}
