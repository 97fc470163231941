// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A network service's listeners, from the socket inventory: a
 * SO_REUSEPORT group (more than one LISTEN socket on one address and port
 * in a namespace: the kernel shows no other trace of the option) or one
 * shared listener, said plainly; what happens to the connections queued
 * on a group's listener when it closes; and the accept queues as read.
 */
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
