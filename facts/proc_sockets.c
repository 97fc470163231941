// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A process's sockets (see proc_sockets.h). The fds come from the fd
 * listing proc_facts already reads (each link says socket:[INODE]); no
 * socket's fdinfo is read, as it holds nothing the tables lack.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "proc_facts.h"
#include "proc_sockets.h"
#include "netlink.h"

/*
 * What UserFiles shows for a registered socket before 6.14: the dentry
 * name, which sockfs sets to the protocol's name (struct proto .name).
 */
static const char *const sock_dentry_names[] = {
	"TCP",	   "TCPv6",   "UDP",	 "UDPv6",   "UDP-Lite", "UDPLITEv6", "UNIX",
	"UNIX-STREAM", "RAW", "RAWv6", "PING",	 "PINGv6",  "MPTCP",	"MPTCPv6",
	"SCTP",	   "SCTPv6",  "NETLINK", "PACKET", "XDP",	"KCM",	     "AF_VSOCK",
};

static int parse_inode(const char *target, uint64_t *ino)
{
	int n = 0;

	if (sscanf(target, "socket:[%" SCNu64 "]%n", ino, &n) != 1 || (size_t)n != strlen(target))
		return -EINVAL;
	return 0;
}

static struct proc_socket *add(struct proc_sockets *ps, int fd, uint64_t ino)
{
	struct proc_socket *s;

	if (array_grow(&ps->v, &ps->cap, ps->n + 1))
		return NULL;
	s = &ps->v[ps->n++];
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->inode = ino;
	s->proto = NET_OTHER;
	s->ring_fd = -1;
	return s;
}

int proc_sockets_add_fd(struct proc_sockets *ps, int fd, const char *target)
{
	uint64_t ino;

	if (parse_inode(target, &ino))
		return -EINVAL;
	return add(ps, fd, ino) ? 0 : -ENOMEM;
}

static int by_inode(const void *a, const void *b)
{
	uint64_t x = ((const struct proc_socket *)a)->inode,
		 y = ((const struct proc_socket *)b)->inode;

	return x < y ? -1 : x > y;
}

/* fds in order, then the sockets only rings hold, by inode */
static int by_fd(const void *a, const void *b)
{
	const struct proc_socket *x = a, *y = b;

	if ((x->fd < 0) != (y->fd < 0))
		return x->fd < 0 ? 1 : -1;
	if (x->fd != y->fd)
		return (x->fd > y->fd) - (x->fd < y->fd);
	return by_inode(a, b);
}

static bool is_sock_dentry(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sock_dentry_names); i++)
		if (!strcmp(name, sock_dentry_names[i]))
			return true;
	return false;
}

/* A regular file of the process with this basename: then the slot may be that file. */
static bool file_named(const struct proc_facts *pf, const char *name)
{
	const char *b;
	size_t i;

	for (i = 0; i < pf->nfiles; i++) {
		b = strrchr(pf->files[i].path, '/');
		if (!strcmp(b ? b + 1 : pf->files[i].path, name))
			return true;
	}
	return false;
}

/*
 * Each ring's registered sockets: by inode from 6.14 (socket:[INODE]),
 * counted as unidentified before. ps->v is sorted by inode here; the
 * sockets only rings hold are appended (and sorted in later).
 */
static void mark_registered(struct proc_facts *pf)
{
	struct proc_sockets *ps = &pf->sockets;
	size_t r, k, nfd = ps->n;
	struct proc_socket key, *s;
	uint64_t ino;

	for (r = 0; r < pf->nrings; r++) {
		const struct proc_ring *ring = &pf->rings[r];
		const struct uring_fdinfo *u = &ring->u;

		if (ring->busy || !fact_ok(&ring->e) || !u->has_user_files) {
			ps->rings_unknown = true;
			continue;
		}
		for (k = 0; k < u->nfiles; k++) {
			const char *path = u->files[k].path;

			if (parse_inode(path, &ino)) {
				if (!strchr(path, '/') && is_sock_dentry(path) && !file_named(pf, path))
					ps->registered_unidentified++;
				continue;
			}
			key.inode = ino;
			s = nfd ? bsearch(&key, ps->v, nfd, sizeof(*ps->v), by_inode) : NULL;
			if (!s) {
				/* one ring or another holds it twice: one socket */
				for (s = ps->v + nfd; s < ps->v + ps->n && s->inode != ino; s++)
					;
				if (s == ps->v + ps->n)
					s = add(ps, -1, ino);
			}
			if (!s)
				continue;
			/* A socket on several fds (dup): every one of them is the registered one. */
			if (s < ps->v + nfd)
				while (s > ps->v && s[-1].inode == ino)
					s--;
			for (; s < ps->v + ps->n && s->inode == ino; s++)
				if (s->ring_fd < 0)
					s->ring_fd = ring->fd;
		}
	}
}

/* The tables, in order, until every socket is found: most processes need one or two. */
static void join_tables(const struct sysroot *sr, pid_t pid, struct net_ns *ns,
			struct proc_sockets *ps)
{
	size_t i, left = ps->n;
	int p;

	ps->netns = ns->ino;
	for (p = 0; p < NET_NPROTO && left; p++) {
		int err = net_ns_read(ns, sr, pid, p);

		if (err == -ENOENT)
			continue;	/* no such table here: IPv6 or UDP-Lite not built */
		if (err) {
			if (fact_ok(&ps->e))
				ps->e = ns->e[p];
			continue;
		}
		ps->tables |= 1u << p;
		if (p == NET_UNIX)
			ps->unix_from_diag = ns->unx.from_diag;
		for (i = 0; i < ps->n; i++) {
			struct proc_socket *s = &ps->v[i];
			const struct unix_sock *un;
			const struct inet_sock *in;

			if (s->proto != NET_OTHER || s->ambiguous)
				continue;
			if (p == NET_UNIX && (un = net_ns_unix(ns, s->inode, &s->ambiguous))) {
				s->un = *un;
				s->un.path = un->path ? strdup(un->path) : NULL;
				s->un.name = un->name ? malloc(un->name_len) : NULL;
				if (s->un.name)
					memcpy(s->un.name, un->name, un->name_len);
				else
					s->un.name_len = 0;
			} else if (p == NET_UNIX && s->ambiguous) {
				/* A unix socket, but which one two lines do not say: no path, no state. */
				memset(&s->un, 0, sizeof(s->un));
			} else if (p != NET_UNIX && (in = net_ns_inet(ns, p, s->inode, &s->ambiguous))) {
				s->in = *in;
			} else {
				left -= s->ambiguous;
				continue;
			}
			s->proto = p;
			left--;
		}
	}
}

static bool same_listener(const struct proc_socket *a, const struct proc_socket *b)
{
	return a->proto == b->proto && a->proto != NET_UNIX && a->in.lport == b->in.lport &&
	       !memcmp(a->in.local, b->in.local, sizeof(a->in.local));
}

static bool listening(const struct proc_socket *s)
{
	if (s->proto == NET_UNIX)
		return s->un.listening;
	return s->proto != NET_OTHER && s->in.state == INET_LISTEN;
}

/* The listeners by protocol, address and port, with the namespace's count of each. */
static int group_listeners(const struct net_ns *ns, struct proc_sockets *ps)
{
	struct proc_listener *l;
	size_t i, j;

	for (i = 0; i < ps->n; i++) {
		const struct proc_socket *s = &ps->v[i];

		if (!listening(s))
			continue;
		for (j = 0; j < ps->nlisteners; j++)
			if (same_listener(&ps->v[ps->listeners[j].first], s))
				break;
		if (j == ps->nlisteners) {
			if (array_grow(&ps->listeners, &ps->lcap, ps->nlisteners + 1))
				return -ENOMEM;
			l = &ps->listeners[ps->nlisteners++];
			memset(l, 0, sizeof(*l));
			l->proto = s->proto;
			l->first = i;
			l->in_netns = s->proto == NET_UNIX ? 1
				      : net_ns_listeners(ns, s->proto, s->in.local, s->in.lport);
		}
		l = &ps->listeners[j];
		/* One socket on several fds (dup) is one listener of this process's. */
		if (!s->dup)
			l->ours++;
		if (s->fd < 0)
			continue;
		if (array_grow(&l->fds, &l->cap, l->nfds + 1))
			return -ENOMEM;
		l->fds[l->nfds++] = s->fd;
	}
	return 0;
}

static bool tcp_listening(const struct proc_socket *s)
{
	return (s->proto == NET_TCP || s->proto == NET_TCP6) && !s->ambiguous &&
	       s->in.state == INET_LISTEN;
}

size_t proc_sockets_tcp_listening(const struct proc_sockets *ps)
{
	size_t i, n = 0;

	for (i = 0; i < ps->n; i++)
		n += tcp_listening(&ps->v[i]) && !ps->v[i].dup;
	return n;
}

/* Every TCP LISTEN socket of the namespace: tcp6 too, which the join may not have needed. */
static void count_ns_listeners(const struct sysroot *sr, pid_t pid, struct net_ns *ns,
			       struct proc_sockets *ps)
{
	size_t n = 0;
	int p, err;

	for (p = NET_TCP; p <= NET_TCP6; p++) {
		err = net_ns_read(ns, sr, pid, p);
		if (err == -ENOENT && p == NET_TCP6)
			continue;	/* no IPv6 here */
		if (err)
			return;
		n += ns->nlisten[p];
	}
	ps->ns_tcp_listeners = n;
	ps->ns_tcp_listeners_known = true;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Each TCP listener's backlog limit, which only sock_diag shows: live, and
 * only for a process of uringlint's own namespace, the one it answers for.
 */
static void collect_backlog(const struct sysroot *sr, struct proc_sockets *ps)
{
	struct diag_listeners t = { 0 };
	const struct diag_listener *d;
	uint64_t *want, own;
	size_t i, n = 0;
	int err;

	if (!sr->live) {
		fact_fail(&ps->backlog_e, -EOPNOTSUPP, "a captured tree: a listener's backlog limit "
			  "is in no file, only sock_diag shows it on the live system");
		return;
	}
	own = net_ns_inode(sr, getpid());
	if (!own || !ps->netns || own != ps->netns) {
		fact_fail(&ps->backlog_e, -EXDEV, "the process runs in another network namespace "
			  "(net:[%llu]), and sock_diag shows only uringlint's own",
			  (unsigned long long)ps->netns);
		return;
	}
	want = calloc(ps->n, sizeof(*want));
	if (!want) {
		fact_fail(&ps->backlog_e, -ENOMEM, "out of memory");
		return;
	}
	for (i = 0; i < ps->n; i++)
		if (tcp_listening(&ps->v[i]))
			want[n++] = ps->v[i].inode;
	qsort(want, n, sizeof(*want), u64_cmp);
	err = sock_diag_listeners(want, n, &t);
	if (err) {
		fact_fail(&ps->backlog_e, err, "NETLINK_SOCK_DIAG: %s", strerror(-err));
	} else {
		for (i = 0; i < ps->n; i++) {
			struct proc_socket *s = &ps->v[i];

			d = tcp_listening(s) ? diag_listener_find(&t, s->inode) : NULL;
			if (d) {
				s->has_backlog = true;
				s->backlog = d->backlog;
			}
		}
	}
	diag_listeners_free(&t);
	free(want);
}

static int parse_netstat(const char *text, void *out)
{
	return netstat_parse(text, out);
}

void proc_netstat_read(const struct sysroot *sr, pid_t pid, struct netstat_reading *r)
{
	struct timespec ts;

	memset(r, 0, sizeof(*r));
	fact_read_parsedf(sr, &r->e, parse_netstat, &r->c, "proc/%d/net/netstat", (int)pid);
	if (fact_ok(&r->e) && (!r->c.has_overflows || !r->c.has_drops))
		fact_fail(&r->e, -ENODATA,
			  "'proc/%d/net/netstat' has no TcpExt ListenOverflows and ListenDrops",
			  (int)pid);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	r->t_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

bool proc_netstat_delta(const struct proc_netstat *n, uint64_t *overflows, uint64_t *drops)
{
	const struct netstat_listen *b = &n->begin.c, *e = &n->end.c;

	if (!n->watched || !fact_ok(&n->begin.e) || !fact_ok(&n->end.e) ||
	    e->overflows < b->overflows || e->drops < b->drops)
		return false;
	*overflows = e->overflows - b->overflows;
	*drops = e->drops - b->drops;
	return true;
}

void proc_sockets_collect(const struct sysroot *sr, struct proc_facts *pf,
			  struct net_cache *cache)
{
	struct proc_sockets *ps = &pf->sockets;
	struct net_cache own = { 0 };
	struct net_ns *ns;
	bool owned;
	size_t i;

	if (ps->n > 1)
		qsort(ps->v, ps->n, sizeof(*ps->v), by_inode);
	/* A socket on several fds (dup): the ones after the first are the same socket. */
	for (i = 1; i < ps->n; i++)
		ps->v[i].dup = ps->v[i].inode == ps->v[i - 1].inode;
	mark_registered(pf);
	if (!ps->n)
		return;
	if (ps->n > 1)
		qsort(ps->v, ps->n, sizeof(*ps->v), by_fd);
	ns = net_cache_get(cache ? cache : &own, sr, pf->pid, &owned);
	if (!ns) {
		fact_fail(&ps->e, -ENOMEM, "out of memory");
		return;
	}
	join_tables(sr, pf->pid, ns, ps);
	if (group_listeners(ns, ps))
		fact_fail(&ps->e, -ENOMEM, "out of memory");
	if (proc_sockets_tcp_listening(ps)) {
		count_ns_listeners(sr, pf->pid, ns, ps);
		collect_backlog(sr, ps);
		proc_netstat_read(sr, pf->pid, &ps->netstat.at);
	}
	if (owned)
		net_ns_free(ns);
	net_cache_free(&own);
}

void proc_sockets_free(struct proc_sockets *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++) {
		free(ps->v[i].un.path);
		free(ps->v[i].un.name);
	}
	free(ps->v);
	for (i = 0; i < ps->nlisteners; i++)
		free(ps->listeners[i].fds);
	free(ps->listeners);
	memset(ps, 0, sizeof(*ps));
}

int proc_socket_registered(const struct proc_sockets *ps, const struct proc_socket *s)
{
	if (s->ring_fd >= 0)
		return 1;
	return ps->rings_unknown || ps->registered_unidentified ? -1 : 0;
}

const char *proc_socket_local(const struct proc_socket *s, char *buf, size_t bufsz)
{
	if (s->proto == NET_OTHER)
		return NULL;
	if (s->proto == NET_UNIX)
		return s->un.path;
	inet_endpoint_text(s->in.local, s->in.lport, net_proto_v6(s->proto), buf, bufsz);
	return buf;
}

const char *proc_socket_remote(const struct proc_socket *s, char *buf, size_t bufsz)
{
	if (s->proto == NET_OTHER || s->proto == NET_UNIX)
		return NULL;
	inet_endpoint_text(s->in.remote, s->in.rport, net_proto_v6(s->proto), buf, bufsz);
	return buf;
}

const char *proc_socket_state(const struct proc_socket *s)
{
	if (s->proto == NET_OTHER)
		return NULL;
	return s->proto == NET_UNIX ? unix_state_name(&s->un) : inet_state_name(s->in.state);
}
