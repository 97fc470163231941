// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The scene's readings through libproc2: per-device counters
 * (procps_diskstats, its counters at two reaps), per-CPU tics
 * (procps_stat, STAT_TIC_DELTA_*), Dirty and Writeback (procps_meminfo),
 * the dirty thresholds and major faults (procps_vmstat) and the load
 * average (procps_loadavg). uringlint parses none of those files itself.
 * libproc2 reads the live /proc only: under --root the scene is not taken.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libproc2/diskstats.h>
#include <libproc2/meminfo.h>
#include <libproc2/misc.h>
#include <libproc2/stat.h>
#include <libproc2/vmstat.h>

#include "scene.h"
#include "scene_probe.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The counters themselves, not libproc2's DELTA items: those are ints, and a
 * window of 600 s at 2 GB/s passes 2^31 sectors, so a delta would turn
 * negative (or, past 2^32, small and wrong). The change is taken in 64 bits
 * here (scene_disk_sub).
 */
static enum diskstats_item disk_items[] = {
	DISKSTATS_NAME, DISKSTATS_MAJOR, DISKSTATS_MINOR, DISKSTATS_IO_INPROGRESS,
	DISKSTATS_READS, DISKSTATS_READS_MERGED, DISKSTATS_READ_SECTORS, DISKSTATS_READ_TIME,
	DISKSTATS_WRITES, DISKSTATS_WRITES_MERGED, DISKSTATS_WRITE_SECTORS, DISKSTATS_WRITE_TIME,
	DISKSTATS_IO_TIME, DISKSTATS_WEIGHTED_TIME,
};
enum { D_NAME, D_MAJ, D_MIN, D_INFL, D_RIO, D_RMRG, D_RSECT, D_RTIME, D_WIO, D_WMRG, D_WSECT,
       D_WTIME, D_IOTIME, D_WEIGHTED, D_N };

static struct diskstats_stack *disk_find(struct diskstats_reaped *r, const char *name)
{
	int i;

	for (i = 0; r && i < r->total; i++)
		if (!strcmp(r->stacks[i]->head[D_NAME].result.str, name))
			return r->stacks[i];
	return NULL;
}

/* The counters of one reading into c. */
static void disk_counters(const struct diskstats_stack *st, struct scene_disk_delta *c)
{
	uint64_t *out = &c->rd_ios;
	int i;

	for (i = 0; i < D_N - D_RIO; i++)
		out[i] = (uint64_t)st->head[D_RIO + i].result.ul_int;
}

static void disk_end(const struct sysroot *sr, struct scene *s, struct scene_dev *d,
		     const struct diskstats_stack *st)
{
	struct scene_disk_delta at1;
	char rel[64];

	snprintf(rel, sizeof(rel), "sys/dev/block/%u:%u", d->major, d->minor);
	if (!st || (unsigned int)st->head[D_MAJ].result.s_int != d->major ||
	    (unsigned int)st->head[D_MIN].result.s_int != d->minor || !sysroot_exists(sr, rel)) {
		fact_fail(&d->e, -ENODEV, "%s (%u:%u) was gone at the end of the window", d->name,
			  d->major, d->minor);
		return;
	}
	d->in_flight = st->head[D_INFL].result.s_int;
	if (!s->windowed)
		return;
	disk_counters(st, &at1);
	if (!scene_disk_sub(&d->at0, &at1, &d->d)) {
		fact_fail(&d->e, -ERANGE, "a counter of %s went backwards in the window (the "
			  "device was reset or replaced)", d->name);
		return;
	}
	d->has_delta = true;
	scene_iostat(&d->d, s->seconds, &d->io);
}

/* One reap of /proc/diskstats for every device of the scene. */
static void disks_read(const struct sysroot *sr, struct scene *s, bool end)
{
	struct diskstats_reaped *r = procps_diskstats_reap(s->p->disk, disk_items, D_N);
	size_t i;

	for (i = 0; i < s->ndevs; i++) {
		struct scene_dev *d = &s->devs[i];
		struct diskstats_stack *st = disk_find(r, d->name);

		if (!r) {
			fact_fail(&d->e, errno ? -errno : -EIO, "libproc2 could not read "
				  "/proc/diskstats: %s", strerror(errno ? errno : EIO));
			continue;
		}
		if (!fact_ok(&d->e))
			continue;
		if (!end) {
			d->seen_begin = st != NULL;
			if (!st) {
				fact_fail(&d->e, -ENOENT, "%s is not in /proc/diskstats", d->name);
				continue;
			}
			d->major = (unsigned int)st->head[D_MAJ].result.s_int;
			d->minor = (unsigned int)st->head[D_MIN].result.s_int;
			d->in_flight = st->head[D_INFL].result.s_int;
			disk_counters(st, &d->at0);
			continue;
		}
		disk_end(sr, s, d, st);
	}
}

static enum stat_item cpu_items[] = {
	STAT_TIC_ID, STAT_TIC_DELTA_USER, STAT_TIC_DELTA_NICE, STAT_TIC_DELTA_SYSTEM,
	STAT_TIC_DELTA_IDLE, STAT_TIC_DELTA_IOWAIT, STAT_TIC_DELTA_IRQ, STAT_TIC_DELTA_SOFTIRQ,
	STAT_TIC_DELTA_STOLEN,
};
enum { C_ID, C_USER, C_NICE, C_SYS, C_IDLE, C_IOW, C_IRQ, C_SIRQ, C_STEAL, C_N };

static bool cpu_wanted(const struct scene_target *t, int id)
{
	size_t i;
	bool any = false;

	for (i = 0; i < t->ncpus; i++) {
		any |= t->cpus[i] >= 0;
		if (t->cpus[i] == id)
			return true;
	}
	return !any;
}

static bool ids_same(const struct scene_probe *p)
{
	return p->ncpu_ids[0] == p->ncpu_ids[1] &&
	       !memcmp(p->cpu_ids[0], p->cpu_ids[1], sizeof(int) * (size_t)p->ncpu_ids[0]);
}

static void cpu_one(struct scene *s, const struct stat_stack *st, bool same)
{
	struct scene_cpu *c = &s->cpus[s->ncpus++];
	struct scene_tics t = {
		.user = st->head[C_USER].result.sl_int, .nice = st->head[C_NICE].result.sl_int,
		.system = st->head[C_SYS].result.sl_int, .idle = st->head[C_IDLE].result.sl_int,
		.iowait = st->head[C_IOW].result.sl_int, .irq = st->head[C_IRQ].result.sl_int,
		.softirq = st->head[C_SIRQ].result.sl_int, .steal = st->head[C_STEAL].result.sl_int,
	};

	memset(c, 0, sizeof(*c));
	c->id = st->head[C_ID].result.s_int;
	/* libproc2 pairs each CPU's tics by position: with the set changed they mean nothing. */
	if (!same)
		fact_fail(&c->e, -ERANGE, "CPUs went offline or online in the window: cpu%d's "
			  "tics are not compared", c->id);
	else if (!scene_cpu_pct(&t, c))
		fact_fail(&c->e, -ERANGE, "cpu%d's tics went backwards or did not move", c->id);
}

/* A CPU a thread ran on that was not online at the end: said, not judged. */
static void cpu_offline(struct scene *s, int id)
{
	size_t i;

	if (id < 0)
		return;
	for (i = 0; i < s->ncpus; i++)
		if (s->cpus[i].id == id)
			return;
	s->cpus[s->ncpus].id = id;
	fact_fail(&s->cpus[s->ncpus].e, -ENODEV, "cpu%d was offline at the end of the window", id);
	s->ncpus++;
}

/* One reap of /proc/stat's CPU lines; at the end, the percentages of the wanted CPUs. */
static void cpus_read(const struct scene_target *t, struct scene *s, bool end)
{
	struct scene_probe *p = s->p;
	struct stat_reaped *r = procps_stat_reap(p->stat, STAT_REAP_CPUS_ONLY, cpu_items, C_N);
	int i, k = end;

	if (!r || !r->cpus) {
		fact_fail(&s->cpus_e, errno ? -errno : -EIO, "libproc2 could not read /proc/stat: %s",
			  strerror(errno ? errno : EIO));
		return;
	}
	p->ncpu_ids[k] = 0;
	for (i = 0; i < r->cpus->total && i < SCENE_MAX_CPUS; i++)
		p->cpu_ids[k][p->ncpu_ids[k]++] = r->cpus->stacks[i]->head[C_ID].result.s_int;
	if (!end || !fact_ok(&s->cpus_e))
		return;
	s->cpus = calloc((size_t)p->ncpu_ids[1] + t->ncpus + 1, sizeof(*s->cpus));
	if (!s->cpus) {
		fact_fail(&s->cpus_e, -ENOMEM, "out of memory");
		return;
	}
	s->cpus_all = true;
	for (i = 0; i < (int)t->ncpus; i++)
		s->cpus_all &= t->cpus[i] < 0;
	for (i = 0; i < p->ncpu_ids[1]; i++)
		if (cpu_wanted(t, p->cpu_ids[1][i]))
			cpu_one(s, r->cpus->stacks[i], ids_same(p));
	for (i = 0; i < (int)t->ncpus; i++)
		cpu_offline(s, t->cpus[i]);
}

static enum meminfo_item mem_items[] = { MEMINFO_MEM_DIRTY, MEMINFO_MEM_WRITEBACK };
static enum vmstat_item vm_items[] = {
	VMSTAT_NR_DIRTY_THRESHOLD, VMSTAT_NR_DIRTY_BACKGROUND_THRESHOLD, VMSTAT_PGMAJFAULT,
};

/* Dirty and Writeback against the thresholds now; major faults since the start. */
static void mem_read(struct scene *s, bool end)
{
	struct scene_probe *p = s->p;
	struct meminfo_stack *m = procps_meminfo_select(p->mem, mem_items, 2);
	struct vmstat_stack *v = procps_vmstat_select(p->vm, vm_items, 3);
	uint64_t page_kb = (uint64_t)sysconf(_SC_PAGESIZE) / 1024;
	unsigned long majflt;

	if (!m || !v) {
		fact_fail(&s->mem_e, errno ? -errno : -EIO, "libproc2 could not read %s: %s",
			  m ? "/proc/vmstat" : "/proc/meminfo", strerror(errno ? errno : EIO));
		fact_fail(&s->majflt_e, -EIO, "%s", s->mem_e.why);
		return;
	}
	s->mem_e = (struct fact_err){ 0 };
	s->dirty_kb = m->head[0].result.ul_int;
	s->writeback_kb = m->head[1].result.ul_int;
	s->dirty_thresh_kb = v->head[0].result.ul_int * page_kb;
	s->dirty_bg_thresh_kb = v->head[1].result.ul_int * page_kb;
	majflt = v->head[2].result.ul_int;
	if (!end) {
		p->pgmajfault0 = majflt;
		p->vm0 = true;
		return;
	}
	if (!p->vm0)
		fact_fail(&s->majflt_e, -EIO, "/proc/vmstat was not read at the start of the window");
	else if (majflt < p->pgmajfault0)
		fact_fail(&s->majflt_e, -ERANGE, "pgmajfault went backwards in the window");
	else if (s->seconds > 0)
		s->pgmajfault_s = (double)(majflt - p->pgmajfault0) / s->seconds;
}

static void load_read(struct scene *s)
{
	int err = procps_loadavg(&s->load[0], &s->load[1], &s->load[2]);

	if (err < 0)
		fact_fail(&s->load_e, err, "libproc2 could not read /proc/loadavg: %s",
			  strerror(-err));
	else
		s->load_e = (struct fact_err){ 0 };
}

/* libproc2's handles; false, with s->e, when one cannot be had. */
static bool probe_open(struct scene *s)
{
	struct scene_probe *p = calloc(1, sizeof(*p));
	int err = p ? 0 : -ENOMEM;

	s->p = p;
	if (!err)
		err = procps_diskstats_new(&p->disk);
	if (!err)
		err = procps_stat_new(&p->stat);
	if (!err)
		err = procps_meminfo_new(&p->mem);
	if (!err)
		err = procps_vmstat_new(&p->vm);
	if (err)
		fact_fail(&s->e, err < 0 ? err : -EIO, "libproc2 could not open its readers: %s",
			  strerror(err < 0 ? -err : EIO));
	return !err;
}

static bool scene_live(const struct sysroot *sr, struct scene *s)
{
	if (sr->live)
		return true;
	fact_fail(&s->e, -EOPNOTSUPP, "not measured: a captured tree has no window, and libproc2 "
		  "reads the live /proc only");
	return false;
}

/*
 * A window too short for rates (a process that exited as the watch began):
 * what one reading gives stays, every rate is not measured, with the reason.
 */
static void window_check(struct scene *s)
{
	struct fact_err e = { 0 };
	size_t i;

	if (scene_window_usable(s->seconds, &e))
		return;
	for (i = 0; i < s->ndevs; i++)
		if (s->devs[i].has_delta) {
			s->devs[i].has_delta = false;
			s->devs[i].io = (struct scene_iostat){ 0 };
			s->devs[i].e = e;
		}
	if (fact_ok(&s->cpus_e))
		s->cpus_e = e;
	if (fact_ok(&s->iowq_e))
		s->iowq_e = e;
	if (fact_ok(&s->majflt_e))
		s->majflt_e = e;
}

void scene_begin(const struct sysroot *sr, const struct scene_target *t, struct scene *s)
{
	memset(s, 0, sizeof(*s));
	if (!scene_live(sr, s) || !probe_open(s))
		return;
	s->windowed = true;
	scene_devs_resolve(sr, t, s);
	s->p->t0_ns = now_ns();
	disks_read(sr, s, false);
	cpus_read(t, s, false);
	mem_read(s, false);
	scene_iowq_read(sr, t->pid, s, false);
}

void scene_end(const struct sysroot *sr, const struct scene_target *t, struct scene *s)
{
	if (!fact_ok(&s->e) || !s->p)
		return;
	s->seconds = (double)(now_ns() - s->p->t0_ns) / 1e9;
	disks_read(sr, s, true);
	if (fact_ok(&s->cpus_e))
		cpus_read(t, s, true);
	mem_read(s, true);
	load_read(s);
	if (fact_ok(&s->iowq_e))
		scene_iowq_read(sr, t->pid, s, true);
	window_check(s);
}

void scene_once(const struct sysroot *sr, const struct scene_target *t, struct scene *s)
{
	memset(s, 0, sizeof(*s));
	if (!scene_live(sr, s) || !probe_open(s))
		return;
	scene_devs_resolve(sr, t, s);
	disks_read(sr, s, false);
	mem_read(s, false);
	load_read(s);
	fact_fail(&s->cpus_e, -ENODATA, "no window (--watch 0): CPU shares need two readings");
	fact_fail(&s->majflt_e, -ENODATA, "no window (--watch 0): a rate needs two readings");
	fact_fail(&s->iowq_e, -ENODATA, "no window (--watch 0): a rate needs two readings");
}

void scene_free(struct scene *s)
{
	struct scene_probe *p = s->p;

	if (p) {
		if (p->disk)
			procps_diskstats_unref(&p->disk);
		if (p->stat)
			procps_stat_unref(&p->stat);
		if (p->mem)
			procps_meminfo_unref(&p->mem);
		if (p->vm)
			procps_vmstat_unref(&p->vm);
		free(p->wk[0].v);
		free(p->wk[1].v);
		free(p);
	}
	free(s->cpus);
	s->p = NULL;
	s->cpus = NULL;
}
