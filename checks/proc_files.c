// SPDX-License-Identifier: GPL-2.0-or-later
/* The data files of a process: O_DIRECT, appends, extents, buffer alignment. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"

static void file_subject(const struct proc_facts *pf, const struct proc_file *f, char *buf,
			 size_t bufsz)
{
	snprintf(buf, bufsz, "pid %d fd %d %s", (int)pf->pid, f->fd, f->path);
}

static void file_evidence(struct finding *fi, const struct proc_facts *pf,
			  const struct proc_file *f, const char *why)
{
	const char *fs = proc_file_fstype(pf, f);
	char flags[16];

	snprintf(flags, sizeof(flags), "0%o", f->gen.flags);
	finding_ev_int(fi, "fd", f->fd);
	finding_ev_str(fi, "path", f->path);
	finding_ev_str(fi, "flags", flags);
	finding_ev_bool(fi, "o_direct", f->gen.flags & O_DIRECT);
	finding_ev_bool(fi, "o_append", f->gen.flags & O_APPEND);
	finding_ev_bool(fi, "registered", f->registered);
	finding_ev_str(fi, "fs", fs[0] ? fs : NULL);
	finding_ev_str(fi, "why_data", why);
	if (f->size_known)
		finding_ev_int(fi, "size", (int64_t)f->size);
}

/* The files left unjudged, named (a few) for the skip that says so. */
static unsigned int unjudged_list(const struct check_ctx *ctx, bool (*pick)(const struct proc_file *),
				  char *buf, size_t bufsz)
{
	const struct proc_facts *pf = ctx->proc;
	unsigned int n = 0;
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < pf->nfiles; i++) {
		const struct proc_file *f = &pf->files[i];

		if (!proc_unjudged_file(ctx, f) || (pick && !pick(f)))
			continue;
		if (n < 4 && strlen(buf) + strlen(f->path) + 8 < bufsz)
			snprintf(buf + strlen(buf), bufsz - strlen(buf), "%s%s", n ? ", " : "", f->path);
		n++;
	}
	if (n > 4 && strlen(buf) + 24 < bufsz)
		snprintf(buf + strlen(buf), bufsz - strlen(buf), " and %u more", n - 4);
	return n;
}

/* Logs opened O_APPEND are fd-append's to list. */
static bool buffered(const struct proc_file *f)
{
	return !(f->gen.flags & (O_DIRECT | O_APPEND));
}

static bool appending(const struct proc_file *f)
{
	return f->gen.flags & O_APPEND;
}

#define WATCH_HINT "run audit --watch SECONDS (root) to see which files io_uring writes"

static const struct kernel_version *kernel_of(const struct check_ctx *ctx)
{
	return fact_ok(&ctx->host->kernel.e) ? &ctx->host->kernel.v : NULL;
}

/*
 * An O_DIRECT data file written on a filesystem that punts every write,
 * O_DIRECT or not (btrfs copy-on-write files, tmpfs from 6.5): O_DIRECT
 * does not keep it on the fast path. NULL when its filesystem does not.
 */
static const struct punt_rule *direct_still_punts(const struct check_ctx *ctx,
						  const struct proc_file *f)
{
	const struct punt_rule *rule;

	if (!proc_file_writable(f))
		return NULL;
	rule = punt_rule_find(proc_file_fstype(ctx->proc, f), kernel_of(ctx), PUNT_WRITE);
	return rule && rule->certain ? rule : NULL;
}

/* Requests the watch saw on registered files of f's rings; 0 without a watch. */
static uint64_t watched_fixed_reqs(const struct proc_facts *pf, const struct proc_file *f)
{
	struct watched_fixed wfx;

	proc_watched_fixed(pf, f, &wfx);
	return wfx.reqs + wfx.unmapped_reqs;
}

/*
 * Buffered and judged on what was seen: the watch's own count when there is
 * one; a known data file the watch saw no request on keeps the verdict its
 * flags give (why says the window was quiet).
 */
static struct finding *buffered_finding(const struct check *c, struct check_ctx *ctx,
					const struct proc_file *f, const char *why,
					unsigned int workers)
{
	const struct proc_facts *pf = ctx->proc;
	const struct ut_file *uf = proc_watched_file(pf, f, NULL);
	const char *fs = proc_file_fstype(pf, f);
	const struct punt_rule *rule;
	char subject[4200];

	file_subject(pf, f, subject, sizeof(subject));
	if (uf && ut_file_fault_punts(uf))
		return proc_add(c, ctx, STATUS_FAIL, subject,
				"opened without O_DIRECT, and %llu of the %llu io_uring requests on it "
				"were punted to io-wq (%.0f%%) in %s",
				(unsigned long long)ut_file_fault_punts(uf),
				(unsigned long long)ut_file_fault_reqs(uf),
				100.0 * (double)ut_file_fault_punts(uf) /
					(double)ut_file_fault_reqs(uf),
				punt_watch_span(pf->watch).s);
	if (!uf && proc_watched(pf) && watched_fixed_reqs(pf, f)) {
		struct watched_fixed wfx;
		uint64_t reqs, punts;

		/* A registered file: the ring's account is all the events give. */
		proc_watched_fixed(pf, f, &wfx);
		reqs = wfx.reqs + wfx.unmapped_reqs;
		punts = wfx.punts + wfx.unmapped_punts;
		if (punts)
			return proc_add(c, ctx, STATUS_FAIL, subject,
					"data file (%s) opened without O_DIRECT; %llu of the %llu "
					"requests on registered files were punted in %s (the events "
					"name no file: this is one of %zu registered files)",
					why, (unsigned long long)punts, (unsigned long long)reqs,
					punt_watch_span(pf->watch).s, wfx.files ? wfx.files : 1);
		return proc_add(c, ctx, STATUS_WARN, subject,
				"data file (%s) opened without O_DIRECT; none of the %llu requests on "
				"registered files was punted in %s: buffered I/O stays on the fast "
				"path only while the page cache absorbs it",
				why, (unsigned long long)reqs, punt_watch_span(pf->watch).s);
	}
	if (uf)
		return proc_add(c, ctx, STATUS_WARN, subject,
				"opened without O_DIRECT; none of the %llu io_uring requests on it "
				"(%llu writes) was punted in %s: buffered I/O stays on the fast path "
				"only while the page cache absorbs it",
				(unsigned long long)uf->reqs, (unsigned long long)uf->writes,
				punt_watch_span(pf->watch).s);
	/* The filesystem's rule for buffered writes, from the kernel source (fs_punt_rules.c). */
	rule = punt_rule_find(fs, kernel_of(ctx), PUNT_BUFFERED_WRITE);
	if (rule && rule->certain)
		return proc_add(c, ctx, STATUS_FAIL, subject,
				"data file (%s) written without O_DIRECT on %s: %s", why, fs, rule->why);
	if (workers)
		return proc_add(c, ctx, STATUS_FAIL, subject,
				"data file (%s) written without O_DIRECT, and io-wq workers run: every "
				"buffered io_uring write that cannot complete without blocking goes to "
				"an io-wq worker%s%s", why, rule ? "; " : "", rule ? rule->why : "");
	return proc_add(c, ctx, STATUS_WARN, subject,
			"data file (%s) written without O_DIRECT on %s: buffered writes stay on the "
			"fast path only while the page cache absorbs them%s%s",
			why, fs[0] ? fs : "an unknown filesystem", rule ? "; " : "",
			rule ? rule->why : "");
}

/*
 * Files the watch saw io_uring requests on (not sockets' kind) that were not
 * open under that fd when the process was read: fd-o-direct judges the
 * files it read, file-punts these too.
 */
static unsigned int opened_since_read(const struct proc_facts *pf)
{
	const struct punt_watch *w = pf->watch;
	unsigned int n = 0;
	size_t i;

	for (i = 0; proc_watched(pf) && i < w->ut.nfiles; i++)
		n += ut_file_fault_reqs(&w->ut.files[i]) > 0;
	/* Less those the files read are: matched by proc_watched_file's rule (fd and path). */
	for (i = 0; i < pf->nfiles && n; i++) {
		const struct ut_file *uf = proc_watched_file(pf, &pf->files[i], NULL);

		n -= uf && ut_file_fault_reqs(uf) > 0;
	}
	return n;
}

/* The data files fd-o-direct judged, and those it passed: O_DIRECT, or buffered but only read. */
struct fd_counts {
	unsigned int judged, direct, only_read;
};

/* A data file opened with O_DIRECT on a filesystem that punts its writes all the same. */
static void direct_punts_finding(const struct check *c, struct check_ctx *ctx,
				 const struct proc_file *f, const char *why,
				 const struct punt_rule *rule)
{
	const struct proc_facts *pf = ctx->proc;
	char subject[4200];
	struct finding *fi;

	file_subject(pf, f, subject, sizeof(subject));
	fi = proc_add(c, ctx, STATUS_FAIL, subject,
		      "data file (%s) opened with O_DIRECT on %s, where O_DIRECT does "
		      "not help: %s", why, proc_file_fstype(pf, f), rule->why);
	if (rule->fix)
		finding_set_fix(fi, "%s", rule->fix);
	file_evidence(fi, pf, f, why);
}

/* A data file io_uring writes through the page cache (or may): the finding, its fix, evidence. */
static void buffered_file_finding(const struct check *c, struct check_ctx *ctx,
				  const struct proc_file *f, const char *why,
				  const struct ut_file *uf, unsigned int workers, unsigned int all)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_rule *rule;
	struct finding *fi;

	fi = buffered_finding(c, ctx, f, why, workers);
	rule = punt_rule_find(proc_file_fstype(pf, f), kernel_of(ctx), PUNT_WRITE);
	if (rule && rule->certain && rule->fix)
		finding_set_fix(fi, "%s", rule->fix);	/* O_DIRECT would not help there */
	else
		finding_set_fix(fi, "open %s with O_DIRECT (and aligned buffers, offsets and "
				    "lengths); for durability use O_DSYNC or fsync, not buffered "
				    "writes", f->path);
	proc_app_fix_file(ctx, fi, APP_FIX_BUFFERED, f->path);
	file_evidence(fi, pf, f, why);
	finding_ev_int(fi, "iou_wrk", all);
	finding_ev_int(fi, "iou_wrk_active", workers);
	if (uf) {
		finding_ev_int(fi, "requests", (int64_t)ut_file_fault_reqs(uf));
		finding_ev_int(fi, "punts", (int64_t)ut_file_fault_punts(uf));
	}
}

/* Each data file judged, or counted among those that pass. */
static void fd_o_direct_files(const struct check *c, struct check_ctx *ctx, unsigned int workers,
			      struct fd_counts *n)
{
	const struct proc_facts *pf = ctx->proc;
	const struct punt_rule *rule;
	size_t i;

	for (i = 0; i < pf->nfiles; i++) {
		const struct proc_file *f = &pf->files[i];
		const char *why = proc_data_file(ctx, f);
		const struct ut_file *uf = proc_watched_file(pf, f, NULL);

		if (!why)
			continue;
		if ((f->gen.flags & O_DIRECT) && (rule = direct_still_punts(ctx, f))) {
			n->judged++;
			direct_punts_finding(c, ctx, f, why, rule);
			continue;
		}
		if (f->gen.flags & O_DIRECT) {
			n->direct++;
			continue;
		}
		/* Watched: a buffered file io_uring only read, without a punt, is fine. */
		if (uf ? !uf->writes && !ut_file_fault_punts(uf) : !proc_file_writable(f)) {
			n->only_read++;
			continue;
		}
		n->judged++;
		buffered_file_finding(c, ctx, f, why, uf, workers, pf->threads.iou_wrk);
	}
}

/* The files left unjudged, said as skips; returns how many writable buffered ones. */
static unsigned int fd_o_direct_unjudged(const struct check *c, struct check_ctx *ctx,
					 const char *summary)
{
	const struct proc_facts *pf = ctx->proc;
	unsigned int unjudged;
	char names[1024];

	unjudged = unjudged_list(ctx, buffered, names, sizeof(names));
	if (unjudged)
		proc_add(c, ctx, STATUS_SKIP, summary,
			 "%u writable buffered file%s not judged, because io_uring may or may not "
			 "write %s: %s; %s", unjudged, unjudged == 1 ? "" : "s",
			 unjudged == 1 ? "it" : "them", names, WATCH_HINT);
	/* A file whose flags could not be read is neither passed nor blamed. */
	if (pf->fdinfo_unread)
		proc_add(c, ctx, STATUS_SKIP, summary,
			 "%u open file%s not judged: %s fdinfo could not be read or parsed, so "
			 "whether %s opened with O_DIRECT is not known", pf->fdinfo_unread,
			 pf->fdinfo_unread == 1 ? "" : "s", pf->fdinfo_unread == 1 ? "its" : "their",
			 pf->fdinfo_unread == 1 ? "it was" : "they were");
	return unjudged;
}

/* No data file judged: the pass, by what the watch saw or by the files known to be io_uring's. */
static void fd_o_direct_pass(const struct check *c, struct check_ctx *ctx, const char *summary,
			     const struct fd_counts *n, unsigned int unjudged)
{
	const struct proc_facts *pf = ctx->proc;
	unsigned int passed = n->direct + n->only_read;

	if (proc_watched(pf)) {
		unsigned int later = opened_since_read(pf);
		char since[160] = "";

		if (later)
			snprintf(since, sizeof(since), "; %u file%s opened since the process was read "
				 "had io_uring requests too, judged by file-punts", later,
				 later == 1 ? "" : "s");
		proc_add(c, ctx, STATUS_PASS, summary,
			 "the %u file%s open when the process was read that io_uring made requests "
			 "on in %s, or known to be its (registered, --data-path, the application "
			 "table), %s O_DIRECT or only read (%u O_DIRECT, %u only read; their "
			 "punts are file-punts')%s; files without io_uring requests were not "
			 "judged",
			 passed, passed == 1 ? "" : "s", punt_watch_span(pf->watch).s,
			 passed == 1 ? "is" : "are", n->direct, n->only_read, since);
	} else if (n->direct) {
		proc_add(c, ctx, STATUS_PASS, summary,
			 "the %u data file%s known to be io_uring's (registered with a ring, or "
			 "--data-path) %s opened with O_DIRECT", n->direct, n->direct == 1 ? "" : "s",
			 n->direct == 1 ? "is" : "are");
	} else if (!unjudged && !pf->fdinfo_unread) {
		proc_add(c, ctx, STATUS_PASS, summary,
			 "no writable buffered file on a disk is open (%zu files looked at)", pf->nfiles);
	}
}

void check_fd_o_direct(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	unsigned int workers = pf->threads.iou_wrk, unjudged;
	struct fd_counts n = { 0 };
	struct workers_activity a;
	char summary[64];

	if (!proc_usable(c, ctx, true))
		return;
	/* A worker left idle from an earlier punt says nothing about this file now. */
	if (proc_workers_activity(pf, &a))
		workers = a.ran + a.started + a.unknown;
	fd_o_direct_files(c, ctx, workers, &n);
	snprintf(summary, sizeof(summary), "pid %d", (int)pf->pid);
	unjudged = fd_o_direct_unjudged(c, ctx, summary);
	if (!n.judged)
		fd_o_direct_pass(c, ctx, summary, &n, unjudged);
}

void check_fd_append(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	unsigned int judged = 0, unjudged;
	char subject[4200], names[1024];
	struct finding *fi;
	size_t i;

	if (!proc_usable(c, ctx, true))
		return;
	for (i = 0; i < pf->nfiles; i++) {
		const struct proc_file *f = &pf->files[i];
		const char *why = proc_data_file(ctx, f);
		const struct ut_file *uf = proc_watched_file(pf, f, NULL);

		/* A log opened O_APPEND is fine; a ring's data file that appends is not. */
		if (!(f->gen.flags & O_APPEND) || f->type != PFILE_REGULAR || !why)
			continue;
		if (uf && !uf->writes)
			continue;
		judged++;
		file_subject(pf, f, subject, sizeof(subject));
		if (uf)
			fi = proc_add(c, ctx, STATUS_FAIL, subject,
				      "opened O_APPEND and written through io_uring: %llu of %llu "
				      "writes punted to io-wq in %s; every append extends the file, "
				      "which cannot be done without blocking",
				      (unsigned long long)uf->write_punts, (unsigned long long)uf->writes,
				      punt_watch_span(pf->watch).s);
		else
			fi = proc_add(c, ctx, STATUS_FAIL, subject,
				      "data file (%s) opened O_APPEND%s: every append extends the file, "
				      "which cannot be done without blocking, so io_uring hands each one "
				      "to io-wq (8192 of 8192 O_DIRECT appends were punted on ext4 and XFS)",
				      why, f->gen.flags & O_DIRECT ? " | O_DIRECT" : "");
		finding_set_fix(fi, "preallocate and write the file's space once (fallocate, then "
				    "write zeros with O_DIRECT), then overwrite at explicit offsets "
				    "without O_APPEND; keep appends for logs outside io_uring");
		proc_app_fix(ctx, fi, APP_FIX_APPEND);
		file_evidence(fi, pf, f, why);
	}
	if (judged)
		return;
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	unjudged = unjudged_list(ctx, appending, names, sizeof(names));
	if (unjudged)
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "%u file%s opened O_APPEND not judged (logs are fine; io_uring may or may "
			 "not write %s): %s; %s", unjudged, unjudged == 1 ? "" : "s",
			 unjudged == 1 ? "it" : "them", names, WATCH_HINT);
	else if (proc_watched(pf))
		proc_add(c, ctx, STATUS_PASS, subject,
			 "no file io_uring wrote in %s is opened O_APPEND",
			 punt_watch_span(pf->watch).s);
	else
		proc_add(c, ctx, STATUS_PASS, subject, "no writable file on a disk is opened O_APPEND");
}

/* The alignment O_DIRECT needs for a file: its statx answer, else its device's queue. */
static bool file_alignment(const struct proc_facts *pf, const struct proc_file *f,
			   uint32_t *mem, uint32_t *off)
{
	const struct proc_device *d;

	if (f->dio_offset_align) {
		*mem = f->dio_mem_align;
		*off = f->dio_offset_align;
		return true;
	}
	d = proc_facts_device(pf, f);
	if (!d || !fact_ok(&d->blk.e) || !d->blk.logical_block_size)
		return false;
	*off = (uint32_t)d->blk.logical_block_size;
	*mem = d->blk.dma_alignment >= 0 ? (uint32_t)d->blk.dma_alignment + 1 : *off;
	return true;
}

void check_fixed_buf_alignment(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	uint32_t mem = 0, off = 0, m, o;
	char subject[64], bad[512] = "", source[4200] = "";
	size_t i, k, nbad = 0, nbufs = 0;
	struct finding *fi;

	if (!proc_usable(c, ctx, true))
		return;
	/* The strictest alignment among the files the buffers can be used with. */
	for (i = 0; i < pf->nfiles; i++) {
		const struct proc_file *f = &pf->files[i];

		if (!(f->gen.flags & O_DIRECT) || !file_alignment(pf, f, &m, &o))
			continue;
		if (o > off || m > mem)
			snprintf(source, sizeof(source), "%s", f->path);
		mem = m > mem ? m : mem;
		off = o > off ? o : off;
	}
	for (i = 0; i < pf->nrings; i++) {
		const struct proc_ring *r = &pf->rings[i];

		nbufs += r->u.nbufs;
		for (k = 0; mem && k < r->u.nbufs; k++) {
			const struct uring_user_buf *b = &r->u.bufs[k];

			if (b->addr % mem == 0 && b->len % off == 0)
				continue;
			if (strlen(bad) + 64 < sizeof(bad))
				snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad),
					 "%sring fd %d buffer %u at 0x%llx length %llu", nbad ? ", " : "",
					 r->fd, b->index, (unsigned long long)b->addr,
					 (unsigned long long)b->len);
			nbad++;
		}
	}
	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!nbufs) {
		proc_add(c, ctx, STATUS_SKIP, subject, "no registered buffers");
		return;
	}
	if (!mem) {
		proc_add(c, ctx, STATUS_SKIP, subject,
			 "%zu registered buffers, but no O_DIRECT file whose alignment is known to "
			 "judge them against", nbufs);
		return;
	}
	if (nbad) {
		fi = proc_add(c, ctx, STATUS_FAIL, subject,
			      "%zu of %zu registered buffers are not aligned for O_DIRECT on %s "
			      "(buffers to %u bytes, lengths to %u): %s; O_DIRECT reads and writes "
			      "with them fail with EINVAL",
			      nbad, nbufs, source, mem, off, bad);
		finding_set_fix(fi, "allocate registered buffers with posix_memalign(%u) (or mmap) "
				    "and sizes that are multiples of %u",
				mem > 4096 ? mem : 4096, off);
	} else {
		fi = proc_add(c, ctx, STATUS_PASS, subject,
			      "all %zu registered buffers are aligned for O_DIRECT on %s (%u-byte "
			      "buffers, %u-byte lengths)", nbufs, source, mem, off);
	}
	finding_ev_int(fi, "mem_align", mem);
	finding_ev_int(fi, "offset_align", off);
	finding_ev_int(fi, "buffers", (int64_t)nbufs);
	finding_ev_int(fi, "misaligned", (int64_t)nbad);
}

/* Fewer than this many bytes per extent on average, over the extent limit, is fragmented. */
#define FRAG_MAX_AVG (1ull << 20)

void check_file_extents(const struct check *c, struct check_ctx *ctx)
{
	const struct proc_facts *pf = ctx->proc;
	unsigned int judged = 0, bad = 0, unread = 0;
	char subject[4200], first_err[320] = "";
	struct finding *fi;
	size_t i;

	if (!proc_usable(c, ctx, true))
		return;
	for (i = 0; i < pf->nfiles; i++) {
		const struct proc_file *f0 = &pf->files[i], *f = f0;
		const char *why = proc_data_file(ctx, f);
		const struct watch_file *wf = NULL;
		const struct punt_rule *rule;
		struct proc_file seen;
		bool frag, unwritten;

		if (!why || f->type != PFILE_REGULAR)
			continue;
		/* Watched: the extents as the watch read them, small files included. */
		if (proc_watched_file(pf, f0, &wf) && wf && !wf->first.err) {
			seen = *f0;
			seen.ext_err = wf->first.ext_err;
			seen.extents = wf->first.extents;
			seen.unwritten = wf->first.unwritten;
			seen.extents_truncated = wf->first.extents_truncated;
			seen.size = wf->first.size;
			f = &seen;
		}
		/* A data file whose extents could not be read is named, not silently passed. */
		if (f->ext_err && f->ext_err != -EOPNOTSUPP && f->ext_err != -ECANCELED) {
			if (!unread++) {
				bool cut = strlen(f->path) > 256;	/* shortened, visibly */

				snprintf(first_err, sizeof(first_err), "%.*s%s: %s", cut ? 253 : 256,
					 f->path, cut ? "..." : "", strerror(-f->ext_err));
			}
			continue;
		}
		if (f->ext_err)
			continue;
		judged++;
		frag = f->extents >= check_thresholds(ctx)->extent_limit &&
		       f->size / f->extents < FRAG_MAX_AVG;
		/*
		 * Unwritten extents punt O_DIRECT writes where the filesystem's rule
		 * says so (docs/kernel-facts.md, section 11): on XFS under contention or below a
		 * block, on ext4 before 6.3 every one, from 6.3 only below a block.
		 */
		rule = f->unwritten ? punt_rule_find(proc_file_fstype(pf, f), kernel_of(ctx),
						     PUNT_DIO_UNWRITTEN) : NULL;
		unwritten = rule && (rule->certain || strcmp(rule->fs, "ext4"));
		if (!frag && !unwritten)
			continue;
		bad++;
		file_subject(pf, f, subject, sizeof(subject));
		fi = proc_add(c, ctx, STATUS_WARN, subject,
			      "%s%u extents%s over %llu bytes%s%u unwritten%s%s",
			      frag ? "fragmented: " : "", f->extents,
			      f->extents_truncated ? " or more" : "", (unsigned long long)f->size,
			      unwritten ? "; " : " (", f->unwritten,
			      unwritten ? " (allocated, never written): " : ")",
			      unwritten ? rule->why : "");
		finding_set_fix(fi, "preallocate and write the data file once before use (fallocate "
				    "alone leaves unwritten extents); rewrite fragmented files (cp, or "
				    "xfs_fsr / e4defrag) while the service is stopped");
		if (unwritten)
			proc_app_fix(ctx, fi, APP_FIX_SPARSE);
		file_evidence(fi, pf, f0, why);
		finding_ev_int(fi, "extents", f->extents);
		finding_ev_int(fi, "unwritten", f->unwritten);
	}
	if (!bad) {
		snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
		if (judged && unread)
			proc_add(c, ctx, STATUS_PASS, subject,
				 "%u data files io_uring uses: none fragmented, none with unwritten extents where "
				 "they punt; the extents of %u more could not be read: %s", judged,
				 unread, first_err);
		else if (judged)
			proc_add(c, ctx, STATUS_PASS, subject,
				 "%u data files io_uring uses: none fragmented, none with unwritten extents where "
				 "they punt", judged);
		else if (unread)
			proc_add(c, ctx, STATUS_SKIP, subject,
				 "the extents of %u data file%s could not be read: %s", unread,
				 unread == 1 ? "" : "s", first_err);
		else if (proc_watched(pf))
			proc_add(c, ctx, STATUS_SKIP, subject,
				 "io_uring made no request on a file with readable extents in %s",
				 punt_watch_span(pf->watch).s);
		else
			proc_add(c, ctx, STATUS_SKIP, subject,
				 "no data file known to be io_uring's with readable extents (registered "
				 "with a ring, or --data-path; FIEMAP needs the live system and access "
				 "to the file); %s", WATCH_HINT);
	}
}
