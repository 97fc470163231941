// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pathology MODE [DIR]: becomes a known-good or known-bad io_uring process
 * on demand, prints "ready PID" and keeps going until SIGTERM or SIGINT,
 * then removes its files. Data files go in DIR (default: the current
 * directory). The e2e tests audit each mode and expect its finding.
 * With PATHOLOGY_SECONDS=N in its environment it stops by itself after N s.
 *
 *   clean             O_DIRECT overwrites of a written file, SQPOLL, fixed buffer and file;
 *                     the SQPOLL thread pinned to the last allowed CPU, the submitting
 *                     thread to the others (with one CPU, nothing can keep them apart)
 *   buffered          buffered writes to a registered file (on ext4: all punted)
 *   append            O_DIRECT | O_APPEND writes to a registered file (all punted)
 *   unaligned-buffers registered buffers at an odd address and length, O_DIRECT file
 *   many-sqpoll       4 rings, each with its own SQPOLL thread
 *   attached          4 SQPOLL rings sharing one thread (IORING_SETUP_ATTACH_WQ)
 *   idle-sqpoll       an SQPOLL ring that spins idle (sq_thread_idle 60 s)
 *   shared-cpu        the clean workload with the SQPOLL thread and the submitting
 *                     thread pinned to one CPU, where they take turns
 *   cq-overflow       a ring whose CQ overflowed
 *   idle-worker       one request forced to io-wq (IOSQE_ASYNC), then nothing: the
 *                     pool keeps its last worker, asleep, for good
 *   fragmented        a registered file of 4000 extents plus unwritten ones
 *   many-files        10,000 open files and 8 rings
 *   churn             rings (every other one SQPOLL), files and threads created and
 *                     destroyed without pause: what an audit must survive reading
 *   buffered-fd, sparse, cached, dirty-read, extending, async, small-buffered
 *                     one cause of punts each, on a normal fd: see punt_causes.c
 *   hostile-names     a comm and a thread name with escapes and a newline, and registered
 *                     files named with escapes, a forged report line, Markdown and XML
 *                     metacharacters and bytes that are not UTF-8
 *   no-ring           a service that fell back to Linux AIO after io_uring_queue_init()
 *                     got ENOMEM under a 64 KiB RLIMIT_MEMLOCK: see no_ring.c
 *   idle-ring         a ring set up and never used, its file I/O done with pread/pwrite
 *   nop-ring          the same file I/O, and a ring that takes only NOPs: see no_ring.c
 *   ring-per-thread, ring-per-thread-unpinned, ring-per-thread-one-cpu, shared-ring,
 *   setup-churn, setup-churn-fast, buf-dry, cq-full, taskrun-interrupts, taskrun-coop
 *                     the thread model and the ring map: see thread_model.c
 *   registered-socket a TCP listener and an accepted socket registered with a ring, the
 *                     accepted one's fd closed: see net_sockets.c
 *   reuseport-listeners  a ring and two SO_REUSEPORT listeners on one port of 127.0.0.1:
 *                     see net_sockets.c
 *   net-echo-poll, net-echo-async, net-echo-multishot, multishot-dry  ping-pong over TCP
 *                     on 127.0.0.1 with recvs that wait on poll, IOSQE_ASYNC recvs, a
 *                     multishot recv, or one whose buffer ring runs dry: see net_traffic.c
 *   slow-accepter     a listener with a backlog of 4, a ring accepting once a second, a
 *                     client connecting 50 times a second: see net_checks.c
 *   napi-prefer       a ring with NAPI registered, prefer_busy_poll and 50 us: net_checks.c
 *   napi-zero         a ring with NAPI registered with a busy-poll time of 0: net_checks.c
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "pathology.h"

#define MAX_FILES 10000

volatile sig_atomic_t stop;
static char *paths[MAX_FILES + 8];
static int npaths;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

void die(const char *what, int err)
{
	fprintf(stderr, "pathology: %s: %s\n", what, strerror(err < 0 ? -err : err));
	for (int i = 0; i < npaths; i++)
		unlink(paths[i]);
	exit(1);
}

void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* A file of size bytes in dir, opened with flags; written through once when prefill. */
int data_file(const char *dir, const char *name, off_t size, int flags, int prefill)
{
	char *path;
	void *buf;
	int fd;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		die("asprintf", ENOMEM);
	paths[npaths++] = path;
	if (prefill) {
		fd = open(path, O_CREAT | O_TRUNC | O_RDWR | O_DIRECT | O_CLOEXEC, 0600);
		if (fd < 0)
			die(path, errno);
		if (posix_memalign(&buf, 4096, MIB))
			die("posix_memalign", ENOMEM);
		memset(buf, 0xab, MIB);
		for (off_t off = 0; off < size; off += MIB)
			if (pwrite(fd, buf, MIB, off) != MIB)
				die("prefill", errno);
		fsync(fd);
		free(buf);
		close(fd);
	}
	fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC | flags, 0600);
	if (fd < 0)
		die(path, errno);
	if (!prefill && size && ftruncate(fd, size))
		die("ftruncate", errno);
	return fd;
}

/* A ring; with sq_cpu >= 0 its SQPOLL thread is pinned there (IORING_SETUP_SQ_AFF). */
static void ring_init_cpu(struct io_uring *ring, unsigned entries, unsigned flags, unsigned idle,
			  int wq_fd, int sq_cpu)
{
	struct io_uring_params p = { .flags = flags, .sq_thread_idle = idle };
	int ret;

	if (sq_cpu >= 0) {
		p.flags |= IORING_SETUP_SQ_AFF;
		p.sq_thread_cpu = (unsigned)sq_cpu;
	}
	if (flags & IORING_SETUP_ATTACH_WQ)
		p.wq_fd = (unsigned)wq_fd;
	ret = io_uring_queue_init_params(entries, ring, &p);
	if (ret < 0)
		die("io_uring_queue_init_params", ret);
}

void ring_init(struct io_uring *ring, unsigned entries, unsigned flags, unsigned idle,
		      int wq_fd)
{
	ring_init_cpu(ring, entries, flags, idle, wq_fd, -1);
}

void reap(struct io_uring *ring, unsigned n)
{
	struct io_uring_cqe *cqe;

	while (n--) {
		if (io_uring_wait_cqe(ring, &cqe) < 0)
			return;
		io_uring_cqe_seen(ring, cqe);
	}
}

/* Writes batches of 4 KiB at random aligned offsets until told to stop. */
static void write_loop(struct io_uring *ring, void *buf, off_t span, int fixed, int batch,
		       long pause_ms)
{
	unsigned seed = 1;

	while (!stop) {
		for (int i = 0; i < batch; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
			off_t off = (off_t)(rand_r(&seed) % (unsigned)(span / 4096)) * 4096;

			if (!sqe)
				break;
			if (fixed)
				io_uring_prep_write_fixed(sqe, 0, buf, 4096, off, 0);
			else
				io_uring_prep_write(sqe, 0, buf, 4096, off);
			sqe->flags |= IOSQE_FIXED_FILE;
		}
		io_uring_submit(ring);
		reap(ring, (unsigned)batch);
		if (pause_ms)
			sleep_ms(pause_ms);
	}
}

static void wait_for_stop(void)
{
	while (!stop)
		pause();
}

static void register_one_file(struct io_uring *ring, int fd)
{
	int ret = io_uring_register_files(ring, &fd, 1);

	if (ret < 0)
		die("io_uring_register_files", ret);
}

static void *short_thread(void *arg)
{
	(void)arg;
	sched_yield();
	return NULL;
}

/* Until stopped: a ring, 16 fds and a thread appear and vanish, over and over. */
static void churn(const char *dir)
{
	int fd = data_file(dir, "churn.dat", 0, 0, 0), fds[16];
	unsigned long n;

	printf("ready %d\n", getpid());
	fflush(stdout);
	for (n = 0; !stop; n++) {
		struct io_uring ring;
		pthread_t t;
		int i, ret;

		ret = io_uring_queue_init(8, &ring, n % 2 ? IORING_SETUP_SQPOLL : 0);
		if (ret < 0)
			die("io_uring_queue_init", ret);
		for (i = 0; i < 16; i++)
			fds[i] = dup(fd);
		if (!pthread_create(&t, NULL, short_thread, NULL))
			pthread_join(t, NULL);
		for (i = 0; i < 16; i++)
			if (fds[i] >= 0)
				close(fds[i]);
		io_uring_queue_exit(&ring);
	}
}

/*
 * Keeps the SQPOLL thread and the submitting thread apart: the last CPU
 * this process may use for the SQPOLL thread, the others for this thread.
 * Returns the SQPOLL CPU, or -1 when only one CPU is allowed.
 */
static int split_cpus(void)
{
	cpu_set_t set;
	int cpu, last = -1;

	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity", errno);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			last = cpu;
	if (CPU_COUNT(&set) < 2)
		return -1;
	CPU_CLR(last, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity", errno);
	return last;
}

/* Pins this thread to the first CPU it may use; the SQPOLL thread goes there too. */
static int one_cpu(void)
{
	cpu_set_t set;
	int cpu;

	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity", errno);
	for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set); cpu++)
		;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity", errno);
	return cpu;
}

/* Names a process chooses, as hostile as they come; the e2e names suite knows them. */
/*
 * It drives a ring of its own (a NOP every 50 ms), so that a watched audit
 * names it in the ring map as a submitter.
 */
static void *named_thread(void *arg)
{
	struct io_uring_cqe *cqe;
	struct io_uring ring;

	(void)arg;
	ring_init(&ring, 4, 0, 0, -1);
	while (!stop) {
		io_uring_prep_nop(io_uring_get_sqe(&ring));
		if (io_uring_submit_and_wait(&ring, 1) == 1 && !io_uring_peek_cqe(&ring, &cqe))
			io_uring_cqe_seen(&ring, cqe);
		sleep_ms(50);
	}
	io_uring_queue_exit(&ring);
	return NULL;
}

static void hostile_names(const char *dir)
{
	static const char *const names[] = {
		"evil\033]0;PWNED\a\033[2J\n  PASS   fd-o-direct           all good.dat",
		"md`|*_[x](javascript:x)<b>&amp;\"'#.dat",
		"bad\xff\xfe\033[2J\n- [x] **forged** item.dat",
		/* Short enough for a dentry's inline name: kernels before 6.14 print it raw. */
		"s\033[2J\n  PASS   short.dat",
	};
	struct io_uring ring;
	int fds[4], i, ret;
	pthread_t t;

	/* 15 bytes at most; the kernel keeps them as they are. */
	if (prctl(PR_SET_NAME, "\033[31mx\033[0m\n", 0, 0, 0))
		die("PR_SET_NAME", errno);
	ret = pthread_create(&t, NULL, named_thread, NULL);
	if (ret)
		die("pthread_create", ret);
	ret = pthread_setname_np(t, "t\033[2J\n)(\xff|*_");
	if (ret)
		die("pthread_setname_np", ret);
	for (i = 0; i < 4; i++) {
		char *path;

		if (asprintf(&path, "%s/%s", dir, names[i]) < 0)
			die("asprintf", ENOMEM);
		paths[npaths++] = path;
		/* Buffered, so fd-o-direct fails on each: its subject and fix quote every name. */
		fds[i] = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
		if (fds[i] < 0)
			die(path, errno);
		if (ftruncate(fds[i], MIB))
			die("ftruncate", errno);
	}
	ring_init(&ring, 8, 0, 0, -1);
	ret = io_uring_register_files(&ring, fds, 4);
	if (ret < 0)
		die("io_uring_register_files", ret);
	printf("ready %d\n", getpid());
	fflush(stdout);
	wait_for_stop();
	pthread_join(t, NULL);
}

void *aligned_buf(size_t len)
{
	void *buf;

	if (posix_memalign(&buf, 4096, len))
		die("posix_memalign", ENOMEM);
	memset(buf, 0x5a, len);
	return buf;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "", *dir = argc > 2 ? argv[2] : ".";
	struct io_uring rings[8];
	struct sigaction sa = { .sa_handler = on_signal };
	struct iovec iov;
	void *buf;
	int fd, i, ret;

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	/* PATHOLOGY_SECONDS=N: stop by itself, as a program run under audit --exec does. */
	if (getenv("PATHOLOGY_SECONDS")) {
		sigaction(SIGALRM, &sa, NULL);
		alarm((unsigned int)atoi(getenv("PATHOLOGY_SECONDS")));
	}

	if (punt_cause_mode(mode, dir)) {
		/* one cause of punts: punt_causes.c */
	} else if (thread_model_mode(mode, dir)) {
		/* the thread model: thread_model.c */
	} else if (net_traffic_mode(mode)) {
		/* socket requests on a ring: net_traffic.c */
	} else if (!strcmp(mode, "clean") || !strcmp(mode, "shared-cpu")) {
		fd = data_file(dir, "clean.dat", 16 * MIB, O_DIRECT, 1);
		ring_init_cpu(&rings[0], 64, IORING_SETUP_SQPOLL, 1, -1,
			      mode[0] == 'c' ? split_cpus() : one_cpu());
		register_one_file(&rings[0], fd);
		buf = aligned_buf(4096);
		iov = (struct iovec){ buf, 4096 };
		if ((ret = io_uring_register_buffers(&rings[0], &iov, 1)) < 0)
			die("io_uring_register_buffers", ret);
		printf("ready %d\n", getpid());
		fflush(stdout);
		write_loop(&rings[0], buf, 16 * MIB, 1, 16, 0);
	} else if (!strcmp(mode, "buffered") || !strcmp(mode, "append")) {
		int append = mode[0] == 'a';

		fd = data_file(dir, append ? "append.dat" : "buffered.dat", append ? 0 : 16 * MIB,
			       append ? O_DIRECT | O_APPEND : 0, 0);
		ring_init(&rings[0], 64, 0, 0, -1);
		register_one_file(&rings[0], fd);
		buf = aligned_buf(4096);
		/* Start punting before "ready", so workers exist when the audit looks. */
		for (i = 0; i < 4; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&rings[0]);

			io_uring_prep_write(sqe, 0, buf, 4096, (off_t)i * 4096);
			sqe->flags |= IOSQE_FIXED_FILE;
		}
		io_uring_submit(&rings[0]);
		reap(&rings[0], 4);
		printf("ready %d\n", getpid());
		fflush(stdout);
		while (!stop) {
			write_loop(&rings[0], buf, 16 * MIB, 0, 32, 20);
			if (append && lseek(fd, 0, SEEK_END) > 64 * MIB && ftruncate(fd, 0))
				die("ftruncate", errno);
		}
	} else if (!strcmp(mode, "unaligned-buffers")) {
		fd = data_file(dir, "unaligned.dat", 4 * MIB, O_DIRECT, 1);
		ring_init(&rings[0], 16, 0, 0, -1);
		register_one_file(&rings[0], fd);
		buf = aligned_buf(2 * 4096);
		iov = (struct iovec){ (char *)buf + 100, 4000 };
		if ((ret = io_uring_register_buffers(&rings[0], &iov, 1)) < 0)
			die("io_uring_register_buffers", ret);
		printf("ready %d\n", getpid());
		fflush(stdout);
		wait_for_stop();
	} else if (!strcmp(mode, "many-sqpoll") || !strcmp(mode, "attached")) {
		int attach = mode[0] == 'a';

		for (i = 0; i < 4; i++)
			ring_init(&rings[i], 8,
				  IORING_SETUP_SQPOLL | (attach && i ? IORING_SETUP_ATTACH_WQ : 0), 10,
				  rings[0].ring_fd);
		printf("ready %d\n", getpid());
		fflush(stdout);
		wait_for_stop();
	} else if (!strcmp(mode, "idle-sqpoll")) {
		ring_init(&rings[0], 8, IORING_SETUP_SQPOLL, 60000, -1);
		io_uring_prep_nop(io_uring_get_sqe(&rings[0]));
		io_uring_submit(&rings[0]);
		reap(&rings[0], 1);
		printf("ready %d\n", getpid());
		fflush(stdout);
		wait_for_stop();
	} else if (!strcmp(mode, "idle-worker")) {
		struct io_uring_sqe *sqe;

		ring_init(&rings[0], 8, 0, 0, -1);
		sqe = io_uring_get_sqe(&rings[0]);
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
		io_uring_submit(&rings[0]);
		reap(&rings[0], 1);
		printf("ready %d\n", getpid());
		fflush(stdout);
		wait_for_stop();
	} else if (!strcmp(mode, "cq-overflow")) {
		struct io_uring_params p = { .flags = IORING_SETUP_CQSIZE, .cq_entries = 8 };

		if ((ret = io_uring_queue_init_params(8, &rings[0], &p)) < 0)
			die("io_uring_queue_init_params", ret);
		/* 24 completions into a CQ of 8, none reaped: 16 overflow. */
		for (i = 0; i < 3; i++) {
			for (int k = 0; k < 8; k++)
				io_uring_prep_nop(io_uring_get_sqe(&rings[0]));
			io_uring_submit(&rings[0]);
		}
		printf("ready %d\n", getpid());
		fflush(stdout);
		wait_for_stop();
	} else if (!strcmp(mode, "fragmented")) {
		fd = data_file(dir, "fragmented.dat", 0, O_DIRECT, 0);
		buf = aligned_buf(4096);
		/* Every other 4 KiB block written: 4000 extents with holes between. */
		for (i = 0; i < 4000; i++)
			if (pwrite(fd, buf, 4096, (off_t)i * 8192) != 4096)
				die("pwrite", errno);
		/* And 16 MiB allocated but never written. */
		if (fallocate(fd, 0, 4000 * 8192, 16 * MIB))
			die("fallocate", errno);
		ring_init(&rings[0], 16, 0, 0, -1);
		register_one_file(&rings[0], fd);
		printf("ready %d\n", getpid());
		fflush(stdout);
		wait_for_stop();
	} else if (!strcmp(mode, "many-files")) {
		struct rlimit rl;
		char name[32];

		getrlimit(RLIMIT_NOFILE, &rl);
		rl.rlim_cur = rl.rlim_max;
		if (rl.rlim_cur < MAX_FILES + 64 || setrlimit(RLIMIT_NOFILE, &rl))
			die("RLIMIT_NOFILE below 10064", EMFILE);
		for (i = 0; i < MAX_FILES; i++) {
			snprintf(name, sizeof(name), "many-%05d.dat", i);
			data_file(dir, name, 0, 0, 0);
		}
		for (i = 0; i < 8; i++)
			ring_init(&rings[i], 8, 0, 0, -1);
		printf("ready %d\n", getpid());
		fflush(stdout);
		wait_for_stop();
	} else if (!strcmp(mode, "churn")) {
		churn(dir);
	} else if (!strcmp(mode, "hostile-names")) {
		hostile_names(dir);
	} else if (!strcmp(mode, "no-ring")) {
		no_ring();
	} else if (!strcmp(mode, "idle-ring")) {
		idle_ring(dir);
	} else if (!strcmp(mode, "nop-ring")) {
		nop_ring(dir);
	} else if (!strcmp(mode, "registered-socket")) {
		registered_socket();
	} else if (!strcmp(mode, "reuseport-listeners")) {
		reuseport_listeners();
	} else if (!strcmp(mode, "slow-accepter")) {
		slow_accepter();
	} else if (!strcmp(mode, "napi-prefer")) {
		napi_ring(50, true);
	} else if (!strcmp(mode, "napi-zero")) {
		napi_ring(0, false);
	} else {
		fprintf(stderr, "usage: pathology MODE [DIR]  (modes: see the source's header)\n");
		return 2;
	}
	for (i = 0; i < npaths; i++)
		unlink(paths[i]);
	return 0;
}
