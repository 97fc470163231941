// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A process's scene in the words of iostat -x, vmstat and top, as notes
 * under the process's line in the text, markdown and HTML reports. A scene
 * not measured (a captured tree) says nothing here: its findings say why.
 */
#include <stdio.h>
#include <string.h>

#include "output.h"
#include "cpulist.h"
#include "scene_json.h"

/* A rate as iostat's eye reads it: "228", "58.2k". */
static const char *rate(double v, char *buf, size_t sz)
{
	if (v < 1000)
		snprintf(buf, sz, "%.0f", v);
	else if (v < 1e6)
		snprintf(buf, sz, "%.1fk", v / 1e3);
	else
		snprintf(buf, sz, "%.1fM", v / 1e6);
	return buf;
}

/* One direction of a device: "w 58.2k/s 228 MB/s, w_await 0.5 ms". */
static void dev_dir(char *buf, size_t sz, const char *op, double ios, double kbs, double await)
{
	char r[32];

	if (ios <= 0)
		return;
	catf(buf, sz, ", %s %s/s %.1f MB/s, %s_await %.1f ms", op, rate(ios, r, sizeof(r)),
	     kbs / 1024, op, await);
}

static void devices_text(const struct scene *s, char *buf, size_t sz)
{
	size_t i, shown = 0, unmeasured = 0;

	for (i = 0; i < s->ndevs; i++) {
		const struct scene_dev *d = &s->devs[i];

		if (!fact_ok(&d->e) || (s->windowed && !d->has_delta)) {
			unmeasured++;
			continue;
		}
		catf(buf, sz, "%s%s", shown++ ? "; " : "", d->name);
		if (!s->windowed) {
			catf(buf, sz, " %d in flight", d->in_flight);
			continue;
		}
		catf(buf, sz, " %.0f%% util, aqu-sz %.1f", d->io.util, d->io.aqu_sz);
		dev_dir(buf, sz, "r", d->io.r_s, d->io.rkb_s, d->io.r_await);
		dev_dir(buf, sz, "w", d->io.w_s, d->io.wkb_s, d->io.w_await);
	}
	if (!shown && !unmeasured)
		catf(buf, sz, "no block device under its files");
	if (unmeasured)
		catf(buf, sz, "%s%zu device%s not measured", shown ? "; " : "", unmeasured,
		     unmeasured == 1 ? "" : "s");
}

/* The CPUs the threads ran on, their mean split: "CPUs 0-1 us 12% sy 30% ...". */
static void cpus_text(const struct scene *s, char *buf, size_t sz)
{
	struct cpuset set = { 0 };
	double us = 0, sy = 0, wa = 0, hisi = 0, st = 0;
	char list[256];
	size_t i, n = 0;

	if (!s->windowed || !fact_ok(&s->cpus_e))
		return;
	for (i = 0; i < s->ncpus; i++) {
		const struct scene_cpu *c = &s->cpus[i];

		if (!fact_ok(&c->e) || c->id < 0)
			continue;
		cpuset_set(&set, (unsigned int)c->id);
		us += c->us;
		sy += c->sy;
		wa += c->wa;
		hisi += c->hi + c->si;
		st += c->st;
		n++;
	}
	if (!n)
		return;
	cpuset_format(&set, list, sizeof(list));
	catf(buf, sz, "; CPU%s %s%s us %.0f%% sy %.0f%% wa %.0f%% hi+si %.0f%% st %.0f%%",
	     n == 1 ? "" : "s", list, s->cpus_all ? " (all)" : "", us / n, sy / n, wa / n,
	     hisi / n, st / n);
}

bool scene_summary(const struct scene *s, char *buf, size_t sz)
{
	char a[BYTES_STR_MAX], b[BYTES_STR_MAX];

	buf[0] = '\0';
	if (!fact_ok(&s->e))
		return false;
	if (s->windowed)
		catf(buf, sz, "  scene over %.1f s: ", s->seconds);
	else
		catf(buf, sz, "  scene now (no window): ");
	devices_text(s, buf, sz);
	cpus_text(s, buf, sz);
	if (fact_ok(&s->mem_e))
		catf(buf, sz, "; Dirty %s of %s threshold", format_bytes(s->dirty_kb * 1024, a),
		     format_bytes(s->dirty_thresh_kb * 1024, b));
	if (s->windowed && fact_ok(&s->iowq_e) && s->iowq_workers)
		catf(buf, sz, "; io-wq %.2f CPU (%u worker%s)", s->iowq_cpu, s->iowq_workers,
		     s->iowq_workers == 1 ? "" : "s");
	if (fact_ok(&s->load_e))
		catf(buf, sz, "; load %.2f", s->load[0]);
	return true;
}
