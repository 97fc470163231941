// SPDX-License-Identifier: GPL-2.0-or-later
/* The threads of one process, with what io_uring makes of them. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "array.h"
#include "parse.h"
#include "proc_tasks.h"
#include "procfs.h"

enum thread_kind thread_kind_of(unsigned long flags, const char *comm)
{
	if (!(flags & PF_IO_WORKER))
		return THREAD_PLAIN;
	return strncmp(comm, "iou-sqp-", 8) ? THREAD_IOU_WRK : THREAD_IOU_SQP;
}

int proc_stat_parse(const char *text, struct proc_thread *t, unsigned long *flags)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')'), *p;
	unsigned long long v;
	unsigned long f = 0;
	char *end;
	int field;

	memset(t, 0, sizeof(*t));
	t->cpu = -1;
	if (!open || !close || close < open || close[1] != ' ')
		return -EBADMSG;
	v = strtoull(text, &end, 10);
	if (end == text || end > open || v == 0 || v > 0x7fffffff)
		return -EBADMSG;
	t->tid = (pid_t)v;
	snprintf(t->comm, sizeof(t->comm), "%.*s", (int)(close - open - 1), open + 1);
	p = close + 2;
	if (!*p || !isalpha((unsigned char)*p))
		return -EBADMSG;
	t->state = *p;
	/* Fields after the state, numbered as in proc(5): flags is 9, processor 39. */
	for (field = 4, p++; *p && field <= 39; field++) {
		while (*p == ' ')
			p++;
		v = strtoull(p, &end, 10);
		if (end == p && *p != '-')
			break;
		if (field == 9)
			f = (unsigned long)v;
		if (field == 14)
			t->utime = v;
		if (field == 15)
			t->stime = v;
		if (field == 39)
			t->cpu = (int)v;
		p = end;
		while (*p && *p != ' ')
			p++;
	}
	if (flags)
		*flags = f;
	t->kind = thread_kind_of(f, t->comm);
	return 0;
}

int proc_stat_read(const struct sysroot *sr, const char *rel, struct proc_thread *t,
		   unsigned long *flags)
{
	size_t len;
	char *text;
	int err;

	err = sysroot_read_file(sr, rel, 4096, &text, &len);
	if (err)
		return err;
	err = proc_stat_parse(text, t, flags);
	free(text);
	return err;
}

int proc_stat_readf(const struct sysroot *sr, struct proc_thread *t, unsigned long *flags,
		    const char *fmt, ...)
{
	SYSROOT_WITH_PATH(fmt, proc_stat_read(sr, rel_, t, flags));
}

static int add_thread(struct proc_threads *pt, const struct proc_thread *t)
{
	if (array_grow(&pt->v, &pt->cap, pt->n + 1))
		return -ENOMEM;
	pt->v[pt->n++] = *t;
	return 0;
}

static int by_tid(const void *a, const void *b)
{
	const struct proc_thread *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

/*
 * Each thread's stat (and wchan) through the sysroot, live and in a captured
 * tree alike: one road, so a capture replays the threads a live run saw,
 * and a thread's name is kept byte for byte as the kernel printed it (a
 * name is whatever the program set: escaped only where it is shown).
 */
static int collect_tasks(const struct sysroot *sr, pid_t pid, struct proc_threads *pt)
{
	struct proc_thread t;
	struct task_iter it;
	pid_t tid;
	int err;

	err = task_iter_open(&it, sr, pid);
	if (err)
		return err;
	while ((tid = task_iter_next(&it))) {
		err = proc_stat_readf(sr, &t, NULL, "proc/%d/task/%d/stat", (int)pid, (int)tid);
		if (err == -EBADMSG)
			break;
		if (err)
			continue;	/* the thread exited between readdir and read */
		sysroot_read_linef(sr, t.wchan, sizeof(t.wchan), "proc/%d/task/%d/wchan", (int)pid,
				   (int)tid);
		err = add_thread(pt, &t);
		if (err)
			break;
	}
	task_iter_close(&it);
	if (err == -EBADMSG || err == -ENOMEM)
		return err;
	/* A listing that broke off is not the whole process. */
	if (it.err)
		return it.err;
	return pt->n ? 0 : -ENOENT;
}

/* Its Cpus_allowed_list, left "" when status is unreadable or the list too long to keep. */
static void read_affinity(const struct sysroot *sr, pid_t pid, struct proc_thread *t)
{
	char *text;
	size_t len;

	if (sysroot_read_filef(sr, SYSROOT_READ_MAX, &text, &len, "proc/%d/task/%d/status",
			       (int)pid, (int)t->tid))
		return;
	if (parse_keyed_value(text, "Cpus_allowed_list", t->cpus_allowed,
			      sizeof(t->cpus_allowed)))
		t->cpus_allowed[0] = '\0';
	free(text);
}

const struct proc_thread *proc_threads_find(const struct proc_threads *pt, pid_t tid)
{
	size_t i;

	for (i = 0; pt && i < pt->n; i++)
		if (pt->v[i].tid == tid)
			return &pt->v[i];
	return NULL;
}

void proc_threads_read_affinity(const struct sysroot *sr, pid_t pid, struct proc_threads *pt)
{
	size_t i;

	for (i = 0; i < pt->n; i++)
		if (pt->v[i].kind == THREAD_PLAIN && !pt->v[i].cpus_allowed[0])
			read_affinity(sr, pid, &pt->v[i]);
}

/* SQPOLL affinity and D-state stacks: the per-thread files worth a read. */
static void collect_details(const struct sysroot *sr, pid_t pid, struct proc_threads *pt)
{
	char *text;
	size_t i, len;

	for (i = 0; i < pt->n; i++) {
		struct proc_thread *t = &pt->v[i];

		pt->iou_wrk += t->kind == THREAD_IOU_WRK;
		pt->iou_sqp += t->kind == THREAD_IOU_SQP;
		pt->d_state += t->state == 'D';
		if (t->kind == THREAD_IOU_SQP)
			read_affinity(sr, pid, t);
		if (t->state == 'D') {
			if (!sysroot_read_filef(sr, 64 * 1024, &text, &len, "proc/%d/task/%d/stack",
						(int)pid, (int)t->tid))
				t->stack = text;
		}
	}
}

/*
 * The innermost frame that names a wait decides: a stack lists the frames
 * from the innermost (a folio lock taken for a read waits in io_schedule, an
 * inode lock in rwsem_down_write_slowpath above the write that holds it).
 */
static const char *const io_waits[] = {
	"io_schedule", "iomap_dio_rw", "blk_mq_get_tag", "folio_wait", "wait_on_page",
	"submit_bio_wait", "bit_wait_io",
	/* fsync and fdatasync on ext4: the commit of its own transaction, the journal's I/O. */
	"jbd2_log_wait_commit",
};
/* ext4's journal as a lock: a handle waits for room in, or the end of, a transaction. */
static const char *const lock_waits[] = {
	"rwsem", "mutex", "xfs_ilock", "sb_start_write", "start_this_handle",
	"wait_transaction_locked", "jbd2_journal_lock_updates", "ext4_journal",
};

static bool line_has(const char *line, size_t len, const char *const *needles, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k + strlen(needles[i]) <= len; k++)
			if (!strncmp(line + k, needles[i], strlen(needles[i])))
				return true;
	return false;
}

enum thread_wait proc_thread_wait(const struct proc_thread *t)
{
	const char *line = t->stack ? t->stack : t->wchan, *end;

	while (line && *line) {
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		if (line_has(line, (size_t)(end - line), lock_waits, ARRAY_SIZE(lock_waits)))
			return WAIT_LOCK;
		if (line_has(line, (size_t)(end - line), io_waits, ARRAY_SIZE(io_waits)))
			return WAIT_IO;
		line = *end ? end + 1 : end;
	}
	return WAIT_OTHER;
}

/* Its state letter and its context switches so far, from task/TID/status: 0 or -errno. */
static int sleep_read(const struct sysroot *sr, pid_t pid, pid_t tid, char *state,
		      unsigned long long *switches)
{
	char *text, v[64];
	size_t len;
	int err;

	err = sysroot_read_filef(sr, 64 * 1024, &text, &len, "proc/%d/task/%d/status", (int)pid,
				 (int)tid);
	if (err)
		return err;
	*state = '?';
	*switches = 0;
	if (!parse_keyed_value(text, "State", v, sizeof(v)))
		*state = v[0];
	/* fs/proc/array.c task_context_switch_counts(): a wake-up moves one of them. */
	if (!parse_keyed_value(text, "voluntary_ctxt_switches", v, sizeof(v)))
		*switches += strtoull(v, NULL, 10);
	if (!parse_keyed_value(text, "nonvoluntary_ctxt_switches", v, sizeof(v)))
		*switches += strtoull(v, NULL, 10);
	free(text);
	return 0;
}

static unsigned int ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (unsigned int)((now.tv_sec - t0->tv_sec) * 1000 + (now.tv_nsec - t0->tv_nsec) / 1000000);
}

/*
 * A thread seen in D once may be waiting a moment on a flush or a read,
 * as a busy database's threads often are: two more readings 10 ms apart
 * tell a moment's wait from a thread stuck there. A thread in D on its own
 * I/O is read on every 10 ms until it is out of that sleep (out of D, or
 * woken since: its context switches moved) or DSTATE_IO_STUCK_MS passed:
 * O_DIRECT reads of a loaded device wait 20-180 ms each. Live only; a
 * captured tree has one reading, and its D threads stay as they were read.
 */
static void recheck_dstate(const struct sysroot *sr, pid_t pid, struct proc_threads *pt)
{
	struct timespec ts = { 0, 10 * 1000000L }, t0;
	unsigned long long *base, sw;
	unsigned int round, ms;
	struct proc_thread now;
	bool more = true;
	char st;
	size_t i;

	if (!sr->live || !pt->d_state)
		return;
	base = calloc(pt->n, sizeof(*base));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; base && i < pt->n; i++)
		if (pt->v[i].state == 'D' && proc_thread_wait(&pt->v[i]) == WAIT_IO &&
		    sleep_read(sr, pid, pt->v[i].tid, &st, &base[i]))
			pt->v[i].d_transient = true;
	for (round = 0; more; round++) {
		nanosleep(&ts, NULL);
		ms = ms_since(&t0);
		more = false;
		for (i = 0; i < pt->n; i++) {
			struct proc_thread *t = &pt->v[i];
			bool io = base && proc_thread_wait(t) == WAIT_IO;

			if (t->state != 'D' || t->d_transient || (round >= 2 && !io))
				continue;
			if (io) {
				/* Gone since, out of D, or woken and in D again: its wait ended. */
				t->d_transient = sleep_read(sr, pid, t->tid, &st, &sw) || st != 'D' ||
						 sw != base[i];
			} else {
				/* Gone since: its wait ended with it. */
				t->d_transient = proc_stat_readf(sr, &now, NULL, "proc/%d/task/%d/stat",
								 (int)pid, (int)t->tid) ||
						 now.state != 'D';
			}
			if (t->d_transient)
				continue;
			t->d_ms = ms ? ms : 1;
			more |= round < 1 || (io && ms < DSTATE_IO_STUCK_MS);
		}
	}
	free(base);
}

void proc_threads_collect(const struct sysroot *sr, pid_t pid, struct proc_threads *pt)
{
	int err;

	memset(pt, 0, sizeof(*pt));
	err = collect_tasks(sr, pid, pt);
	/* In TID order, as the live /proc lists them, whatever order a tree's directory has. */
	if (!err && pt->n > 1)
		qsort(pt->v, pt->n, sizeof(*pt->v), by_tid);
	if (err) {
		fact_fail_readf(&pt->e, err, "proc/%d/task", (int)pid);
		return;
	}
	collect_details(sr, pid, pt);
	recheck_dstate(sr, pid, pt);
}

void proc_threads_free(struct proc_threads *pt)
{
	size_t i;

	for (i = 0; i < pt->n; i++)
		free(pt->v[i].stack);
	free(pt->v);
	pt->v = NULL;
	pt->n = pt->cap = 0;
}
