// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a watch reads of the watched process while it runs, beside its
 * events: each file's state when its first request is seen and at the
 * end, the page cache of the files that punt, and the fill of each ring's
 * queues from fdinfo. All through the caller's sysroot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "procfs.h"
#include "watch_reads.h"

/* The files seen for the first time: their state now, before it changes. */
void watch_read_new_files(const struct sysroot *sr, pid_t pid, struct punt_watch *w)
{
	size_t n = w->ut.nfiles, i;

	/*
	 * A file closed before its first look (a short put of a file server):
	 * looked at again when requests come on its fd again, opened anew.
	 */
	for (i = 0; i < w->nfiles; i++) {
		struct watch_file *f = &w->files[i];

		if (!f->first.err || w->ut.files[i].reqs == f->first_tried_reqs)
			continue;
		f->first_tried_reqs = w->ut.files[i].reqs;
		file_state_free(&f->first);
		file_state_read(sr, w->ut.files[i].pid ? w->ut.files[i].pid : pid, w->ut.files[i].fd,
				&f->first);
	}
	if (n <= w->nfiles)
		return;
	if (array_grow(&w->files, &w->files_cap, n)) {
		/* The files' states could not be kept: the watch says so, never less. */
		if (!w->e.err)
			fact_fail(&w->e, -ENOMEM, "out of memory keeping the watched files");
		return;
	}
	for (i = w->nfiles; i < n; i++) {
		memset(&w->files[i], 0, sizeof(w->files[i]));
		/* Under --exec, the fd may be a child's: the process that looked it up. */
		file_state_read(sr, w->ut.files[i].pid ? w->ut.files[i].pid : pid, w->ut.files[i].fd,
				&w->files[i].first);
		w->files[i].first_tried_reqs = w->ut.files[i].reqs;
		w->files[i].last.err = -ENODATA;
	}
	w->nfiles = n;
}

void watch_read_last_files(const struct sysroot *sr, pid_t pid, struct punt_watch *w)
{
	size_t i;

	for (i = 0; i < w->nfiles; i++) {
		struct watch_file *f = &w->files[i];

		file_state_read(sr, w->ut.files[i].pid ? w->ut.files[i].pid : pid, w->ut.files[i].fd,
				&f->last);
		f->reused = !f->first.err && !f->last.err &&
			    (f->first.dev != f->last.dev || f->first.ino != f->last.ino);
	}
}

int punt_watch_fill_fds(struct punt_watch *w, const int *fds, size_t n)
{
	size_t i;

	free(w->fills);
	w->fills_left_out = n > WATCH_FILL_MAX ? n - WATCH_FILL_MAX : 0;
	n -= w->fills_left_out;
	w->fills = calloc(n ? n : 1, sizeof(*w->fills));
	w->nfills = 0;
	if (!w->fills)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		w->fills[i].fd = fds[i];
	w->nfills = n;
	return 0;
}

/* One reading of each ring's queue fill, from the fdinfo the kernel prints. */
void watch_read_fills(const struct sysroot *sr, pid_t pid, struct punt_watch *w)
{
	size_t i;

	for (i = 0; i < w->nfills; i++) {
		struct watch_fill *f = &w->fills[i];
		struct uring_fdinfo u = { 0 };
		size_t len;
		char *text;

		if (sysroot_read_filef(sr, 64u << 20, &text, &len, "proc/%d/fdinfo/%d", (int)pid,
				       f->fd)) {
			f->unread++;
			continue;
		}
		if (uring_fdinfo_parse(text, &u) || !u.has_ring_state ||
		    array_grow(&f->r, &f->cap, f->n + 1)) {
			f->unread++;
		} else {
			f->sq_entries = u.sq_entries;
			f->cq_entries = u.cq_entries;
			f->r[f->n++] = (struct fill_reading){
				u.sqes_pending, u.cqes_pending,
				(int32_t)(u.cached_sq_head - u.cached_cq_tail) };
		}
		uring_fdinfo_free(&u);
		free(text);
	}
}

static int by_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

uint32_t watch_fill_max(const struct watch_fill *f, bool cq)
{
	uint32_t m = 0;
	size_t i;

	for (i = 0; i < f->n; i++)
		if ((cq ? f->r[i].cq : f->r[i].sq) > m)
			m = cq ? f->r[i].cq : f->r[i].sq;
	return m;
}

int64_t watch_fill_inflight_max(const struct watch_fill *f)
{
	int64_t m = 0;
	size_t i;

	for (i = 0; i < f->n; i++) {
		if (f->r[i].inflight < 0)
			return -1;
		if (f->r[i].inflight > m)
			m = f->r[i].inflight;
	}
	return m;
}

uint32_t watch_fill_quantile(const struct watch_fill *f, bool cq, double q)
{
	size_t n = f->n, i, k;
	uint32_t *s, r;

	if (!n)
		return 0;
	s = malloc(n * sizeof(*s));
	if (!s)
		return 0;
	for (i = 0; i < n; i++)
		s[i] = cq ? f->r[i].cq : f->r[i].sq;
	qsort(s, n, sizeof(*s), by_u32);
	k = (size_t)(q * (double)n);
	r = s[k < n ? k : n - 1];
	free(s);
	return r;
}

/* Page cache comes and goes (writeback, reads): the files that punt are looked at again. */
void watch_read_cache_peaks(const struct sysroot *sr, pid_t pid, struct punt_watch *w)
{
	unsigned int looked = 0;
	size_t i;

	for (i = 0; i < w->nfiles && looked < 64; i++) {
		struct watch_file *f = &w->files[i];
		uint64_t cached, dirty;

		if (!w->ut.files[i].punts || !f->first.regular)
			continue;
		looked++;
		if (file_cache_read(sr, pid, w->ut.files[i].fd, &cached, &dirty))
			continue;
		f->cache_reads++;
		f->peak_cached = cached > f->peak_cached ? cached : f->peak_cached;
		f->peak_dirty = dirty > f->peak_dirty ? dirty : f->peak_dirty;
	}
}
