// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Why io_uring punted a file's requests, for file-punts (proc_punts.c):
 * what the io-wq workers were seen doing (watch/uring_trace.c), else the
 * causes the file's flags and state support by the filesystem's rules
 * (fs_punt_rules.c). State makes a cause likely, not certain, and the text
 * says which is which.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "output.h"
#include "checks.h"

void causes_add(struct causes *c, const char *id, uint64_t punts, bool certain,
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
#define FIX_ALLOC "preallocate the file and write it once (fallocate, then zero it) so " \
		  "O_DIRECT writes land on written blocks"
#define FIX_CACHE "stop reading or writing the file through the page cache while it is " \
		  "written with O_DIRECT (another fd, a backup or a plain read); pages left by " \
		  "the file's creation or a copy go once they are dropped (dd if=FILE " \
		  "iflag=nocache count=0)"

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
bool writes_always_punt(const struct check_ctx *ctx, const struct proc_file *pfile,
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
 * The causes state_causes named from index first on are each given the
 * same punts: alternatives for one set of writes, any of which may hold
 * (a sparse file that also grew, holes and unwritten extents), not writes
 * of their own. Each after the first says so ("alternative_to": the
 * first's cause), so that the entries without it add up to the punts.
 */
static void mark_alternatives(struct causes *c, unsigned int first)
{
	struct json_object *head, *id;
	unsigned int i;

	if (c->n < first + 2)
		return;
	head = json_object_array_get_idx(c->list, first);
	if (!json_object_object_get_ex(head, "cause", &id))
		return;
	for (i = first + 1; i < c->n; i++)
		json_object_object_add(json_object_array_get_idx(c->list, i), "alternative_to",
				       json_object_new_string(json_object_get_string(id)));
}

/*
 * What the page cache held of a file written or read with O_DIRECT: an
 * O_DIRECT write drops those pages first, an O_DIRECT read waits for the
 * dirty ones to be written back.
 */
static void cache_causes(struct causes *c, uint64_t punts, bool writes, uint64_t cached,
			 uint64_t dirty, const char *how, unsigned int looks)
{
	if (writes && cached)
		causes_add(c, "page-cache", punts, false, FIX_CACHE,
		      "up to %llu pages of the file were in the page cache (%s): an O_DIRECT write "
		      "must drop them first", (unsigned long long)cached, how);
	if (!writes && dirty)
		causes_add(c, "dirty-page-cache", punts, false, FIX_CACHE,
		      "up to %llu dirty pages of the file were in the page cache: an O_DIRECT read "
		      "must wait for them to be written back", (unsigned long long)dirty);
	/*
	 * Dirty pages come and go between two looks (each punted read writes its
	 * range back); cached pages of an O_DIRECT file still mean a buffered
	 * user of it, whose writes also hold the inode lock reads must wait for.
	 */
	else if (!writes && cached)
		causes_add(c, "dirty-page-cache", punts, false, FIX_CACHE,
		      "up to %llu pages of the file were in the page cache, none seen dirty in %u "
		      "looks: something writes it through the page cache, and O_DIRECT reads wait "
		      "for its writeback or its inode lock", (unsigned long long)cached,
		      looks);
}

/*
 * Punts not explained by IOSQE_ASYNC, in one direction, against the file's
 * flags and its state as first seen (and as last seen, for growth).
 */
void state_causes(struct causes *c, const struct check_ctx *ctx,
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
		causes_add(c, "filesystem", punts, true, rule->fix, "%s", rule->why);
		return;
	}
	if (flags >= 0 && !(flags & O_DIRECT)) {
		/* The filesystem's own rule for buffered I/O, certain only where it is. */
		rule = punt_rule_find(fs, kv, writes ? PUNT_BUFFERED_WRITE : PUNT_BUFFERED_READ);
		if (rule)
			causes_add(c, "buffered", punts, rule->certain, rule->fix ? rule->fix : FIX_BUFFERED,
			      "buffered %s (no O_DIRECT): %s", writes ? "writes" : "reads", rule->why);
		else if (writes)
			causes_add(c, "buffered", punts, false, FIX_BUFFERED,
			      "buffered writes (no O_DIRECT) on %s, whose rule for nonblocking "
			      "buffered writes is not in uringlint's table", fs[0] ? fs : "an unknown "
			      "filesystem");
		else
			causes_add(c, "buffered", punts, false, FIX_BUFFERED,
			      "buffered reads (no O_DIRECT): a read that would block is normally "
			      "retried by the submitting task, not punted, so these waited on a "
			      "lock or on memory");
		return;
	}
	if (writes && flags >= 0 && (flags & O_APPEND))
		causes_add(c, "append", punts, true, FIX_APPEND, "O_APPEND: every write extends the file");
	if (writes && a && b && b->size > a->size) {
		rule = punt_rule_find(fs, kv, PUNT_DIO_EXTEND);
		causes_add(c, "extending", punts, false, FIX_GROW,
		      "writes at the end of the file (it grew from %s to %s while watched)%s%s",
		      format_bytes(a->size, s1), format_bytes(b->size, s2), rule ? ": " : "",
		      rule ? rule->why : "");
	}
	if (writes && a && a->allocated + 4096 < a->size) {
		rule = punt_rule_find(fs, kv, PUNT_DIO_HOLE);
		causes_add(c, "holes", punts, false, FIX_HOLES,
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
		causes_add(c, "unwritten", punts, rule && rule->certain, FIX_UNWRITTEN,
		      "writes into unwritten extents (%u of %u extents)%s%s",
		      a->unwritten, a->extents, rule ? ": " : "", rule ? rule->why : "");
	cache_causes(c, punts, writes, cached, dirty, how, wf ? wf->cache_reads : 0);
	mark_alternatives(c, before);
	if (c->n == before)
		causes_add(c, "unknown", punts, false, NULL,
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
	causes_add(c, uring_trace_cause_name(UT_CAUSE_TIMESTAMP), n, false, FIX_TIMESTAMP,
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
double observed_causes(struct causes *c, const struct punt_watch *w,
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
		causes_add(c, uring_trace_cause_name((enum ut_cause)k), n, true, fix[k],
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
void app_fixes_for_causes(const struct check_ctx *ctx, struct finding *fi,
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
