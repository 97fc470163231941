// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The probe: random O_DIRECT I/O on the probe's own temporary file, one
 * mode after another (plain ring, its COOP_TASKRUN and DEFER_TASKRUN
 * variants, SQPOLL, SQPOLL with registered buffers and file), then, with
 * --contrast, the classic mistakes on the same host. Each mode measures
 * IOPS, completion latency, punts to io-wq, io_uring_enter calls and
 * voluntary context switches per I/O.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "latency.h"
#include "procfs.h"
#include "probe.h"
#include "tmpfile.h"
#include "tracefs.h"

#ifndef IORING_SETUP_COOP_TASKRUN
#define IORING_SETUP_COOP_TASKRUN (1U << 8)
#define IORING_SETUP_TASKRUN_FLAG (1U << 9)
#endif
#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER (1U << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN (1U << 13)
#endif

#define TMPFS_MAGIC_ 0x01021994
#define RAMFS_MAGIC_ 0x858458f6
#define LAT_CAP (4u << 20)		/* latency samples kept per mode */
#define SPIN_MAX 2000000u		/* CQ polls before an SQPOLL mode sleeps in the kernel */
#define SPACE_MARGIN (64ull << 20)

static const char *const mode_names[PM__COUNT] = {
	[PM_DEFAULT] = "default",
	[PM_COOP] = "coop-taskrun",
	[PM_DEFER] = "defer-taskrun",
	[PM_SQPOLL] = "sqpoll",
	[PM_SQPOLL_FIXED] = "sqpoll-fixed",
	[PM_BUFFERED] = "buffered",
	[PM_APPEND] = "append",
	[PM_UNWRITTEN] = "unwritten",
};

const char *probe_mode_name(enum probe_mode m)
{
	return m < PM__COUNT ? mode_names[m] : "?";
}

void probe_opts_default(struct probe_opts *o, const char *dir)
{
	*o = (struct probe_opts){ .dir = dir, .size = 256ull << 20, .duration_ms = 2000,
				  .depth = 32, .bs = 4096, .rw = PROBE_RANDRW, .sqpoll_cpu = -1 };
	probe_modes_parse("all", &o->modes);
}

int probe_modes_parse(const char *name, unsigned int *modes)
{
	if (!strcmp(name, "all"))
		*modes = 1u << PM_DEFAULT | 1u << PM_COOP | 1u << PM_DEFER | 1u << PM_SQPOLL |
			 1u << PM_SQPOLL_FIXED;
	else if (!strcmp(name, "default"))
		*modes = 1u << PM_DEFAULT | 1u << PM_COOP | 1u << PM_DEFER;
	else if (!strcmp(name, "sqpoll"))
		*modes = 1u << PM_SQPOLL;
	else if (!strcmp(name, "sqpoll-fixed"))
		*modes = 1u << PM_SQPOLL_FIXED;
	else
		return -EINVAL;
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* xorshift64: cheap, and the same sequence every run. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

struct engine {
	struct io_uring ring;
	bool sqpoll, fixed, write_only, append;
	enum probe_rw rw;
	int fd;
	void **bufs;
	uint64_t *start;
	uint32_t *lat;
	size_t nlat;
	uint64_t blocks, seed, appended, append_limit;
	unsigned int bs;
	uint64_t enters;
	/* the slots in flight, and those waiting for room in the SQ */
	unsigned int inflight, npending, *pending;
};

/*
 * Queues one request for slot; false when the SQ has no room. With SQPOLL a
 * completion can arrive before the kernel publishes the SQ head that freed
 * its entry, so a full SQ is possible and the slot waits for the next pass.
 */
static bool prep(struct engine *e, unsigned int slot)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&e->ring);
	bool write = e->write_only || e->rw == PROBE_RANDWRITE ||
		     (e->rw == PROBE_RANDRW && (next_rand(&e->seed) & 1));
	uint64_t off = e->append ? 0 : (next_rand(&e->seed) % e->blocks) * e->bs;
	int fd = e->fixed ? 0 : e->fd;

	if (!sqe)
		return false;
	if (e->fixed) {
		if (write)
			io_uring_prep_write_fixed(sqe, fd, e->bufs[slot], e->bs, off, (int)slot);
		else
			io_uring_prep_read_fixed(sqe, fd, e->bufs[slot], e->bs, off, (int)slot);
		sqe->flags |= IOSQE_FIXED_FILE;
	} else if (write) {
		io_uring_prep_write(sqe, fd, e->bufs[slot], e->bs, off);
	} else {
		io_uring_prep_read(sqe, fd, e->bufs[slot], e->bs, off);
	}
	if (e->append)
		e->appended += e->bs;
	io_uring_sqe_set_data64(sqe, slot);
	e->start[slot] = now_ns();
	return true;
}

static void count_sqpoll_submit(struct engine *e)
{
	/* liburing enters the kernel only to wake a sleeping SQPOLL thread. */
	if (IO_URING_READ_ONCE(*e->ring.sq.kflags) & IORING_SQ_NEED_WAKEUP)
		e->enters++;
	io_uring_submit(&e->ring);
}

/* Waits for at least one completion the way each kind of ring does best. */
static int wait_some(struct engine *e)
{
	struct io_uring_cqe *cqe;
	unsigned int spins = 0;
	int ret;

	if (!e->sqpoll) {
		e->enters++;
		ret = io_uring_submit_and_wait(&e->ring, 1);
		return ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY ? ret : 0;
	}
	if (io_uring_sq_ready(&e->ring))
		count_sqpoll_submit(e);
	/* SQPOLL: poll the CQ from user space; the kernel is entered only if nothing comes. */
	while (io_uring_peek_cqe(&e->ring, &cqe) == -EAGAIN) {
		if (++spins < SPIN_MAX)
			continue;
		e->enters++;
		ret = io_uring_wait_cqe(&e->ring, &cqe);
		return ret < 0 && ret != -EINTR ? ret : 0;
	}
	return 0;
}

static void latency_stats(struct engine *e, struct probe_mode_result *m)
{
	latency_summarize(e->lat, e->nlat, m->hist, &m->p50_us, &m->p99_us, &m->p999_us);
}

/* The TIDs of our iou-sqp and iou-wrk threads. */
static void own_io_threads(pid_t *wrk, size_t *nwrk, size_t cap, bool *sqp)
{
	char path[96], comm[32];
	struct task_iter it;
	pid_t tid;

	*nwrk = 0;
	if (sqp)
		*sqp = false;
	if (task_iter_open(&it, NULL, getpid()))
		return;
	while ((tid = task_iter_next(&it))) {
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)tid);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f)) {
			if (!strncmp(comm, "iou-wrk-", 8) && *nwrk < cap)
				wrk[(*nwrk)++] = tid;
			else if (!strncmp(comm, "iou-sqp-", 8) && sqp)
				*sqp = true;
		}
		fclose(f);
	}
	task_iter_close(&it);
}

struct counters {
	bool punts_ok, enters_ok;
	struct tp_counter punts, enters;
};

#define WRK_CAP 1024

/* What a mode's counters read before its first request, subtracted after its last. */
struct mode_start {
	pid_t wrk[WRK_CAP];
	size_t nwrk;
	struct rusage ru;
	uint64_t punts, enters;
};

/* The mode's ring, with the buffers and the file registered for a fixed mode. */
static int engine_setup(const struct probe_opts *o, struct probe_result *r,
			struct probe_mode_result *m, struct engine *e, unsigned int flags)
{
	struct io_uring_params p = { .flags = flags };
	struct iovec *iov;
	unsigned int i;
	int ret;

	if (e->sqpoll) {
		p.sq_thread_idle = 100;
		if (o->sqpoll_cpu >= 0) {
			p.flags |= IORING_SETUP_SQ_AFF;
			p.sq_thread_cpu = (unsigned int)o->sqpoll_cpu;
		}
	}
	ret = io_uring_queue_init_params(o->depth, &e->ring, &p);
	if (ret < 0) {
		fact_fail(&m->e, ret, "io_uring_setup() with these flags failed: %s", strerror(-ret));
		return ret;
	}
	if (!e->fixed)
		return 0;
	iov = calloc(o->depth, sizeof(*iov));
	for (i = 0; iov && i < o->depth; i++)
		iov[i] = (struct iovec){ e->bufs[i], o->bs };
	ret = iov ? io_uring_register_buffers(&e->ring, iov, o->depth) : -ENOMEM;
	free(iov);
	if (!ret)
		ret = io_uring_register_files(&e->ring, &e->fd, 1);
	if (ret < 0) {
		r->fixed_err = ret;
		fact_fail(&m->e, ret, "registering %u buffers of %u bytes failed: %s", o->depth,
			  o->bs, strerror(-ret));
		io_uring_queue_exit(&e->ring);
		return ret;
	}
	return 0;
}

static void mode_start_read(struct counters *ctr, struct mode_start *s)
{
	own_io_threads(s->wrk, &s->nwrk, WRK_CAP, NULL);
	s->punts = 0;
	s->enters = 0;
	if (ctr->punts_ok) {
		tp_counter_refresh(&ctr->punts);	/* a new SQPOLL thread submits too */
		s->punts = tp_counter_read(&ctr->punts);
	}
	if (ctr->enters_ok)
		s->enters = tp_counter_read(&ctr->enters);
	getrusage(RUSAGE_THREAD, &s->ru);
}

/*
 * Takes every completion ready, records its latency and queues its slot again
 * until the deadline; a slot that finds the SQ full waits in e->pending.
 */
static void reap(const struct probe_opts *o, struct engine *e, struct probe_mode_result *m,
		 uint64_t deadline)
{
	struct io_uring_cqe *cqe;
	unsigned int head, slot, n = 0;
	uint64_t now = now_ns();

	io_uring_for_each_cqe(&e->ring, head, cqe) {
		slot = (unsigned int)io_uring_cqe_get_data64(cqe);
		n++;
		e->inflight--;
		m->ios++;
		if (cqe->res < 0 && !m->errors++)
			m->first_error = cqe->res;
		if (slot < o->depth && e->nlat < LAT_CAP)
			e->lat[e->nlat++] = (uint32_t)((now - e->start[slot]) > UINT32_MAX
						       ? UINT32_MAX : now - e->start[slot]);
		if (now < deadline && slot < o->depth &&
		    !(e->append && e->appended >= e->append_limit)) {
			if (prep(e, slot))
				e->inflight++;
			else
				e->pending[e->npending++] = slot;
		}
	}
	io_uring_cq_advance(&e->ring, n);
}

/* Keeps o->depth requests in flight for o->duration_ms, then drains them. */
static void drive(const struct probe_opts *o, struct engine *e, struct probe_mode_result *m)
{
	uint64_t deadline, t0;
	unsigned int slot;
	int ret;

	t0 = now_ns();
	deadline = t0 + (uint64_t)o->duration_ms * 1000000ull;
	for (slot = 0; slot < o->depth; slot++, e->inflight++)
		prep(e, slot);
	if (e->sqpoll)
		count_sqpoll_submit(e);
	while (e->inflight || e->npending) {
		/* Slots that found the SQ full last pass go first. */
		while (e->npending && prep(e, e->pending[e->npending - 1])) {
			e->npending--;
			e->inflight++;
		}
		if (!e->inflight)
			continue;	/* the SQPOLL thread is about to publish the SQ head */
		ret = wait_some(e);
		if (ret) {
			fact_fail(&m->e, ret, "waiting for completions failed: %s", strerror(-ret));
			break;
		}
		reap(o, e, m, deadline);
		if (e->sqpoll && io_uring_sq_ready(&e->ring))
			count_sqpoll_submit(e);
	}
	m->seconds = (now_ns() - t0) / 1e9;
}

/* The mode's figures: rates, latency, and what the counters moved since s. */
static void mode_results(struct counters *ctr, struct engine *e, struct probe_mode_result *m,
			 const struct mode_start *s)
{
	pid_t after[WRK_CAP];
	size_t nafter, i, k;
	struct rusage ru1;

	getrusage(RUSAGE_THREAD, &ru1);
	m->ran = fact_ok(&m->e);
	m->iops = m->seconds > 0 ? m->ios / m->seconds : 0;
	m->cq_overflow = IO_URING_READ_ONCE(*e->ring.sq.kflags) & IORING_SQ_CQ_OVERFLOW;
	latency_stats(e, m);
	own_io_threads(after, &nafter, WRK_CAP, &m->sqpoll_thread);
	for (i = 0; i < nafter; i++) {
		bool old = false;

		for (k = 0; k < s->nwrk; k++)
			old |= after[i] == s->wrk[k];
		m->new_iou_wrk += !old;
	}
	m->punts_tracepoint = ctr->punts_ok;
	m->punts = ctr->punts_ok ? tp_counter_read(&ctr->punts) - s->punts : m->new_iou_wrk;
	m->enters_tracepoint = ctr->enters_ok;
	m->enters = ctr->enters_ok ? tp_counter_read(&ctr->enters) - s->enters : e->enters;
	m->syscalls_per_io = m->ios ? (double)m->enters / (double)m->ios : 0;
	m->vcsw_per_io = m->ios ? (double)(ru1.ru_nvcsw - s->ru.ru_nvcsw) / (double)m->ios : 0;
	if (m->errors && m->errors == m->ios)
		fact_fail(&m->e, m->first_error, "every request failed: %s", strerror(-m->first_error));
}

static void run_mode(const struct probe_opts *o, struct probe_result *r, enum probe_mode pm,
		     int fd, unsigned int flags, bool fixed, struct counters *ctr, void **bufs)
{
	struct probe_mode_result *m = &r->modes[pm];
	struct engine e = { .fd = fd, .bufs = bufs, .bs = o->bs, .rw = o->rw, .seed = 0x9e3779b97f4a7c15ull };
	struct mode_start s;

	e.sqpoll = flags & IORING_SETUP_SQPOLL;
	e.fixed = fixed;
	e.write_only = pm == PM_APPEND || pm == PM_UNWRITTEN;
	e.append = pm == PM_APPEND;
	e.append_limit = o->size;
	e.blocks = o->size / o->bs;
	if (engine_setup(o, r, m, &e, flags))
		return;
	e.start = calloc(o->depth, sizeof(*e.start));
	e.lat = malloc(LAT_CAP * sizeof(*e.lat));
	e.pending = calloc(o->depth, sizeof(*e.pending));
	if (!e.start || !e.lat || !e.pending) {
		fact_fail(&m->e, -ENOMEM, "out of memory");
		goto out;
	}
	mode_start_read(ctr, &s);
	drive(o, &e, m);
	mode_results(ctr, &e, m, &s);
out:
	free(e.pending);
	free(e.start);
	free(e.lat);
	io_uring_queue_exit(&e.ring);
}

static void progress(uint64_t done, uint64_t total)
{
	fprintf(stderr, "\ruringlint probe: writing the test file once, %llu of %llu MiB   ",
		(unsigned long long)(done >> 20), (unsigned long long)(total >> 20));
}

/* The filesystem type and device of dir, from this process's mount table. */
static void where(const char *dir, struct probe_result *r)
{
	struct mount_entry *mounts = NULL;
	const struct mount_entry *m;
	char *text = NULL, real[4096];
	size_t n = 0, len = 0;
	struct stat st;
	FILE *f;

	if (stat(dir, &st) || !realpath(dir, real))
		return;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return;
	if (getdelim(&text, &len, '\0', f) > 0 && !mountinfo_parse(text, &mounts, &n)) {
		m = mountinfo_find(mounts, n, real, true, major(st.st_dev), minor(st.st_dev));
		if (m) {
			snprintf(r->fs, sizeof(r->fs), "%.31s", m->fstype);
			snprintf(r->device, sizeof(r->device), "%.63s", m->source);
		}
	}
	free(mounts);
	free(text);
	fclose(f);
}

static void open_counters(struct probe_result *r, struct counters *c)
{
	struct tp_format fmt;
	char why[256];

	c->punts_ok = !tp_format_load("io_uring/io_uring_queue_async_work", &fmt, r->punts_why,
				      sizeof(r->punts_why)) &&
		      !tp_counter_open(&c->punts, &fmt, getpid());
	if (!c->punts_ok && !r->punts_why[0])
		snprintf(r->punts_why, sizeof(r->punts_why), "perf_event_open on the tracepoint failed");
	c->enters_ok = !tp_format_load("syscalls/sys_enter_io_uring_enter", &fmt, why, sizeof(why)) &&
		       !tp_counter_open(&c->enters, &fmt, getpid());
}

static const unsigned int mode_flags[PM_CONTRAST_FIRST] = {
	[PM_DEFAULT] = 0,
	[PM_COOP] = IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
	[PM_DEFER] = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
	[PM_SQPOLL] = IORING_SETUP_SQPOLL,
	[PM_SQPOLL_FIXED] = IORING_SETUP_SQPOLL,
};

/* What the result says whatever happens next: the directory, the sizes, the limits. */
static void probe_result_init(const struct probe_opts *o, struct probe_result *r)
{
	struct rlimit rl;

	memset(r, 0, sizeof(*r));
	if (!realpath(o->dir, r->dir))
		snprintf(r->dir, sizeof(r->dir), "%s", o->dir);
	r->size = o->size;
	r->bs = o->bs;
	r->depth = o->depth;
	where(o->dir, r);
	getrlimit(RLIMIT_MEMLOCK, &rl);
	r->memlock_soft = rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX : rl.rlim_cur;
	r->fixed_bytes = (uint64_t)o->depth * o->bs;
}

/* Room for the probe's file (and the contrast's two) in --dir, and whether it lives in memory. */
static int probe_dir_check(const struct probe_opts *o, struct probe_result *r)
{
	uint64_t need = o->size + SPACE_MARGIN + (o->contrast ? 2 * o->size : 0);
	struct statvfs sv;
	struct statfs sfs;

	if (statvfs(o->dir, &sv)) {
		fact_fail(&r->e, -errno, "cannot use --dir '%s': %s", o->dir, strerror(errno));
		return r->e.err;
	}
	if ((uint64_t)sv.f_bavail * sv.f_frsize < need) {
		fact_fail(&r->e, -ENOSPC, "'%s' has %llu MiB free; the probe needs %llu MiB "
			  "(lower --size)", o->dir,
			  (unsigned long long)(((uint64_t)sv.f_bavail * sv.f_frsize) >> 20),
			  (unsigned long long)(need >> 20));
		return r->e.err;
	}
	if (!statfs(o->dir, &sfs) && ((unsigned long)sfs.f_type == TMPFS_MAGIC_ ||
				      (unsigned long)sfs.f_type == RAMFS_MAGIC_))
		r->memory_fs = true;
	return 0;
}

/* The O_DIRECT alignment of fd's filesystem, which --bs must respect; then the file written once. */
static int probe_file_fill(const struct probe_opts *o, struct probe_result *r, int fd)
{
	struct statx stx;
	int err;

	if (!statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) && (stx.stx_mask & STATX_DIOALIGN)) {
		r->dio_mem_align = stx.stx_dio_mem_align;
		r->dio_offset_align = stx.stx_dio_offset_align;
		if (r->dio_offset_align && o->bs % r->dio_offset_align) {
			fact_fail(&r->e, -EINVAL, "--bs %u is not a multiple of the O_DIRECT alignment "
				  "of '%s' (%u bytes)", o->bs, o->dir, r->dio_offset_align);
			return r->e.err;
		}
	}
	err = tmpfile_fill(fd, o->size, r->dio_mem_align, o->progress ? progress : NULL);
	if (o->progress)
		fputs("\r\033[K", stderr);
	if (err)
		fact_fail(&r->e, err, "writing the probe file in '%s' failed: %s", o->dir, strerror(-err));
	return err;
}

/* One aligned buffer per slot, filled with a pattern; *bufsp is set even on failure, to free. */
static int probe_bufs_alloc(const struct probe_opts *o, struct probe_result *r, void ***bufsp)
{
	void **bufs = calloc(o->depth, sizeof(*bufs));
	unsigned int i;

	*bufsp = bufs;
	for (i = 0; bufs && i < o->depth; i++)
		if (posix_memalign(&bufs[i], r->dio_mem_align > 4096 ? r->dio_mem_align : 4096, o->bs))
			bufs[i] = NULL;
	for (i = 0; bufs && i < o->depth; i++)
		if (!bufs[i])
			break;
	if (!bufs || i < o->depth) {
		fact_fail(&r->e, -ENOMEM, "out of memory for %u buffers", o->depth);
		return -ENOMEM;
	}
	for (i = 0; i < o->depth; i++)
		memset(bufs[i], 0x5a, o->bs);
	return 0;
}

static void run_modes(const struct probe_opts *o, struct probe_result *r, int fd,
		      struct counters *ctr, void **bufs)
{
	unsigned int i;

	for (i = 0; i < PM_CONTRAST_FIRST; i++) {
		if (!(o->modes & (1u << i))) {
			fact_fail(&r->modes[i].e, -ECANCELED, "not selected by --mode");
			continue;
		}
		if (o->progress)
			fprintf(stderr, "\ruringlint probe: mode %s (%u ms)   ", mode_names[i],
				o->duration_ms);
		run_mode(o, r, (enum probe_mode)i, fd, mode_flags[i], i == PM_SQPOLL_FIXED, ctr,
			 bufs);
	}
}

/* The file a contrast mode runs on: a descriptor, or < 0 with errno saying why. */
static int contrast_file_open(const struct probe_opts *o, enum probe_mode pm, int fd)
{
	char self[64];
	bool tmp;
	int fd2;

	if (pm == PM_BUFFERED) {
		/* The same inode through a second, buffered open file description. */
		snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
		return open(self, O_RDWR | O_CLOEXEC);
	}
	fd2 = tmpfile_open(o->dir, O_DIRECT | (pm == PM_APPEND ? O_APPEND : 0), &tmp);
	if (fd2 >= 0 && pm == PM_UNWRITTEN && fallocate(fd2, 0, 0, (off_t)o->size)) {
		close(fd2);
		fd2 = -errno;
	}
	return fd2;
}

static void run_contrasts(const struct probe_opts *o, struct probe_result *r, int fd,
			  struct counters *ctr, void **bufs)
{
	unsigned int i;
	int fd2;

	for (i = PM_CONTRAST_FIRST; i < PM__COUNT; i++) {
		if (!o->contrast) {
			fact_fail(&r->modes[i].e, -ECANCELED, "not run: --contrast not given");
			continue;
		}
		if (o->progress)
			fprintf(stderr, "\ruringlint probe: contrast %s (%u ms)   ", mode_names[i],
				o->duration_ms);
		fd2 = contrast_file_open(o, (enum probe_mode)i, fd);
		if (fd2 < 0) {
			fact_fail(&r->modes[i].e, fd2 < 0 ? -errno : -EIO, "could not prepare the file: %s",
				  strerror(errno));
			continue;
		}
		run_mode(o, r, (enum probe_mode)i, fd2, 0, false, ctr, bufs);
		close(fd2);
	}
}

int probe_run(const struct probe_opts *o, struct probe_result *r)
{
	struct counters ctr = { 0 };
	void **bufs = NULL;
	int fd, err;
	unsigned int i;
	bool tmp;

	probe_result_init(o, r);
	err = probe_dir_check(o, r);
	if (err)
		return err;
	fd = tmpfile_open(o->dir, O_DIRECT, &tmp);
	r->o_tmpfile = tmp;
	if (fd == -EACCES || fd == -EPERM || fd == -EROFS) {
		fact_fail(&r->e, fd, "cannot create a file in '%s': %s", o->dir, strerror(-fd));
		return r->e.err;
	}
	if (fd < 0 || r->memory_fs) {
		/* No direct I/O here: the verdict is probe-o-direct's; nothing else can run. */
		r->odirect_err = fd < 0 ? fd : 0;
		for (i = 0; i < PM__COUNT; i++)
			fact_fail(&r->modes[i].e, -EOPNOTSUPP, "not run: no direct I/O in '%s'", o->dir);
		goto out;
	}
	err = probe_file_fill(o, r, fd);
	if (err)
		goto out;
	err = probe_bufs_alloc(o, r, &bufs);
	if (err)
		goto out;
	open_counters(r, &ctr);
	run_modes(o, r, fd, &ctr, bufs);
	run_contrasts(o, r, fd, &ctr, bufs);
	if (o->progress)
		fputs("\r\033[K", stderr);
out:
	if (ctr.punts_ok)
		tp_counter_close(&ctr.punts);
	if (ctr.enters_ok)
		tp_counter_close(&ctr.enters);
	for (i = 0; bufs && i < o->depth; i++)
		free(bufs[i]);
	free(bufs);
	if (fd >= 0)
		close(fd);
	return err;
}
