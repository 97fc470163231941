// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seccomp-deny [--ptrace] ERRNO CMD...: runs CMD with a seccomp filter that
 * fails io_uring_setup() with ERRNO, as a container runtime's default
 * profile does. Lets the e2e tests see a real filtered EPERM (or a faked
 * ENOSYS) without touching host-wide settings. With --ptrace it fails
 * ptrace() instead, as where a tracer is not allowed, and sets no
 * no_new_privs (root may install a filter without it), so a set-id program
 * CMD runs keeps its credentials.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int ptrace_only = argc > 1 && !strcmp(argv[1], "--ptrace");
	int err;

	argv += ptrace_only;
	argc -= ptrace_only;
	if (argc < 3) {
		fprintf(stderr, "usage: seccomp-deny [--ptrace] ERRNO CMD...\n");
		return 2;
	}
	err = atoi(argv[1]);
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ptrace_only ? __NR_ptrace : __NR_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(filter) / sizeof(filter[0]), .filter = filter };

	if ((!ptrace_only && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("seccomp-deny: prctl");
		return 1;
	}
	execvp(argv[2], argv + 2);
	perror("seccomp-deny: exec");
	return 127;
}
