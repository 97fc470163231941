// SPDX-License-Identifier: GPL-2.0-or-later
/* The threads of a process: io-wq workers, D-state threads, and its locked memory. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "array.h"
#include "checks.h"
#include "output.h"

/* The process's threads for a check, or why they cannot be judged (reported). */
static bool threads_usable(const struct check *c, struct check_ctx *ctx, char *subject,
			   size_t subjsz)
{
	if (!proc_usable(c, ctx, false))
		return false;
	snprintf(subject, subjsz, "pid %d", (int)ctx->proc->pid);
	if (!fact_ok(&ctx->proc->threads.e)) {
		proc_fact_missing(c, ctx, subject, &ctx->proc->threads.e);
		return false;
	}
	return true;
}

/*
 * Whether the watch explains io-wq workers that worked in the window as no
 * fault: only punts of opcodes io_uring always runs in io-wq (FSYNC and the
 * like), counted or, sampled in windows, enough samples all of them, by
 * every thread from the watch's start. why: the words for a pass. A watch
 * that saw no punt proves nothing of the window before it (punts come in
 * bursts), so the workers' work stays a warning then.
 */
/*
 * A watch by tracepoint that saw every thread of the process from its start
 * to its end: only then do its counts speak for the workers' whole work.
 */
static bool watch_whole(const struct punt_watch *w)
{
	return w && fact_ok(&w->e) && w->tracepoint && !w->blind && !w->threads_unattached &&
	       !w->threads_late;
}

static bool workers_explained(const struct punt_watch *w, char *why, size_t whysz)
{
	uint64_t kernel = 0;

	if (!watch_whole(w))
		return false;
	if (w->total && punt_watch_kernel_async(w, &kernel) && kernel >= w->total) {
		snprintf(why, whysz, "the %llu requests punted in the %.1f s watched are all of "
			 "opcodes io_uring always runs in io-wq (such as FSYNC): no read or write "
			 "was punted", (unsigned long long)w->total, w->seconds_watched);
		return true;
	}
	if (w->total && !punt_watch_kernel_async(w, &kernel) && w->punts_sampled >= PUNTS_TO_SPEAK &&
	    w->ut.punts_kernel_async >= w->punts_sampled) {
		snprintf(why, whysz, "the %llu punts sampled in the %.1f s watched are all of "
			 "opcodes io_uring always runs in io-wq (such as FSYNC)",
			 (unsigned long long)w->punts_sampled, w->seconds_watched);
		return true;
	}
	return false;
}

static uint64_t iowq_fault_punts(const struct punt_watch *w);

/*
 * Whether the watch measured the punts the workers' work stands for and
 * the punt rule does not fail them: a worker that started in the window
 * was then one of those punts, which iowq-punts judges by their share (a
 * healthy O_DIRECT database's few timestamp punts on XFS, under the
 * tolerance). Saying "being punted now" as a warning beside that measured
 * verdict would judge the same punts twice, by a proxy. why: the words.
 */
static bool workers_measured(const struct check_ctx *ctx, const struct punt_watch *w, char *why,
			     size_t whysz)
{
	uint64_t fault;

	if (!watch_whole(w) || !w->total || !w->submit_counted || !w->submitted)
		return false;
	fault = iowq_fault_punts(w);
	if (punt_status(ctx, fault, w->submitted) == STATUS_FAIL)
		return false;
	snprintf(why, whysz, "the %.1f s watched measured %llu punted reads and writes of %llu "
		 "requests submitted, not off the fast path by the punt rule (iowq-punts judges "
		 "them)", w->seconds_watched, (unsigned long long)fault,
		 (unsigned long long)w->submitted);
	return true;
}

void check_iowq_workers(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	unsigned int w = pf->threads.iou_wrk, cpus = ctx->host->cpus ? ctx->host->cpus : 1;
	uint64_t nproc = fact_ok(&pf->limits.e) ? pf->limits.lim.nproc.soft : LIMIT_INFINITY;
	bool near_nproc = nproc != LIMIT_INFINITY && w * 2 >= nproc;
	struct workers_activity a;
	bool seen, busy;
	char subject[32], why[256];
	struct finding *fi;

	if (!threads_usable(c, ctx, subject, sizeof(subject)))
		return;
	seen = proc_workers_activity(pf, &a);
	busy = !seen || a.ran || a.started || a.unknown;
	/* A worker that exited in the window hit its idle timeout: not work. */
	if (!w && !a.started) {
		fi = proc_add(c, ctx, STATUS_PASS, subject,
			      "no io-wq worker: nothing was punted lately (a worker exits after 5 s "
			      "without work, unless it is the last of its pool)");
	} else if (w > 4 * cpus || near_nproc) {
		fi = proc_add(c, ctx, STATUS_FAIL, subject,
			      "%u io-wq workers (iou-wrk threads), more than the %u of one ring's "
			      "bounded pool (4 x %u CPUs)%s: requests are punted in bulk, each costs "
			      "a thread hand-off, and the workers compete with the service for CPU",
			      w, 4 * cpus, cpus, near_nproc ? ", and near RLIMIT_NPROC" : "");
	} else if (!seen) {
		fi = proc_add(c, ctx, STATUS_WARN, subject,
			      "%u io-wq worker%s (iou-wrk threads): requests were punted to them at "
			      "some time; one reading cannot tell whether they still are%s%s%s",
			      w, w == 1 ? "" : "s",
			      pf->window.e.err != -ENOENT ? " (" : "",
			      pf->window.e.err != -ENOENT ? pf->window.e.why : "",
			      pf->window.e.err != -ENOENT ? ")" : "");
	} else if (busy && workers_explained(pf->watch, why, sizeof(why))) {
		/* io_uring's own work (FSYNC) keeps a worker busy: that is no punt of a fault. */
		fi = proc_add(c, ctx, STATUS_PASS, subject,
			      "%u io-wq worker%s (iou-wrk threads), and in the %u ms window %u worked "
			      "and %u started; %s", w, w == 1 ? "" : "s", pf->window.ms, a.ran,
			      a.started, why);
		busy = false;
	} else if (busy && workers_measured(ctx, pf->watch, why, sizeof(why))) {
		fi = proc_add(c, ctx, STATUS_INFO, subject,
			      "%u io-wq worker%s (iou-wrk threads), and in the %u ms window %u worked "
			      "and %u started; %s", w, w == 1 ? "" : "s", pf->window.ms, a.ran,
			      a.started, why);
		busy = false;
	} else if (busy) {
		char blocked[48] = "", unknown[48] = "";

		if (a.blocked)
			snprintf(blocked, sizeof(blocked), " (%u blocked in D state)", a.blocked);
		if (a.unknown)
			snprintf(unknown, sizeof(unknown), ", %u could not be read", a.unknown);
		fi = proc_add(c, ctx, STATUS_WARN, subject,
			      "%u io-wq worker%s (iou-wrk threads), and in the %u ms window %u "
			      "worked%s and %u started%s: requests that could not complete "
			      "without blocking are being punted to them now",
			      w, w == 1 ? "" : "s", pf->window.ms, a.ran, blocked, a.started,
			      unknown);
	} else {
		fi = proc_add(c, ctx, STATUS_PASS, subject,
			      "%u io-wq worker%s (iou-wrk threads), asleep through the %u ms window "
			      "(none ran 1 ms or woke more than once, none in D state): left from "
			      "earlier punts, since io-wq keeps the last worker of each pool after "
			      "its 5 s idle timeout (audit --watch counts punts)",
			      w, w == 1 ? "" : "s", pf->window.ms);
	}
	if (busy && (w || a.started))
		finding_set_fix(fi, "find what punts (uringlint audit --watch 5 counts punts per "
				    "opcode): buffered writes, appends, unaligned or extending O_DIRECT "
				    "writes; cap the pools with io_uring_register_iowq_max_workers()");
	finding_ev_int(fi, "iou_wrk", w);
	finding_ev_int(fi, "threads", (int64_t)pf->threads.n);
	if (seen) {
		finding_ev_int(fi, "window_ms", pf->window.ms);
		finding_ev_int(fi, "workers_ran", a.ran);
		finding_ev_int(fi, "workers_idle", a.idle);
		finding_ev_int(fi, "workers_started", a.started);
		finding_ev_int(fi, "workers_blocked", a.blocked);
		finding_ev_int(fi, "workers_exited", a.exited);
		finding_ev_int(fi, "workers_unknown", a.unknown);
	}
}

struct dstate_class {
	const char *const needles[4];
	const char *name;
	const char *fix;
};

static const struct dstate_class dclasses[] = {
	{ { "xfs_ilock", NULL }, "XFS inode lock",
	  "buffered and extending writes serialise on the inode lock: use O_DIRECT overwrites of "
	  "preallocated, written files" },
	{ { "blk_mq_get_tag", NULL }, "out of device tags",
	  "more requests in flight than the device's queue holds: lower the ring depth to "
	  "queue/nr_requests or raise nr_requests" },
	{ { "percpu_rwsem", "sb_start_write", NULL }, "filesystem frozen",
	  "writes wait for a frozen filesystem: thaw it (fsfreeze -u MOUNT) or wait for the "
	  "snapshot that froze it" },
	{ { "folio_wait", "wait_on_page", "__folio_lock", "filemap_" }, "page cache",
	  "threads wait for page-cache pages: use O_DIRECT for data files" },
	/* fsync and O_DSYNC: blkdev_issue_flush waits in submit_bio_wait for the cache flush. */
	{ { "submit_bio_wait", "blkdev_issue_flush", NULL }, "device cache flush (fsync)",
	  "fsync, fdatasync and O_DSYNC writes wait for the device to flush its cache (in an "
	  "io-wq worker: io_uring's FSYNC, which always runs there; in another thread: its own "
	  "fsync or fdatasync call): batch flushes (group commit), or write with O_DSYNC | "
	  "O_DIRECT" },
	{ { "jbd2", "ext4_journal", NULL }, "ext4 journal",
	  "threads wait for ext4's journal: metadata-heavy writes (extending, allocating); "
	  "preallocate data files" },
	{ { "wbt_wait", "rq_qos_wait", "balance_dirty_pages", NULL }, "writeback throttling",
	  "dirty page cache is being throttled: use O_DIRECT" },
	/*
	 * Seen here: io-wq workers of O_DIRECT writes that extend a file, in D at
	 * ext4_file_write_iter, which takes the inode lock exclusively for them.
	 */
	{ { "ext4_file_write_iter", "ext4_buffered_write_iter", "ext4_dio_write_iter", NULL },
	  "ext4 inode lock",
	  "writes that extend the file, and buffered writes, take ext4's inode lock exclusively "
	  "and queue behind each other: O_DIRECT overwrites of preallocated, written files" },
};

static const struct dstate_class *classify(const struct proc_thread *t)
{
	const char *hay = t->stack ? t->stack : t->wchan;
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(dclasses); i++)
		for (k = 0; k < 4 && dclasses[i].needles[k]; k++)
			if (strstr(hay, dclasses[i].needles[k]))
				return &dclasses[i];
	return NULL;
}

#define DSTATE_MANY 8
/*
 * A thread in D on its own I/O past DSTATE_IO_STUCK_MS (the longest it is
 * watched) on a process whose devices' requests took more than a tenth of
 * that on average over the window (iostat's r_await, w_await: the scene's)
 * may be slow rather than stuck: the finding says so, and stays a warning,
 * since a thread stuck on one device beside another slow one looks the same.
 */
#define DSTATE_AWAIT_TIMES 10

/* The longest mean wait of the process's devices over the window, ms; 0 not measured. */
static double slowest_await(const struct proc_facts *pf, const char **dev)
{
	const struct scene *sc = &pf->scene;
	double most = 0;
	size_t i;

	*dev = NULL;
	if (!pf->scene_taken || !fact_ok(&sc->e) || !sc->windowed)
		return 0;
	for (i = 0; i < sc->ndevs; i++) {
		const struct scene_dev *d = &sc->devs[i];
		double a = d->io.r_await > d->io.w_await ? d->io.r_await : d->io.w_await;

		if (fact_ok(&d->e) && d->has_delta && a > most) {
			most = a;
			*dev = d->name;
		}
	}
	return most;
}

void check_dstate_threads(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	unsigned int counts[ARRAY_SIZE(dclasses) + 1] = { 0 };
	char subject[32], list[1024] = "", fixes[1024] = "", moment[512] = "", ownio[48];
	char slow[160] = "";
	struct json_object *stuck;
	unsigned int d = 0, brief = 0, i;
	const char *dev;
	double await;
	struct finding *fi;
	size_t k;
	bool io;

	if (!threads_usable(c, ctx, subject, sizeof(subject)))
		return;
	await = slowest_await(pf, &dev);
	stuck = json_object_new_array();
	for (k = 0; k < pf->threads.n; k++) {
		const struct proc_thread *t = &pf->threads.v[k];
		const struct dstate_class *dc;
		struct json_object *o;

		if (t->state != 'D')
			continue;
		io = proc_thread_wait(t) == WAIT_IO;
		/*
		 * Out of D at a second look: a moment's wait, named but not counted. So
		 * is a wait on its own I/O shorter than a stuck device's: an O_DIRECT
		 * read of a loaded device keeps its thread in D for 20-180 ms.
		 */
		if (io && t->d_ms >= DSTATE_IO_STUCK_MS && t->d_ms < DSTATE_AWAIT_TIMES * await &&
		    !slow[0])
			snprintf(slow, sizeof(slow), "; slow or stuck: %s's requests took %.0f ms on "
				 "average over the window, so a long wait on its own I/O may be a slow "
				 "device's (scene-device)", dev, await);
		if (t->d_transient || (io && t->d_ms && t->d_ms < DSTATE_IO_STUCK_MS)) {
			if (strlen(moment) + 72 < sizeof(moment))
				snprintf(moment + strlen(moment), sizeof(moment) - strlen(moment),
					 "%s%d %s in %s%s", brief ? ", " : "", (int)t->tid, t->comm,
					 t->wchan[0] ? t->wchan : "?", io ? " (its own I/O)" : "");
			brief++;
			continue;
		}
		d++;
		dc = classify(t);
		o = json_object_new_object();
		json_object_object_add(o, "tid", json_object_new_int(t->tid));
		json_add_bytes(o, "comm", t->comm);
		json_add_bytes(o, "wchan", t->wchan);
		json_object_object_add(o, "class", dc ? json_object_new_string(dc->name) : NULL);
		/* The top of the kernel stack (root only) is what to show a kernel person. */
		json_object_object_add(o, "stack", t->stack ? json_object_new_string_len(t->stack,
			(int)(strlen(t->stack) > 600 ? 600 : strlen(t->stack))) : NULL);
		json_object_array_add(stuck, o);
		counts[dc ? (size_t)(dc - dclasses) : ARRAY_SIZE(dclasses)]++;
		if (t->d_ms)
			json_object_object_add(o, "d_ms", json_object_new_int((int)t->d_ms));
		ownio[0] = '\0';
		if (io && t->d_ms)
			snprintf(ownio, sizeof(ownio), ", on its own I/O for %u ms", t->d_ms);
		if (strlen(list) + 128 < sizeof(list))
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
				 "%s%d %s in %s (%s%s)", d > 1 ? ", " : "", (int)t->tid, t->comm,
				 t->wchan[0] ? t->wchan : "?", dc ? dc->name : "unclassified", ownio);
	}
	if (!d) {
		json_object_put(stuck);
		if (brief)
			proc_add(c, ctx, STATUS_PASS, subject,
				 "no thread stuck in D state: %u seen in it for a moment, out of it "
				 "within 20 ms or, waiting on its own I/O, within %d s (%s)", brief,
				 DSTATE_IO_STUCK_MS / 1000, moment);
		else
			proc_add(c, ctx, STATUS_PASS, subject,
				 "no thread in D state (uninterruptible wait)");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(dclasses); i++)
		if (counts[i] && strlen(fixes) + strlen(dclasses[i].fix) + 8 < sizeof(fixes))
			snprintf(fixes + strlen(fixes), sizeof(fixes) - strlen(fixes), "%s%s: %s",
				 fixes[0] ? "; " : "", dclasses[i].name, dclasses[i].fix);
	fi = proc_add(c, ctx, d >= DSTATE_MANY || d * 2 >= pf->threads.n ? STATUS_FAIL : STATUS_WARN,
		      subject, "%u of %zu threads in D state: %s%s", d, pf->threads.n, list, slow);
	finding_set_fix(fi, "%s", fixes[0] ? fixes
					   : "read the stacks (as root: cat /proc/PID/task/TID/stack) "
					     "to see what they wait for");
	finding_ev_int(fi, "d_state", d);
	json_object_object_add(fi->evidence, "threads", stuck);
}

void check_proc_memlock(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	char subject[32], used[BYTES_STR_MAX], lim[BYTES_STR_MAX], ring[512], fix[1024];
	uint64_t u, l;
	struct finding *fi;

	if (!proc_usable(c, ctx, false))
		return;
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!fact_ok(&pf->status.e) || !fact_ok(&pf->limits.e)) {
		proc_fact_missing(c, ctx, subject,
				  !fact_ok(&pf->status.e) ? &pf->status.e : &pf->limits.e);
		return;
	}
	u = (pf->status.st.vm_lck_kb + pf->status.st.vm_pin_kb) * 1024;
	l = pf->limits.lim.memlock.soft;
	format_bytes(u, used);
	format_bytes(l, lim);
	if (proc_status_has_cap(&pf->status.st, CAP_BIT_IPC_LOCK) || l == LIMIT_INFINITY) {
		fi = proc_add(c, ctx, STATUS_PASS, subject, "%s locked and pinned; %s", used,
			      l == LIMIT_INFINITY ? "RLIMIT_MEMLOCK is unlimited"
						  : "the process has CAP_IPC_LOCK, which io_uring does "
						    "not charge");
	} else if (proc_memlock_ring_short(ctx, u, ring, sizeof(ring))) {
		fi = proc_add(c, ctx, STATUS_WARN, subject, "%s", ring);
		finding_set_fix(fi, "%s", proc_memlock_fix(pf, fix, sizeof(fix)));
	} else if (u * 10 >= l * 9) {
		fi = proc_add(c, ctx, STATUS_WARN, subject,
			      "%s locked and pinned (VmLck + VmPin) of its %s RLIMIT_MEMLOCK: the next "
			      "buffer registration, or ring on 6.14+, fails with ENOMEM (and the "
			      "limit is shared by all of the user's processes)",
			      used, lim);
		finding_set_fix(fi, "%s", proc_memlock_fix(pf, fix, sizeof(fix)));
	} else {
		fi = proc_add(c, ctx, STATUS_PASS, subject,
			      "%s locked and pinned (VmLck + VmPin) of its %s RLIMIT_MEMLOCK", used, lim);
	}
	finding_ev_int(fi, "vm_lck_kb", (int64_t)pf->status.st.vm_lck_kb);
	finding_ev_int(fi, "vm_pin_kb", (int64_t)pf->status.st.vm_pin_kb);
	finding_ev_int(fi, "memlock_soft", l == LIMIT_INFINITY ? -1 : (int64_t)l);
}

/* What qualifies the count: the punts that are no fault, how much of it the opcodes cover. */
static void iowq_punts_notes(const struct punt_watch *w, char *part, size_t sz)
{
	double cover = punt_watch_coverage(w);
	uint64_t kernel = 0;

	if (punt_watch_kernel_async(w, &kernel) && kernel)
		snprintf(part + strlen(part), sz - strlen(part),
			 " (%llu of them of opcodes io_uring always runs there, such as "
			 "FSYNC: no fault)", (unsigned long long)kernel);
	if (cover < 1.0 && !w->sampled_all)
		snprintf(part + strlen(part), sz - strlen(part), " (the opcodes cover %.1f%% of "
			 "the punts, sampled in %.2f s of %.1f s to keep the watch cheap at this "
			 "rate; %llu samples lost)", 100.0 * cover, w->seconds_sampled,
			 w->seconds_watched, (unsigned long long)w->lost);
	else if (cover < 1.0)
		snprintf(part + strlen(part), sz - strlen(part), " (the opcodes cover %.1f%% of "
			 "the punts: %llu samples lost)", 100.0 * cover, (unsigned long long)w->lost);
}

/*
 * The punts that are the application's to fix: all but those of opcodes
 * io_uring always runs in io-wq; sampled in windows, the windows' own.
 */
static uint64_t iowq_fault_punts(const struct punt_watch *w)
{
	uint64_t kernel = 0;

	if (w->sampled_all)
		return w->total - (punt_watch_kernel_async(w, &kernel) ? kernel : 0);
	return w->punts_sampled > w->ut.punts_kernel_async
		       ? w->punts_sampled - w->ut.punts_kernel_async : 0;
}

/* Punts the tracepoint counted, some of them the application's: judged by their share. */
static struct finding *iowq_punts_counted(const struct check *c, struct check_ctx *ctx,
					  const char *subject, const struct punt_watch *w,
					  const char *list)
{
	char part[320] = "", share[512] = "", tol[320];
	uint64_t fault = iowq_fault_punts(w);
	enum check_status st;
	struct finding *fi;

	iowq_punts_notes(w, part, sizeof(part));
	/*
	 * The share of the requests submitted, as file-punts judges each file's:
	 * under the tolerance, advice; without the submit count, unknown, so
	 * fail. Submissions are counted while sampling is on: sampled in
	 * windows, the share is the windows' (their punts over their
	 * submissions), both measured over the same time.
	 */
	st = w->submit_counted ? punt_status(ctx, fault, w->submitted) : STATUS_FAIL;
	if (w->submit_counted)
		snprintf(share, sizeof(share), ", %.2f%% of the %llu requests submitted%s%s%s",
			 w->submitted ? 100.0 * (double)fault / (double)w->submitted : 100.0,
			 (unsigned long long)w->submitted,
			 w->sampled_all ? "" : " in the sampled windows",
			 punt_tolerance_text(ctx, st, fault, w->submitted, tol, sizeof(tol)),
			 st == STATUS_INFO ? "; file-punts names the files and causes" : "");
	fi = proc_add(c, ctx, st, subject,
		      "%llu requests punted to io-wq in %.1f s (%.0f/s%s)%s%s%s%s",
		      (unsigned long long)w->total, w->seconds_watched,
		      (double)w->total / (w->seconds_watched > 0 ? w->seconds_watched : 1),
		      share, w->exited ? ", until the process exited" : "", list[0] ? ": " : "",
		      list, part);
	if (w->submit_counted) {
		finding_ev_int(fi, "submitted", (int64_t)w->submitted);
		json_object_object_add(fi->evidence, "punt_share", json_object_new_double(
			w->submitted ? (double)fault / (double)w->submitted : 1.0));
		finding_ev_bool(fi, "punt_share_sampled", !w->sampled_all);
	}
	return fi;
}

/*
 * The verdict on what the watch saw: no punt, punts that are no fault,
 * punts counted by the tracepoint, or new workers counted without it; or
 * no verdict when what was not seen could hold punts.
 */
static struct finding *iowq_punts_judge(const struct check *c, struct check_ctx *ctx,
					const char *subject, const struct punt_watch *w,
					const char *list)
{
	const struct proc_facts *pf = ctx->proc;
	uint64_t kernel = 0;

	if (!w->total && !w->tracepoint && pf->threads.iou_wrk)
		/* Running workers take new punts without new threads: no proof either way. */
		return proc_add(c, ctx, STATUS_SKIP, subject,
				"no new iou-wrk thread in %.1f s, but %u workers already run and may "
				"be taking punts; the tracepoint would count them (%s)",
				w->seconds_watched, pf->threads.iou_wrk, w->fallback_why);
	if (w->tracepoint && w->total && punt_watch_kernel_async(w, &kernel) && kernel >= w->total)
		return proc_add(c, ctx, STATUS_PASS, subject,
				"the %llu requests punted to io-wq in %.1f s are all of opcodes "
				"io_uring always runs there (%s): no read or write was punted",
				(unsigned long long)w->total, w->seconds_watched, list);
	if (w->tracepoint && w->total && !punt_watch_kernel_async(w, &kernel) &&
	    w->punts_sampled >= PUNTS_TO_SPEAK && w->ut.punts_kernel_async >= w->punts_sampled)
		/* Sampled in windows: the samples speak for the rest only when there are enough. */
		return proc_add(c, ctx, STATUS_PASS, subject,
				"%llu requests punted to io-wq in %.1f s; the %llu sampled in %.2f s "
				"of it are all of opcodes io_uring always runs there (%s): no read "
				"or write was punted in the samples",
				(unsigned long long)w->total, w->seconds_watched,
				(unsigned long long)w->punts_sampled, w->seconds_sampled, list);
	if (!w->total && w->threads_unattached)
		/* Threads not watched may have punted: no pass from what was not seen. */
		return proc_add(c, ctx, STATUS_SKIP, subject,
				"no request punted in %.1f s by the %u threads watched, but %u "
				"threads could not be watched (a perf event each, past the open-file "
				"limit or refused): their punts are not counted", w->seconds_watched,
				w->threads_watched, w->threads_unattached);
	if (!w->total)
		return proc_add(c, ctx, STATUS_PASS, subject,
				"no request punted to io-wq in %.1f s%s (%s)", w->seconds_watched,
				w->exited ? " (then the process exited)" : "",
				w->tracepoint ? "io_uring_queue_async_work tracepoint"
					      : "no new iou-wrk thread; the tracepoint was not used");
	if (w->tracepoint)
		return iowq_punts_counted(c, ctx, subject, w, list);
	return proc_add(c, ctx, STATUS_WARN, subject,
			"%llu new io-wq workers in %.1f s: each is at least one punted request "
			"(%s)", (unsigned long long)w->total, w->seconds_watched, w->fallback_why);
}

/* The watch's figures, whatever the verdict: its source, its time, punts a second and by opcode. */
static void iowq_punts_evidence(struct finding *fi, const struct punt_watch *w)
{
	struct json_object *secs, *ops;
	unsigned int i;

	if (!w->tracepoint && w->fallback_why[0])
		finding_ev_str(fi, "fallback_why", w->fallback_why);
	finding_ev_str(fi, "punts_source", w->tracepoint ? "tracepoint" : "threads");
	finding_ev_int(fi, "punts", (int64_t)w->total);
	finding_ev_int(fi, "seconds", w->seconds);
	json_object_object_add(fi->evidence, "seconds_watched",
			       json_object_new_double(w->seconds_watched));
	finding_ev_str(fi, "ended", w->exited ? "process exited" : "time");
	if (w->tracepoint)
		json_object_object_add(fi->evidence, "opcode_coverage",
				       json_object_new_double(punt_watch_coverage(w)));
	secs = json_object_new_array();
	for (i = 0; i < w->nper_second; i++)
		json_object_array_add(secs, json_object_new_int64((int64_t)w->per_second[i]));
	json_object_object_add(fi->evidence, "per_second", secs);
	ops = json_object_new_object();
	for (i = 0; i < w->nops; i++)
		json_object_object_add(ops, w->ops[i].op, json_object_new_int64((int64_t)w->ops[i].n));
	json_object_object_add(fi->evidence, "per_opcode", ops);
}

/* Punted requests the application flagged IOSQE_ASYNC, over the rings sampled. */
static uint64_t async_punts(const struct punt_watch *w)
{
	uint64_t n = 0;
	size_t i, k;

	for (i = 0; i < w->ut.nrings; i++)
		for (k = 0; k < w->ut.rings[i].nops; k++)
			n += w->ut.rings[i].ops[k].async_punted;
	return n;
}

void check_iowq_punts(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_watch *w = pf->watch;
	char subject[32], list[512] = "";
	struct finding *fi;
	unsigned int i;

	if (!proc_usable(c, ctx, false))
		return;
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!w) {
		proc_add(c, ctx, STATUS_SKIP, subject, "not watched: audit --watch SECONDS counts punts");
		return;
	}
	if (!fact_ok(&w->e)) {
		proc_fact_missing(c, ctx, subject, &w->e);
		return;
	}
	for (i = 0; i < w->nops; i++)
		if (strlen(list) + 40 < sizeof(list))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s %llu",
				 i ? ", " : "", w->ops[i].op, (unsigned long long)w->ops[i].n);
	fi = iowq_punts_judge(c, ctx, subject, w, list);
	if (w->total && fi->status != STATUS_PASS && fi->status != STATUS_INFO) {
		finding_set_fix(fi, "fix what punts: buffered writes (O_DIRECT), appends and "
				    "extending writes (preallocate and write once), unaligned I/O, "
				    "IOSQE_ASYNC where it is not needed");
		/*
		 * Most of the punts sampled asked for io-wq themselves (IOSQE_ASYNC, not
		 * an IO_DRAIN's forcing, which looks the same): the application's setting.
		 */
		if (async_punts(w) && async_punts(w) * 2 >= w->punts_sampled && !w->ut.drain_seen)
			proc_app_fix(ctx, fi, APP_FIX_FORCE_ASYNC);
	}
	iowq_punts_evidence(fi, w);
}
