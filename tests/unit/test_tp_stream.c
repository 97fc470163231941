// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tp_stream on this process's own threads, with real perf events on two
 * system-call tracepoints: an event made lazy is closed while sampling is
 * off and opened again when it comes back, its count stays exact over the
 * time sampling was on, and it is not opened again on a thread that has
 * exited (its tid may be another's); threads of a process that took the
 * pinned process's pid are never attached. Skipped without perf on
 * tracepoints (not root, or no tracefs).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "pid_wait.h"
#include "sysroot.h"
#include "procfs.h"
#include "tracefs.h"


/* Two events on every thread of pid, 1 MiB of rings, counted as given. */
static int open_threads(struct tp_stream *s, const struct sysroot *sr, pid_t pid,
			const struct tp_format *fmts, int counted)
{
	struct tp_open o = { .pid = pid, .how = TP_ATTACH_THREADS, .cgroup_fd = -1, .fmts = fmts,
			     .nev = 2, .budget_bytes = 1u << 20, .counted = counted };

	return tp_stream_open(s, sr, &o);
}
static struct sysroot sr;
static struct tp_format fmts[2];
static bool have_perf;

static void calls(long nr, int n)
{
	while (n--)
		syscall(nr);
}

struct seen {
	unsigned int n[2];
};

static void on_record(const struct tp_record *r, void *arg)
{
	struct seen *s = arg;

	if (r->event < 2 && r->tid == (pid_t)syscall(SYS_gettid))
		s->n[r->event]++;
}

static int group_setup(void **state)
{
	char why[256];
	struct tp_stream s;

	(void)state;
	if (sysroot_open(&sr, "/"))
		return -1;
	if (tp_format_load("syscalls/sys_enter_getppid", &fmts[0], why, sizeof(why)) ||
	    tp_format_load("syscalls/sys_enter_getpid", &fmts[1], why, sizeof(why)))
		return 0;
	/* Allowed to watch itself with perf: the tests below can run. */
	have_perf = !open_threads(&s, &sr, getpid(), fmts, 0);
	tp_stream_close(&s);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	sysroot_close(&sr);
	return 0;
}

static unsigned int mine(const struct tp_stream *s)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (s->t[i].tid == tid)
			return i;
	fail_msg("this thread is not in the stream");
	return 0;
}

static void test_lazy_closed_while_off(void **state)
{
	struct tp_stream s;
	struct seen seen = { { 0 } };
	uint64_t counts[2], before;
	unsigned int me;

	(void)state;
	if (!have_perf)
		skip();
	assert_int_equal(open_threads(&s, &sr, getpid(), fmts, 0), 0);
	tp_stream_lazy(&s, 2);
	me = mine(&s);
	assert_true(s.t[me].fds[1] >= 0);
	calls(SYS_getpid, 10);
	calls(SYS_getppid, 5);
	before = tp_stream_now();
	tp_stream_sample(&s, false);
	/* The edge is the switch, before the closing's wait. */
	assert_true(s.switched_at >= before && s.switched_at <= tp_stream_now());
	/* Off: the lazy event is closed, not only disabled. */
	assert_int_equal(s.t[me].fds[1], -1);
	calls(SYS_getpid, 7);
	calls(SYS_getppid, 2);
	tp_stream_sample(&s, true);
	assert_true(s.t[me].fds[1] >= 0);
	calls(SYS_getpid, 3);
	before = tp_stream_now();
	tp_stream_disable(&s);
	assert_true(s.switched_at >= before && s.stopped_at >= s.switched_at &&
		    s.stopped_at <= tp_stream_now());
	tp_stream_counts(&s, counts);
	/* Over the time sampling was on, the closed event's count kept. */
	assert_int_equal(counts[1], 13);
	assert_int_equal(counts[0], 5);
	/* The counter of the first event counts through the gap. */
	assert_int_equal(tp_stream_counted(&s, false), 7);
	/* Its samples of both windows are in the thread's buffer. */
	assert_int_equal(tp_stream_drain(&s, UINT64_MAX, on_record, &seen), 0);
	assert_int_equal(seen.n[1], 13);
	assert_int_equal(seen.n[0], 5);
	tp_stream_close(&s);
}

static void test_first_never_lazy(void **state)
{
	struct tp_stream s;

	(void)state;
	if (!have_perf)
		skip();
	assert_int_equal(open_threads(&s, &sr, getpid(), fmts, -1), 0);
	/* The first event holds each buffer: it stays, and bits past the events mean nothing. */
	tp_stream_lazy(&s, ~0u);
	assert_int_equal(s.lazy, 2);
	tp_stream_sample(&s, false);
	assert_true(s.t[mine(&s)].fds[0] >= 0);
	tp_stream_close(&s);
}

static pthread_barrier_t attached, done;

static void *short_thread(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&attached);
	pthread_barrier_wait(&done);
	return NULL;
}

static void test_exited_thread_not_reopened(void **state)
{
	struct tp_stream s;
	pthread_t th;
	unsigned int i, me, other = 0, others = 0;

	(void)state;
	if (!have_perf)
		skip();
	pthread_barrier_init(&attached, NULL, 2);
	pthread_barrier_init(&done, NULL, 2);
	assert_int_equal(pthread_create(&th, NULL, short_thread, NULL), 0);
	assert_int_equal(open_threads(&s, &sr, getpid(), fmts, -1), 0);
	tp_stream_lazy(&s, 2);
	pthread_barrier_wait(&attached);
	me = mine(&s);
	for (i = 0; i < s.n; i++)
		if (i != me) {
			other = i;
			others++;
		}
	assert_int_equal(others, 1);
	tp_stream_sample(&s, false);
	assert_false(tp_stream_thread_exited(&s.t[other]));
	pthread_barrier_wait(&done);
	pthread_join(th, NULL);
	/* The join returns at the tid's release, a little before the kernel's perf exit. */
	for (i = 0; i < 200 && !tp_stream_thread_exited(&s.t[other]); i++)
		usleep(5000);
	assert_true(tp_stream_thread_exited(&s.t[other]));
	assert_false(tp_stream_thread_exited(&s.t[me]));
	tp_stream_sample(&s, true);
	/* The live thread's event is back; the exited one's tid is not tried again. */
	assert_true(s.t[me].fds[1] >= 0);
	assert_int_equal(s.t[other].fds[1], -1);
	tp_stream_close(&s);
	pthread_barrier_destroy(&attached);
	pthread_barrier_destroy(&done);
}

static void *idle_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* A child of 1 + extra threads that only waits; its pid, once every thread is there. */
static pid_t idle_child(int extra)
{
	pid_t pid = fork();
	int i;

	if (!pid) {
		pthread_t th;

		for (i = 0; i < extra; i++)
			pthread_create(&th, NULL, idle_thread, NULL);
		for (;;)
			pause();
	}
	assert_true(pid > 0);
	for (i = 0; i < 2000 && task_count(&sr, pid) != 1 + extra; i++)
		usleep(5000);
	assert_int_equal(task_count(&sr, pid), 1 + extra);
	return pid;
}

/* The next fork's pid made pid, through kernel.ns_last_pid (root): 0 or -errno. */
static int next_pid_is(pid_t pid)
{
	FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "w");
	int err = 0;

	if (!f)
		return -errno;
	if (fprintf(f, "%d", (int)pid - 1) < 0)
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/*
 * The pinned process exits and another takes its pid (made so through
 * ns_last_pid): a refresh lists the newcomer's threads under that pid, and
 * attaches none of them.
 */
static void test_pid_taken_over(void **state)
{
	struct tp_stream s;
	pid_t old, taker = -1;
	unsigned int n, tries;
	int pidfd, err;

	(void)state;
	if (!have_perf)
		skip();
	/* The pin is a pidfd: nothing to test where pidfd_open is missing (valgrind 3.19). */
	pidfd = pid_wait_open(getpid());
	if (pidfd < 0 && errno == ENOSYS)
		skip();
	if (pidfd >= 0)
		close(pidfd);
	old = idle_child(1);
	assert_int_equal(open_threads(&s, &sr, old, fmts, -1), 0);
	n = s.n;
	assert_int_equal(n, 2);
	pidfd = pid_wait_open(old);
	assert_true(pidfd >= 0);
	tp_stream_pin(&s, pidfd);
	kill(old, SIGKILL);
	assert_int_equal(waitpid(old, NULL, 0), old);
	/* Another fork on the host may take the pid first: a few tries. */
	for (tries = 0; tries < 50 && taker != old; tries++) {
		if (taker > 0) {
			kill(taker, SIGKILL);
			waitpid(taker, NULL, 0);
		}
		err = next_pid_is(old);
		assert_int_equal(err, 0);
		taker = idle_child(3);
	}
	assert_int_equal(taker, old);
	tp_stream_refresh(&s);
	assert_int_equal(s.n, n);
	tp_stream_close(&s);
	close(pidfd);
	kill(taker, SIGKILL);
	waitpid(taker, NULL, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lazy_closed_while_off),
		cmocka_unit_test(test_first_never_lazy),
		cmocka_unit_test(test_exited_thread_not_reopened),
		cmocka_unit_test(test_pid_taken_over),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
