// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which files io_uring punted requests on while watched, what share of
 * their requests, and why: from the request's own flags (IOSQE_ASYNC) and
 * the file's flags and state (buffered, O_APPEND, growing, holes,
 * unwritten extents, page cache). State makes a cause likely, not
 * certain, and the message says which is which.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "output.h"
#include "checks.h"

/* A watch that saw: a blind one (a secure exec) or one that failed is no watch. */
bool proc_watched(const struct proc_facts *pf)
{
	return pf->watch && pf->watch->tracepoint && fact_ok(&pf->watch->e) && !pf->watch->blind;
}

const struct ut_file *proc_watched_file(const struct proc_facts *pf, const struct proc_file *f,
					const struct watch_file **wf)
{
	const struct punt_watch *w = pf->watch;
	size_t i;

	if (!proc_watched(pf))
		return NULL;
	for (i = 0; i < w->ut.nfiles; i++) {
		if (w->ut.files[i].fd != f->fd)
			continue;
		/* The same fd number on another file since the collection is not this one. */
		if (i < w->nfiles && w->files[i].first.path && strcmp(w->files[i].first.path, f->path))
			return NULL;
		if (wf)
			*wf = i < w->nfiles ? &w->files[i] : NULL;
		return &w->ut.files[i];
	}
	return NULL;
}

/* The audit's ring a traced ring is: by the fd it was entered under, or the only one. */
static const struct proc_ring *ring_of_trace(const struct proc_facts *pf, const struct ut_ring *ur)
{
	size_t i;

	if (pf->nrings == 1)
		return &pf->rings[0];
	for (i = 0; ur->fd >= 0 && !ur->fd_ambiguous && i < pf->nrings; i++)
		if (pf->rings[i].fd == ur->fd)
			return &pf->rings[i];
	return NULL;
}

void proc_watched_fixed(const struct proc_facts *pf, const struct proc_file *f,
			struct watched_fixed *wfx)
{
	const struct punt_watch *w = pf->watch;
	size_t i, k;

	memset(wfx, 0, sizeof(*wfx));
	if (!proc_watched(pf) || !f->registered)
		return;
	for (i = 0; i < w->ut.nrings; i++) {
		const struct ut_ring *ur = &w->ut.rings[i];
		const struct proc_ring *r = ring_of_trace(pf, ur);

		if (!ur->fixed_reqs)
			continue;
		/* A ring the events do not name could be any: its requests count for all. */
		if (!r) {
			wfx->unmapped_reqs += ur->fixed_reqs;
			wfx->unmapped_punts += ur->fixed_punts;
			continue;
		}
		for (k = 0; k < r->u.nfiles; k++)
			if (!strcmp(r->u.files[k].path, f->path)) {
				wfx->reqs += ur->fixed_reqs;
				wfx->punts += ur->fixed_punts;
				wfx->files += r->u.nfiles;
			}
	}
}

static const struct proc_file *file_by_fd(const struct proc_facts *pf, int fd, const char *path)
{
	size_t i;

	for (i = 0; i < pf->nfiles; i++)
		if (pf->files[i].fd == fd && (!path || !strcmp(pf->files[i].path, path)))
			return &pf->files[i];
	return NULL;
}

static const struct proc_file *file_by_path(const struct proc_facts *pf, const char *path)
{
	size_t i;

	for (i = 0; i < pf->nfiles; i++)
		if (!strcmp(pf->files[i].path, path))
			return &pf->files[i];
	return NULL;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* "12%", "0.11%": a small share keeps its digits, so it never reads as 0%. */
static const char *share_text(double share, char *buf, size_t n)
{
	snprintf(buf, n, share >= 10 ? "%.0f%%" : share >= 1 ? "%.1f%%" : "%.2f%%", share);
	return buf;
}

/*
 * Whether the process's punts that may be faults (not of opcodes io_uring
 * always runs in io-wq) are not shown over the punt tolerance of its
 * requests, as iowq-punts judges them; false when the submissions were not
 * counted.
 */
static bool process_under_tolerance(const struct check_ctx *ctx, const struct punt_watch *w)
{
	uint64_t kernel = 0, fault;

	if (!w->tracepoint || !w->submit_counted || !w->submitted)
		return false;
	if (w->sampled_all)
		fault = w->total - (punt_watch_kernel_async(w, &kernel) && kernel <= w->total ? kernel : 0);
	else
		fault = w->punts_sampled > w->ut.punts_kernel_async
				? w->punts_sampled - w->ut.punts_kernel_async : 0;
	return punt_status(ctx, fault, w->submitted) != STATUS_FAIL;
}

/* The causes the file's flags and state support, for punted reads or writes. */
struct causes {
	char text[1024];
	char fix[1024];
	struct json_object *list;	/* evidence: [{cause, punts, certain, observed}] */
	unsigned int n;
	bool observed;			/* the causes added now were seen in the workers */
	bool glued;			/* the next cause's text follows a lead-in, no "; " */
	bool certain;			/* one cause is certain: every such request punts */
	bool kinds[APP_FIX_KINDS];	/* the application settings that would fix them */
};

static void cause(struct causes *c, const char *id, uint64_t punts, bool certain,
		  const char *fix, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void cause(struct causes *c, const char *id, uint64_t punts, bool certain,
		  const char *fix, const char *fmt, ...)
{
	c->certain |= certain;
	struct json_object *o = json_object_new_object();
	char part[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(part, sizeof(part), fmt, ap);
	va_end(ap);
	catf(c->text, sizeof(c->text), "%s%s", c->n && !c->glued ? "; " : "", part);
	c->glued = false;
	if (fix && !strstr(c->fix, fix))
		catf(c->fix, sizeof(c->fix), "%s%s", c->fix[0] ? "; " : "", fix);
	json_object_object_add(o, "cause", json_object_new_string(id));
	if (!strcmp(id, "buffered"))
		c->kinds[APP_FIX_BUFFERED] = true;
	else if (!strcmp(id, "append") || !strcmp(id, "extending"))
		c->kinds[APP_FIX_APPEND] = true;
	else if (!strcmp(id, "holes") || !strcmp(id, "unwritten"))
		c->kinds[APP_FIX_SPARSE] = true;
	else if (!strcmp(id, "iosqe-async"))
		c->kinds[APP_FIX_FORCE_ASYNC] = true;
	json_object_object_add(o, "punts", json_object_new_int64((int64_t)punts));
	json_object_object_add(o, "certain", json_object_new_boolean(certain));
	json_object_object_add(o, "observed", json_object_new_boolean(c->observed));
	json_object_array_add(c->list, o);
	c->n++;
}

#define FIX_ASYNC "do not set IOSQE_ASYNC on these requests: it sends every one to io-wq"
#define FIX_BUFFERED "open the file with O_DIRECT (aligned buffers, offsets and lengths)"
#define FIX_APPEND "write at explicit offsets without O_APPEND into preallocated space"
#define FIX_GROW "preallocate the file and write it once (or fallocate and zero it) " \
		 "before the service writes at its end"
#define FIX_HOLES "write the file once end to end (or fallocate it) so writes land on " \
		  "allocated blocks"
#define FIX_UNWRITTEN "write the preallocated range once: fallocate leaves unwritten " \
		      "extents, and writes into them convert extents"
/*
 * The truth in fs/inode.c (docs/kernel-facts.md, section 17): under
 * IOCB_NOWAIT file_modified_flags() refuses any write whose inode's mtime
 * or ctime differs from current_time(); only FMODE_NOCMTIME (XFS
 * open-by-handle) or an S_NOCMTIME inode skips it. No mount option
 * does: inode_needs_update_time() ignores lazytime.
 */
#define FIX_TIMESTAMP "nothing at mount or open time removes it: the kernel refuses a " \
		      "nonblocking write whose file's mtime or ctime is older than the clock " \
		      "tick, lazytime included (it only makes the update cheaper), noatime " \
		      "is about reads, and no open flag skips c/mtime updates (only XFS's " \
		      "open-by-handle, with CAP_SYS_ADMIN); it costs one punt per clock tick " \
		      "per written file, more on 6.13+ when something stat()s the file between " \
		      "writes (multigrain timestamps): keep stat() and ls loops off hot files, " \
		      "and write fewer files at once"
/*
 * Timestamp punts a second per file below which file-punts warns, not
 * fails: one per clock tick at HZ 1000 is the floor every O_DIRECT writer
 * of an XFS file pays; past it something stat()s the file (multigrain) or
 * the queue is deep at each tick.
 */
#define TIMESTAMP_RATE_WARN 1000.0
#define FIX_ALLOC "preallocate the file and write it once (fallocate, then zero it) so " \
		  "O_DIRECT writes land on written blocks"
#define FIX_CACHE "stop reading or writing the file through the page cache while it is " \
		  "written with O_DIRECT (another fd, a backup or a plain read)"

/*
 * The file's filesystem type, and in *flags its open flags as the audit
 * read them, or as the watch did for a file opened since (-1: unread).
 */
static const char *file_fs_flags(const struct check_ctx *ctx, const struct proc_file *pfile,
				 const struct watch_file *wf, int *flags)
{
	const struct file_state *a = wf && !wf->first.err ? &wf->first : NULL;

	*flags = pfile ? (int)pfile->gen.flags : a ? a->flags : -1;
	return pfile ? proc_file_fstype(ctx->proc, pfile) : a ? proc_state_fstype(ctx->proc, a) : "";
}

/*
 * Whether the filesystem punts every write of the file whatever happens in
 * the worker (btrfs, tmpfs, ext4's buffered writes): what a worker then
 * does (throttled on dirty pages) is the punt's consequence, not its cause.
 */
static bool writes_always_punt(const struct check_ctx *ctx, const struct proc_file *pfile,
			       const struct watch_file *wf)
{
	const struct kernel_version *kv = fact_ok(&ctx->host->kernel.e) ? &ctx->host->kernel.v : NULL;
	const struct punt_rule *rule;
	int flags;
	const char *fs = file_fs_flags(ctx, pfile, wf, &flags);

	rule = punt_rule_find(fs, kv, PUNT_WRITE);
	if (rule && rule->certain)
		return true;
	rule = flags >= 0 && !(flags & O_DIRECT) ? punt_rule_find(fs, kv, PUNT_BUFFERED_WRITE) : NULL;
	return rule && rule->certain;
}

/*
 * Punts not explained by IOSQE_ASYNC, in one direction, against the file's
 * flags and its state as first seen (and as last seen, for growth).
 */
static void state_causes(struct causes *c, const struct check_ctx *ctx,
			 const struct proc_file *pfile, const struct watch_file *wf,
			 uint64_t punts, bool writes)
{
	const struct kernel_version *kv = fact_ok(&ctx->host->kernel.e) ? &ctx->host->kernel.v : NULL;
	const struct punt_rule *rule;
	const struct file_state *a = wf && !wf->first.err ? &wf->first : NULL;
	const struct file_state *b = wf && !wf->last.err && !wf->reused ? &wf->last : NULL;
	int flags;
	const char *fs = file_fs_flags(ctx, pfile, wf, &flags);
	char s1[BYTES_STR_MAX], s2[BYTES_STR_MAX];
	unsigned int before = c->n;
	uint64_t cached = 0, dirty = 0;
	const char *how = "";

	if (!punts)
		return;
	/* The most the page cache held while watched: writeback empties it as it goes. */
	if (a && !a->cache_err) {
		cached = a->cached;
		dirty = a->dirty + a->writeback;
		how = a->cache_how;
	}
	if (wf && wf->cache_reads) {
		cached = wf->peak_cached > cached ? wf->peak_cached : cached;
		dirty = wf->peak_dirty > dirty ? wf->peak_dirty : dirty;
	}
	/* A filesystem that punts every request of this direction, flags or not (tmpfs, btrfs). */
	rule = punt_rule_find(fs, kv, writes ? PUNT_WRITE : PUNT_READ);
	if (rule && rule->certain) {
		cause(c, "filesystem", punts, true, rule->fix, "%s", rule->why);
		return;
	}
	if (flags >= 0 && !(flags & O_DIRECT)) {
		/* The filesystem's own rule for buffered I/O, certain only where it is. */
		rule = punt_rule_find(fs, kv, writes ? PUNT_BUFFERED_WRITE : PUNT_BUFFERED_READ);
		if (rule)
			cause(c, "buffered", punts, rule->certain, rule->fix ? rule->fix : FIX_BUFFERED,
			      "buffered %s (no O_DIRECT): %s", writes ? "writes" : "reads", rule->why);
		else if (writes)
			cause(c, "buffered", punts, false, FIX_BUFFERED,
			      "buffered writes (no O_DIRECT) on %s, whose rule for nonblocking "
			      "buffered writes is not in uringlint's table", fs[0] ? fs : "an unknown "
			      "filesystem");
		else
			cause(c, "buffered", punts, false, FIX_BUFFERED,
			      "buffered reads (no O_DIRECT): a read that would block is normally "
			      "retried by the submitting task, not punted, so these waited on a "
			      "lock or on memory");
		return;
	}
	if (writes && flags >= 0 && (flags & O_APPEND))
		cause(c, "append", punts, true, FIX_APPEND, "O_APPEND: every write extends the file");
	if (writes && a && b && b->size > a->size) {
		rule = punt_rule_find(fs, kv, PUNT_DIO_EXTEND);
		cause(c, "extending", punts, false, FIX_GROW,
		      "writes at the end of the file (it grew from %s to %s while watched)%s%s",
		      format_bytes(a->size, s1), format_bytes(b->size, s2), rule ? ": " : "",
		      rule ? rule->why : "");
	}
	if (writes && a && a->allocated + 4096 < a->size) {
		rule = punt_rule_find(fs, kv, PUNT_DIO_HOLE);
		cause(c, "holes", punts, false, FIX_HOLES,
		      "writes into holes (a sparse file: %s of its %s allocated)%s%s",
		      format_bytes(a->allocated, s2), format_bytes(a->size, s1), rule ? ": " : "",
		      rule ? rule->why : "");
	}
	/*
	 * ext4 from 6.4 writes aligned O_DIRECT into unwritten extents without
	 * punting (docs/kernel-facts.md, section 11): named there only where the rule says so.
	 */
	rule = punt_rule_find(fs, kv, PUNT_DIO_UNWRITTEN);
	if (writes && a && !a->ext_err && a->unwritten &&
	    (!rule || rule->certain || strcmp(fs, "ext4")))
		cause(c, "unwritten", punts, rule && rule->certain, FIX_UNWRITTEN,
		      "writes into unwritten extents (%u of %u extents)%s%s",
		      a->unwritten, a->extents, rule ? ": " : "", rule ? rule->why : "");
	if (writes && cached)
		cause(c, "page-cache", punts, false, FIX_CACHE,
		      "up to %llu pages of the file were in the page cache (%s): an O_DIRECT write "
		      "must drop them first", (unsigned long long)cached, how);
	if (!writes && dirty)
		cause(c, "dirty-page-cache", punts, false, FIX_CACHE,
		      "up to %llu dirty pages of the file were in the page cache: an O_DIRECT read "
		      "must wait for them to be written back", (unsigned long long)dirty);
	/*
	 * Dirty pages come and go between two looks (each punted read writes its
	 * range back); cached pages of an O_DIRECT file still mean a buffered
	 * user of it, whose writes also hold the inode lock reads must wait for.
	 */
	else if (!writes && cached)
		cause(c, "dirty-page-cache", punts, false, FIX_CACHE,
		      "up to %llu pages of the file were in the page cache, none seen dirty in %u "
		      "looks: something writes it through the page cache, and O_DIRECT reads wait "
		      "for its writeback or its inode lock", (unsigned long long)cached,
		      wf ? wf->cache_reads : 0);
	if (c->n == before)
		cause(c, "unknown", punts, false, NULL,
		      "cause unknown for %llu punted %s: %s%s, %s",
		      (unsigned long long)punts, writes ? "writes" : "reads",
		      flags >= 0 ? "O_DIRECT" : "its flags unread (closed before it was looked at)",
		      a ? "" : ", file state unread",
		      a ? (a->cache_err ? "page cache unread" : "no page cache, no holes, size steady")
			: "");
}

/*
 * Punted writes with no cause of their own, refused in the clock tick before
 * an observed update of the file's times (watch/uring_trace.c, ts_same_tick):
 * one worker stored the times for all of them. Inferred from that update,
 * said so. Returns how many were taken; *rate grows by them a second.
 */
static uint64_t same_tick(struct causes *c, const struct ut_file *uf, uint64_t left,
			  double secs, double *rate)
{
	uint64_t n = uf->ts_same_tick;

	if (!n || n > left)
		return 0;
	cause(c, uring_trace_cause_name(UT_CAUSE_TIMESTAMP), n, false, FIX_TIMESTAMP,
	      "%llu more submitted in the same clock tick before a worker stored the times, "
	      "refused for them too (inferred from that update: the worker that ran each "
	      "had nothing left to store)", (unsigned long long)n);
	if (secs > 0) {
		*rate += (double)n / secs;
		json_object_object_add(json_object_array_get_idx(c->list, c->n - 1), "per_second",
				       json_object_new_double((double)n / secs));
	}
	json_object_object_add(json_object_array_get_idx(c->list, c->n - 1), "same_tick",
			       json_object_new_boolean(true));
	return n;
}

/*
 * The punted writes whose io-wq worker showed their cause (watch/uring_trace.c,
 * one cause each), taken off *rest_w: the rest are inferred by rule after.
 * Returns the timestamp punts a second over the time sampled.
 */
static double observed_causes(struct causes *c, const struct punt_watch *w,
			      const struct ut_file *uf, uint64_t *rest_w)
{
	static const char *const what[UT_NCAUSES] = {
		[UT_CAUSE_TIMESTAMP] = "timestamp update",
		[UT_CAUSE_ALLOC] = "block allocation",
		[UT_CAUSE_DIRTY] = "dirty page throttling",
	};
	static const char *const fix[UT_NCAUSES] = {
		[UT_CAUSE_TIMESTAMP] = FIX_TIMESTAMP,
		[UT_CAUSE_ALLOC] = FIX_ALLOC,
		[UT_CAUSE_DIRTY] = FIX_BUFFERED,
	};
	double secs = w->sampled_all ? w->seconds_watched : w->seconds_sampled, rate = 0;
	uint64_t writes = *rest_w, seen = 0;
	char watched[160] = "";
	unsigned int k;

	for (k = 0; k < UT_NCAUSES; k++) {
		uint64_t n = uf->observed[k];

		if (uring_trace_cause_watched(&w->ut, (enum ut_cause)k))
			catf(watched, sizeof(watched), "%s%s", watched[0] ? ", " : "",
			     uring_trace_cause_event((enum ut_cause)k));
		if (!n || seen + n > writes)
			continue;
		c->observed = true;
		if (k == UT_CAUSE_TIMESTAMP)
			rate = secs > 0 ? (double)n / secs : 0;
		cause(c, uring_trace_cause_name((enum ut_cause)k), n, true, fix[k],
		      "observed: %s (%s in the worker) %llu of %llu punted writes",
		      what[k], uring_trace_cause_event((enum ut_cause)k), (unsigned long long)n,
		      (unsigned long long)writes);
		if (k == UT_CAUSE_TIMESTAMP && secs > 0)
			catf(c->text, sizeof(c->text), ", %.0f a second on this file", rate);
		/* What it costs: this cause's punts a second on the file, over the time sampled. */
		if (secs > 0)
			json_object_object_add(json_object_array_get_idx(c->list, c->n - 1),
					       "per_second",
					       json_object_new_double((double)n / secs));
		c->observed = false;
		seen += n;
		if (k == UT_CAUSE_TIMESTAMP)
			seen += same_tick(c, uf, writes - seen, secs, &rate);
	}
	*rest_w = writes - seen;
	if (*rest_w && watched[0])
		catf(c->text, sizeof(c->text), "%sinferred for the %llu punted writes whose worker "
		     "showed none of %s: ", c->n ? "; " : "", (unsigned long long)*rest_w, watched);
	else if (*rest_w)
		catf(c->text, sizeof(c->text), "%sinferred (no cause tracepoint on this kernel): ",
		     c->n ? "; " : "");
	c->glued = *rest_w != 0;
	return rate;
}

/* path: the file the punts were on, NULL when it was closed before it was read. */
static void app_fixes_for_causes(const struct check_ctx *ctx, struct finding *fi,
				 const struct causes *cs, const char *path)
{
	unsigned int k;

	for (k = 0; k < APP_FIX_KINDS; k++) {
		if (!cs->kinds[k])
			continue;
		if (path)
			proc_app_fix_file(ctx, fi, (enum app_fix_kind)k, path);
		else
			proc_app_fix(ctx, fi, (enum app_fix_kind)k);
	}
}

static void add_file_finding(const struct check *c, struct check_ctx *ctx, size_t i)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_watch *w = pf->watch;
	const struct ut_file *uf = &w->ut.files[i];
	const struct watch_file *wf = i < w->nfiles ? &w->files[i] : NULL;
	const char *path = wf && wf->first.path ? wf->first.path : "(closed)";
	const struct proc_file *pfile = file_by_fd(pf, uf->fd, wf ? wf->first.path : NULL);
	uint64_t rest_r = uf->read_punts, rest_w = uf->write_punts, other;
	uint64_t punts = ut_file_fault_punts(uf), reqs = ut_file_fault_reqs(uf);
	uint64_t async = uf->async_punts - uf->socket_async_punts;
	struct causes cs = { .list = json_object_new_array() };
	char subject[4200], kernel[320] = "", sh[16], tol[320];
	double share = pct(punts, reqs), ts_rate = 0;
	uint64_t ts = 0;
	enum check_status st;
	struct finding *fi;

	if (async && w->ut.drain_seen) {
		/* Drained requests carry the same bit: the application may not have asked. */
		cause(&cs, "iosqe-async", async, false, FIX_ASYNC,
		      "%llu were forced to io-wq: IOSQE_ASYNC from the application, or "
		      "IOSQE_IO_DRAIN, which this process uses and which forces the requests "
		      "behind a drain there too", (unsigned long long)async);
		rest_w -= async < rest_w ? async : rest_w;
	} else if (async) {
		cause(&cs, "iosqe-async", async, true, FIX_ASYNC,
		      "%llu had IOSQE_ASYNC set by the application",
		      (unsigned long long)async);
		/* Forced ones need no other cause: take them off each direction. */
		rest_w -= async < rest_w ? async : rest_w;
	}
	/* Where the filesystem punts every write, its rule is every punt's cause. */
	if (!writes_always_punt(ctx, pfile, wf)) {
		ts_rate = observed_causes(&cs, w, uf, &rest_w);
		ts = uf->observed[UT_CAUSE_TIMESTAMP] + uf->ts_same_tick;
	}
	state_causes(&cs, ctx, pfile, wf, rest_w, true);
	state_causes(&cs, ctx, pfile, wf, rest_r, false);
	other = punts - uf->read_punts - uf->write_punts;
	if (uf->kernel_async_punts)
		catf(kernel, sizeof(kernel), " (and %llu requests of opcodes io_uring always runs "
		     "in io-wq, such as FSYNC, not counted)",
		     (unsigned long long)uf->kernel_async_punts);
	if (uf->socket_punts)
		catf(kernel, sizeof(kernel), " (and %llu punted requests of the opcodes only "
		     "sockets take, which net-punts judges, not counted)",
		     (unsigned long long)uf->socket_punts);
	if (other)
		cause(&cs, "other-opcodes", other, false, NULL,
		      "%llu punted requests were neither reads nor writes",
		      (unsigned long long)other);
	snprintf(subject, sizeof(subject), "pid %d fd %d %s", (int)pf->pid, uf->fd, path);
	st = punt_status(ctx, punts, reqs);
	/*
	 * A file's share of few requests says little: with no certain cause and
	 * the process's own punts not shown over the tolerance (iowq-punts'
	 * info), the file is named as iowq-punts names the whole, not failed
	 * alone.
	 */
	if (st == STATUS_FAIL && !cs.certain && process_under_tolerance(ctx, w)) {
		st = STATUS_INFO;
		snprintf(tol, sizeof(tol), "; the process's punts are not shown over the punt "
			 "tolerance of %g%% of its requests (punt-tolerance, as iowq-punts judges "
			 "them) and no cause is certain: not off the fast path, named for its cause",
			 100 * check_thresholds(ctx)->punt_tolerance);
	} else if (st == STATUS_FAIL && ts && ts <= punts && ts_rate <= TIMESTAMP_RATE_WARN &&
		   (10 * ts >= 9 * punts || punt_status(ctx, punts - ts, reqs) != STATUS_FAIL)) {
		/*
		 * Over the tolerance only by timestamp updates at a low rate: a cost,
		 * not a fault. The rest judged alone, or a tenth of the punts at most
		 * left unobserved (a worker attached late, samples the kernel did
		 * not write), which at a few punts is no other cause.
		 */
		st = STATUS_WARN;
		snprintf(tol, sizeof(tol), "; over the punt tolerance by timestamp updates (%llu of the "
			 "%llu punts) at %.0f a second on this file, at most %.0f: one a clock tick, "
			 "what every O_DIRECT writer of such a file pays", (unsigned long long)ts,
			 (unsigned long long)punts, ts_rate, TIMESTAMP_RATE_WARN);
	} else {
		punt_tolerance_text(ctx, st, punts, reqs, tol, sizeof(tol));
	}
	fi = proc_add(c, ctx, st, subject,
		      "%llu of %llu io_uring requests on this file were punted to io-wq (%s) in "
		      "%s%s%s: %s", (unsigned long long)punts, (unsigned long long)reqs,
		      share_text(share, sh, sizeof(sh)), punt_watch_span(w).s, kernel,
		      st == STATUS_INFO || st == STATUS_WARN ? tol : "", cs.text);
	finding_set_fix(fi, "%s", cs.fix[0] ? cs.fix
					    : "look at the requests' flags and the file's state in "
					      "the evidence; the kernel gave no reason");
	app_fixes_for_causes(ctx, fi, &cs, wf ? wf->first.path : NULL);
	finding_ev_int(fi, "fd", uf->fd);
	finding_ev_str(fi, "path", wf ? wf->first.path : NULL);
	finding_ev_int(fi, "requests", (int64_t)uf->reqs);
	finding_ev_int(fi, "punts", (int64_t)uf->punts);
	finding_ev_int(fi, "read_punts", (int64_t)uf->read_punts);
	finding_ev_int(fi, "write_punts", (int64_t)uf->write_punts);
	finding_ev_int(fi, "iosqe_async_punts", (int64_t)uf->async_punts);
	finding_ev_int(fi, "always_async_punts", (int64_t)uf->kernel_async_punts);
	finding_ev_int(fi, "socket_punts", (int64_t)uf->socket_punts);
	if (pfile) {
		char flags[16];

		snprintf(flags, sizeof(flags), "0%o", pfile->gen.flags);
		finding_ev_str(fi, "flags", flags);
	}
	json_object_object_add(fi->evidence, "causes", cs.list);
}

/* A ring's punts on registered files: the events carry no fd, only the ring. */
static void add_registered_finding(const struct check *c, struct check_ctx *ctx,
				   const struct ut_ring *ur)
{
	const struct proc_facts *pf = ctx->proc;
	const struct proc_ring *ring;
	char subject[4200], names[2048] = "", sh[16], tol[320];
	enum check_status st;
	struct finding *fi;
	size_t i;

	ring = ring_of_trace(pf, ur);
	if (ring && ring->u.nfiles == 1) {
		const struct proc_file *pfile = file_by_path(pf, ring->u.files[0].path);
		struct causes cs = { .list = json_object_new_array() };

		state_causes(&cs, ctx, pfile, NULL, ur->fixed_punts, true);
		snprintf(subject, sizeof(subject), "pid %d ring fd %d registered file %s",
			 (int)pf->pid, ring->fd, ring->u.files[0].path);
		st = punt_status(ctx, ur->fixed_punts, ur->fixed_reqs);
		fi = proc_add(c, ctx, st, subject,
			      "%llu of %llu io_uring requests on the ring's one registered file were "
			      "punted to io-wq (%s) in %s%s: %s",
			      (unsigned long long)ur->fixed_punts, (unsigned long long)ur->fixed_reqs,
			      share_text(pct(ur->fixed_punts, ur->fixed_reqs), sh, sizeof(sh)),
			      punt_watch_span(pf->watch).s, punt_tolerance_text(ctx, st, ur->fixed_punts, ur->fixed_reqs,
						  tol, sizeof(tol)),
			      cs.text);
		finding_set_fix(fi, "%s", cs.fix[0] ? cs.fix : "see the evidence");
		app_fixes_for_causes(ctx, fi, &cs, ring->u.files[0].path);
		json_object_object_add(fi->evidence, "causes", cs.list);
	} else {
		for (i = 0; ring && i < ring->u.nfiles && i < 8; i++)
			catf(names, sizeof(names), "%s%s", i ? ", " : "", ring->u.files[i].path);
		if (ring && ring->u.nfiles > 8)
			catf(names, sizeof(names), " and %zu more", ring->u.nfiles - 8);
		snprintf(subject, sizeof(subject), "pid %d ring fd %d registered files", (int)pf->pid,
			 ring ? ring->fd : -1);
		st = punt_status(ctx, ur->fixed_punts, ur->fixed_reqs);
		fi = proc_add(c, ctx, st, subject,
			      "%llu of %llu io_uring requests on registered files were punted to io-wq "
			      "(%s) in %s%s, on one of %zu registered files (the tracepoints name "
			      "no file for them)%s%s",
			      (unsigned long long)ur->fixed_punts, (unsigned long long)ur->fixed_reqs,
			      share_text(pct(ur->fixed_punts, ur->fixed_reqs), sh, sizeof(sh)),
			      punt_watch_span(pf->watch).s, punt_tolerance_text(ctx, st, ur->fixed_punts, ur->fixed_reqs,
						  tol, sizeof(tol)),
			      ring ? ring->u.nfiles : 0, names[0] ? ": " : "", names);
		finding_set_fix(fi, "check each candidate's open flags and state with fd-o-direct, "
				    "fd-append and file-extents; for a per-file count, submit on "
				    "plain fds while auditing");
	}
	finding_ev_int(fi, "ring_fd", ring ? ring->fd : -1);
	finding_ev_int(fi, "requests", (int64_t)ur->fixed_reqs);
	finding_ev_int(fi, "punts", (int64_t)ur->fixed_punts);
}

/*
 * Whether punts that may be a fault went unsampled: counted beyond the
 * samples, less those known to be of opcodes io_uring always punts.
 */
static bool punts_unseen(const struct punt_watch *w)
{
	uint64_t kernel, fault_total, fault_sampled;

	if (w->total <= w->punts_sampled)
		return false;
	if (!punt_watch_kernel_async(w, &kernel))
		return true;
	fault_total = w->total > kernel ? w->total - kernel : 0;
	fault_sampled = w->punts_sampled > w->ut.punts_kernel_async
				? w->punts_sampled - w->ut.punts_kernel_async : 0;
	return fault_total > fault_sampled;
}

void check_file_punts(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_watch *w = pf->watch;
	uint64_t reqs = 0, fixed = 0, kernel = 0, unresolved;
	unsigned int punted = 0;
	char subject[32];
	size_t i;

	if (!proc_usable(c, ctx, true))
		return;
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!w) {
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "not watched: audit --watch SECONDS names the files io_uring punts on");
		return;
	}
	if (!fact_ok(&w->e)) {
		proc_fact_missing(c, ctx, subject, &w->e);
		return;
	}
	if (!w->tracepoint) {
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "the io_uring tracepoints could not be used (%s): no per-file account",
			 w->fallback_why);
		return;
	}
	if (!w->ut.f_req[UT_FILE_GET] || !w->ut.have[UT_SUBMIT]) {
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "this kernel's io_uring tracepoints do not join a request to its file "
			 "(io_uring_file_get without a request pointer, or no submit event): no "
			 "per-file account; iowq-punts has the total");
		return;
	}
	for (i = 0; i < w->ut.nfiles; i++) {
		reqs += w->ut.files[i].reqs;
		kernel += w->ut.files[i].kernel_async_punts;
		if (ut_file_fault_punts(&w->ut.files[i])) {
			add_file_finding(c, ctx, i);
			punted++;
		}
	}
	for (i = 0; i < w->ut.nrings; i++) {
		fixed += w->ut.rings[i].fixed_reqs;
		if (w->ut.rings[i].fixed_punts) {
			add_registered_finding(c, ctx, &w->ut.rings[i]);
			punted++;
		}
	}
	/*
	 * Punts the join could not tie to a file (a worker attached after it took
	 * the file, a request from before the watch), or that lost samples or
	 * threads not watched may hide: no pass then. Samples lost when the
	 * exact count says nothing was punted hide no punt.
	 */
	unresolved = ut_unresolved_punts(&w->ut);
	/*
	 * Sampled all the time, the watch's end is its only cut: a punted request
	 * whose file had not shown by then (its io-wq worker, started during the
	 * watch, attached after it took the file, or the request was still on its
	 * way) is tied to no file, and with no file punted would read as a pass.
	 */
	if (!punted && w->sampled_all)
		unresolved += w->ut.cut_punts;
	if (unresolved || w->threads_unattached || (w->lost && w->total)) {
		struct finding *fi;

		if (!unresolved && w->threads_unattached && !(w->lost && w->total)) {
			/* Threads not seen: nothing to say of them, and nothing for the operator to do. */
			fi = proc_add(c, ctx, STATUS_SKIP, subject,
				      "%u of its threads could not be watched (a perf event each, past "
				      "the open-file limit or refused; %u were): punts on them, if any, "
				      "are neither counted nor tied to a file", w->threads_unattached,
				      w->threads_watched);
			finding_set_fix(fi, "run it alone in a cgroup (a systemd service, a "
					    "container): the watch then follows every thread through "
					    "the cgroup, however many");
			finding_ev_int(fi, "threads_not_watched", (int64_t)w->threads_unattached);
			return;
		}
		if (unresolved)
			fi = proc_add(c, ctx, STATUS_WARN, subject,
				      "%llu punts in %s could not be tied to a file (%llu samples "
				      "lost, %u threads not watched, %u attached late): the files "
				      "above may not be all", (unsigned long long)unresolved,
				      punt_watch_span(w).s, (unsigned long long)w->lost,
				      w->threads_unattached, w->threads_late);
		else
			fi = proc_add(c, ctx, STATUS_WARN, subject,
				      "of the %llu punts counted in %s, those in the %llu samples "
				      "lost or on the %u threads not watched are tied to no file: "
				      "the files above may not be all", (unsigned long long)w->total,
				      punt_watch_span(w).s, (unsigned long long)w->lost,
				      w->threads_unattached);
		finding_set_fix(fi, "watch again, longer: io-wq workers started during the watch "
				    "are attached within 10 ms, and their first requests may be missed");
		finding_ev_int(fi, "unresolved_punts", (int64_t)unresolved);
		return;
	}
	/*
	 * Sampled in windows, with punts outside them: too few samples cannot
	 * speak for the punts they did not see.
	 */
	if (!punted && !w->sampled_all && punts_unseen(w) &&
	    w->punts_sampled - w->ut.punts_kernel_async < PUNTS_TO_SPEAK) {
		struct finding *fi;

		fi = proc_add(c, ctx, STATUS_WARN, subject,
			      "%llu punts counted in %.1f s (%llu of opcodes such as FSYNC, no fault), "
			      "but only %llu sampled (in %.2f s of it, to keep the watch cheap at this "
			      "rate), none on a file: too few to say where the others come from",
			      (unsigned long long)w->total, w->seconds_watched,
			      (unsigned long long)(w->kernel_async_counted ? w->kernel_async_total : 0),
			      (unsigned long long)w->punts_sampled, w->seconds_sampled);
		finding_set_fix(fi, "watch longer (audit --watch 30): each second adds a window of "
				    "samples");
		finding_ev_int(fi, "punts", (int64_t)w->total);
		finding_ev_int(fi, "punts_sampled", (int64_t)w->punts_sampled);
		return;
	}
	if (!punted) {
		struct finding *fi = proc_add(c, ctx, STATUS_PASS, subject,
					      "no request on any file was punted in %s: %llu requests "
					      "on %zu fds and %llu on registered files (io_uring "
					      "tracepoints)%s", punt_watch_span(w).s,
					      (unsigned long long)reqs, w->ut.nfiles,
					      (unsigned long long)fixed,
					      kernel ? "; only requests of opcodes io_uring always "
						       "runs in io-wq, such as FSYNC, were" : "");
		/* The numbers of the pass, as a punting file has them: report diff compares them. */
		finding_ev_int(fi, "requests", (int64_t)(reqs + fixed));
		finding_ev_int(fi, "punts", 0);
	}
}
