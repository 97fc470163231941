// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * no-ring: a service that fell back to Linux AIO. Without CAP_IPC_LOCK and
 * with RLIMIT_MEMLOCK lowered to 64 KiB, io_uring_queue_init() of 4096
 * entries gets ENOMEM where rings are charged to the limit (up to 5.11,
 * from 6.14); on 5.12 to 6.13 it works, and the ring is closed at once, as
 * by a service that gave up on io_uring for another reason. Then an
 * io_setup() context, liburing still mapped. "ready PID ENOMEM" or "ready
 * PID closed" says which. PATHOLOGY_MEMLOCK=inherit keeps the limit the
 * process was given (a service's LimitMEMLOCK=), so that a fix of that
 * limit can be seen to work.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pathology.h"

/* Drops CAP_IPC_LOCK from this process's sets, so io_uring charges it like a service. */
static void drop_ipc_lock(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];
	int w = CAP_IPC_LOCK / 32;
	__u32 bit = 1u << (CAP_IPC_LOCK % 32);

	if (syscall(SYS_capget, &h, d))
		die("capget", errno);
	d[w].effective &= ~bit;
	d[w].permitted &= ~bit;
	d[w].inheritable &= ~bit;
	if (syscall(SYS_capset, &h, d))
		die("capset", errno);
}

/* What a service does when io_uring_queue_init() fails and it has a fallback. */
void no_ring(void)
{
	struct rlimit rl = { 64 << 10, 64 << 10 };
	struct io_uring ring;
	aio_context_t aio = 0;
	const char *why = "ENOMEM";
	int ret;

	const char *keep = getenv("PATHOLOGY_MEMLOCK");

	drop_ipc_lock();
	if ((!keep || strcmp(keep, "inherit")) && setrlimit(RLIMIT_MEMLOCK, &rl))
		die("setrlimit(RLIMIT_MEMLOCK)", errno);
	ret = io_uring_queue_init(4096, &ring, 0);
	if (!ret) {
		io_uring_queue_exit(&ring);
		why = "closed";
	} else if (ret != -ENOMEM) {
		die("io_uring_queue_init", ret);
	}
	if (syscall(SYS_io_setup, 128, &aio))
		die("io_setup", errno);
	printf("ready %d %s\n", getpid(), why);
	fflush(stdout);
	while (!stop)
		pause();
	syscall(SYS_io_destroy, aio);
}

/* A NOP on the ring, waited for: a request that is no file I/O. */
static void submit_nop(struct io_uring *ring)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct io_uring_cqe *cqe;
	int ret;

	io_uring_prep_nop(sqe);
	ret = io_uring_submit_and_wait(ring, 1);
	if (ret < 0)
		die("io_uring_submit_and_wait", ret);
	ret = io_uring_wait_cqe(ring, &cqe);
	if (ret < 0)
		die("io_uring_wait_cqe", ret);
	io_uring_cqe_seen(ring, cqe);
}

/*
 * The file I/O of idle-ring and nop-ring: a pwrite64 and a pread64 each
 * PATHOLOGY_IO_MS (default 1) ms, and with nop_ms a NOP on the ring each
 * nop_ms (0: none).
 */
static void plain_io(const char *dir, const char *name, struct io_uring *ring, int nop_ms)
{
	const char *ms = getenv("PATHOLOGY_IO_MS");
	int pause = ms && atoi(ms) > 0 ? atoi(ms) : 1;
	unsigned long rounds = 0, nops = 0;
	char path[4096], *buf;
	int fd;

	snprintf(path, sizeof(path), "%s/%s.dat", dir, name);
	fd = open(path, O_CREAT | O_RDWR | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		die(path, errno);
	buf = aligned_buf(4096);
	if (nop_ms) {
		submit_nop(ring);
		nops++;
	}
	printf("ready %d\nring %d\n", getpid(), ring->ring_fd);
	fflush(stdout);
	while (!stop) {
		off_t off = (off_t)(rounds++ % 256) * 4096;

		if (pwrite(fd, buf, 4096, off) != 4096 || pread(fd, buf, 4096, off) != 4096)
			die("pwrite/pread", errno);
		sleep_ms(pause);
		if (nop_ms && rounds % (unsigned long)(nop_ms / pause > 0 ? nop_ms / pause : 1) == 0) {
			submit_nop(ring);
			nops++;
		}
	}
	printf("rounds %lu\nnops %lu\n", rounds, nops);
	fflush(stdout);
	unlink(path);
}

/*
 * idle-ring: a ring set up and never used, the file I/O done with pread64
 * and pwrite64 beside it, as a server configured not to use asynchronous
 * I/O keeps its io_uring module's ring (Samba with aio sizes 0). A read
 * and a write each PATHOLOGY_IO_MS (default 1) ms: hundreds of them at
 * once (the host-wide text's test) take a longer pause.
 */
void idle_ring(const char *dir)
{
	struct io_uring ring;
	int ret;

	ret = io_uring_queue_init(64, &ring, 0);
	if (ret < 0)
		die("io_uring_queue_init", ret);
	plain_io(dir, "idle-ring", &ring, 0);
	io_uring_queue_exit(&ring);
}

/*
 * nop-ring: the same file I/O by plain calls, and a ring that takes a NOP
 * at the start and one each PATHOLOGY_NOP_MS (default 500) ms, none a file
 * operation: a tool that sets up io_uring and checks it works, then copies
 * with pread and write (a backup tool submitting one NOP).
 */
void nop_ring(const char *dir)
{
	const char *ms = getenv("PATHOLOGY_NOP_MS");
	struct io_uring ring;
	int ret;

	ret = io_uring_queue_init(64, &ring, 0);
	if (ret < 0)
		die("io_uring_queue_init", ret);
	plain_io(dir, "nop-ring", &ring, ms && atoi(ms) > 0 ? atoi(ms) : 500);
	io_uring_queue_exit(&ring);
}
