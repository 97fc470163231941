// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The scene's numbers from recorded counters: iostat -x's columns from a
 * device's diskstats changes, vmstat's CPU percentages from a CPU's tics.
 * Pure functions, so the unit tests feed them numbers.
 */
#include <errno.h>

#include "scene.h"

/*
 * sysstat 12.6 (Debian 12), iostat.c write_ext_stat() and rd_stats.c
 * compute_ext_disk_stats(), with S_VALUE(old, new, itv) the change per
 * second and sectors of 512 bytes:
 *   r/s = S_VALUE(rd_ios)             w/s = S_VALUE(wr_ios)
 *   rkB/s = S_VALUE(rd_sectors) / 2   wkB/s = S_VALUE(wr_sectors) / 2
 *   r_await = d(rd_ticks) / d(rd_ios) w_await = d(wr_ticks) / d(wr_ios)  (0 without I/O)
 *   aqu-sz = S_VALUE(rq_ticks) / 1000 (the weighted ms, time_in_queue)
 *   %util = S_VALUE(tot_ticks) / 10   (io_ticks: ms the device had I/O in flight)
 *   rareq-sz = d(rd_sectors) / d(rd_ios) / 2, wareq-sz likewise (kB)
 *   areq-sz = (d(rd_sectors) + d(wr_sectors)) / (d(rd_ios) + d(wr_ios)) / 2
 * %util is capped at 100 as later sysstat does: io_ticks is sampled at
 * jiffy edges (block/blk-core.c update_io_ticks()) and may overshoot.
 * Discards and flushes are left out, as from iostat's r and w columns.
 */
void scene_iostat(const struct scene_disk_delta *d, double seconds, struct scene_iostat *io)
{
	uint64_t ios = d->rd_ios + d->wr_ios;

	*io = (struct scene_iostat){ 0 };
	if (seconds <= 0)
		return;
	io->r_s = d->rd_ios / seconds;
	io->w_s = d->wr_ios / seconds;
	io->rkb_s = d->rd_sectors / seconds / 2;
	io->wkb_s = d->wr_sectors / seconds / 2;
	io->r_await = d->rd_ios ? (double)d->rd_ticks / d->rd_ios : 0;
	io->w_await = d->wr_ios ? (double)d->wr_ticks / d->wr_ios : 0;
	io->aqu_sz = d->rq_ticks / seconds / 1000;
	io->util = d->io_ticks / seconds / 10;
	if (io->util > 100)
		io->util = 100;
	io->rareq_sz = d->rd_ios ? (double)d->rd_sectors / d->rd_ios / 2 : 0;
	io->wareq_sz = d->wr_ios ? (double)d->wr_sectors / d->wr_ios / 2 : 0;
	io->areq_sz = ios ? (double)(d->rd_sectors + d->wr_sectors) / ios / 2 : 0;
}

bool scene_disk_sub(const struct scene_disk_delta *a, const struct scene_disk_delta *b,
		    struct scene_disk_delta *d)
{
	const uint64_t *x = &a->rd_ios, *y = &b->rd_ios;
	uint64_t *out = &d->rd_ios;
	size_t i, n = sizeof(*d) / sizeof(uint64_t);

	_Static_assert(sizeof(struct scene_disk_delta) == 10 * sizeof(uint64_t),
		       "scene_disk_delta holds counters only");
	for (i = 0; i < n; i++) {
		if (y[i] < x[i])
			return false;
		out[i] = y[i] - x[i];
	}
	return true;
}

bool scene_window_usable(double seconds, struct fact_err *e)
{
	if (seconds >= SCENE_MIN_SECONDS)
		return true;
	fact_fail(e, -ENODATA, "the window was %.3f s, under %.1f s: a rate of counters that "
		  "advance per jiffy or clock tick means nothing over it", seconds > 0 ? seconds : 0,
		  SCENE_MIN_SECONDS);
	return false;
}

/*
 * vmstat's and top's split of a CPU's time: each kind's tics over the sum
 * of all (user already holds guest time, kernel/sched/cputime.c
 * account_guest_time(), so guest is not added again); us is user+nice as
 * vmstat shows it.
 */
bool scene_cpu_pct(const struct scene_tics *t, struct scene_cpu *c)
{
	int64_t v[] = { t->user, t->nice, t->system, t->idle, t->iowait, t->irq, t->softirq,
			t->steal };
	double total = 0;
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (v[i] < 0)
			return false;
		total += (double)v[i];
	}
	if (total <= 0)
		return false;
	c->us = 100.0 * (double)(t->user + t->nice) / total;
	c->sy = 100.0 * (double)t->system / total;
	c->id_pct = 100.0 * (double)t->idle / total;
	c->wa = 100.0 * (double)t->iowait / total;
	c->hi = 100.0 * (double)t->irq / total;
	c->si = 100.0 * (double)t->softirq / total;
	c->st = 100.0 * (double)t->steal / total;
	return true;
}

const char *scene_dev_role_name(enum scene_dev_role r)
{
	switch (r) {
	case SCENE_DEV_FS:
		return "filesystem";
	case SCENE_DEV_DISK:
		return "disk";
	case SCENE_DEV_SLAVE:
		return "under";
	case SCENE_DEV_BACKING:
		return "backing";
	case SCENE_DEV_OPEN:
		return "open";
	}
	return "?";
}
