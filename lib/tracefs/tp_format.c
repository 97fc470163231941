// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tracepoint formats from tracefs: the id perf_event_open wants and where
 * each field sits in a raw record. Read from events/CAT/NAME/format because
 * the layout changes between kernels (6.1's io_uring_submit_sqe has a
 * 4-byte flags field, 6.18's io_uring_submit_req an 8-byte one).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "array.h"
#include "caps.h"
#include "tracefs.h"

static const char *const tracefs_dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

static int read_small(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

/* "\tfield:unsigned long long flags;\toffset:40;\tsize:8;\tsigned:0;" */
static int parse_field(const char *line, struct tp_field *f)
{
	const char *decl = line + strlen("field:"), *semi = strchr(decl, ';'), *name, *o, *s;
	size_t n;

	if (!semi)
		return -EINVAL;
	name = semi;
	while (name > decl && name[-1] != ' ' && name[-1] != '\t')
		name--;
	n = (size_t)(semi - name);
	/* "char name[16]" keeps its brackets out of the name. */
	if (memchr(name, '[', n))
		n = (size_t)((const char *)memchr(name, '[', n) - name);
	o = strstr(semi, "offset:");
	s = strstr(semi, "size:");
	if (!n || n >= sizeof(f->name) || !o || !s)
		return -EINVAL;
	memcpy(f->name, name, n);
	f->name[n] = '\0';
	f->offset = atoi(o + 7);
	f->size = atoi(s + 5);
	f->data_loc = strncmp(decl, "__data_loc", 10) == 0;
	return f->offset >= 0 && f->size > 0 ? 0 : -EINVAL;
}

int tp_format_parse(const char *text, struct tp_format *fmt)
{
	const char *p = text;
	const struct tp_field *f;

	fmt->nfields = 0;
	while ((p = strstr(p, "field:"))) {
		const char *eol = strchr(p, '\n');
		char line[256];
		size_t n = eol ? (size_t)(eol - p) : strlen(p);

		if (n < sizeof(line) && fmt->nfields < TP_MAX_FIELDS) {
			memcpy(line, p, n);
			line[n] = '\0';
			if (!parse_field(line, &fmt->fields[fmt->nfields]))
				fmt->nfields++;
		}
		p += n;
	}
	f = tp_field_find(fmt, "opcode");
	fmt->opcode_off = f && f->size == 1 ? f->offset : -1;
	f = tp_field_find(fmt, "op_str");
	fmt->op_str_off = f && f->data_loc ? f->offset : -1;
	return fmt->nfields ? 0 : -EINVAL;
}

const struct tp_field *tp_field_find(const struct tp_format *fmt, const char *name)
{
	unsigned int i;

	for (i = 0; i < fmt->nfields; i++)
		if (!strcmp(fmt->fields[i].name, name))
			return &fmt->fields[i];
	return NULL;
}

bool tp_field_u64(const struct tp_field *f, const uint8_t *raw, uint32_t len, uint64_t *v)
{
	uint8_t b1;
	uint16_t b2;
	uint32_t b4;

	if (!f || f->offset < 0 || (uint64_t)f->offset + (uint64_t)f->size > len)
		return false;
	switch (f->size) {
	case 1:
		b1 = raw[f->offset];
		*v = b1;
		return true;
	case 2:
		memcpy(&b2, raw + f->offset, 2);
		*v = b2;
		return true;
	case 4:
		memcpy(&b4, raw + f->offset, 4);
		*v = b4;
		return true;
	case 8:
		memcpy(v, raw + f->offset, 8);
		return true;
	}
	return false;
}

bool tp_field_str(const struct tp_field *f, const uint8_t *raw, uint32_t len, char *buf,
		  size_t bufsz)
{
	uint32_t loc, off, n;

	if (!f || !f->data_loc || !bufsz || (uint64_t)f->offset + 4 > len)
		return false;
	memcpy(&loc, raw + f->offset, 4);
	off = loc & 0xffff;
	n = loc >> 16;
	if (!n || (uint64_t)off + n > len)
		return false;
	/* The kernel counts the NUL; a string without one is cut, not overrun. */
	n = (uint32_t)strnlen((const char *)raw + off, n);
	if (n >= bufsz)
		n = (uint32_t)bufsz - 1;
	memcpy(buf, raw + off, n);
	buf[n] = '\0';
	return n > 0;
}

static int load_from(const char *dir, const char *event, struct tp_format *fmt)
{
	char path[256], buf[16384];
	int err;

	snprintf(path, sizeof(path), "%s/events/%s/id", dir, event);
	err = read_small(path, buf, sizeof(buf));
	if (err)
		return err;
	fmt->id = atoi(buf);
	snprintf(path, sizeof(path), "%s/events/%s/format", dir, event);
	if (!read_small(path, buf, sizeof(buf)))
		tp_format_parse(buf, fmt);
	return fmt->id > 0 ? 0 : -EINVAL;
}

int tp_format_load(const char *event, struct tp_format *fmt, char *why, size_t whysz)
{
	static bool private_mount;
	size_t i;

	memset(fmt, 0, sizeof(*fmt));
	fmt->opcode_off = fmt->op_str_off = -1;
	/* Raw samples of other processes' tracepoints: perfmon_capable() in the kernel. */
	if (!may_trace()) {
		snprintf(why, whysz, "tracepoints need root or CAP_PERFMON (tracefs is 0700, and "
			 "perf_event_paranoid refuses others)");
		return -EPERM;
	}
	for (i = 0; i < ARRAY_SIZE(tracefs_dirs); i++) {
		char events[64];
		int err = load_from(tracefs_dirs[i], event, fmt);

		if (!err)
			return 0;
		if (err == -EACCES) {
			snprintf(why, whysz, "tracefs (%s, 0700) is not readable: it needs root "
				 "or CAP_DAC_READ_SEARCH", tracefs_dirs[i]);
			return err;
		}
		/* Mounted, and the event is not there: this kernel lacks it. */
		snprintf(events, sizeof(events), "%s/events", tracefs_dirs[i]);
		if (!access(events, F_OK)) {
			snprintf(why, whysz, "this kernel has no %s tracepoint", event);
			return -ENOENT;
		}
	}
	/* Unmounted (common on servers): mount it where only this process sees it. */
	if (!private_mount) {
		if (unshare(CLONE_NEWNS) || mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
		    mount("nodev", tracefs_dirs[0], "tracefs", 0, NULL)) {
			snprintf(why, whysz, "tracefs is not mounted and could not be mounted privately "
				 "(%s); mount it with: mount -t tracefs nodev /sys/kernel/tracing",
				 strerror(errno));
			return -errno;
		}
		private_mount = true;
	}
	if (load_from(tracefs_dirs[0], event, fmt)) {
		snprintf(why, whysz, "this kernel has no %s tracepoint", event);
		return -ENOENT;
	}
	return 0;
}
