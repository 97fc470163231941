/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_URING_TRACE_FIXTURE_H
#define URINGLINT_URING_TRACE_FIXTURE_H

/*
 * The watch engine's unit fixture: 6.18's own format files of the io_uring
 * events, one trace, and the helpers that lay a sample out by those
 * formats and feed it (submit, file_get, punt, complete, a cause event on
 * a thread). Shared by test_uring_trace.c and test_uring_trace_causes.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "uring_trace.h"

static const char submit_fmt[] =
	"name: io_uring_submit_req\nID: 601\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:void * ctx;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:void * req;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long user_data;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:u8 opcode;\toffset:32;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned long long flags;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\tfield:bool sq_thread;\toffset:48;\tsize:1;\tsigned:0;\n"
	"\tfield:__data_loc char[] op_str;\toffset:52;\tsize:4;\tsigned:0;\n";
static const char file_get_fmt[] =
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:void * ctx;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:void * req;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 user_data;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:int fd;\toffset:32;\tsize:4;\tsigned:1;\n";
static const char punt_fmt[] =
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:void * ctx;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:void * req;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 user_data;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:u8 opcode;\toffset:32;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned long long flags;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\tfield:struct io_wq_work * work;\toffset:48;\tsize:8;\tsigned:0;\n"
	"\tfield:int rw;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] op_str;\toffset:60;\tsize:4;\tsigned:0;\n";

static const char complete_fmt[] =
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:void * ctx;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:void * req;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 user_data;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:int res;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned cflags;\toffset:36;\tsize:4;\tsigned:0;\n";
static const char poll_arm_fmt[] =
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:void * ctx;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:void * req;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long user_data;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:u8 opcode;\toffset:32;\tsize:1;\tsigned:0;\n"
	"\tfield:int mask;\toffset:36;\tsize:4;\tsigned:1;\n"
	"\tfield:int events;\toffset:40;\tsize:4;\tsigned:1;\n";
static const char create_fmt[] =
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int fd;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:void * ctx;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u32 sq_entries;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 cq_entries;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 flags;\toffset:32;\tsize:4;\tsigned:0;\n";

static const char tw_run_fmt[] =
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:void * tctx;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int count;\toffset:16;\tsize:4;\tsigned:0;\n";

static const char enter_fmt[] =
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int flags;\toffset:40;\tsize:8;\tsigned:0;\n";
static const char exit_fmt[] =
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n";

static struct uring_trace ut;
static uint8_t raw[128];
static uint64_t now;

static inline void setup_trace(void)
{
	memset(&ut, 0, sizeof(ut));
	assert_int_equal(tp_format_parse(submit_fmt, &ut.fmts[UT_SUBMIT]), 0);
	assert_int_equal(tp_format_parse(file_get_fmt, &ut.fmts[UT_FILE_GET]), 0);
	assert_int_equal(tp_format_parse(punt_fmt, &ut.fmts[UT_PUNT]), 0);
	assert_int_equal(tp_format_parse(complete_fmt, &ut.fmts[UT_COMPLETE]), 0);
	assert_int_equal(tp_format_parse(create_fmt, &ut.fmts[UT_CREATE]), 0);
	assert_int_equal(tp_format_parse(tw_run_fmt, &ut.fmts[UT_TW_RUN]), 0);
	assert_int_equal(tp_format_parse(poll_arm_fmt, &ut.fmts[UT_POLL_ARM]), 0);
	ut.have[UT_POLL_ARM] = true;
	ut.have[UT_SUBMIT] = ut.have[UT_FILE_GET] = ut.have[UT_PUNT] = true;
	ut.have[UT_COMPLETE] = ut.have[UT_CREATE] = ut.have[UT_TW_RUN] = true;
	uring_trace_setup(&ut);
}

static inline void put(unsigned int ev, const char *field, uint64_t v)
{
	const struct tp_field *f = tp_field_find(&ut.fmts[ev], field);

	assert_non_null(f);
	memcpy(raw + f->offset, &v, (size_t)f->size);
}

static inline void op_str(unsigned int ev, const char *name)
{
	const struct tp_field *f = tp_field_find(&ut.fmts[ev], "op_str");
	uint32_t loc = (uint32_t)((strlen(name) + 1) << 16 | 80);

	memcpy(raw + f->offset, &loc, 4);
	memcpy(raw + 80, name, strlen(name) + 1);
}

static pid_t feed_tid = 42, feed_pid;
static int feed_cpu;

static inline void feed(unsigned int ev)
{
	struct tp_record r = { .time = ++now, .pid = feed_pid, .tid = feed_tid, .cpu = feed_cpu,
			       .event = ev, .len = sizeof(raw), .raw = raw };

	uring_trace_record(&ut, &r);
	memset(raw, 0, sizeof(raw));
}

static inline void submit(uint64_t req, uint8_t opcode, const char *name, uint64_t flags)
{
	put(UT_SUBMIT, "ctx", 0xc0ffee);
	put(UT_SUBMIT, "req", req);
	put(UT_SUBMIT, "opcode", opcode);
	put(UT_SUBMIT, "flags", flags);
	op_str(UT_SUBMIT, name);
	feed(UT_SUBMIT);
}

static inline void file_get(uint64_t req, int fd)
{
	put(UT_FILE_GET, "ctx", 0xc0ffee);
	put(UT_FILE_GET, "req", req);
	put(UT_FILE_GET, "fd", (uint32_t)fd);
	feed(UT_FILE_GET);
}

static inline void punt(uint64_t req, uint8_t opcode, const char *name)
{
	put(UT_PUNT, "ctx", 0xc0ffee);
	put(UT_PUNT, "req", req);
	put(UT_PUNT, "opcode", opcode);
	op_str(UT_PUNT, name);
	feed(UT_PUNT);
}

static inline const struct ut_file *file(int fd)
{
	size_t i;

	for (i = 0; i < ut.nfiles; i++)
		if (ut.files[i].fd == fd)
			return &ut.files[i];
	fail_msg("fd %d has no account", fd);
	return NULL;
}

static inline void complete(uint64_t req, int32_t res, uint64_t after_ns)
{
	now += after_ns;
	put(UT_COMPLETE, "ctx", 0xc0ffee);
	put(UT_COMPLETE, "req", req);
	put(UT_COMPLETE, "res", (uint32_t)res);
	feed(UT_COMPLETE);
}

/* A cause event (UT_C_*) on thread tid of process pid; the submitter stays thread 42. */
static inline void cause_on(unsigned int ev, pid_t pid, pid_t tid)
{
	feed_pid = pid;
	feed_tid = tid;
	feed(ev);
	feed_pid = 0;
	feed_tid = 42;
}

#endif
