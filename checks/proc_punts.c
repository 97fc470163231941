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

#define FIX_ASYNC "do not set IOSQE_ASYNC on these requests: it sends every one to io-wq"

/*
 * Timestamp punts a second per file below which file-punts warns, not
 * fails: one per clock tick at HZ 1000 is the floor every O_DIRECT writer
 * of an XFS file pays; past it something stat()s the file (multigrain) or
 * the queue is deep at each tick.
 */
#define TIMESTAMP_RATE_WARN 1000.0

/*
 * The causes of a file's punts, in their order in the text: IOSQE_ASYNC,
 * what the workers were seen doing, the file's flags and state for the
 * writes and reads left, other opcodes. *ts and *ts_rate: the timestamp
 * punts seen, and a second.
 */
static void file_causes(struct causes *cs, const struct check_ctx *ctx, const struct ut_file *uf,
			const struct watch_file *wf, const struct proc_file *pfile, uint64_t *ts,
			double *ts_rate)
{
	const struct punt_watch *w = ctx->proc->watch;
	uint64_t rest_r = uf->read_punts, rest_w = uf->write_punts;
	uint64_t async = uf->async_punts - uf->socket_async_punts;
	uint64_t other = ut_file_fault_punts(uf) - uf->read_punts - uf->write_punts;

	if (async && w->ut.drain_seen) {
		/* Drained requests carry the same bit: the application may not have asked. */
		causes_add(cs, "iosqe-async", async, false, FIX_ASYNC,
			   "%llu were forced to io-wq: IOSQE_ASYNC from the application, or "
			   "IOSQE_IO_DRAIN, which this process uses and which forces the requests "
			   "behind a drain there too", (unsigned long long)async);
		rest_w -= async < rest_w ? async : rest_w;
	} else if (async) {
		causes_add(cs, "iosqe-async", async, true, FIX_ASYNC,
			   "%llu had IOSQE_ASYNC set by the application",
			   (unsigned long long)async);
		/* Forced ones need no other cause: take them off each direction. */
		rest_w -= async < rest_w ? async : rest_w;
	}
	/* Where the filesystem punts every write, its rule is every punt's cause. */
	if (!writes_always_punt(ctx, pfile, wf)) {
		*ts_rate = observed_causes(cs, w, uf, &rest_w);
		*ts = uf->observed[UT_CAUSE_TIMESTAMP] + uf->ts_same_tick;
	}
	state_causes(cs, ctx, pfile, wf, rest_w, true);
	state_causes(cs, ctx, pfile, wf, rest_r, false);
	if (other)
		causes_add(cs, "other-opcodes", other, false, NULL,
			   "%llu punted requests were neither reads nor writes",
			   (unsigned long long)other);
}

/*
 * The file's status from its share of punts, and in tol what tempers it: a
 * share of few requests with no certain cause, or timestamp updates at a
 * low rate.
 */
static enum check_status file_punt_status(const struct check_ctx *ctx, const struct causes *cs,
					  uint64_t punts, uint64_t reqs, uint64_t ts,
					  double ts_rate, char *tol, size_t tolsz)
{
	enum check_status st = punt_status(ctx, punts, reqs);

	/*
	 * A file's share of few requests says little: with no certain cause and
	 * the process's own punts not shown over the tolerance (iowq-punts'
	 * info), the file is named as iowq-punts names the whole, not failed
	 * alone.
	 */
	if (st == STATUS_FAIL && !cs->certain && process_under_tolerance(ctx, ctx->proc->watch)) {
		snprintf(tol, tolsz, "; the process's punts are not shown over the punt "
			 "tolerance of %g%% of its requests (punt-tolerance, as iowq-punts judges "
			 "them) and no cause is certain: not off the fast path, named for its cause",
			 100 * check_thresholds(ctx)->punt_tolerance);
		return STATUS_INFO;
	}
	if (st == STATUS_FAIL && ts && ts <= punts && ts_rate <= TIMESTAMP_RATE_WARN &&
	    (10 * ts >= 9 * punts || punt_status(ctx, punts - ts, reqs) != STATUS_FAIL)) {
		/*
		 * Over the tolerance only by timestamp updates at a low rate: a cost,
		 * not a fault. The rest judged alone, or a tenth of the punts at most
		 * left unobserved (a worker attached late, samples the kernel did
		 * not write), which at a few punts is no other cause.
		 */
		snprintf(tol, tolsz, "; over the punt tolerance by timestamp updates (%llu of the "
			 "%llu punts) at %.0f a second on this file, at most %.0f: one a clock tick, "
			 "what every O_DIRECT writer of such a file pays", (unsigned long long)ts,
			 (unsigned long long)punts, ts_rate, TIMESTAMP_RATE_WARN);
		return STATUS_WARN;
	}
	punt_tolerance_text(ctx, st, punts, reqs, tol, tolsz);
	return st;
}

/* The file's counts as the watch tied them to it, and its open flags when the audit read them. */
static void file_evidence(struct finding *fi, const struct ut_file *uf,
			  const struct watch_file *wf, const struct proc_file *pfile)
{
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
}

static void add_file_finding(const struct check *c, struct check_ctx *ctx, size_t i)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_watch *w = pf->watch;
	const struct ut_file *uf = &w->ut.files[i];
	const struct watch_file *wf = i < w->nfiles ? &w->files[i] : NULL;
	const char *path = wf && wf->first.path ? wf->first.path : "(closed)";
	const struct proc_file *pfile = file_by_fd(pf, uf->fd, wf ? wf->first.path : NULL);
	uint64_t punts = ut_file_fault_punts(uf), reqs = ut_file_fault_reqs(uf);
	struct causes cs = { .list = json_object_new_array() };
	char subject[4200], kernel[320] = "", sh[16], tol[320];
	double share = pct(punts, reqs), ts_rate = 0;
	uint64_t ts = 0;
	enum check_status st;
	struct finding *fi;

	file_causes(&cs, ctx, uf, wf, pfile, &ts, &ts_rate);
	if (uf->kernel_async_punts)
		catf(kernel, sizeof(kernel), " (and %llu request%s of opcodes io_uring always runs "
		     "in io-wq, such as FSYNC, not counted)",
		     (unsigned long long)uf->kernel_async_punts,
		     uf->kernel_async_punts == 1 ? "" : "s");
	if (uf->socket_punts)
		catf(kernel, sizeof(kernel), " (and %llu punted request%s of the opcodes only "
		     "sockets take, which net-punts judges, not counted)",
		     (unsigned long long)uf->socket_punts, uf->socket_punts == 1 ? "" : "s");
	snprintf(subject, sizeof(subject), "pid %d fd %d %s", (int)pf->pid, uf->fd, path);
	st = file_punt_status(ctx, &cs, punts, reqs, ts, ts_rate, tol, sizeof(tol));
	fi = proc_add(c, ctx, st, subject,
		      "%llu of %llu io_uring requests on this file were punted to io-wq (%s) in "
		      "%s%s%s: %s", (unsigned long long)punts, (unsigned long long)reqs,
		      share_text(share, sh, sizeof(sh)), punt_watch_span(w).s, kernel,
		      st == STATUS_INFO || st == STATUS_WARN ? tol : "", cs.text);
	finding_set_fix(fi, "%s", cs.fix[0] ? cs.fix
					    : "look at the requests' flags and the file's state in "
					      "the evidence; the kernel gave no reason");
	app_fixes_for_causes(ctx, fi, &cs, wf ? wf->first.path : NULL);
	file_evidence(fi, uf, wf, pfile);
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

/* Whether the watch can tie punts to files; a skip saying why not when it cannot. */
static bool file_watch_usable(const struct check *c, struct check_ctx *ctx, const char *subject)
{
	const struct punt_watch *w = ctx->proc->watch;

	if (!w) {
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "not watched: audit --watch SECONDS names the files io_uring punts on");
		return false;
	}
	if (!fact_ok(&w->e)) {
		proc_fact_missing(c, ctx, subject, &w->e);
		return false;
	}
	if (!w->tracepoint) {
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "the io_uring tracepoints could not be used (%s): no per-file account",
			 w->fallback_why);
		return false;
	}
	if (!w->ut.f_req[UT_FILE_GET] || !w->ut.have[UT_SUBMIT]) {
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "this kernel's io_uring tracepoints do not join a request to its file "
			 "(io_uring_file_get without a request pointer, or no submit event): no "
			 "per-file account; iowq-punts has the total");
		return false;
	}
	return true;
}

/*
 * Punts the join could not tie to a file (a worker attached after it took
 * the file, a request from before the watch), or that lost samples or
 * threads not watched may hide: no pass then. Samples lost when the
 * exact count says nothing was punted hide no punt. Returns whether it
 * reported them.
 */
static bool file_punts_untied(const struct check *c, struct check_ctx *ctx, const char *subject,
			      unsigned int punted)
{
	const struct punt_watch *w = ctx->proc->watch;
	uint64_t unresolved = ut_unresolved_punts(&w->ut);
	struct finding *fi;

	/*
	 * Sampled all the time, the watch's end is its only cut: a punted request
	 * whose file had not shown by then (its io-wq worker, started during the
	 * watch, attached after it took the file, or the request was still on its
	 * way) is tied to no file, and with no file punted would read as a pass.
	 */
	if (!punted && w->sampled_all)
		unresolved += w->ut.cut_punts;
	if (!unresolved && !w->threads_unattached && !(w->lost && w->total))
		return false;
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
		return true;
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
	return true;
}

/*
 * Sampled in windows, with punts outside them: too few samples cannot
 * speak for the punts they did not see. Returns whether it said so.
 */
static bool file_punts_too_few_samples(const struct check *c, struct check_ctx *ctx,
				       const char *subject)
{
	const struct punt_watch *w = ctx->proc->watch;
	struct finding *fi;

	if (w->sampled_all || !punts_unseen(w) ||
	    w->punts_sampled - w->ut.punts_kernel_async >= PUNTS_TO_SPEAK)
		return false;
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
	return true;
}

void check_file_punts(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_watch *w = pf->watch;
	uint64_t reqs = 0, fixed = 0, kernel = 0;
	unsigned int punted = 0;
	struct finding *fi;
	char subject[32];
	size_t i;

	if (!proc_usable(c, ctx, true))
		return;
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!file_watch_usable(c, ctx, subject))
		return;
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
	if (file_punts_untied(c, ctx, subject, punted) || punted)
		return;
	if (file_punts_too_few_samples(c, ctx, subject))
		return;
	fi = proc_add(c, ctx, STATUS_PASS, subject,
		      "no request on any file was punted in %s: %llu requests on %zu fds and %llu "
		      "on registered files (io_uring tracepoints)%s", punt_watch_span(w).s,
		      (unsigned long long)reqs, w->ut.nfiles, (unsigned long long)fixed,
		      kernel ? "; only requests of opcodes io_uring always runs in io-wq, such as "
			       "FSYNC, were" : "");
	/* The numbers of the pass, as a punting file has them: report diff compares them. */
	finding_ev_int(fi, "requests", (int64_t)(reqs + fixed));
	finding_ev_int(fi, "punts", 0);
}
