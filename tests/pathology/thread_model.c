// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The thread model's modes, each printing "ready PID" and then the ground
 * truth the e2e test compares the ring map with, one line each:
 *   thread TID ring FD          which thread submits to which ring fd
 *   setup FLAGS                 the setup flags of the rings made while running
 *
 *   ring-per-thread  two threads, each with its own ring, pinned to its own CPU (healthy)
 *   ring-per-thread-unpinned  the same, free to run on every CPU; each moves to the
 *                    next CPU every 50 rounds (pinned there a moment, then freed), and
 *                    prints "moved TID N" at the end: the times sched_getcpu() changed
 *   ring-per-thread-one-cpu  the same, both pinned to CPU 0
 *   shared-ring      three threads submitting to one ring under a lock
 *   setup-churn      a ring set up every 200 ms with COOP_TASKRUN alone, driven by one
 *                    thread and torn down (a SINGLE_ISSUER candidate whose flags only a
 *                    watch that sees the setup can tell)
 *   setup-churn-fast the same without the pause and with one NOP a ring, thousands of
 *                    rings a second; prints "rings N" at the end
 *   buf-dry          receives that select a provided buffer, two at a time with one
 *                    buffer: every other one fails with ENOBUFS
 *   cq-full          a completion queue of 16 holding 15 completions nobody reaps, and
 *                    4 polls on an empty pipe in flight: 19 owed, more than it holds
 *   cq-full-bounded  the same 15 completions with nothing in flight: it cannot overflow
 *   ring-per-thread-stray  three threads with a ring each: two pinned each to a CPU of
 *                    its own, the third free and moved now and then
 *   many-threads     PATHOLOGY_THREADS threads (300) that sleep, and the last one started
 *                    writing buffered to DIR/many-threads.dat through a ring of its own
 *                    (on ext4 every write punted): "thread TID" names it; with
 *                    PATHOLOGY_FORK_MS, the main thread also starts a child process every
 *                    that many ms that makes 100 buffered writes to DIR/forked.dat through
 *                    a ring of its own and exits, each printing "forked PID"
 *   taskrun-interrupts  a multishot poll on a pipe a second thread writes to every 250 us,
 *                    its completions awaited by spinning in user space on a ring without
 *                    COOP_TASKRUN: each batch of completion work interrupts the spinner
 *   taskrun-coop     the same with COOP_TASKRUN and TASKRUN_FLAG: the spinner enters the
 *                    kernel for its completions when the flag says some wait
 *                    (both print "writes N" and "cqes N" at the end)
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pathology.h"

#define NOPS_PER_ROUND 32

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

struct submitter {
	struct io_uring *ring;
	bool locked;		/* the ring is shared: take the lock around each round */
	int cpu;		/* pin to it; -1 none */
	bool hop;		/* unpinned, but moved to the next CPU now and then */
	pthread_barrier_t *ready;
};

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity", errno);
}

/* Onto the next CPU, then free again: a migration the scheduler cannot undo at once. */
static void hop(void)
{
	int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	pin((sched_getcpu() + 1) % ncpu);
	CPU_ZERO(&set);
	for (int c = 0; c < ncpu; c++)
		CPU_SET(c, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity", errno);
}

static void nops(struct io_uring *ring, int n)
{
	for (int i = 0; i < n; i++)
		io_uring_prep_nop(io_uring_get_sqe(ring));
	io_uring_submit(ring);
	reap(ring, n);
}

static void nop_round(struct io_uring *ring)
{
	nops(ring, NOPS_PER_ROUND);
}

static void *submit_loop(void *arg)
{
	struct submitter *s = arg;
	unsigned long rounds = 0, moved = 0;
	int last = -1;

	if (s->cpu >= 0)
		pin(s->cpu);
	pthread_mutex_lock(&print_lock);
	printf("thread %ld ring %d\n", (long)syscall(SYS_gettid), s->ring->ring_fd);
	fflush(stdout);
	pthread_mutex_unlock(&print_lock);
	pthread_barrier_wait(s->ready);
	while (!stop) {
		if (s->locked)
			pthread_mutex_lock(&lock);
		nop_round(s->ring);
		if (s->locked)
			pthread_mutex_unlock(&lock);
		if (s->hop && ++rounds % 50 == 0)
			hop();
		if (last >= 0 && sched_getcpu() != last)
			moved++;
		last = sched_getcpu();
		sleep_ms(1);
	}
	if (s->hop) {
		pthread_mutex_lock(&print_lock);
		printf("moved %ld %lu\n", (long)syscall(SYS_gettid), moved);
		fflush(stdout);
		pthread_mutex_unlock(&print_lock);
	}
	return NULL;
}

enum placement {
	PIN_OWN,	/* thread i on CPU i */
	PIN_NONE,	/* free, moved now and then */
	PIN_SAME,	/* all on CPU 0 */
	PIN_BUT_LAST,	/* thread i on CPU i, the last one free and moved */
};

/* n threads: each its own ring (placed as asked), or all one ring under the lock. */
static void threads_mode(int n, bool shared, enum placement where)
{
	struct io_uring rings[3];
	struct submitter subs[3];
	pthread_barrier_t ready;
	pthread_t t[3];
	int i, ret;

	pthread_barrier_init(&ready, NULL, (unsigned)n + 1);
	for (i = 0; i < n; i++) {
		if (!shared || !i)
			ring_init(&rings[i], 64, 0, 0, -1);
		bool stray = where == PIN_NONE || (where == PIN_BUT_LAST && i == n - 1);

		subs[i] = (struct submitter){ shared ? &rings[0] : &rings[i], shared,
					      shared || stray ? -1
					      : where == PIN_SAME ? 0
					      : i % (int)sysconf(_SC_NPROCESSORS_ONLN),
					      !shared && stray, &ready };
	}
	printf("ready %d\n", getpid());
	fflush(stdout);
	for (i = 0; i < n; i++) {
		ret = pthread_create(&t[i], NULL, submit_loop, &subs[i]);
		if (ret)
			die("pthread_create", ret);
	}
	pthread_barrier_wait(&ready);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

/* A ring set up, used and torn down every 200 ms; fast: as fast as it goes, counted. */
static void setup_churn(bool fast)
{
	unsigned long rings = 0;
	struct io_uring ring;

	printf("ready %d\nsetup 0x%x\n", getpid(), IORING_SETUP_COOP_TASKRUN);
	fflush(stdout);
	while (!stop) {
		ring_init(&ring, 64, IORING_SETUP_COOP_TASKRUN, 0, -1);
		rings++;
		/*
		 * The fast churn drives each ring with one NOP: a ring of a few events
		 * lets the watch's sample budget see more than the 1024 rings it follows.
		 */
		if (fast)
			nops(&ring, 1);
		for (int r = 0; r < 4 && !fast && !stop; r++)
			nop_round(&ring);
		io_uring_queue_exit(&ring);
		if (!fast)
			sleep_ms(200);
	}
	if (fast) {
		printf("rings %lu\n", rings);
		fflush(stdout);
	}
}

/* Two receives selecting from one provided buffer: the second finds none (ENOBUFS). */
static void buf_dry(void)
{
	static char buf[64];
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv))
		die("socketpair", errno);
	ring_init(&ring, 16, 0, 0, -1);
	printf("ready %d\nthread %ld ring %d\n", getpid(), (long)syscall(SYS_gettid), ring.ring_fd);
	fflush(stdout);
	while (!stop) {
		io_uring_prep_provide_buffers(io_uring_get_sqe(&ring), buf, sizeof(buf), 1, 7, 0);
		io_uring_submit(&ring);
		reap(&ring, 1);
		for (int i = 0; i < 2; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			if (write(sv[1], "x", 1) != 1)
				die("write", errno);
			io_uring_prep_recv(sqe, sv[0], NULL, sizeof(buf), 0);
			sqe->flags |= IOSQE_BUFFER_SELECT;
			sqe->buf_group = 7;
		}
		io_uring_submit(&ring);
		for (int i = 0; i < 2; i++) {
			if (io_uring_wait_cqe(&ring, &cqe) < 0)
				break;
			io_uring_cqe_seen(&ring, cqe);
		}
		/* The message the dry receive left behind. */
		if (read(sv[0], buf, sizeof(buf)) < 0 && errno != EAGAIN)
			die("read", errno);
		sleep_ms(2);
	}
}

static void cq_full(bool inflight)
{
	struct io_uring_params p = { .flags = IORING_SETUP_CQSIZE, .cq_entries = 16 };
	struct io_uring ring;
	int ret, fds[2];

	if ((ret = io_uring_queue_init_params(16, &ring, &p)) < 0)
		die("io_uring_queue_init_params", ret);
	for (int i = 0; i < 15; i++)
		io_uring_prep_nop(io_uring_get_sqe(&ring));
	io_uring_submit(&ring);
	/* Polls on a pipe nobody writes: in flight for good, each owed a completion. */
	if (inflight) {
		if (pipe(fds))
			die("pipe", errno);
		for (int i = 0; i < 4; i++)
			io_uring_prep_poll_add(io_uring_get_sqe(&ring), fds[0], POLLIN);
	}
	io_uring_submit(&ring);
	printf("ready %d\nthread %ld ring %d\n", getpid(), (long)syscall(SYS_gettid), ring.ring_fd);
	fflush(stdout);
	while (!stop)
		sleep_ms(50);
}

static void *pipe_writer(void *arg)
{
	struct timespec ts = { 0, 250 * 1000L };
	int fd = *(int *)arg;
	unsigned long n = 0;

	while (!stop) {
		/* A full pipe (after 64 KiB) makes no more wakeups: the mode runs for seconds. */
		if (write(fd, "x", 1) == 1)
			n++;
		nanosleep(&ts, NULL);
	}
	pthread_mutex_lock(&print_lock);
	printf("writes %lu\n", n);
	fflush(stdout);
	pthread_mutex_unlock(&print_lock);
	return NULL;
}

static void poll_pipe(struct io_uring *ring, int fd)
{
	io_uring_prep_poll_multishot(io_uring_get_sqe(ring), fd, POLLIN);
	io_uring_submit(ring);
}

static void taskrun(bool coop)
{
	unsigned int flags = coop ? IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG : 0;
	struct io_uring_cqe *cqe;
	unsigned long cqes = 0;
	struct io_uring ring;
	pthread_t t;
	int p[2], ret;

	if (pipe2(p, O_NONBLOCK | O_CLOEXEC))
		die("pipe2", errno);
	ring_init(&ring, 64, flags, 0, -1);
	printf("ready %d\nsetup 0x%x\nthread %ld ring %d\n", getpid(), flags,
	       (long)syscall(SYS_gettid), ring.ring_fd);
	fflush(stdout);
	poll_pipe(&ring, p[0]);
	ret = pthread_create(&t, NULL, pipe_writer, &p[1]);
	if (ret)
		die("pthread_create", ret);
	while (!stop) {
		if (coop && (IO_URING_READ_ONCE(*ring.sq.kflags) & IORING_SQ_TASKRUN))
			io_uring_get_events(&ring);
		while (!io_uring_peek_cqe(&ring, &cqe)) {
			bool more = cqe->flags & IORING_CQE_F_MORE;

			cqes++;
			io_uring_cqe_seen(&ring, cqe);
			if (!more)
				poll_pipe(&ring, p[0]);
		}
	}
	pthread_join(t, NULL);
	printf("cqes %lu\n", cqes);
	fflush(stdout);
}

static void *sleeper(void *arg)
{
	(void)arg;
	while (!stop)
		sleep_ms(100);
	return NULL;
}

/* The last thread of many: buffered writes through its own ring, one at a time. */
static void *many_writer(void *arg)
{
	const char *dir = arg;
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	char path[4096], *buf = aligned_buf(4096);
	unsigned long i = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/many-threads.dat", dir);
	fd = open(path, O_CREAT | O_RDWR | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		die(path, errno);
	ring_init(&ring, 8, 0, 0, -1);
	pthread_mutex_lock(&print_lock);
	printf("thread %ld file %s\n", (long)syscall(SYS_gettid), path);
	fflush(stdout);
	pthread_mutex_unlock(&print_lock);
	while (!stop) {
		io_uring_prep_write(io_uring_get_sqe(&ring), fd, buf, 4096, (off_t)(i++ % 1024) * 4096);
		if (io_uring_submit_and_wait(&ring, 1) == 1 && !io_uring_peek_cqe(&ring, &cqe))
			io_uring_cqe_seen(&ring, cqe);
	}
	unlink(path);
	close(fd);
	io_uring_queue_exit(&ring);
	return NULL;
}

/* A short child of the process: its own ring, 100 buffered writes, gone. */
static void forked_writer(const char *dir)
{
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	char path[4096], *buf = aligned_buf(4096);
	int fd, i;

	snprintf(path, sizeof(path), "%s/forked.dat", dir);
	fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		_exit(1);
	ring_init(&ring, 8, 0, 0, -1);
	for (i = 0; i < 100; i++) {
		io_uring_prep_write(io_uring_get_sqe(&ring), fd, buf, 4096, (off_t)i * 4096);
		if (io_uring_submit_and_wait(&ring, 1) == 1 && !io_uring_peek_cqe(&ring, &cqe))
			io_uring_cqe_seen(&ring, cqe);
	}
	_exit(0);
}

static void fork_every(const char *dir, int ms)
{
	while (!stop) {
		pid_t child;

		sleep_ms(ms);
		child = fork();
		if (child < 0)
			die("fork", errno);
		if (!child)
			forked_writer(dir);
		pthread_mutex_lock(&print_lock);
		printf("forked %d\n", (int)child);
		fflush(stdout);
		pthread_mutex_unlock(&print_lock);
		waitpid(child, NULL, 0);
	}
}

static void many_threads(const char *dir)
{
	const char *fork_ms = getenv("PATHOLOGY_FORK_MS");
	const char *env = getenv("PATHOLOGY_THREADS");
	int n = env ? atoi(env) : 300, i, ret;
	pthread_attr_t attr;
	pthread_t *t;

	if (n < 2)
		n = 2;
	t = calloc((size_t)n, sizeof(*t));
	if (!t)
		die("calloc", ENOMEM);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 << 10);
	for (i = 0; i < n - 1; i++) {
		ret = pthread_create(&t[i], &attr, sleeper, NULL);
		if (ret)
			die("pthread_create", ret);
	}
	ret = pthread_create(&t[n - 1], &attr, many_writer, (void *)dir);
	if (ret)
		die("pthread_create", ret);
	sleep_ms(200);
	printf("ready %d\nthreads %d\n", getpid(), n + 1);
	fflush(stdout);
	if (fork_ms && atoi(fork_ms) > 0)
		fork_every(dir, atoi(fork_ms));
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
}

int thread_model_mode(const char *mode, const char *dir)
{
	if (!strcmp(mode, "many-threads"))
		many_threads(dir);
	else if (!strcmp(mode, "ring-per-thread"))
		threads_mode(2, false, PIN_OWN);
	else if (!strcmp(mode, "ring-per-thread-unpinned"))
		threads_mode(2, false, PIN_NONE);
	else if (!strcmp(mode, "ring-per-thread-one-cpu"))
		threads_mode(2, false, PIN_SAME);
	else if (!strcmp(mode, "shared-ring"))
		threads_mode(3, true, PIN_NONE);
	else if (!strcmp(mode, "setup-churn"))
		setup_churn(false);
	else if (!strcmp(mode, "setup-churn-fast"))
		setup_churn(true);
	else if (!strcmp(mode, "buf-dry"))
		buf_dry();
	else if (!strcmp(mode, "cq-full"))
		cq_full(true);
	else if (!strcmp(mode, "cq-full-bounded"))
		cq_full(false);
	else if (!strcmp(mode, "ring-per-thread-stray"))
		threads_mode(3, false, PIN_BUT_LAST);
	else if (!strcmp(mode, "taskrun-interrupts"))
		taskrun(false);
	else if (!strcmp(mode, "taskrun-coop"))
		taskrun(true);
	else
		return 0;
	return 1;
}
