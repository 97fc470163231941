// SPDX-License-Identifier: GPL-2.0-or-later
/* Shared by the process checks: subjects, the gate, what a data file is, io-wq activity. */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"

/* A written file this large on a block device is data, not a log or a config. */

struct finding *proc_add(const struct check *c, struct check_ctx *ctx, enum check_status st,
			 const char *subject, const char *fmt, ...)
{
	struct finding *f;
	va_list ap;

	va_start(ap, fmt);
	f = report_vadd(ctx->report, &c->info, st, subject, fmt, ap);
	va_end(ap);
	f->pid = ctx->proc->pid;
	return f;
}

struct finding *proc_fact_missing(const struct check *c, struct check_ctx *ctx,
				  const char *subject, const struct fact_err *e)
{
	struct finding *f = check_fact_missing(c, ctx, subject, e);

	f->pid = ctx->proc->pid;
	return f;
}

bool proc_usable(const struct check *c, struct check_ctx *ctx, bool need_fds)
{
	const struct proc_facts *pf = ctx->proc;
	char subject[32];

	snprintf(subject, sizeof(subject), "pid %d", (int)pf->pid);
	if (!fact_ok(&pf->e)) {
		proc_fact_missing(c, ctx, subject, &pf->e);
		return false;
	}
	if (pf->kernel_thread) {
		proc_add(c, ctx, STATUS_SKIP, subject, "pid %d (%s) is a kernel thread: it has no "
			 "io_uring of its own", (int)pf->pid, pf->comm);
		return false;
	}
	if (pf->zombie) {
		proc_add(c, ctx, STATUS_SKIP, subject, "pid %d (%s) is a zombie: its files and "
			 "rings are gone", (int)pf->pid, pf->comm);
		return false;
	}
	if (need_fds && !fact_ok(&pf->fds_e)) {
		proc_fact_missing(c, ctx, subject, &pf->fds_e);
		return false;
	}
	if (need_fds && !pf->nrings) {
		proc_add(c, ctx, STATUS_SKIP, subject, "pid %d (%s) has no io_uring fd",
			 (int)pf->pid, pf->comm);
		return false;
	}
	return true;
}

bool proc_file_writable(const struct proc_file *f)
{
	return (f->gen.flags & O_ACCMODE) != O_RDONLY;
}

/*
 * What is known of f without a watch: registered with a ring, --data-path,
 * or the application table; idle says the watch saw no request on it.
 */
static const char *known_data_why(const struct check_ctx *ctx, const struct proc_file *f, bool idle)
{
	const struct app_entry *app;
	size_t i;

	if (f->registered)
		return idle ? "registered with a ring (no io_uring request on it while watched)"
			    : "registered with a ring";
	for (i = 0; ctx->audit && i < ctx->audit->ndata_paths; i++)
		if (!fnmatch(ctx->audit->data_paths[i], f->path, 0))
			return idle ? "matches --data-path (no io_uring request on it while watched)"
				    : "matches --data-path";
	app = check_ctx_app(ctx);
	if (app && app_entry_uses_uring(app, f->path))
		return idle ? "a file its application drives through io_uring (uringlint's "
			      "application table; no io_uring request on it while watched)"
			    : "a file its application drives through io_uring (uringlint's "
			      "application table)";
	return NULL;
}

/*
 * Why f is io_uring's data, whatever its type. A watch adds what it saw;
 * it never takes away what is known without it: a quiet window is no
 * proof that a registered or configured data file is not written.
 */
static const char *data_file_why(const struct check_ctx *ctx, const struct proc_file *f)
{
	const struct ut_file *uf;

	uf = proc_watched_file(ctx->proc, f, NULL);
	if (uf && uf->reqs)
		return "io_uring made requests on it while watched";
	if (proc_watched(ctx->proc)) {
		struct watched_fixed wfx;

		proc_watched_fixed(ctx->proc, f, &wfx);
		if (wfx.reqs)
			return "registered with a ring that made requests on registered files "
			       "while watched";
		if (wfx.unmapped_reqs)
			return "registered, and a ring the events do not name made requests on "
			       "registered files while watched";
		return known_data_why(ctx, f, true);
	}
	return known_data_why(ctx, f, false);
}

const char *proc_data_file(const struct check_ctx *ctx, const struct proc_file *f)
{
	if (f->type != PFILE_REGULAR && f->type != PFILE_BLOCK)
		return NULL;
	return data_file_why(ctx, f);
}

enum proc_file_need proc_file_need(const struct check_ctx *ctx, const struct proc_file *f)
{
	/* O_DIRECT: the registered buffers are judged against its alignment. */
	if ((f->gen.flags & O_DIRECT) || data_file_why(ctx, f))
		return PFILE_NEED_ALL;
	/* A writable file may be listed as not judged: if it is a regular file or a disk. */
	return proc_file_writable(f) ? PFILE_NEED_TYPE : PFILE_NEED_NONE;
}

bool proc_unjudged_file(const struct check_ctx *ctx, const struct proc_file *f)
{
	const struct proc_mount *m = proc_file_mount(ctx->proc, f);

	const struct app_entry *app = check_ctx_app(ctx);

	/* Standard streams are the launcher's redirections, not data. */
	if (f->fd <= 2 || proc_data_file(ctx, f) || proc_watched(ctx->proc))
		return false;
	/* The application is known to write it with plain system calls (a redo log). */
	if (app && app_entry_writes_plain(app, f->path))
		return false;
	if (f->type == PFILE_BLOCK)
		return proc_file_writable(f);
	return f->type == PFILE_REGULAR && proc_file_writable(f) && m && m->major;
}

/* A worker that ran this long in the window did work, whatever its wake-ups. */
#define WORKER_BUSY_NS 1000000ull

bool proc_workers_activity(const struct proc_facts *pf, struct workers_activity *a)
{
	const struct proc_window *w = &pf->window;
	unsigned int seen = 0;
	size_t i;

	memset(a, 0, sizeof(*a));
	if (!fact_ok(&w->e))
		return false;
	a->started = w->new_workers;
	for (i = 0; i < w->nthreads; i++) {
		const struct window_thread *t = &w->threads[i];
		uint64_t run, wait;

		if (t->kind != THREAD_IOU_WRK)
			continue;
		seen++;
		/*
		 * The last worker of a pool wakes once per 5 s idle timeout and goes back
		 * to sleep: one wake-up of a few microseconds is not work. One blocked in
		 * D state on a punted request uses no CPU and is the busiest of all.
		 */
		if (t->r[0].state == 'D' || t->r[1].state == 'D') {
			a->ran++;
			a->blocked++;
		} else if (t->r[1].gone) {
			a->exited++;
		} else if (!window_thread_times(t, &run, &wait)) {
			a->unknown++;
		} else if (run >= WORKER_BUSY_NS || window_thread_slices(t) >= 2) {
			a->ran++;
		} else {
			a->idle++;
		}
	}
	/* Workers the thread table counted that the window did not list are not known idle. */
	if (pf->threads.iou_wrk > seen && fact_ok(&pf->threads.e))
		a->unknown += pf->threads.iou_wrk - seen;
	return true;
}
