// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Is the process on io_uring at all? A service whose io_uring_setup() fails
 * often falls back to another I/O path without a word: it then maps its
 * io_uring library (or a Linux AIO ring) and has no ring. Where that is
 * seen, say so and name the likely cause, with the credentials and limits
 * of the process itself.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "array.h"
#include "output.h"
#include "checks.h"

/* The ring sizes services commonly ask for, smallest first. */
static const uint32_t usual_entries[] = { 64, 256, 4096 };
#define NUSUAL (ARRAY_SIZE(usual_entries))

#define FIX_FIND_SETUP_ERROR                                                               \
	"find why the service has no ring: its log at start, or strace -f -e "             \
	"trace=io_uring_setup of its start, shows io_uring_setup()'s errno"

/*
 * RLIMIT_MEMLOCK against rings of the usual sizes, in words, into buf;
 * true when some of them cannot be created under it (a likely cause).
 */
static bool memlock_words(const struct check_ctx *ctx, const struct proc_status *st,
			  const struct proc_limits *lim, char *buf, size_t len)
{
	const struct host_facts *hf = ctx->host;
	char l[BYTES_STR_MAX], b[BYTES_STR_MAX], kernel[48], over[64] = "";
	size_t i, used, below = 0;
	uint64_t need[NUSUAL];

	for (i = 0; i < NUSUAL; i++)
		need[i] = ring_memlock_charge(hf, usual_entries[i], 2 * usual_entries[i]);
	if (fact_ok(&hf->kernel.e))
		snprintf(kernel, sizeof(kernel), "Linux %u.%u", hf->kernel.v.major,
			 hf->kernel.v.minor);
	else
		snprintf(kernel, sizeof(kernel), "this kernel (version unknown, taken as 6.14+)");
	format_bytes(lim ? lim->memlock.soft : 0, l);
	switch (ring_memlock_judge(hf, st, lim, need[0])) {
	case RING_ML_CAP:
		snprintf(buf, len, "it has CAP_IPC_LOCK, which io_uring does not charge, so "
			 "RLIMIT_MEMLOCK is not why");
		return false;
	case RING_ML_UNCHARGED:
		snprintf(buf, len, "%s charges ring memory to the memory cgroup, not to "
			 "RLIMIT_MEMLOCK, so its limit (%s) is not why a ring could not be created",
			 kernel, l);
		return false;
	case RING_ML_UNLIMITED:
		snprintf(buf, len, "its RLIMIT_MEMLOCK is unlimited");
		return false;
	case RING_ML_UNKNOWN:
		snprintf(buf, len, "its RLIMIT_MEMLOCK or capabilities could not be read");
		return false;
	case RING_ML_BELOW:
	case RING_ML_FITS:
		break;
	}
	used = (size_t)snprintf(buf, len, "RLIMIT_MEMLOCK is %s without CAP_IPC_LOCK, and %s "
				"charges ring memory to it: a ring of", l, kernel);
	for (i = 0; i < NUSUAL && used < len; i++) {
		used += (size_t)snprintf(buf + used, len - used, "%s %u entries needs %s",
					 i ? (i + 1 == NUSUAL ? " and" : ",") : "", usual_entries[i],
					 format_bytes(need[i], b));
		if (lim->memlock.soft < need[i])
			snprintf(over + strlen(over), sizeof(over) - strlen(over), "%s%u",
				 below++ ? (i + 1 == NUSUAL ? " and " : ", ") : "", usual_entries[i]);
	}
	if (used >= len)
		return below > 0;
	if (below == NUSUAL)
		snprintf(buf + used, len - used, ": none of them fits");
	else if (below)
		snprintf(buf + used, len - used, ": rings of %s entries do not fit", over);
	else
		snprintf(buf + used, len - used, ": each fits on its own, but the charge is per "
			 "user, so other processes of uid %u may have used the limit up", st->euid);
	return below > 0;
}

static void add_charges(struct finding *f, const struct check_ctx *ctx)
{
	struct json_object *o = json_object_new_object();
	char key[16];
	size_t i;

	for (i = 0; i < NUSUAL; i++) {
		snprintf(key, sizeof(key), "%u", usual_entries[i]);
		json_object_object_add(o, key, json_object_new_int64(
			(int64_t)ring_memlock_charge(ctx->host, usual_entries[i],
							   2 * usual_entries[i])));
	}
	json_object_object_add(f->evidence, "ring_memlock_bytes", o);
}

/* No ring, and an io_uring library or an AIO context: not on io_uring, and why. */
static void not_on_uring(const struct check *c, struct check_ctx *ctx, const char *subject)
{
	const struct proc_facts *pf = ctx->proc;
	const struct proc_maps *m = &pf->maps;
	const struct proc_status *st = fact_ok(&pf->status.e) ? &pf->status.st : NULL;
	const struct proc_limits *lim = fact_ok(&pf->limits.e) ? &pf->limits.lim : NULL;
	char eperm[512], memlock[512], what[700], aio[96] = "", fix[1024], says[1024];
	char from[APP_FROM_MAX];
	enum uring_eperm_cause cause = uring_eperm_cause(ctx->host, st, eperm, sizeof(eperm));
	bool ml = memlock_words(ctx, st, lim, memlock, sizeof(memlock));
	const struct qemu_drive *dr;
	struct finding *f;

	if (m->runtime[0])
		snprintf(what, sizeof(what), "it maps %s%s but has no ring (no anon_inode:[io_uring] "
			 "fd or mapping)", m->runtime, m->runtime_truncated ? "..." : "");
	else
		snprintf(what, sizeof(what), "it has no ring (no anon_inode:[io_uring] fd or "
			 "mapping) and maps no io_uring library");
	if (m->aio_contexts)
		snprintf(aio, sizeof(aio), "; it does its I/O through Linux AIO instead (%u io_setup() "
			 "context%s)", m->aio_contexts, m->aio_contexts == 1 ? "" : "s");
	/* Its own settings, where its command line shows them: the cause, not a guess. */
	if (cause == EPERM_NONE && !ml &&
	    proc_app_config_says(ctx, APP_FIX_NO_URING, NULL, says, sizeof(says), &dr, from)) {
		f = proc_add(c, ctx, m->runtime[0] ? STATUS_FAIL : STATUS_WARN, subject,
			     "not on io_uring: %s%s. Cause, from %s: %s", what, aio, from, says);
		/*
		 * The cause is its own setting, not a failed io_uring_setup(): the
		 * check's fix (limits, sysctls, seccomp) is not the one. QEMU's
		 * block layer's words for its images (-drive, --blockdev); the
		 * others' own setting follows.
		 */
		if (dr || !strcmp(check_ctx_app(ctx)->id, "qemu-system") ||
		    !strcmp(check_ctx_app(ctx)->id, "qemu-storage-daemon"))
			finding_set_fix(f, "%s", "set each image to aio=io_uring");
		else
			finding_set_fix(f, "%s", "change the setting the cause names, which keeps it "
					"off io_uring");
		proc_app_fix_file(ctx, f, APP_FIX_NO_URING, NULL);
		json_add_bytes(f->evidence, "runtime", m->runtime[0] ? m->runtime : NULL);
		finding_ev_int(f, "aio_contexts", m->aio_contexts);
		finding_ev_str(f, "likely_cause", "application setting");
		return;
	}
	f = proc_add(c, ctx, m->runtime[0] ? STATUS_FAIL : STATUS_WARN, subject,
		     "not on io_uring: %s%s. %s%s%s%s%s", what, aio,
		     cause != EPERM_NONE || ml ? "Likely cause: " : "No cause seen here: ",
		     cause != EPERM_NONE ? eperm : "", cause != EPERM_NONE ? "; " : "", memlock,
		     cause != EPERM_NONE || ml
			     ? ""
			     : "; it may not have asked for a ring (some runtimes create one only "
			       "when configured to), or io_uring_setup() failed for a reason not "
			       "visible here, such as a security module");
	if (cause != EPERM_NONE && ml)
		finding_set_fix(f, "%s; and %s", uring_eperm_fix(cause), proc_memlock_fix(pf, fix, sizeof(fix)));
	else if (cause != EPERM_NONE)
		finding_set_fix(f, "%s", uring_eperm_fix(cause));
	else if (ml)
		finding_set_fix(f, "%s", proc_memlock_fix(pf, fix, sizeof(fix)));
	else
		finding_set_fix(f, "%s", FIX_FIND_SETUP_ERROR);
	/* No cause of the kernel's: the application's own engine setting, where the table has it. */
	if (cause == EPERM_NONE && !ml)
		proc_app_fix(ctx, f, APP_FIX_NO_URING);
	json_add_bytes(f->evidence, "runtime", m->runtime[0] ? m->runtime : NULL);
	finding_ev_int(f, "aio_contexts", m->aio_contexts);
	finding_ev_str(f, "likely_cause", cause == EPERM_SYSCTL    ? "kernel.io_uring_disabled"
					  : cause == EPERM_GROUP   ? "kernel.io_uring_group"
					  : cause == EPERM_SECCOMP ? "seccomp"
					  : ml			   ? "RLIMIT_MEMLOCK"
								   : NULL);
	if (lim)
		finding_ev_int(f, "memlock_soft", lim->memlock.soft == LIMIT_INFINITY
						 ? -1 : (int64_t)lim->memlock.soft);
	add_charges(f, ctx);
}

/*
 * What the rings show of their use. fdinfo's SQ and CQ positions count
 * from 0 since the ring was set up (5.17+): a ring whose kernel-side
 * positions are all 0 has taken no request in its life. A watch adds the
 * requests it saw. Counts: rings that took requests, rings that never did,
 * rings that cannot tell.
 */
struct ring_use {
	unsigned int used, never, unknown;
	uint64_t watched_reqs;
	/* of them, requests that named a file or a socket (not NOP, timeouts, ...) */
	uint64_t watched_io_reqs;
	/* SQEs the busiest used ring took in its life (fdinfo's CachedSqHead, mod 2^32) */
	uint32_t life_max;
};

/* Below this many plain calls a ring that did no I/O is not judged by them. */
#define PLAIN_IO_MIN 16
/* A ring that took at most this many SQEs in its life was set up, tried, and left. */
#define RING_LIFE_FEW 8

static void ring_use_of(const struct proc_facts *pf, struct ring_use *u)
{
	const struct punt_watch *w = pf->watch;
	size_t i;

	memset(u, 0, sizeof(*u));
	for (i = 0; w && w->tracepoint && !w->blind && i < w->ut.nrings; i++) {
		u->watched_reqs += w->ut.rings[i].reqs;
		u->watched_io_reqs += w->ut.rings[i].reqs - w->ut.rings[i].nofile_reqs;
	}
	for (i = 0; i < pf->nrings; i++) {
		const struct proc_ring *r = &pf->rings[i];
		const struct uring_fdinfo *fi = &r->u;

		if (!fact_ok(&r->e) || r->busy || !fi->has_ring_state)
			u->unknown++;
		else if (fi->cached_sq_head || fi->sq_tail || fi->cached_cq_tail || fi->cq_head) {
			u->used++;
			u->life_max = fi->cached_sq_head > u->life_max ? fi->cached_sq_head : u->life_max;
		}
		else
			u->never++;
	}
}

/* Rings, none seen in use: never a pass, which would take an idle ring for io_uring's use. */
static void idle_rings(const struct check *c, struct check_ctx *ctx, const char *subject,
		       const struct ring_use *u)
{
	const struct proc_facts *pf = ctx->proc;
	struct finding *f;

	if (u->unknown)
		f = proc_add(c, ctx, STATUS_SKIP, subject,
			     "%zu ring fd%s, and whether %s took requests is unknown (%u of them "
			     "without SQ and CQ positions in fdinfo: before 5.17, or the ring lock "
			     "was busy)%s: a ring alone is no proof that the process does its I/O "
			     "through io_uring", pf->nrings, pf->nrings == 1 ? "" : "s",
			     pf->nrings == 1 ? "it" : "they", u->unknown,
			     u->never ? ", the others never did" : "");
	else
		f = proc_add(c, ctx, STATUS_SKIP, subject,
			     "%zu ring fd%s, but %s taken no request since %s set up (SQ and CQ "
			     "positions all 0 in fdinfo)%s: the process keeps %s idle, and its "
			     "I/O, if any, goes another way (audit --watch counts its plain reads "
			     "and writes)", pf->nrings, pf->nrings == 1 ? "" : "s",
			     pf->nrings == 1 ? "it has" : "none has",
			     pf->nrings == 1 ? "it was" : "they were",
			     proc_watched(pf) ? ", nor while watched" : "",
			     pf->nrings == 1 ? "it" : "them");
	finding_ev_int(f, "ring_fds", (int64_t)pf->nrings);
	finding_ev_int(f, "rings_never_used", u->never);
	finding_ev_int(f, "rings_use_unknown", u->unknown);
}

/*
 * Watched: its rings never took a request in their life (fdinfo's positions
 * all 0) while it read and wrote files with plain positional system calls.
 * Measured off io_uring: a failure, with both counts and the application's
 * own setting when the table knows it. A ring that took requests before and
 * is quiet now is no such thing: a database writes its log with pwrite by
 * design and may be idle while watched.
 */
/*
 * The failure both plain-I/O verdicts give: what the rings took (took), the
 * plain calls beside, the cause when its own settings say it, and the fix.
 */
static struct finding *plain_io_fail(const struct check *c, struct check_ctx *ctx,
				     const char *subject, const char *what, const char *took,
				     const char *cause, uint64_t uring_requests)
{
	const struct proc_facts *pf = ctx->proc;
	struct finding *f;

	f = proc_add(c, ctx, STATUS_FAIL, subject,
		     "%s: %s, while it made %llu positional reads and writes with plain system calls "
		     "(pread64, pwrite64 and their vector forms)%s", what, took,
		     (unsigned long long)pf->watch->plain_io, cause);
	finding_set_fix(f, "make the application do its file I/O through io_uring (its setting, "
			   "where it has one; uringlint's application table names it for the "
			   "applications it knows)");
	proc_app_fix_file(ctx, f, APP_FIX_NO_URING, NULL);
	finding_ev_int(f, "ring_fds", (int64_t)pf->nrings);
	finding_ev_int(f, "uring_requests", (int64_t)uring_requests);
	finding_ev_int(f, "plain_io_calls", (int64_t)pf->watch->plain_io);
	return f;
}

/*
 * Watched: its rings never took a request in their life (fdinfo's positions
 * all 0) while it read and wrote files with plain positional system calls.
 * Measured off io_uring: a failure, with both counts and the application's
 * own setting when the table knows it. A ring that took requests before and
 * is quiet now is no such thing: a database writes its log with pwrite by
 * design and may be idle while watched.
 */
static bool plain_io_instead(const struct check *c, struct check_ctx *ctx, const char *subject,
			     const struct ring_use *u)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_watch *w = pf->watch;
	const struct qemu_drive *dr;
	char says[1024], cause[1500] = "", from[APP_FROM_MAX], took[300];

	if (!proc_watched(pf) || !w->plain_io_counted || !w->plain_io || u->watched_reqs ||
	    u->used || u->unknown)
		return false;
	/* Its own settings, where they were read: the cause, not a guess. */
	if (proc_app_config_says(ctx, APP_FIX_NO_URING, NULL, says, sizeof(says), &dr, from))
		snprintf(cause, sizeof(cause), ". Cause, from %s: %s", from, says);
	snprintf(took, sizeof(took), "its %zu ring%s never took a request (SQ and CQ positions all "
		 "0 in fdinfo), and none in the %s watched", pf->nrings, pf->nrings == 1 ? "" : "s",
		 punt_watch_span(w).s);
	plain_io_fail(c, ctx, subject, "not on io_uring", took, cause, 0);
	return true;
}

/* The opcodes the watch saw on the rings, "NOP x4, TIMEOUT x1", into buf. */
static void watched_ops(const struct punt_watch *w, char *buf, size_t n)
{
	char name[24];
	size_t i, k;

	buf[0] = 0;
	for (i = 0; i < w->ut.nrings; i++)
		for (k = 0; k < w->ut.rings[i].nops; k++) {
			const struct ut_ring_op *op = &w->ut.rings[i].ops[k];

			catf(buf, n, "%s%s x%llu", buf[0] ? ", " : "",
			     uring_trace_op_name(&w->ut, op->opcode, name, sizeof(name)),
			     (unsigned long long)op->reqs);
		}
}

/*
 * Watched: its rings took requests, but none that named a file or a socket
 * (NOPs, timeouts: a ring set up and tried), or took a handful in their life
 * and none while watched, while the process read and wrote files with plain
 * positional calls. Its file I/O is measured off io_uring: a failure. The
 * count covers the time sampled, as the requests do (plain_io_seconds). A
 * ring that took file or socket requests is no such thing: what else goes
 * by plain calls beside it is the application's design (a database's log).
 */
static bool plain_io_beside(const struct check *c, struct check_ctx *ctx, const char *subject,
			    const struct ring_use *u)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_watch *w = pf->watch;
	char ops[256], took[400];
	struct finding *f;

	if (!proc_watched(pf) || !w->plain_io_counted || w->plain_io < PLAIN_IO_MIN || u->unknown)
		return false;
	/*
	 * "No file" is "no file lookup joined to it": only where the events join a
	 * request to its file, and only for a ring whose whole life was watched
	 * (--exec) or took little more than the watch saw: a server whose
	 * multishot receives were armed before the watch takes only timeouts in
	 * it, and a database's page reads by pread sit beside thousands of ring
	 * requests in its life.
	 */
	if (!w->ut.f_req[UT_FILE_GET] || !w->ut.have[UT_SUBMIT])
		return false;
	if (u->watched_reqs && !u->watched_io_reqs &&
	    (w->exec || u->life_max <= u->watched_reqs + RING_LIFE_FEW)) {
		watched_ops(w, ops, sizeof(ops));
		snprintf(took, sizeof(took), "its ring%s took %llu request%s in the %s watched, none "
			 "on a file or socket (%s)", w->ut.nrings == 1 ? "" : "s",
			 (unsigned long long)u->watched_reqs, u->watched_reqs == 1 ? "" : "s",
			 punt_watch_span(w).s, ops[0] ? ops : "opcodes not seen");
	} else if (!u->watched_reqs && u->used && u->life_max <= RING_LIFE_FEW && !w->exec) {
		snprintf(took, sizeof(took), "its ring%s took %u request%s in %s life (CachedSqHead "
			 "in fdinfo) and none in the %s watched", pf->nrings == 1 ? "" : "s",
			 u->life_max, u->life_max == 1 ? "" : "s", pf->nrings == 1 ? "its" : "the busiest's",
			 punt_watch_span(w).s);
	} else {
		return false;
	}
	f = plain_io_fail(c, ctx, subject, "not on io_uring for its file I/O", took, "",
			  u->watched_reqs);
	finding_ev_int(f, "uring_io_requests", (int64_t)u->watched_io_reqs);
	finding_ev_int(f, "ring_life_requests", u->watched_reqs ? -1 : (int64_t)u->life_max);
	return true;
}

/* No ring of its own, and children that hold some: they are the ones to audit. */
static void ring_children(const struct check *c, struct check_ctx *ctx, const char *subject)
{
	const struct proc_facts *pf = ctx->proc;
	struct json_object *list = json_object_new_array();
	char pids[256] = "";
	struct finding *f;
	size_t i;

	for (i = 0; i < pf->nring_children; i++) {
		if (i < 8)
			catf(pids, sizeof(pids), "%s%d", i ? " " : "", (int)pf->ring_children[i]);
		json_object_array_add(list, json_object_new_int(pf->ring_children[i]));
	}
	/* Decided, not blind: the rings are the children's, and the finding names them. */
	f = proc_add(c, ctx, STATUS_INFO, subject,
		     "pid %d holds no ring, but %zu of its descendants %s (pid %s%s): a forking "
		     "server's workers own the rings, and they are the processes to audit "
		     "(uringlint audit %s)", (int)pf->pid, pf->nring_children,
		     pf->nring_children == 1 ? "does" : "do", pids,
		     pf->nring_children > 8 ? " and more" : "", pids);
	json_object_object_add(f->evidence, "ring_children", list);
}

void check_uring_fallback(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct proc_maps *m = &pf->maps;
	char subject[32];
	struct finding *f;

	if (!proc_usable(c, ctx, false))
		return;
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!fact_ok(&pf->fds_e)) {
		proc_fact_missing(c, ctx, subject, &pf->fds_e);
		return;
	}
	if (pf->nrings) {
		struct ring_use u;

		ring_use_of(pf, &u);
		if (plain_io_instead(c, ctx, subject, &u) || plain_io_beside(c, ctx, subject, &u))
			return;
		if (!u.used && !u.watched_reqs) {
			idle_rings(c, ctx, subject, &u);
			return;
		}
		if (u.watched_reqs)
			f = proc_add(c, ctx, STATUS_PASS, subject, "on io_uring: %zu ring fd%s, with "
				     "%llu requests in the %s watched", pf->nrings,
				     pf->nrings == 1 ? "" : "s", (unsigned long long)u.watched_reqs,
				     punt_watch_span(pf->watch).s);
		else if (proc_watched(pf))
			f = proc_add(c, ctx, STATUS_PASS, subject, "on io_uring: %zu ring fd%s, %u of "
				     "which took requests since set up, though none in the %s watched "
				     "(quiet: %llu positional reads and writes with plain system calls "
				     "meanwhile)", pf->nrings, pf->nrings == 1 ? "" : "s", u.used,
				     punt_watch_span(pf->watch).s,
				     (unsigned long long)pf->watch->plain_io);
		else
			f = proc_add(c, ctx, STATUS_PASS, subject, "on io_uring: %zu ring fd%s, %u of "
				     "which took requests since set up (SQ and CQ positions in fdinfo)",
				     pf->nrings, pf->nrings == 1 ? "" : "s", u.used);
		finding_ev_int(f, "ring_fds", (int64_t)pf->nrings);
		finding_ev_int(f, "rings_used", u.used);
		finding_ev_int(f, "rings_never_used", u.never);
		return;
	}
	/*
	 * No ring now, but the watch saw its rings take requests: a process that
	 * sets rings up and tears them down (or ended them before this reading)
	 * is on io_uring; a reading between two rings is no proof of the contrary.
	 */
	{
		struct ring_use u;

		ring_use_of(pf, &u);
		if (u.watched_reqs && plain_io_beside(c, ctx, subject, &u))
			return;
		if (u.watched_reqs) {
			f = proc_add(c, ctx, STATUS_PASS, subject,
				     "on io_uring: no ring fd at this reading, but %zu ring%s took %llu "
				     "requests in the %s watched", pf->watch->ut.nrings,
				     pf->watch->ut.nrings == 1 ? "" : "s",
				     (unsigned long long)u.watched_reqs, punt_watch_span(pf->watch).s);
			finding_ev_int(f, "ring_fds", 0);
			finding_ev_int(f, "rings_watched", (int64_t)pf->watch->ut.nrings);
			return;
		}
	}
	if (pf->nring_children) {
		ring_children(c, ctx, subject);
		return;
	}
	if (!fact_ok(&m->e)) {
		proc_add(c, ctx, fact_status(&m->e), subject,
			 "no io_uring fd, and what it maps instead could not be read: %s", m->e.why);
		return;
	}
	if (m->uring_maps) {
		f = proc_add(c, ctx, STATUS_PASS, subject,
			     "on io_uring: no ring fd, but %u anon_inode:[io_uring] mapping%s: rings "
			     "whose fds were closed once registered (io_uring_close_ring_fd())",
			     m->uring_maps, m->uring_maps == 1 ? "" : "s");
		finding_ev_int(f, "uring_mappings", m->uring_maps);
		return;
	}
	if (!m->runtime[0] && !m->aio_contexts) {
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "no io_uring fd or mapping, no io_uring library mapped and no Linux AIO "
			 "context: nothing shows it means to use io_uring (a runtime built into the "
			 "binary leaves no mark in its maps)");
		return;
	}
	not_on_uring(c, ctx, subject);
}
