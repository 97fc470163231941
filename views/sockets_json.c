// SPDX-License-Identifier: GPL-2.0-or-later
/* A process's sockets in the JSON inventory and in one line of the text report. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "sockets_json.h"

/* A listener's address, without its port: "127.0.0.1", "::1", a unix path or NULL. */
static const char *listener_addr(const struct proc_socket *s, char *buf, size_t bufsz)
{
	if (s->proto == NET_UNIX)
		return s->un.path;
	inet_addr_text(s->in.local, net_proto_v6(s->proto), buf, bufsz);
	return buf;
}

static struct json_object *listener_json(const struct proc_sockets *ps,
					 const struct proc_listener *l)
{
	const struct proc_socket *s = &ps->v[l->first];
	struct json_object *o = json_object_new_object(), *fds = json_object_new_array();
	char buf[INET_ADDR_MAX];
	size_t i;

	json_object_object_add(o, "proto", json_object_new_string(net_proto_name(l->proto)));
	json_add_bytes(o, "address", listener_addr(s, buf, sizeof(buf)));
	json_object_object_add(o, "port", s->proto == NET_UNIX ? NULL
							       : json_object_new_int(s->in.lport));
	for (i = 0; i < l->nfds; i++)
		json_object_array_add(fds, json_object_new_int(l->fds[i]));
	json_object_object_add(o, "fds", fds);
	json_object_object_add(o, "reuseport_group", json_object_new_int64((int64_t)l->in_netns));
	/* LISTEN sockets on it that are neither an fd of this process nor in its rings */
	json_object_object_add(o, "not_this_process", json_object_new_int64(
		(int64_t)(l->in_netns > l->ours ? l->in_netns - l->ours : 0)));
	return o;
}

/* The name's bytes are not what the table's form says: abstract, a NUL, or not UTF-8. */
static bool unix_name_differs(const struct unix_sock *u)
{
	return memchr(u->name, '\0', u->name_len) || !utf8_valid(u->path);
}

/* Why a socket's identity is not whole (the unix table's lines), or NULL. */
static const char *socket_error(const struct proc_sockets *ps, const struct proc_socket *s,
				char *buf, size_t bufsz)
{
	if (s->ambiguous) {
		snprintf(buf, bufsz, "two lines of its namespace's %s table claim inode %" PRIu64
			 " (a bound path can hold a newline and a forged line): neither is taken, "
			 "so its address and state are not known", net_proto_name(s->proto), s->inode);
		return buf;
	}
	if (s->proto == NET_UNIX && s->un.path_suspect)
		return "the next line of the unix table claims a socket another line also claims: "
		       "it may be the rest of this socket's path, which may be cut short";
	/*
	 * sock_diag gives a name's bytes; the table (a captured tree, or a
	 * kernel without unix_diag) writes each NUL of an abstract name as '@'.
	 */
	if (s->proto == NET_UNIX && !ps->unix_from_diag && s->un.path && s->un.path[0] == '@')
		return "an abstract name read from the unix table, which shows each of its NUL "
		       "bytes as '@': its exact bytes are not known (sock_diag gives them live)";
	return NULL;
}

static int socket_json_put(struct json_put *p, const struct proc_sockets *ps,
			   const struct proc_socket *s)
{
	bool inet = s->proto != NET_OTHER && s->proto != NET_UNIX;
	char local[INET_ADDR_MAX], remote[INET_ADDR_MAX], why[256];
	int reg = proc_socket_registered(ps, s);

	json_put_begin(p);
	json_put_int_known(p, "fd", s->fd >= 0, s->fd);
	json_put_int(p, "inode", (int64_t)s->inode);
	json_put_string(p, "proto", net_proto_name(s->proto));
	if (s->proto == NET_UNIX && s->un.name && unix_name_differs(&s->un)) {
		/* An abstract name, or one with a NUL: the table's form, and the exact bytes. */
		char *b64 = json_base64(s->un.name, s->un.name_len);

		json_put_string(p, "local", s->un.path);
		json_put_string(p, "local_base64", b64);
		free(b64);
	} else {
		json_put_bytes(p, "local", proc_socket_local(s, local, sizeof(local)));
	}
	json_put_string(p, "remote", proc_socket_remote(s, remote, sizeof(remote)));
	json_put_string(p, "state", proc_socket_state(s));
	json_put_string(p, "type", s->proto == NET_UNIX ? unix_type_name(s->un.type) : NULL);
	json_put_int_known(p, "rx_queue", inet, s->in.rx_queue);
	json_put_int_known(p, "tx_queue", inet, s->in.tx_queue);
	json_put_int_known(p, "uid", inet, s->in.uid);
	if (reg < 0)
		json_put_string(p, "registered", NULL);
	else
		json_put_bool(p, "registered", reg);
	json_put_int_known(p, "ring_fd", s->ring_fd >= 0, s->ring_fd);
	json_put_bool(p, "ambiguous", s->ambiguous);
	json_put_int_known(p, "backlog", s->has_backlog, s->backlog);
	json_put_string(p, "error", socket_error(ps, s, why, sizeof(why)));
	return json_put_end(p);
}

static struct json_object *counters_json(const struct netstat_reading *r)
{
	struct json_object *o;

	if (!fact_ok(&r->e))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "listen_overflows", json_object_new_int64((int64_t)r->c.overflows));
	json_object_object_add(o, "listen_drops", json_object_new_int64((int64_t)r->c.drops));
	return o;
}

/*
 * The namespace's listen counters (TcpExt of /proc/PID/net/netstat): since
 * it was created, and over --watch. null for a process with no TCP listener.
 */
static struct json_object *netstat_json(const struct proc_sockets *ps)
{
	const struct proc_netstat *n = &ps->netstat;
	struct json_object *o, *w = NULL;
	uint64_t ov, dr;

	if (!proc_sockets_tcp_listening(ps))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "namespace_tcp_listeners", ps->ns_tcp_listeners_known
				? json_object_new_int64((int64_t)ps->ns_tcp_listeners) : NULL);
	json_object_object_add(o, "lifetime", counters_json(&n->at));
	json_object_object_add(o, "error", fact_ok(&n->at.e) ? NULL : json_bytes_string(n->at.e.why));
	if (n->watched) {
		bool ok = proc_netstat_delta(n, &ov, &dr);
		const struct fact_err *e = !fact_ok(&n->begin.e) ? &n->begin.e : &n->end.e;

		w = json_object_new_object();
		json_object_object_add(w, "seconds", json_object_new_double(
			(double)(n->end.t_ns - n->begin.t_ns) / 1e9));
		json_object_object_add(w, "listen_overflows", ok ? json_object_new_int64((int64_t)ov)
								 : NULL);
		json_object_object_add(w, "listen_drops", ok ? json_object_new_int64((int64_t)dr)
							     : NULL);
		json_object_object_add(w, "error", ok ? NULL : json_bytes_string(
			fact_ok(e) ? "a counter went backwards" : e->why));
	}
	json_object_object_add(o, "watch", w);
	return o;
}

int proc_sockets_json_write(const struct proc_sockets *ps, FILE *out)
{
	struct json_object *o = json_object_new_object(), *tables = json_object_new_array(),
			   *ls = json_object_new_array();
	struct json_put p;
	size_t i;
	int err, t;

	json_object_object_add(o, "netns", ps->netns ? json_object_new_int64((int64_t)ps->netns)
						     : NULL);
	json_object_object_add(o, "error", fact_ok(&ps->e) ? NULL : json_bytes_string(ps->e.why));
	for (t = 0; t < NET_NPROTO; t++)
		if (ps->tables & 1u << t)
			json_object_array_add(tables, json_object_new_string(net_proto_name(t)));
	json_object_object_add(o, "tables", tables);
	json_object_object_add(o, "unix_source", !(ps->tables & 1u << NET_UNIX) ? NULL :
			       json_object_new_string(ps->unix_from_diag ? "sock_diag" : "table"));
	json_object_object_add(o, "registered_unidentified",
			       json_object_new_int64(ps->registered_unidentified));
	for (i = 0; i < ps->nlisteners; i++)
		json_object_array_add(ls, listener_json(ps, &ps->listeners[i]));
	json_object_object_add(o, "listeners", ls);
	json_object_object_add(o, "backlog_error", !proc_sockets_tcp_listening(ps) ||
				fact_ok(&ps->backlog_e) ? NULL : json_bytes_string(ps->backlog_e.why));
	json_object_object_add(o, "netstat", netstat_json(ps));

	/* the object without its closing brace, then the sockets one by one */
	err = json_put_head(out, o, "list");
	json_put_init(&p, out);
	for (i = 0; !err && i < ps->n; i++) {
		if (i)
			json_put_raw(&p, ", ");
		err = socket_json_put(&p, ps, &ps->v[i]);
	}
	if (!err)
		err = json_put_flush(&p);
	json_put_free(&p);
	if (!err && fputs("] }", out) == EOF)
		err = -EIO;
	return err;
}

/* Appends to buf (never past bufsz; a cut line ends in what fits). */
__attribute__((format(printf, 4, 5))) static void add(char *buf, size_t bufsz, size_t *len,
						      const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= bufsz)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, bufsz - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += (size_t)n;
}

/* Listeners named in the line; the rest are counted. */
#define SUMMARY_LISTENERS 4

bool proc_sockets_summary(const struct proc_sockets *ps, char *buf, size_t bufsz)
{
	size_t count[NET_NPROTO + 1] = { 0 }, i, len = 0, reg = 0, only_ring = 0;
	const char *sep = "";
	char addr[INET_ADDR_MAX];
	int t;

	if (!ps->n && !ps->registered_unidentified)
		return false;
	for (i = 0; i < ps->n; i++) {
		count[ps->v[i].proto]++;
		reg += ps->v[i].ring_fd >= 0;
		only_ring += ps->v[i].fd < 0;
	}
	add(buf, bufsz, &len, "sockets:");
	for (t = 0; t <= NET_NPROTO; t++) {
		if (!count[t])
			continue;
		add(buf, bufsz, &len, "%s %zu %s", sep, count[t], net_proto_name(t));
		sep = ",";
	}
	if (!ps->n)
		add(buf, bufsz, &len, " none as fds");
	for (i = 0; i < ps->nlisteners && i < SUMMARY_LISTENERS; i++) {
		const struct proc_listener *l = &ps->listeners[i];
		const struct proc_socket *s = &ps->v[l->first];
		const char *name = s->proto != NET_UNIX ? proc_socket_local(s, addr, sizeof(addr))
				   : s->un.path ? s->un.path : "(unbound)";

		/* Raw, as every note is: the writers escape it (lib/output/escape.c). */
		add(buf, bufsz, &len, "%s %.120s%s", i ? "," : "; listening on", name,
		    strlen(name) > 120 ? "..." : "");
		if (l->in_netns > 1)
			add(buf, bufsz, &len, " (%zu of this process's, a reuseport group of %zu)",
			    l->ours, l->in_netns);
	}
	if (ps->nlisteners > SUMMARY_LISTENERS)
		add(buf, bufsz, &len, " and %zu more", ps->nlisteners - SUMMARY_LISTENERS);
	if (reg)
		add(buf, bufsz, &len, "; %zu registered with a ring", reg);
	if (only_ring)
		add(buf, bufsz, &len, " (%zu only in a ring's file table)", only_ring);
	if (ps->registered_unidentified)
		add(buf, bufsz, &len, "; %u registered socket%s not identifiable (this kernel's "
		    "fdinfo names them only by protocol)", ps->registered_unidentified,
		    ps->registered_unidentified == 1 ? "" : "s");
	if (!fact_ok(&ps->e))
		add(buf, bufsz, &len, "; %.200s%s", ps->e.why, strlen(ps->e.why) > 200 ? "..." : "");
	return true;
}
