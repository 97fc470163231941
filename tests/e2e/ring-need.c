// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ring-need ENTRIES...: measures, for each ring size, the smallest
 * RLIMIT_MEMLOCK under which io_uring_queue_init(ENTRIES) succeeds for a
 * process without CAP_IPC_LOCK, and prints "ENTRIES BYTES" (0: rings are not
 * charged to the limit on this kernel). The e2e tests hold uringlint's
 * computed sizes against these.
 *
 * Each try runs in a fresh child under a uid no other process has, so that
 * no other charge of the user, and no ring still being torn down (its
 * charge is released some milliseconds after close), is in the way: needs
 * root; exits 77 (skip) without it.
 */
#include <errno.h>
#include <grp.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define SKIP 77

static uid_t next_uid;

/* 0 when a ring of entries is created under limit bytes, 1 when not (ENOMEM), else -1. */
static int try_ring(unsigned int entries, rlim_t limit)
{
	uid_t uid = next_uid++;
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		struct rlimit rl = { limit, limit };
		struct io_uring ring;
		int ret;

		if (setrlimit(RLIMIT_MEMLOCK, &rl) || setgroups(0, NULL) ||
		    setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
			_exit(3);
		ret = io_uring_queue_init(entries, &ring, 0);
		_exit(!ret ? 0 : ret == -ENOMEM ? 1 : 2);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) > 1)
		return -1;
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	struct rlimit cur;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: ring-need ENTRIES...\n");
		return 2;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "ring-need: needs root, to try each limit under a fresh uid\n");
		return SKIP;
	}
	getrlimit(RLIMIT_MEMLOCK, &cur);
	next_uid = 0x70000000u + ((unsigned int)getpid() & 0xffffu) * 4096u;
	for (i = 1; i < argc; i++) {
		unsigned int entries = (unsigned int)strtoul(argv[i], NULL, 10);
		rlim_t lo = 0, hi = cur.rlim_max;	/* fails at lo, works at hi */
		int r = try_ring(entries, 0);

		if (r < 0) {
			fprintf(stderr, "ring-need: io_uring_queue_init(%u) fails for another reason "
				"than ENOMEM (or the uid could not be changed)\n", entries);
			return SKIP;
		}
		if (!r) {
			printf("%u 0\n", entries);
			continue;
		}
		if (try_ring(entries, hi) != 0) {
			fprintf(stderr, "ring-need: %u entries do not fit the hard limit %llu\n",
				entries, (unsigned long long)hi);
			return 1;
		}
		while (hi - lo > (rlim_t)page) {
			rlim_t mid = (lo + (hi - lo) / 2) / (rlim_t)page * (rlim_t)page;

			r = try_ring(entries, mid);
			if (r < 0)
				return 1;
			*(r ? &lo : &hi) = mid;
		}
		printf("%u %llu\n", entries, (unsigned long long)hi);
	}
	return 0;
}
