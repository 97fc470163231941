// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A process's scene as Prometheus gauges (docs/commands.md, "The incident
 * scene"): one family per quantity, a device or cpu label where there are
 * several, pid and comm labels for the process. Only what was measured
 * gets a sample: a scene not measured (a captured tree) declares no family,
 * a part not measured (no window, a device gone) has no sample, never a 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "scene_json.h"

#define F(n) "uringlint_scene_" n

struct fam {
	const char *name, *help;
};

static const struct fam fams[] = {
	{ F("window_seconds"), "The scene's window: seconds between its two readings." },
	{ F("load1"), "The load average over 1 minute, at the end of the window." },
	{ F("load5"), "The load average over 5 minutes, at the end of the window." },
	{ F("load15"), "The load average over 15 minutes, at the end of the window." },
	{ F("dirty_bytes"), "Dirty page cache (meminfo Dirty) at the end of the window." },
	{ F("writeback_bytes"), "Page cache under writeback (meminfo Writeback)." },
	{ F("dirty_threshold_bytes"), "The dirty threshold past which writers are throttled "
				      "(vmstat nr_dirty_threshold)." },
	{ F("device_in_flight"), "Requests in flight on a device of the process at the last reading." },
	{ F("device_util_ratio"), "Share of the window a device had I/O in flight (iostat %util / 100)." },
	{ F("device_await_seconds"), "Mean time a request waited and was served (iostat r_await, w_await)." },
	{ F("device_queue_size"), "Mean requests in the queue over the window (iostat aqu-sz)." },
	{ F("device_iops"), "Completed requests per second (iostat r/s, w/s)." },
	{ F("device_bytes_per_second"), "Bytes per second (iostat rkB/s, wkB/s, in bytes)." },
	{ F("cpu_ratio"), "Share of a CPU the process's threads ran on, per mode, over the window "
			  "(vmstat, top; user includes nice)." },
	{ F("iowq_cpu_ratio"), "CPU seconds per second the process's io-wq workers used over the window." },
};

#define GAUGE(n, v, ...) (err |= metrics_sample(m, F(n), (v), __VA_ARGS__))
/* A device's family sampled for reads, then for writes. */
#define GAUGE_RW(n, r, w) (GAUGE(n, r, "%s,device=\"%s\",op=\"read\"", who, dev), \
			   GAUGE(n, w, "%s,device=\"%s\",op=\"write\"", who, dev))

static int devices(struct metrics *m, const struct scene *s, const char *who)
{
	size_t i;
	int err = 0;

	for (i = 0; i < s->ndevs; i++) {
		const struct scene_dev *d = &s->devs[i];
		const struct scene_iostat *io = &d->io;
		char *dev = metrics_label_value(d->name);

		if (!dev)
			return -ENOMEM;
		if (d->in_flight >= 0 && fact_ok(&d->e))
			GAUGE("device_in_flight", d->in_flight, "%s,device=\"%s\"", who, dev);
		if (s->windowed && d->has_delta && fact_ok(&d->e)) {
			GAUGE("device_util_ratio", io->util / 100, "%s,device=\"%s\"", who, dev);
			GAUGE_RW("device_await_seconds", io->r_await / 1000, io->w_await / 1000);
			GAUGE("device_queue_size", io->aqu_sz, "%s,device=\"%s\"", who, dev);
			GAUGE_RW("device_iops", io->r_s, io->w_s);
			GAUGE_RW("device_bytes_per_second", io->rkb_s * 1024, io->wkb_s * 1024);
		}
		free(dev);
	}
	return err;
}

static int cpus(struct metrics *m, const struct scene *s, const char *who)
{
	size_t i;
	int err = 0;

	if (!s->windowed || !fact_ok(&s->cpus_e))
		return 0;
	for (i = 0; i < s->ncpus; i++) {
		const struct scene_cpu *c = &s->cpus[i];
		const char *mode[] = { "user", "system", "iowait", "irq", "softirq", "steal", "idle" };
		double v[] = { c->us, c->sy, c->wa, c->hi, c->si, c->st, c->id_pct };
		size_t k;

		if (!fact_ok(&c->e))
			continue;
		for (k = 0; k < sizeof(v) / sizeof(v[0]); k++)
			GAUGE("cpu_ratio", v[k] / 100, "%s,cpu=\"%d\",mode=\"%s\"", who, c->id, mode[k]);
	}
	return err;
}

int scene_metrics(struct metrics *m, const struct scene *s, int pid, const char *comm)
{
	char *c, *who = NULL;
	size_t i;
	int err = 0;

	if (!fact_ok(&s->e))
		return 0;
	for (i = 0; i < sizeof(fams) / sizeof(fams[0]); i++)
		err |= metrics_family(m, fams[i].name, METRIC_GAUGE, fams[i].help);
	c = metrics_label_value(comm);
	if (err || !c || asprintf(&who, "pid=\"%d\",comm=\"%s\"", pid, c) < 0) {
		free(c);
		return -ENOMEM;
	}
	free(c);
	if (s->windowed)
		GAUGE("window_seconds", s->seconds, "%s", who);
	if (fact_ok(&s->load_e)) {
		GAUGE("load1", s->load[0], "%s", who);
		GAUGE("load5", s->load[1], "%s", who);
		GAUGE("load15", s->load[2], "%s", who);
	}
	if (fact_ok(&s->mem_e)) {
		GAUGE("dirty_bytes", (double)s->dirty_kb * 1024, "%s", who);
		GAUGE("writeback_bytes", (double)s->writeback_kb * 1024, "%s", who);
		GAUGE("dirty_threshold_bytes", (double)s->dirty_thresh_kb * 1024, "%s", who);
	}
	if (s->windowed && fact_ok(&s->iowq_e))
		GAUGE("iowq_cpu_ratio", s->iowq_cpu, "%s", who);
	err |= devices(m, s, who);
	err |= cpus(m, s, who);
	free(who);
	return err ? -ENOMEM : 0;
}
