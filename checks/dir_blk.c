// SPDX-License-Identifier: GPL-2.0-or-later
/* The block device under each --dir: queue depth, scheduler, stacking, polling. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"

/* Block checks need a block device; a tmpfs or NFS directory gets a skip with the reason. */
static bool have_blk(const struct check *c, struct check_ctx *ctx, const struct dir_facts *df)
{
	if (fact_ok(&df->blk.e))
		return true;
	check_fact_missing(c, ctx, df->path, &df->blk.e);
	return false;
}

static void queue_depth_one(const struct check *c, struct check_ctx *ctx,
			    const struct dir_facts *df)
{
	const struct blockdev_facts *bd = &df->blk;
	unsigned int depth = ctx->plan->depth;
	struct finding *f;

	if (!have_blk(c, ctx, df))
		return;
	if (!bd->nr_requests) {
		dir_add(c, ctx, df, STATUS_SKIP, "%s has no request queue depth (bio-based device)",
			bd->disk);
		return;
	}
	if (depth > bd->nr_requests) {
		f = dir_add(c, ctx, df, STATUS_WARN,
			    "planned depth %u exceeds %s's %llu requests (queue/nr_requests): the "
			    "excess waits for a tag, seen as threads in blk_mq_get_tag; whether it "
			    "also falls back to io-wq depends on kernel and device, so measure with "
			    "`uringlint probe --dir %s --depth %u`",
			    depth, bd->disk, (unsigned long long)bd->nr_requests, df->path, depth);
		finding_set_fix(f, "lower the per-ring depth to %llu, or raise the queue "
				   "(echo %u > /sys/block/%s/queue/nr_requests, within what the driver "
				   "allows)",
				(unsigned long long)bd->nr_requests, depth, bd->disk);
	} else {
		f = dir_add(c, ctx, df, STATUS_PASS,
			    "planned depth %u fits %s's %llu requests (queue/nr_requests)", depth,
			    bd->disk, (unsigned long long)bd->nr_requests);
	}
	finding_ev_int(f, "depth", depth);
	finding_ev_int(f, "nr_requests", (int64_t)bd->nr_requests);
}

void check_blk_queue_depth(const struct check *c, struct check_ctx *ctx)
{
	dir_checks_each(c, ctx, queue_depth_one);
}

static void scheduler_one(const struct check *c, struct check_ctx *ctx, const struct dir_facts *df)
{
	const struct blockdev_facts *bd = &df->blk;
	struct finding *f;

	if (!have_blk(c, ctx, df))
		return;
	if (!bd->scheduler[0]) {
		dir_add(c, ctx, df, STATUS_SKIP, "%s has no queue/scheduler (not a request-based "
			"device)", bd->disk);
		return;
	}
	if (!strcmp(bd->scheduler, "bfq")) {
		f = dir_add(c, ctx, df, STATUS_WARN,
			    "%s uses bfq, which spends CPU and adds latency on every request at the "
			    "rates io_uring reaches",
			    bd->disk);
		finding_set_fix(f, "echo %s > /sys/block/%s/queue/scheduler (none for NVMe, "
				   "mq-deadline otherwise), and make it stick with a udev rule: "
				   "ACTION==\"add|change\", KERNEL==\"%s\", ATTR{queue/scheduler}=\"%s\"",
				bd->rotational == 1 ? "mq-deadline" : "none", bd->disk, bd->disk,
				bd->rotational == 1 ? "mq-deadline" : "none");
	} else {
		f = dir_add(c, ctx, df, STATUS_PASS, "%s uses the %s scheduler", bd->disk,
			    bd->scheduler);
	}
	finding_ev_str(f, "scheduler", bd->scheduler);
	finding_ev_str(f, "schedulers", bd->schedulers);
}

void check_blk_scheduler(const struct check *c, struct check_ctx *ctx)
{
	dir_checks_each(c, ctx, scheduler_one);
}

static void stacked_one(const struct check *c, struct check_ctx *ctx, const struct dir_facts *df)
{
	const struct blockdev_facts *bd = &df->blk;
	struct finding *f;

	if (!have_blk(c, ctx, df))
		return;
	if (bd->slaves[0]) {
		f = dir_add(c, ctx, df, STATUS_WARN,
			    "%s is stacked on %s (%s): device-mapper and md targets have historically "
			    "lacked NOWAIT, so io_uring hands their I/O to io-wq; measure with the probe",
			    bd->disk, bd->slaves, !strncmp(bd->disk, "md", 2) ? "md" : "device-mapper");
	} else if (bd->backing_file[0]) {
		f = dir_add(c, ctx, df, STATUS_WARN,
			    "%s is a loop device over %s: I/O goes through a second filesystem, and "
			    "what io_uring does here says little about a real disk",
			    bd->disk, bd->backing_file);
	} else {
		f = dir_add(c, ctx, df, STATUS_PASS, "%s sits directly on a device", bd->disk);
	}
	if (f->status == STATUS_WARN)
		finding_set_fix(f, "run `uringlint probe --dir %s` to see whether requests punt here; "
				   "where they do, put hot data on a plain partition", df->path);
	finding_ev_str(f, "slaves", bd->slaves[0] ? bd->slaves : NULL);
	finding_ev_str(f, "backing_file", bd->backing_file[0] ? bd->backing_file : NULL);
}

void check_blk_stacked(const struct check *c, struct check_ctx *ctx)
{
	dir_checks_each(c, ctx, stacked_one);
}

static void iopoll_one(const struct check *c, struct check_ctx *ctx, const struct dir_facts *df)
{
	const struct blockdev_facts *bd = &df->blk;
	struct finding *f;

	if (!have_blk(c, ctx, df))
		return;
	if (bd->io_poll < 0) {
		dir_add(c, ctx, df, STATUS_SKIP, "%s has no queue/io_poll to say whether it polls",
			bd->disk);
		return;
	}
	if (bd->io_poll == 1) {
		f = dir_add(c, ctx, df, STATUS_PASS,
			    "%s has poll queues (queue/io_poll = 1); IOPOLL also needs O_DIRECT files",
			    bd->disk);
	} else if (bd->poll_queues == 0) {
		f = dir_add(c, ctx, df, STATUS_FAIL,
			    "%s has no poll queues (%s.poll_queues = 0): IOPOLL rings get "
			    "EOPNOTSUPP for every request",
			    bd->disk, bd->poll_driver);
		finding_set_fix(f, "give the %s driver poll queues: %s.poll_queues=N on the kernel "
				   "command line, or 'options %s poll_queues=N' in /etc/modprobe.d/ "
				   "and reload the driver", bd->poll_driver, bd->poll_driver,
				bd->poll_driver);
	} else {
		f = dir_add(c, ctx, df, STATUS_FAIL,
			    "%s cannot poll (queue/io_poll = 0): IOPOLL rings get EOPNOTSUPP for every "
			    "request",
			    bd->disk);
		finding_set_fix(f, "drop IORING_SETUP_IOPOLL for this device; polled I/O needs a "
				   "driver with poll queues (NVMe with nvme.poll_queues > 0, virtio-blk "
				   "with virtio_blk.poll_queues > 0)");
	}
	finding_ev_int(f, "io_poll", bd->io_poll);
	if (bd->poll_queues >= 0) {
		finding_ev_int(f, "poll_queues", bd->poll_queues);
		finding_ev_str(f, "poll_driver", bd->poll_driver);
		/* The key reports had before virtio-blk was read too. */
		if (!strcmp(bd->poll_driver, "nvme"))
			finding_ev_int(f, "nvme_poll_queues", bd->poll_queues);
	}
}

void check_blk_iopoll(const struct check *c, struct check_ctx *ctx)
{
	if (!ctx->plan->iopoll) {
		report_add(ctx->report, &c->info, STATUS_SKIP, "host",
			   "no --iopoll planned: the service does not use IOPOLL");
		return;
	}
	dir_checks_each(c, ctx, iopoll_one);
}
