// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What io_uring's tracepoints say of an opcode: its name (learnt from the
 * events' op_str where the kernel has it), its direction, and whether
 * io_uring sends it to io-wq by itself or only sockets take it.
 */
#include <errno.h>
#include <linux/io_uring.h>
#include <stdio.h>
#include <string.h>

#include "array.h"
#include "uring_trace.h"

const char *uring_trace_op_name(const struct uring_trace *ut, uint8_t opcode, char *buf,
				size_t bufsz)
{
	if (ut->op_names[opcode][0])
		return ut->op_names[opcode];
	snprintf(buf, bufsz, "opcode %u", opcode);
	return buf;
}

enum ut_dir uring_trace_op_dir(const struct uring_trace *ut, uint8_t opcode)
{
	const char *n = ut->op_names[opcode];

	if (n[0])
		return !strncmp(n, "READ", 4) ? UT_DIR_READ
		       : !strncmp(n, "WRITE", 5) ? UT_DIR_WRITE : UT_DIR_OTHER;
	/* include/uapi/linux/io_uring.h: the numbers have not moved since 5.6. */
	switch (opcode) {
	case 1: case 4: case 22:	/* READV, READ_FIXED, READ */
		return UT_DIR_READ;
	case 2: case 5: case 23:	/* WRITEV, WRITE_FIXED, WRITE */
		return UT_DIR_WRITE;
	}
	return UT_DIR_OTHER;
}

/*
 * The opcodes whose prep sets REQ_F_FORCE_ASYNC (io_uring/sync.c, fs.c,
 * openclose.c, statx.c, xattr.c, advise.c, truncate.c, splice.c; for
 * OPENAT and FADVISE only with some flags). Seen here for FSYNC:
 * submit_req flags 0x10 without IOSQE_ASYNC from the application (fio --fsync).
 * The numbers are include/uapi/linux/io_uring.h's, fixed once given.
 */
static const struct {
	const char *name;
	uint8_t op;
} always_async[] = {
	{ "FSYNC", IORING_OP_FSYNC },
	{ "SYNC_FILE_RANGE", IORING_OP_SYNC_FILE_RANGE },
	{ "FALLOCATE", IORING_OP_FALLOCATE },
	{ "OPENAT", IORING_OP_OPENAT },
	{ "OPENAT2", IORING_OP_OPENAT2 },
	{ "STATX", IORING_OP_STATX },
	{ "RENAMEAT", IORING_OP_RENAMEAT },
	{ "UNLINKAT", IORING_OP_UNLINKAT },
	{ "MKDIRAT", IORING_OP_MKDIRAT },
	{ "SYMLINKAT", IORING_OP_SYMLINKAT },
	{ "LINKAT", IORING_OP_LINKAT },
	{ "FSETXATTR", IORING_OP_FSETXATTR },
	{ "SETXATTR", IORING_OP_SETXATTR },
	{ "FGETXATTR", IORING_OP_FGETXATTR },
	{ "GETXATTR", IORING_OP_GETXATTR },
	{ "MADVISE", IORING_OP_MADVISE },
	{ "FADVISE", IORING_OP_FADVISE },
	{ "FTRUNCATE", 55 },	/* 6.9, newer than this build's header */
	{ "SPLICE", IORING_OP_SPLICE },
	{ "TEE", IORING_OP_TEE },
};

bool uring_trace_op_always_async(const struct uring_trace *ut, uint8_t opcode)
{
	const char *n = ut->op_names[opcode];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(always_async); i++)
		if (n[0] ? !strcmp(n, always_async[i].name) : opcode == always_async[i].op)
			return true;
	return false;
}

bool uring_op_socket_only(uint8_t opcode)
{
	switch (opcode) {
	case IORING_OP_ACCEPT:
	case IORING_OP_CONNECT:
	case IORING_OP_SEND:
	case IORING_OP_RECV:
	case IORING_OP_SENDMSG:
	case IORING_OP_RECVMSG:
	case IORING_OP_SEND_ZC:
	case IORING_OP_SENDMSG_ZC:
		return true;
	default:
		return false;
	}
}

int uring_trace_always_async_filter(char *buf, size_t bufsz)
{
	size_t i, len = 0;

	buf[0] = 0;
	for (i = 0; i < ARRAY_SIZE(always_async); i++) {
		int n = snprintf(buf + len, bufsz - len, "%sopcode == %u", i ? " || " : "",
				 always_async[i].op);

		if (n < 0 || (size_t)n >= bufsz - len)
			return -ENAMETOOLONG;
		len += (size_t)n;
	}
	return 0;
}
