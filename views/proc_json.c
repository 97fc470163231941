// SPDX-License-Identifier: GPL-2.0-or-later
/* The processes inventory of the JSON contract, from proc_facts. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "proc_json.h"
#include "sockets_json.h"
#include "scene_json.h"
#include "watch.h"

/*
 * The "fs" and "device" keys of the last mount written, kept as written:
 * the 10,000 files of an audit share a few mounts, and their strings came
 * from mountinfo, so each would be checked for what to escape again.
 */
struct mount_keys {
	const struct proc_mount *m;
	struct json_put frag;
	bool have;
};

static void mount_keys_put(struct json_put *p, struct mount_keys *mk, const struct proc_mount *m)
{
	if (!mk->have || mk->m != m) {
		mk->frag.len = 0;
		mk->frag.any = true;	/* never the object's first key: its comma stays */
		json_put_string(&mk->frag, "fs", m ? m->fstype : NULL);
		json_put_string(&mk->frag, "device", m ? m->source : NULL);
		mk->m = m;
		mk->have = !mk->frag.failed;
	}
	if (mk->frag.failed)
		p->failed = true;
	else
		json_put_len(p, mk->frag.buf, mk->frag.len);
}

/* One file of the inventory, streamed: the same object json-c would write. */
static int file_json_put(struct json_put *p, struct mount_keys *mk, const struct proc_facts *pf,
			 const struct proc_file *f)
{
	int acc = f->gen.flags & O_ACCMODE;

	json_put_begin(p);
	json_put_int(p, "fd", f->fd);
	json_put_bytes(p, "path", f->path);
	json_put_octal(p, "flags", (unsigned int)f->gen.flags);
	json_put_bool(p, "o_direct", f->gen.flags & O_DIRECT);
	json_put_bool(p, "o_append", f->gen.flags & O_APPEND);
	json_put_bool(p, "o_dsync", f->gen.flags & O_DSYNC);
	json_put_bool(p, "o_sync", (f->gen.flags & O_SYNC) == O_SYNC);
	if (acc == O_RDONLY)
		json_put_literal(p, "access", "r");
	else if (acc == O_WRONLY)
		json_put_literal(p, "access", "w");
	else
		json_put_literal(p, "access", "rw");
	json_put_bool(p, "registered", f->registered);
	mount_keys_put(p, mk, proc_file_mount(pf, f));
	json_put_int_known(p, "size", f->size_known, (int64_t)f->size);
	json_put_int_known(p, "extents", !f->ext_err, f->extents);
	json_put_int_known(p, "unwritten_extents", !f->ext_err, f->unwritten);
	return json_put_end(p);
}

/* The SQPOLL counters over the audit's window; NULL when there was none. */
static struct json_object *window_json(const struct proc_window *w, int fd)
{
	const struct window_ring *wr = proc_window_ring(w, fd);
	struct json_object *o;
	uint64_t total, work;

	if (!fact_ok(&w->e) || !wr || !window_ring_ok(wr) || !wr->r[0].has_times)
		return NULL;
	total = wr->r[1].total_us - wr->r[0].total_us;
	work = wr->r[1].work_us - wr->r[0].work_us;
	o = json_object_new_object();
	json_object_object_add(o, "ms", json_object_new_int64(w->ms));
	json_object_object_add(o, "total_us", json_object_new_int64((int64_t)total));
	json_object_object_add(o, "work_us", json_object_new_int64((int64_t)work));
	json_object_object_add(o, "busy_ratio", total ? json_object_new_double((double)work /
									      (double)total)
						      : NULL);
	if (wr->r[0].has_heads) {
		json_object_object_add(o, "sqes_taken", json_object_new_int64(
			(uint32_t)(wr->r[1].sq_taken - wr->r[0].sq_taken)));
		json_object_object_add(o, "cqes_posted", json_object_new_int64(
			(uint32_t)(wr->r[1].cq_posted - wr->r[0].cq_posted)));
	}
	return o;
}

/* The NAPI block of 6.12+ (null when the ring printed none). */
static struct json_object *napi_json(const struct uring_fdinfo *u)
{
	struct json_object *o;

	if (!u->has_napi)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "state", json_bytes_string(u->napi));
	json_object_object_add(o, "enabled", json_object_new_boolean(u->napi_on));
	json_object_object_add(o, "busy_poll_dt_ns", u->has_napi_dt
				? json_object_new_int64((int64_t)u->napi_busy_poll_dt_ns) : NULL);
	json_object_object_add(o, "prefer_busy_poll", u->has_napi_prefer
				? json_object_new_boolean(u->napi_prefer_busy_poll) : NULL);
	json_object_object_add(o, "tracking", u->napi_tracking[0]
				? json_object_new_string(u->napi_tracking) : NULL);
	return o;
}

static struct json_object *ring_json(const struct proc_ring *r, const struct proc_window *w)
{
	struct json_object *o = json_object_new_object(), *sq = NULL;
	const struct uring_fdinfo *u = &r->u;
	bool known = !r->busy && fact_ok(&r->e);

	json_object_object_add(o, "fd", json_object_new_int(r->fd));
	json_object_object_add(o, "sq_entries", known && u->has_ring_state
							? json_object_new_int64(u->sq_entries) : NULL);
	json_object_object_add(o, "cq_entries", known && u->has_ring_state
							? json_object_new_int64(u->cq_entries) : NULL);
	if (known && u->sq_thread > 0) {
		sq = json_object_new_object();
		json_object_object_add(sq, "tid", json_object_new_int(u->sq_thread));
		json_object_object_add(sq, "cpu", json_object_new_int(u->sq_thread_cpu));
		json_object_object_add(sq, "busy_ratio",
				       u->has_sq_times && u->sq_total_time_us
					       ? json_object_new_double((double)u->sq_work_time_us /
									(double)u->sq_total_time_us)
					       : NULL);
		json_object_object_add(sq, "window", window_json(w, r->fd));
	}
	json_object_object_add(o, "sqpoll", sq);
	json_object_object_add(o, "registered_files",
			       known && u->has_user_files ? json_object_new_int64(u->user_files) : NULL);
	json_object_object_add(o, "registered_buffers",
			       known && u->has_user_bufs ? json_object_new_int64(u->user_bufs) : NULL);
	json_object_object_add(o, "cq_overflow", known && u->has_overflow_list
							 ? json_object_new_int64(u->cq_overflow) : NULL);
	json_object_object_add(o, "state", json_object_new_string(r->busy ? "busy"
							      : fact_ok(&r->e) ? "ok" : "error"));
	json_object_object_add(o, "napi", known ? napi_json(u) : NULL);
	return o;
}

static const char *unit_kind_name(enum cgroup_unit_kind k)
{
	return k == UNIT_USER ? "user" : k == UNIT_SESSION ? "session" : "system";
}

static struct json_object *nonempty(const char *s)
{
	return s[0] ? json_bytes_string(s) : NULL;
}

/* processes[].unit and .container: null when none, or when the cgroup was not read. */
static void owner_json(struct json_object *o, const struct proc_facts *pf)
{
	const struct cgroup_owner *ow = &pf->owner.o;
	struct json_object *u = NULL, *c = NULL;

	if (fact_ok(&pf->owner.e) && ow->unit.kind != UNIT_NONE) {
		u = json_object_new_object();
		json_add_bytes(u, "name", ow->unit.name);
		json_object_object_add(u, "kind", json_object_new_string(unit_kind_name(ow->unit.kind)));
		json_object_object_add(u, "slice", nonempty(ow->unit.slice));
		json_object_object_add(u, "uid", ow->unit.uid >= 0 ? json_object_new_int64(ow->unit.uid)
								   : NULL);
		json_add_bytes(u, "how", ow->how);
	}
	if (fact_ok(&pf->owner.e) && ow->container.runtime) {
		c = json_object_new_object();
		json_object_object_add(c, "runtime", json_object_new_string(ow->container.runtime));
		json_object_object_add(c, "id", nonempty(ow->container.id));
		json_object_object_add(c, "name", nonempty(ow->container.name));
		json_object_object_add(c, "pod_uid", nonempty(ow->container.pod_uid));
		json_object_object_add(c, "uid", ow->container.uid >= 0
					 ? json_object_new_int64(ow->container.uid) : NULL);
		json_add_bytes(c, "how", ow->how);
		/* its pid in its own PID namespace (NSpid), null when it has none of its own */
		json_object_object_add(c, "pid_inside", pf->owner.ns.other_pid
				       ? json_object_new_int64(pf->owner.ns.nspid) : NULL);
		/* its mount namespace is not uringlint's: paths it names are in the container's root */
		json_object_object_add(c, "own_mount_namespace", pf->owner.ns.other_mnt < 0 ? NULL
				       : json_object_new_boolean(pf->owner.ns.other_mnt == 1));
	}
	json_object_object_add(o, "unit", u);
	json_object_object_add(o, "container", c);
	if (!fact_ok(&pf->owner.e) && pf->owner.e.err != -ENOENT)
		json_object_object_add(o, "owner_error", json_bytes_string(pf->owner.e.why));
}

/* One MariaDB setting and where it was set; null when nothing set it. */
static void my_setting_json(struct json_object *o, const struct my_cnf *c,
			    const struct my_cnf_value *v)
{
	struct json_object *s = NULL;

	if (v->value[0]) {
		s = json_object_new_object();
		json_add_bytes(s, "value", v->value);
		json_add_bytes(s, "from", v->from);
	}
	json_object_object_add(o, my_cnf_name(c, v), s);
}

/*
 * What uringlint read of a known application's own configuration, the
 * settings the checks quote: a MariaDB server's; null for other processes.
 */
static struct json_object *app_config_json(const struct proc_facts *pf)
{
	struct json_object *o, *set;
	const struct my_cnf *c = pf->mariadb;

	if (!c)
		return NULL;
	o = json_object_new_object();
	set = json_object_new_object();
	json_object_object_add(o, "application", json_object_new_string("mariadb"));
	my_setting_json(set, c, &c->flush_method);
	my_setting_json(set, c, &c->data_file_buffering);
	my_setting_json(set, c, &c->native_aio);
	my_setting_json(set, c, &c->linux_aio);
	json_object_object_add(o, "settings", set);
	/* A file it names that was not read (refused as the server's user, gone, too many). */
	json_object_object_add(o, "files_unread", json_object_new_boolean(c->unread));
	json_object_object_add(o, "versioned_groups_skipped", json_object_new_boolean(c->versioned));
	return o;
}

/*
 * Every thread: its name, kind, state, the CPU it last ran on and where it
 * may run, for the drawing of the thread model and for readers who place
 * threads on CPUs themselves. null when the threads were not read.
 */
static struct json_object *thread_list_json(const struct proc_threads *t)
{
	static const char *const kinds[] = {
		[THREAD_PLAIN] = "thread", [THREAD_IOU_WRK] = "iou-wrk", [THREAD_IOU_SQP] = "iou-sqp",
	};
	struct json_object *list;
	size_t i;

	if (!fact_ok(&t->e))
		return NULL;
	list = json_object_new_array_ext((int)t->n);
	for (i = 0; i < t->n; i++) {
		const struct proc_thread *th = &t->v[i];
		struct json_object *o = json_object_new_object();
		char state[2] = { th->state, '\0' };

		json_object_object_add(o, "tid", json_object_new_int(th->tid));
		json_add_bytes(o, "comm", th->comm);
		json_object_object_add(o, "kind", json_object_new_string(kinds[th->kind]));
		json_object_object_add(o, "state", th->state ? json_object_new_string(state) : NULL);
		json_object_object_add(o, "cpu", th->cpu >= 0 ? json_object_new_int(th->cpu) : NULL);
		json_object_object_add(o, "cpus_allowed", th->cpus_allowed[0] ?
				       json_object_new_string(th->cpus_allowed) : NULL);
		json_object_array_add(list, o);
	}
	return list;
}

int proc_facts_json_write(const struct proc_facts *pf, FILE *out, bool first)
{
	struct json_object *o = json_object_new_object(), *rings = json_object_new_array(),
			   *threads = json_object_new_object();
	struct mount_keys mk = { 0 };
	struct json_put p;
	size_t i;
	int err = 0;

	json_object_object_add(o, "pid", json_object_new_int(pf->pid));
	json_add_bytes(o, "comm", pf->comm[0] ? pf->comm : NULL);
	owner_json(o, pf);
	json_object_object_add(o, "complete", json_object_new_boolean(fact_ok(&pf->e) &&
								      !pf->incomplete && !pf->unread));
	if (!fact_ok(&pf->e))
		json_object_object_add(o, "error", json_bytes_string(pf->e.why));
	for (i = 0; i < pf->nrings; i++)
		json_object_array_add(rings, ring_json(&pf->rings[i], &pf->window));
	if (!pf->nrings) {
		struct json_object *kids = json_object_new_array();
		size_t k;

		for (k = 0; k < pf->nring_children; k++)
			json_object_array_add(kids, json_object_new_int(pf->ring_children[k]));
		json_object_object_add(o, "ring_children", kids);
	}
	json_object_object_add(o, "rings", rings);
	json_object_object_add(threads, "total", json_object_new_int64((int64_t)pf->threads.n));
	json_object_object_add(threads, "iou_wrk", json_object_new_int64(pf->threads.iou_wrk));
	json_object_object_add(threads, "iou_sqp", json_object_new_int64(pf->threads.iou_sqp));
	json_object_object_add(threads, "d_state", json_object_new_int64(pf->threads.d_state));
	json_object_object_add(threads, "list", thread_list_json(&pf->threads));
	json_object_object_add(o, "threads", threads);
	if (pf->mariadb)
		json_object_object_add(o, "app_config", app_config_json(pf));
	if (pf->watch)
		json_object_object_add(o, "watch", watch_json(pf->watch, &pf->threads));
	if (pf->scene_taken)
		json_object_object_add(o, "scene", scene_json(&pf->scene));

	/* The object without files, its closing brace replaced by the files array. */
	if (fprintf(out, "%s\n    ", first ? "" : ",") < 0) {
		json_object_put(o);
		return -EIO;
	}
	err = json_put_head(out, o, "files");
	json_put_init(&p, out);
	for (i = 0; !err && i < pf->nfiles; i++) {
		if (i)
			json_put_raw(&p, ", ");
		err = file_json_put(&p, &mk, pf, &pf->files[i]);
	}
	if (!err)
		err = json_put_flush(&p);
	json_put_free(&p);
	json_put_free(&mk.frag);
	if (!err && fputs("], \"sockets\": ", out) == EOF)
		err = -EIO;
	if (!err)
		err = proc_sockets_json_write(&pf->sockets, out);
	if (!err && fputs(" }", out) == EOF)
		err = -EIO;
	return err;
}

/* A note: the comm as it is, which the writers escape as they escape every note. */
void proc_facts_summary(const struct proc_facts *pf, char *buf, size_t bufsz)
{
	char owner[2 * CGROUP_NAME_MAX + 200];
	size_t i, sq = 0, unnamed;

	if (!fact_ok(&pf->e)) {
		snprintf(buf, bufsz, "pid %d: %s", (int)pf->pid, pf->e.why);
		return;
	}
	for (i = 0; i < pf->nrings; i++)
		sq += pf->rings[i].u.sq_thread > 0;
	unnamed = proc_facts_sqp_unnamed(pf);
	owner[0] = '\0';
	if (fact_ok(&pf->owner.e)) {
		cgroup_owner_words(&pf->owner.o, owner + 4, sizeof(owner) - 4);
		if (owner[4])
			memcpy(owner, " in ", 4);
	}
	snprintf(buf, bufsz,
		 "pid %d (%s)%s%s: %zu ring%s (%zu SQPOLL%s), %u fds, %zu threads (%u iou-sqp, %u "
		 "iou-wrk, %u in D)",
		 (int)pf->pid, pf->comm, owner,
		 pf->incomplete ? " [exited while read]" : "", pf->nrings, pf->nrings == 1 ? "" : "s",
		 sq, unnamed ? ", and a SQPOLL thread no ring names" : "", pf->nfds, pf->threads.n,
		 pf->threads.iou_sqp, pf->threads.iou_wrk, pf->threads.d_state);
}
