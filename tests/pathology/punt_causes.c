// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One cause of punts per mode, each on a normal (not registered) fd, so
 * io_uring_file_get names the file. docs/kernel-facts.md, section 10, has what
 * each cause measured on 6.18.
 *
 *   buffered-fd     buffered writes to data.dat through io_uring, and a log written
 *                   with plain pwrite() next to it, which io_uring never touches
 *   small-buffered  the same with a 256 KiB data file and four small buffered files
 *                   nobody writes through io_uring
 *   sparse          O_DIRECT writes into the holes of a 1 GiB sparse file
 *   cached          O_DIRECT writes to a file whose pages are read back into the page
 *                   cache through another fd every 100 ms
 *   dirty-read      O_DIRECT reads of a file another fd dirties (buffered, no fsync)
 *                   every 100 ms
 *   extending       O_DIRECT sequential writes at the end of the file (not O_APPEND)
 *   async           O_DIRECT overwrites of a written file, each with IOSQE_ASYNC
 *   timestamp       O_DIRECT overwrites of a written (preallocated, no unwritten extent)
 *                   file one at a time, about 150 a second: on XFS each that comes in a
 *                   new clock tick must update the file's times, which NOWAIT refuses
 *   hop             O_DIRECT overwrites of a written file, none punted, in the cgroup
 *                   PATHOLOGY_HOP_HOME; every 500 ms it moves itself to the cgroup
 *                   PATHOLOGY_HOP_AWAY, submits 256 writes with IOSQE_ASYNC there and
 *                   moves back ("hopped N" on stdout after each): a process that
 *                   slips out of the cgroup a watch goes through
 *   async-every     O_DIRECT overwrites of a written file, IOSQE_ASYNC on every Nth
 *                   (PATHOLOGY_PUNT_EVERY=N, and it forces a punt): it punts one
 *                   batch first, so io-wq has its workers before any watch (a worker
 *                   started during a watch is attached late: the file its first
 *                   request takes goes unseen; PATHOLOGY_COLD=1 leaves that out);
 *                   after "ready" it waits for SIGUSR1, then submits
 *                   PATHOLOGY_REQUESTS requests in all, says "done REQUESTS PUNTS"
 *                   and idles until stopped, so a watch around the burst sees a
 *                   known count and share of punts
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pathology.h"

#define BATCH 16
#define PAUSE_MS 5

enum pattern { RANDOM, APPENDING };

struct load {
	struct io_uring ring;
	int fd;
	int read;		/* reads, not writes */
	unsigned sqe_flags;
	enum pattern pattern;
	off_t span;		/* random offsets below this */
	off_t truncate_at;	/* APPENDING: start over past this size */
	void *buf;
	/* between batches, every 100 ms */
	void (*side)(struct load *l);
	int side_fd;
	void *side_buf;
	unsigned long batches;
	unsigned long every;	/* IOSQE_ASYNC on every Nth request, 0 for none */
	unsigned long seq;	/* requests submitted */
	unsigned long forced;	/* of them with IOSQE_ASYNC from every */
	unsigned batch;		/* requests a batch, BATCH unless set */
};

static void submit_batch(struct load *l, unsigned *seed, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&l->ring);
		off_t off;

		if (!sqe)
			break;
		if (l->pattern == APPENDING) {
			struct stat st;

			if (fstat(l->fd, &st))
				die("fstat", errno);
			off = st.st_size + (off_t)i * 4096;
		} else {
			off = (off_t)(rand_r(seed) % (unsigned)(l->span / 4096)) * 4096;
		}
		if (l->read)
			io_uring_prep_read(sqe, l->fd, l->buf, 4096, off);
		else
			io_uring_prep_write(sqe, l->fd, l->buf, 4096, off);
		sqe->flags |= l->sqe_flags;
		if (l->every && ++l->seq % l->every == 0) {
			sqe->flags |= IOSQE_ASYNC;
			l->forced++;
		}
	}
	io_uring_submit(&l->ring);
	reap(&l->ring, n);
}

static void run(struct load *l)
{
	unsigned seed = 1;

	printf("ready %d\n", getpid());
	fflush(stdout);
	while (!stop) {
		submit_batch(l, &seed, l->batch ? l->batch : BATCH);
		if (l->pattern == APPENDING && lseek(l->fd, 0, SEEK_END) > l->truncate_at &&
		    ftruncate(l->fd, 0))
			die("ftruncate", errno);
		if (l->side && l->batches++ % (100 / PAUSE_MS) == 0)
			l->side(l);
		sleep_ms(PAUSE_MS);
	}
}

static volatile sig_atomic_t go;

static void on_go(int sig)
{
	(void)sig;
	go = 1;
}

/* async-every: one burst of total requests on SIGUSR1, then idle until stopped. */
static void run_counted(struct load *l, unsigned long total)
{
	struct sigaction sa = { .sa_handler = on_go };
	unsigned seed = 1;

	sigaction(SIGUSR1, &sa, NULL);
	if (!getenv("PATHOLOGY_COLD")) {
		l->sqe_flags = IOSQE_ASYNC;
		submit_batch(l, &seed, BATCH);
		l->sqe_flags = 0;
		l->seq = l->forced = 0;
	}
	printf("ready %d\n", getpid());
	fflush(stdout);
	while (!go && !stop)
		sleep_ms(1);
	while (!stop && l->seq < total) {
		unsigned n = total - l->seq < BATCH ? (unsigned)(total - l->seq) : BATCH;

		submit_batch(l, &seed, n);
		sleep_ms(PAUSE_MS);
	}
	printf("done %lu %lu\n", l->seq, l->forced);
	fflush(stdout);
	while (!stop)
		sleep_ms(50);
}

/* Reads the whole file back through the page cache. */
static void read_back(struct load *l)
{
	for (off_t off = 0; off < l->span; off += MIB)
		if (pread(l->side_fd, l->side_buf, MIB, off) < 0)
			die("pread", errno);
}

/* Dirties the whole file through the page cache, without writing it back. */
static void dirty_all(struct load *l)
{
	for (off_t off = 0; off < l->span; off += MIB)
		if (pwrite(l->side_fd, l->side_buf, MIB, off) != MIB)
			die("pwrite", errno);
}

/* A log next to the data, written with plain pwrite(): not io_uring's. */
static void write_log(struct load *l)
{
	static const char line[] = "a log line written with write(2), not io_uring\n";

	if (write(l->side_fd, line, sizeof(line) - 1) < 0)
		die("write", errno);
}

/* Writes this process's pid into a cgroup's cgroup.procs: the whole process moves there. */
static void cg_move(const char *cg)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%d\n", getpid()) < 0 || fclose(f))
		die(path, errno);
}

/* Out of the home cgroup, 16 batches punted, and back; every fifth call (500 ms). */
static void hop(struct load *l)
{
	static unsigned long calls, hops;

	if (++calls % 5)
		return;
	cg_move(getenv("PATHOLOGY_HOP_AWAY"));
	l->sqe_flags = IOSQE_ASYNC;
	for (int i = 0; i < 16; i++) {
		unsigned seed = (unsigned)i;

		submit_batch(l, &seed, BATCH);
	}
	l->sqe_flags = 0;
	cg_move(getenv("PATHOLOGY_HOP_HOME"));
	printf("hopped %lu\n", ++hops);
	fflush(stdout);
}

static int side_file(const char *dir, const char *name, int flags)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CLOEXEC | flags);
	if (fd < 0)
		die(path, errno);
	return fd;
}

int punt_cause_mode(const char *mode, const char *dir)
{
	struct load l = { .span = 16 * MIB, .pattern = RANDOM };

	if (!strcmp(mode, "buffered-fd") || !strcmp(mode, "small-buffered")) {
		int issmall = mode[0] == 's';

		l.span = issmall ? 256 * 1024 : 16 * MIB;
		l.fd = data_file(dir, "data.dat", l.span, 0, 0);
		l.side_fd = data_file(dir, "app.log", 0, O_APPEND, 0);
		l.side = write_log;
		for (int i = 0; issmall && i < 4; i++) {
			char name[32];

			snprintf(name, sizeof(name), "small-%d.dat", i);
			data_file(dir, name, 64 * 1024, 0, 0);	/* open, never written */
		}
	} else if (!strcmp(mode, "sparse")) {
		l.span = 1024 * MIB;
		l.fd = data_file(dir, "sparse.dat", l.span, O_DIRECT, 0);
	} else if (!strcmp(mode, "cached") || !strcmp(mode, "dirty-read")) {
		int dirty = mode[0] == 'd';

		l.fd = data_file(dir, dirty ? "dirty.dat" : "cached.dat", l.span, O_DIRECT, 1);
		l.side_fd = side_file(dir, dirty ? "dirty.dat" : "cached.dat", 0);
		l.side_buf = aligned_buf(MIB);
		l.side = dirty ? dirty_all : read_back;
		l.read = dirty;
	} else if (!strcmp(mode, "extending")) {
		l.fd = data_file(dir, "extending.dat", 0, O_DIRECT, 0);
		l.pattern = APPENDING;
		l.truncate_at = 64 * MIB;
	} else if (!strcmp(mode, "hop")) {
		if (!getenv("PATHOLOGY_HOP_HOME") || !getenv("PATHOLOGY_HOP_AWAY"))
			die("hop: PATHOLOGY_HOP_HOME and PATHOLOGY_HOP_AWAY", EINVAL);
		l.fd = data_file(dir, "hop.dat", l.span, O_DIRECT, 1);
		l.side = hop;
	} else if (!strcmp(mode, "async")) {
		l.fd = data_file(dir, "async.dat", l.span, O_DIRECT, 1);
		l.sqe_flags = IOSQE_ASYNC;
	} else if (!strcmp(mode, "timestamp")) {
		l.fd = data_file(dir, "stamp.dat", l.span, O_DIRECT, 1);
		l.batch = 1;
	} else if (!strcmp(mode, "async-every")) {
		const char *every = getenv("PATHOLOGY_PUNT_EVERY"), *total = getenv("PATHOLOGY_REQUESTS");

		if (!every || !total || strtoul(every, NULL, 10) == 0)
			die("async-every: PATHOLOGY_PUNT_EVERY and PATHOLOGY_REQUESTS", EINVAL);
		l.every = strtoul(every, NULL, 10);
		l.fd = data_file(dir, "every.dat", l.span, O_DIRECT, 1);
		l.buf = aligned_buf(4096);
		ring_init(&l.ring, 2 * BATCH, 0, 0, -1);
		run_counted(&l, strtoul(total, NULL, 10));
		io_uring_queue_exit(&l.ring);
		return 1;
	} else {
		return 0;
	}
	l.buf = aligned_buf(4096);
	ring_init(&l.ring, 2 * BATCH, 0, 0, -1);
	run(&l);
	io_uring_queue_exit(&l.ring);
	return 1;
}
