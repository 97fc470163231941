// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/PID/fdinfo/N: the generic lines, and io_uring_show_fdinfo()'s
 * output as 5.10 to 6.18 print it: "Key:\tvalue" lines, and under
 * UserFiles, UserBufs, SQEs, CQEs, PollList and CqOverflowList indented
 * entry lines.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "procfs.h"
#include "parse.h"

/*
 * The generic lines, in one pass (an audit reads the fdinfo of each of
 * 10,000 fds), each key taken from its first line as parse_keyed_value()
 * would: a value too long to be a number counts as no value.
 */
static const struct generic_key {
	const char *key;
	size_t len;
	int base;
} generic_keys[] = {
	{ "pos", 3, 10 },
	{ "flags", 5, 8 },
	{ "mnt_id", 6, 10 },
	{ "ino", 3, 10 },
};

enum { GEN_POS, GEN_FLAGS, GEN_MNT_ID, GEN_INO };

/*
 * n digits of base (8 or 10) and nothing else, as the kernel prints these
 * numbers: 0, or -EINVAL (none, or another byte) or -ERANGE (past 64 bits).
 * strtoull() took a fifth of the audit's parsing time.
 */
static int digits_u64(const char *s, size_t n, unsigned int base, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (!n)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		unsigned int d = (unsigned int)(unsigned char)s[i] - '0';

		if (d >= base)
			return -EINVAL;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

/*
 * One line "KEY:\tDIGITS\n" at *p, key given with its ":\t", as the kernel
 * lays it out; false for anything else, which the general pass then reads.
 * Inlined with its constants: the key compared byte by byte (never past the
 * text's end), the digits read as they are scanned (unsigned: a number too
 * long to fit wraps, and is then not taken).
 */
static inline __attribute__((always_inline)) bool fast_line(const char **p, const char *key,
							    size_t klen, unsigned int base,
							    uint64_t *v)
{
	const char *s = *p, *d;
	uint64_t n = 0;
	unsigned int c;
	size_t i;

	for (i = 0; i < klen; i++)
		if (s[i] != key[i])
			return false;
	s += klen;
	for (d = s; (c = (unsigned int)(unsigned char)*d - '0') < base; d++)
		n = n * base + c;
	/* Up to 19 decimal or 21 octal digits cannot overflow; longer ones are the general pass's. */
	if (*d != '\n' || d == s || d - s > (base == 10 ? 19 : 21))
		return false;
	*v = n;
	*p = d + 1;
	return true;
}

/*
 * The general pass: each key from its first line, wherever it stands, its
 * value with blanks around it.
 */
static int parse_generic_lines(const char *text, struct fdinfo_generic *g)
{
	int got[ARRAY_SIZE(generic_keys)] = { 0 };	/* 0 not seen, 1 a number, -ENOENT, -EBADMSG */
	uint64_t v[ARRAY_SIZE(generic_keys)] = { 0 };
	const char *line = text;
	size_t k;

	memset(g, 0, sizeof(*g));
	while (*line) {
		const char *nl = strchr(line, '\n'), *end = nl ? nl : line + strlen(line);

		for (k = 0; k < ARRAY_SIZE(generic_keys); k++) {
			const struct generic_key *gk = &generic_keys[k];
			const char *val;
			size_t n;

			if (got[k] || (size_t)(end - line) <= gk->len || line[gk->len] != ':' ||
			    memcmp(line, gk->key, gk->len))
				continue;
			val = line + gk->len + 1;
			while (val < end && (*val == ' ' || *val == '\t'))
				val++;
			n = (size_t)(end - val);
			while (n && isspace((unsigned char)val[n - 1]))
				n--;
			if (n >= 64) {
				got[k] = -ENOENT;
				break;
			}
			got[k] = digits_u64(val, n, gk->base, &v[k]) ? -EBADMSG : 1;
			break;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	if (got[GEN_POS] != 1 || got[GEN_FLAGS] != 1 || v[GEN_FLAGS] > UINT32_MAX ||
	    got[GEN_MNT_ID] != 1 || v[GEN_MNT_ID] > UINT32_MAX)
		return -EBADMSG;
	g->pos = v[GEN_POS];
	g->flags = (uint32_t)v[GEN_FLAGS];
	g->mnt_id = (uint32_t)v[GEN_MNT_ID];
	/* ino appeared in 5.1 fdinfo; older kernels are out of scope, but be lenient. */
	if (got[GEN_INO] == 1)
		g->ino = v[GEN_INO];
	return 0;
}

/*
 * The kernel's own layout first (fs/proc/fd.c: "pos:\t%lli\nflags:\t0%o\n
 * mnt_id:\t%i\nino:\t%lu\n", ino since 5.1): four lines read in place,
 * in about 410 instructions where the general pass took 880 (callgrind,
 * over the 10,000 fdinfo files of one audit). Anything else, and numbers
 * past their field, go to the general pass, which says the same of the
 * same text (test_fdinfo and the fdinfo fuzz harness hold both to that).
 */
int fdinfo_parse_generic(const char *text, struct fdinfo_generic *g)
{
	uint64_t pos, flags, mnt_id, ino;
	const char *s = text;

	if (fast_line(&s, "pos:\t", 5, 10, &pos) && fast_line(&s, "flags:\t", 7, 8, &flags) &&
	    flags <= UINT32_MAX && fast_line(&s, "mnt_id:\t", 8, 10, &mnt_id) &&
	    mnt_id <= UINT32_MAX && fast_line(&s, "ino:\t", 5, 10, &ino)) {
		*g = (struct fdinfo_generic){ .pos = pos, .flags = (uint32_t)flags,
					      .mnt_id = (uint32_t)mnt_id, .ino = ino };
		return 0;
	}
	return parse_generic_lines(text, g);
}

enum section {
	SEC_NONE,
	SEC_FILES,
	SEC_BUFS,
	SEC_OVERFLOW,
	SEC_OTHER,	/* SQEs, CQEs, PollList, Personalities: entries we only skip */
};

/*
 * 6.14+ print a slot's full path with seq_file_path(m, f, " \t\n\\"),
 * which writes those four bytes as octal "\040" escapes (mangle_path());
 * the path then compares with the raw readlink of the fd. Earlier kernels
 * print the raw dentry name (no '/'): nothing to decode.
 */
static char *slot_path(const char *p, size_t len)
{
	char *out = strndup(p, len), *o = out;
	const char *s = out;

	if (!out || *out != '/')
		return out;
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
	return out;
}

static int add_file(struct uring_fdinfo *u, uint32_t idx, const char *path, size_t len)
{
	if (array_grow(&u->files, &u->files_cap, u->nfiles + 1))
		return -ENOMEM;
	u->files[u->nfiles].index = idx;
	u->files[u->nfiles].path = slot_path(path, len);
	if (!u->files[u->nfiles].path)
		return -ENOMEM;
	u->nfiles++;
	return 0;
}

static int add_buf(struct uring_fdinfo *u, uint32_t idx, uint64_t addr, uint64_t len)
{
	if (array_grow(&u->bufs, &u->bufs_cap, u->nbufs + 1))
		return -ENOMEM;
	u->bufs[u->nbufs].index = idx;
	u->bufs[u->nbufs].addr = addr;
	u->bufs[u->nbufs].len = len;
	u->nbufs++;
	return 0;
}

/* "%5u: rest" entry lines; returns rest or NULL. */
static const char *slot_line(const char *p, const char *end, uint32_t *idx)
{
	unsigned long v;
	char *e;

	while (p < end && *p == ' ')
		p++;
	if (p >= end || *p < '0' || *p > '9')
		return NULL;
	v = strtoul(p, &e, 10);
	if (e >= end || *e != ':' || v > UINT32_MAX)
		return NULL;
	*idx = (uint32_t)v;
	e++;
	if (e < end && *e == ' ')
		e++;
	return e;
}

static int parse_entry(struct uring_fdinfo *u, enum section sec, const char *p, const char *end)
{
	unsigned long long addr, len;
	const char *rest;
	uint32_t idx;

	switch (sec) {
	case SEC_FILES:
		rest = slot_line(p, end, &idx);
		if (!rest)
			return -EBADMSG;
		u->user_file_lines++;
		if ((size_t)(end - rest) == 6 && !strncmp(rest, "<none>", 6))
			return 0;
		return add_file(u, idx, rest, (size_t)(end - rest));
	case SEC_BUFS:
		rest = slot_line(p, end, &idx);
		if (!rest)
			return -EBADMSG;
		u->user_buf_lines++;
		if ((size_t)(end - rest) == 6 && !strncmp(rest, "<none>", 6))
			return 0;
		if (sscanf(rest, "0x%llx/%llu", &addr, &len) != 2)
			return -EBADMSG;
		return add_buf(u, idx, addr, len);
	case SEC_OVERFLOW:
		u->cq_overflow++;
		return 0;
	default:
		return 0;	/* pending SQEs/CQEs, poll list: not judged */
	}
}

static int key_u32(const char *val, int base, uint32_t *out)
{
	uint64_t v;

	if (parse_u64(val, base, &v) || v > UINT32_MAX)
		return -EBADMSG;
	*out = (uint32_t)v;
	return 0;
}

static int key_i32(const char *val, int32_t *out)
{
	int64_t v;

	if (parse_i64(val, 10, &v) || v < INT32_MIN || v > INT32_MAX)
		return -EBADMSG;
	*out = (int32_t)v;
	return 0;
}

/* One "Key:\tvalue" line; sets the section its entry lines belong to. */
static int parse_key(struct uring_fdinfo *u, const char *key, size_t klen, const char *val,
		     enum section *sec, bool *seen)
{
	uint32_t mask;
	uint64_t v;

#define IS(k) (klen == sizeof(k) - 1 && !strncmp(key, k, klen))
	*sec = SEC_NONE;
	*seen = true;
	if (IS("SqMask") || IS("CqMask")) {
		if (strncmp(val, "0x", 2) || key_u32(val + 2, 16, &mask) || mask == UINT32_MAX)
			return -EBADMSG;
		u->has_ring_state = true;
		if (key[0] == 'S')
			u->sq_entries = mask + 1;
		else
			u->cq_entries = mask + 1;
		return 0;
	}
	if (IS("SqHead"))
		return key_u32(val, 10, &u->sq_head);
	if (IS("SqTail"))
		return key_u32(val, 10, &u->sq_tail);
	if (IS("CachedSqHead"))
		return key_u32(val, 10, &u->cached_sq_head);
	if (IS("CqHead"))
		return key_u32(val, 10, &u->cq_head);
	if (IS("CqTail"))
		return key_u32(val, 10, &u->cq_tail);
	if (IS("CachedCqTail"))
		return key_u32(val, 10, &u->cached_cq_tail);
	if (IS("SQEs")) {
		*sec = SEC_OTHER;
		return key_u32(val, 10, &u->sqes_pending);
	}
	if (IS("CQEs")) {
		*sec = SEC_OTHER;
		return key_u32(val, 10, &u->cqes_pending);
	}
	if (IS("SqThread")) {
		u->has_sq_thread = true;
		return key_i32(val, &u->sq_thread);
	}
	if (IS("SqThreadCpu"))
		return key_i32(val, &u->sq_thread_cpu);
	if (IS("SqTotalTime") || IS("SqWorkTime")) {
		if (parse_u64(val, 10, &v))
			return -EBADMSG;
		u->has_sq_times = true;
		if (key[2] == 'T')
			u->sq_total_time_us = v;
		else
			u->sq_work_time_us = v;
		return 0;
	}
	if (IS("UserFiles")) {
		*sec = SEC_FILES;
		u->has_user_files = true;
		return key_u32(val, 10, &u->user_files);
	}
	if (IS("UserBufs")) {
		*sec = SEC_BUFS;
		u->has_user_bufs = true;
		return key_u32(val, 10, &u->user_bufs);
	}
	if (IS("CqOverflowList")) {
		*sec = SEC_OVERFLOW;
		u->has_overflow_list = true;
		return 0;
	}
	if (IS("NAPI")) {
		u->has_napi = true;
		snprintf(u->napi, sizeof(u->napi), "%s", val);
		u->napi_on = !strcmp(val, "enabled");
		return 0;
	}
	if (IS("napi_busy_poll_dt")) {
		u->has_napi_dt = true;
		return parse_u64(val, 10, &u->napi_busy_poll_dt_ns) ? -EBADMSG : 0;
	}
	if (IS("napi_prefer_busy_poll")) {
		u->has_napi_prefer = true;
		if (strcmp(val, "true") && strcmp(val, "false"))
			return -EBADMSG;
		u->napi_prefer_busy_poll = val[0] == 't';
		return 0;
	}
	if (IS("napi tracking")) {
		if (strlen(val) >= sizeof(u->napi_tracking))
			return -EBADMSG;
		snprintf(u->napi_tracking, sizeof(u->napi_tracking), "%s", val);
		return 0;
	}
	if (IS("pos") || IS("flags") || IS("mnt_id") || IS("ino")) {
		*seen = false;	/* generic lines say nothing about the ring */
		return 0;
	}
	/* PollList, Personalities and whatever a later kernel adds. */
	*sec = SEC_OTHER;
	return 0;
#undef IS
}

/* "Key:" then a tab or the end of the line: how every io_uring key line starts. */
static bool key_line(const char *p, const char *end)
{
	const char *k = p;

	while (k < end && (isalnum((unsigned char)*k) || *k == '_'))
		k++;
	return k > p && k < end && *k == ':' && (k + 1 == end || k[1] == '\t');
}

/*
 * Whether a key line inside the UserFiles list can be the kernel's next
 * key: those print after UserFiles on every version. A name before 6.14
 * that holds "\nSqThread:\t1" is the name's rest, not a key to take.
 */
static bool key_after_files(const char *p, const char *end)
{
	static const char *const keys[] = { "UserBufs:", "PollList:", "CqOverflowList:",
					    "Personalities:", "NAPI:", "napi_busy_poll_dt:",
					    "napi_prefer_busy_poll:" };
	size_t i, n;

	if (!key_line(p, end))
		return false;
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		n = strlen(keys[i]);
		if ((size_t)(end - p) >= n && !strncmp(p, keys[i], n))
			return true;
	}
	return false;
}

/*
 * Before 6.14 a slot's dentry name is printed raw: a newline in a file name
 * splits its line, and what follows is neither an entry nor a key. It is
 * the rest of the name. (Such a name can still forge a slot line after its
 * newline; the kernel's own format cannot tell. 6.14+ escape the newline.)
 */
static int continue_file(struct uring_fdinfo *u, const char *p, const char *end)
{
	struct uring_user_file *f = &u->files[u->nfiles - 1];
	size_t had = strlen(f->path), more = (size_t)(end - p);
	char *grown = realloc(f->path, had + 1 + more + 1);

	if (!grown)
		return -ENOMEM;
	grown[had] = '\n';
	memcpy(grown + had + 1, p, more);
	grown[had + 1 + more] = '\0';
	f->path = grown;
	return 0;
}

int uring_fdinfo_parse(const char *text, struct uring_fdinfo *u)
{
	enum section sec = SEC_NONE;
	bool any = false, seen;
	const char *p = text;
	char val[128];
	uint32_t idx;
	int err;

	memset(u, 0, sizeof(*u));
	u->sq_thread = -1;
	u->sq_thread_cpu = -1;
	while (*p) {
		const char *end = strchr(p, '\n'), *colon;

		if (!end)
			end = p + strlen(p);
		if (end == p && !(sec == SEC_FILES && u->nfiles)) {
			p++;
			continue;
		}
		if (sec == SEC_FILES && u->nfiles &&
		    (*p == ' ' || *p == '\t' ? !slot_line(p, end, &idx) : !key_after_files(p, end))) {
			err = continue_file(u, p, end);
		} else if (*p == ' ' || *p == '\t') {
			if (sec == SEC_NONE)
				return -EBADMSG;
			err = parse_entry(u, sec, p, end);
		} else {
			colon = memchr(p, ':', (size_t)(end - p));
			if (!colon)
				return -EBADMSG;
			snprintf(val, sizeof(val), "%.*s", (int)(end - colon - 1), colon + 1);
			err = parse_key(u, p, (size_t)(colon - p), val + strspn(val, " \t"), &sec,
					&seen);
			any |= seen;
		}
		if (err)
			return err;
		p = *end ? end + 1 : end;
	}
	return any ? 0 : -ENODATA;
}

void uring_fdinfo_free(struct uring_fdinfo *u)
{
	size_t i;

	for (i = 0; i < u->nfiles; i++)
		free(u->files[i].path);
	free(u->files);
	free(u->bufs);
	u->files = NULL;
	u->bufs = NULL;
	u->nfiles = u->nbufs = 0;
	u->files_cap = u->bufs_cap = 0;
}

bool uring_fdinfo_lock_skipped(const struct uring_fdinfo *u, bool files_print_empty)
{
	if (u->has_user_bufs && u->user_bufs && !u->user_buf_lines)
		return true;
	return files_print_empty && u->has_user_files && u->user_files && !u->user_file_lines;
}
