// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a process's io-wq workers burn: the utime+stime of its iou-wrk
 * threads (task/TID/stat fields 14 and 15), read through uringlint's own
 * task reader at both ends of the window (a worker's exact kind is
 * PF_IO_WORKER, proc_tasks.c, which libproc2's thread walk does not keep).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "proc_tasks.h"
#include "scene.h"
#include "scene_probe.h"
#include "procfs.h"

static int workers_read(const struct sysroot *sr, pid_t pid, struct scene_workers *w)
{
	struct task_iter it;
	pid_t tid;
	int err;

	w->n = 0;
	err = task_iter_open(&it, sr, pid);
	if (err)
		return err;
	while ((tid = task_iter_next(&it)) > 0) {
		struct proc_thread t;
		char rel[64];

		snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", (int)pid, (int)tid);
		if (proc_stat_read(sr, rel, &t, NULL) || t.kind != THREAD_IOU_WRK)
			continue;
		if (array_grow(&w->v, &w->cap, w->n + 1)) {
			err = -ENOMEM;
			break;
		}
		w->v[w->n].tid = tid;
		w->v[w->n].tics = t.utime + t.stime;
		w->n++;
	}
	if (!err)
		err = it.err;
	task_iter_close(&it);
	return err;
}

static const struct scene_worker *worker_find(const struct scene_workers *w, pid_t tid)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (w->v[i].tid == tid)
			return &w->v[i];
	return NULL;
}

/*
 * A worker at the end that was there at the start: its change; one that
 * started in the window: all its tics are the window's. A worker gone by
 * the end took its last tics with it: counted in iowq_gone, the share is
 * then a floor.
 */
static void workers_delta(struct scene *s, const struct scene_workers *a,
			  const struct scene_workers *b)
{
	unsigned long long tics = 0;
	long hz = sysconf(_SC_CLK_TCK);
	size_t i;

	s->iowq_workers = (unsigned int)b->n;
	for (i = 0; i < b->n; i++) {
		const struct scene_worker *w0 = worker_find(a, b->v[i].tid);

		if (!w0)
			tics += b->v[i].tics;
		else if (b->v[i].tics >= w0->tics)
			tics += b->v[i].tics - w0->tics;
	}
	for (i = 0; i < a->n; i++)
		if (!worker_find(b, a->v[i].tid)) {
			s->iowq_gone++;
			s->iowq_workers++;
		}
	if (hz <= 0)
		hz = 100;
	s->iowq_cpu = s->seconds > 0 ? (double)tics / (double)hz / s->seconds : 0;
}

/*
 * Only the workers of the first reading: a process of 10,000 threads would
 * otherwise cost 100,000 reads a second; a worker started later is not seen.
 */
void scene_iowq_sample(const struct sysroot *sr, pid_t pid, struct scene *s)
{
	const struct scene_workers *w;
	unsigned int in_d = 0;
	size_t i;

	if (!fact_ok(&s->e) || !s->windowed || !s->p || !fact_ok(&s->iowq_e))
		return;
	w = &s->p->wk[0];
	for (i = 0; i < w->n; i++) {
		struct proc_thread t;
		char rel[64];

		snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", (int)pid, (int)w->v[i].tid);
		if (!proc_stat_read(sr, rel, &t, NULL) && t.kind == THREAD_IOU_WRK && t.state == 'D')
			in_d++;
	}
	s->iowq_samples++;
	s->iowq_d_samples += in_d > 0;
	if (in_d > s->iowq_d_max)
		s->iowq_d_max = in_d;
}

int scene_iowq_read(const struct sysroot *sr, pid_t pid, struct scene *s, bool end)
{
	struct scene_probe *p = s->p;
	int err;

	err = workers_read(sr, pid, end ? &p->wk[1] : &p->wk[0]);
	if (err) {
		fact_fail(&s->iowq_e, err, "cannot list the threads of pid %d at the %s of the "
			  "window: %s", (int)pid, end ? "end" : "start", strerror(-err));
		return err;
	}
	if (end)
		workers_delta(s, &p->wk[0], &p->wk[1]);
	return 0;
}
