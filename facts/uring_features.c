// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tries what a service will ask of io_uring: setup flags on throwaway
 * rings, register operations, and the opcode table the kernel reports.
 * Constants newer than the liburing we build with are defined here.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "uring_features.h"
#include "uring_probe.h"

static int try_setup(unsigned int flags)
{
	struct io_uring_params p;
	struct io_uring ring;
	int ret;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	if (flags & IORING_SETUP_SQPOLL)
		p.sq_thread_idle = 10;
	if (flags & IORING_SETUP_SQ_AFF) {
		int cpu = sched_getcpu();

		p.sq_thread_cpu = cpu < 0 ? 0 : (unsigned int)cpu;
	}
	ret = uring_queue_init_patient(URING_FEATURES_RING_ENTRIES, &ring, &p);
	if (ret < 0)
		return ret;
	uring_queue_exit_noted(&ring);
	return 0;
}

static int try_attach_wq(void)
{
	struct io_uring_params p;
	struct io_uring a, b;
	int ret;

	memset(&p, 0, sizeof(p));
	ret = uring_queue_init_patient(URING_FEATURES_RING_ENTRIES, &a, &p);
	if (ret < 0)
		return ret;
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_ATTACH_WQ;
	p.wq_fd = (unsigned int)a.ring_fd;
	ret = uring_queue_init_patient(URING_FEATURES_RING_ENTRIES, &b, &p);
	if (!ret)
		uring_queue_exit_noted(&b);
	uring_queue_exit_noted(&a);
	return ret;
}

/* One page, registered: what REGISTER_BUFFERS charges to RLIMIT_MEMLOCK. */
static int register_page(void *arg)
{
	static char buf[4096] __attribute__((aligned(4096)));
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };

	return io_uring_register_buffers(arg, &iov, 1);
}

static int try_register(struct io_uring *ring, const char *what)
{
	unsigned int workers[2] = { 0, 0 };	/* 0, 0 only reads the current limits */
	int fd, ret;

	if (!strcmp(what, "buffers")) {
		ret = uring_patient(register_page, ring);
		if (!ret)
			io_uring_unregister_buffers(ring);
		return ret;
	}
	if (!strcmp(what, "files")) {
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		ret = io_uring_register_files(ring, &fd, 1);
		if (!ret)
			io_uring_unregister_files(ring);
		close(fd);
		return ret;
	}
	if (!strcmp(what, "iowq-max-workers"))
		return io_uring_register_iowq_max_workers(ring, workers);
	if (!strcmp(what, "ring-fd")) {
		ret = io_uring_register_ring_fd(ring);
		if (ret == 1) {
			io_uring_unregister_ring_fd(ring);
			return 0;
		}
		return ret < 0 ? ret : -EIO;
	}
	return -EINVAL;
}

static const struct {
	const char *name;
	unsigned int flags;
	enum uring_feature_need need;
	const char *since;
} setup_flags[] = {
	{ "SQPOLL", IORING_SETUP_SQPOLL, NEED_CORE, "5.1 (unprivileged 5.13)" },
	{ "SQ_AFF", IORING_SETUP_SQPOLL | IORING_SETUP_SQ_AFF, NEED_CORE, "5.1" },
	{ "COOP_TASKRUN", IORING_SETUP_COOP_TASKRUN, NEED_USEFUL, "5.19" },
	{ "SINGLE_ISSUER", IORING_SETUP_SINGLE_ISSUER, NEED_USEFUL, "6.0" },
	{ "DEFER_TASKRUN", IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN, NEED_USEFUL,
	  "6.1" },
};

static const struct {
	const char *name;
	const char *what;
	enum uring_feature_need need;
	const char *since;
} register_ops[] = {
	{ "REGISTER_BUFFERS", "buffers", NEED_CORE, "5.1" },
	{ "REGISTER_FILES", "files", NEED_CORE, "5.1" },
	{ "REGISTER_IOWQ_MAX_WORKERS", "iowq-max-workers", NEED_USEFUL, "5.15" },
	{ "REGISTER_RING_FDS", "ring-fd", NEED_USEFUL, "5.18" },
};

static const struct {
	const char *name;
	int op;
	enum uring_feature_need need;
	const char *since;
} opcodes[] = {
	{ "READ", IORING_OP_READ, NEED_CORE, "5.6" },
	{ "WRITE", IORING_OP_WRITE, NEED_CORE, "5.6" },
	{ "READ_FIXED", IORING_OP_READ_FIXED, NEED_CORE, "5.1" },
	{ "WRITE_FIXED", IORING_OP_WRITE_FIXED, NEED_CORE, "5.1" },
	{ "READV", IORING_OP_READV, NEED_CORE, "5.1" },
	{ "WRITEV", IORING_OP_WRITEV, NEED_CORE, "5.1" },
	{ "FSYNC", IORING_OP_FSYNC, NEED_CORE, "5.1" },
	{ "FALLOCATE", IORING_OP_FALLOCATE, NEED_USEFUL, "5.6" },
	{ "OPENAT", IORING_OP_OPENAT, NEED_USEFUL, "5.6" },
	{ "CLOSE", IORING_OP_CLOSE, NEED_USEFUL, "5.6" },
	{ "STATX", IORING_OP_STATX, NEED_USEFUL, "5.6" },
	{ "POLL_ADD", IORING_OP_POLL_ADD, NEED_CORE, "5.1" },
	{ "TIMEOUT", IORING_OP_TIMEOUT, NEED_USEFUL, "5.4" },
	{ "LINK_TIMEOUT", IORING_OP_LINK_TIMEOUT, NEED_USEFUL, "5.5" },
	{ "ASYNC_CANCEL", IORING_OP_ASYNC_CANCEL, NEED_USEFUL, "5.5" },
	{ "ACCEPT", IORING_OP_ACCEPT, NEED_USEFUL, "5.5" },
	{ "CONNECT", IORING_OP_CONNECT, NEED_USEFUL, "5.5" },
	{ "SEND", IORING_OP_SEND, NEED_USEFUL, "5.6" },
	{ "RECV", IORING_OP_RECV, NEED_USEFUL, "5.6" },
	{ "SENDMSG", IORING_OP_SENDMSG, NEED_USEFUL, "5.3" },
	{ "RECVMSG", IORING_OP_RECVMSG, NEED_USEFUL, "5.3" },
	{ "SHUTDOWN", IORING_OP_SHUTDOWN, NEED_USEFUL, "5.11" },
	{ "PROVIDE_BUFFERS", IORING_OP_PROVIDE_BUFFERS, NEED_USEFUL, "5.7" },
	{ "MSG_RING", IORING_OP_MSG_RING, NEED_USEFUL, "5.18" },
	{ "SOCKET", IORING_OP_SOCKET, NEED_USEFUL, "5.19" },
	{ "SEND_ZC", IORING_OP_SEND_ZC, NEED_USEFUL, "6.0" },
};

static struct uring_feature *add(struct uring_features *uf, const char *name,
				 enum uring_feature_kind kind, enum uring_feature_need need,
				 const char *since, int err)
{
	struct uring_feature *f = &uf->items[uf->n++];

	f->name = name;
	f->kind = kind;
	f->need = need;
	f->since = since;
	f->err = err;
	return f;
}

void uring_features_probe(struct uring_features *uf)
{
	struct io_uring_probe *probe;
	struct io_uring_params p;
	struct io_uring ring;
	size_t i;
	int ret;

	memset(uf, 0, sizeof(*uf));
	memset(&p, 0, sizeof(p));
	ret = uring_queue_init_patient(URING_FEATURES_RING_ENTRIES, &ring, &p);
	if (ret < 0) {
		fact_fail(&uf->e, ret, "io_uring_setup() fails (%s): nothing to probe",
			  strerror(-ret));
		return;
	}
	for (i = 0; i < ARRAY_SIZE(setup_flags); i++)
		add(uf, setup_flags[i].name, FEATURE_SETUP, setup_flags[i].need, setup_flags[i].since,
		    try_setup(setup_flags[i].flags));
	add(uf, "ATTACH_WQ", FEATURE_SETUP, NEED_USEFUL, "5.6", try_attach_wq());
	for (i = 0; i < ARRAY_SIZE(register_ops); i++)
		add(uf, register_ops[i].name, FEATURE_REGISTER, register_ops[i].need,
		    register_ops[i].since, try_register(&ring, register_ops[i].what));

	probe = io_uring_get_probe_ring(&ring);
	for (i = 0; i < ARRAY_SIZE(opcodes); i++) {
		/* Kernels before 5.6 have no probe at all: then nothing is known to work. */
		int err = !probe ? -EOPNOTSUPP
				 : io_uring_opcode_supported(probe, opcodes[i].op) ? 0 : -EINVAL;

		add(uf, opcodes[i].name, FEATURE_OPCODE, opcodes[i].need, opcodes[i].since, err);
	}
	if (probe)
		io_uring_free_probe(probe);
	uring_queue_exit_noted(&ring);
}

const char *uring_feature_kind_name(enum uring_feature_kind k)
{
	switch (k) {
	case FEATURE_SETUP:
		return "setup";
	case FEATURE_REGISTER:
		return "register";
	case FEATURE_OPCODE:
		return "opcode";
	}
	return "?";
}
