// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "output.h"
#include "report.h"
#include "xalloc.h"

static const char *const status_names[STATUS__COUNT] = {
	[STATUS_PASS] = "pass",
	[STATUS_INFO] = "info",
	[STATUS_SKIP] = "skip",
	[STATUS_WARN] = "warn",
	[STATUS_FAIL] = "fail",
	[STATUS_ERROR] = "error",
};

static const char *const severity_names[] = {
	[SEVERITY_INFO] = "info",
	[SEVERITY_LOW] = "low",
	[SEVERITY_MEDIUM] = "medium",
	[SEVERITY_HIGH] = "high",
	[SEVERITY_CRITICAL] = "critical",
};

const char *status_name(enum check_status st)
{
	return st < STATUS__COUNT ? status_names[st] : "?";
}

const char *severity_name(enum check_severity sev)
{
	return sev <= SEVERITY_CRITICAL ? severity_names[sev] : "?";
}

void report_init(struct report *r, const char *command)
{
	memset(r, 0, sizeof(*r));
	r->command = command;
}

void report_free(struct report *r)
{
	size_t i;

	for (i = 0; i < r->nfindings; i++) {
		free(r->findings[i].subject);
		free(r->findings[i].message);
		free(r->findings[i].fix);
		json_object_put(r->findings[i].evidence);
	}
	free(r->findings);
	for (i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->notes);
	free(r->note_pids);
	for (i = 0; i < r->nowners; i++) {
		free(r->owners[i].comm);
		free(r->owners[i].unit);
		free(r->owners[i].container);
	}
	free(r->owners);
	if (r->processes_out)
		fclose(r->processes_out);
	if (r->processes_memfd)
		close(r->processes_fd);
	free(r->processes_json);
	json_object_put(r->probe);
	json_object_put(r->diff);
	metrics_free(&r->metrics);
	json_object_put(r->host.net);
	json_object_put(r->host.cpu);
	memset(r, 0, sizeof(*r));
}

void report_set_owner(struct report *r, int pid, const char *comm, const char *unit,
		      const char *container, bool stable)
{
	struct report_owner *o;

	r->owners = xreallocarray(r->owners, r->nowners + 1, sizeof(*r->owners));
	o = &r->owners[r->nowners++];
	o->pid = pid;
	o->comm = xstrdup(comm);
	o->unit = xstrdup(unit);
	o->container = xstrdup(container);
	o->stable = stable && unit[0];
}

struct finding *report_vadd(struct report *r, const struct check_info *c, enum check_status st,
			    const char *subject, const char *fmt, va_list ap)
{
	struct finding *f;

	xarray_grow(&r->findings, &r->cap, r->nfindings + 1);
	f = &r->findings[r->nfindings++];
	memset(f, 0, sizeof(*f));
	f->check = c;
	f->status = st;
	f->subject = xstrdup(subject);
	f->message = xvasprintf(fmt, ap);
	f->evidence = json_object_new_object();
	return f;
}

struct finding *report_add(struct report *r, const struct check_info *c, enum check_status st,
			   const char *subject, const char *fmt, ...)
{
	struct finding *f;
	va_list ap;

	va_start(ap, fmt);
	f = report_vadd(r, c, st, subject, fmt, ap);
	va_end(ap);
	return f;
}

static void vnote(struct report *r, int pid, const char *fmt, va_list ap)
{
	xarray_grow(&r->notes, &r->notes_cap, r->nnotes + 1);
	r->note_pids = xreallocarray(r->note_pids, r->nnotes + 1, sizeof(*r->note_pids));
	r->note_pids[r->nnotes] = pid;
	r->notes[r->nnotes++] = xvasprintf(fmt, ap);
}

void report_note(struct report *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(r, 0, fmt, ap);
	va_end(ap);
}

void report_note_proc(struct report *r, int pid, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(r, pid, fmt, ap);
	va_end(ap);
}

int report_processes_begin(struct report *r)
{
	int fd = memfd_create("uringlint-processes", MFD_CLOEXEC);

	r->processes_json = NULL;
	r->processes_len = 0;
	r->processes_memfd = false;
	if (fd >= 0) {
		/* A second descriptor reads it back: the FILE writes through its own. */
		r->processes_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		r->processes_out = r->processes_fd >= 0 ? fdopen(fd, "w") : NULL;
		if (r->processes_out) {
			r->processes_memfd = true;
		} else {
			close(fd);
			if (r->processes_fd >= 0)
				close(r->processes_fd);
		}
	}
	/* No memfd (a seccomp filter, an old kernel): in memory, never in a file on the host. */
	if (!r->processes_out)
		r->processes_out = open_memstream(&r->processes_json, &r->processes_len);
	return r->processes_out ? 0 : -ENOMEM;
}

int report_processes_end(struct report *r)
{
	int err = 0;

	if (!r->processes_out)
		return 0;
	if (ferror(r->processes_out))
		err = -EIO;
	if (fclose(r->processes_out))
		err = -EIO;
	r->processes_out = NULL;
	/* An empty inventory is still one. */
	if (!r->processes_memfd && !r->processes_json)
		r->processes_json = xstrdup("");
	return err;
}

bool report_has_processes(const struct report *r)
{
	return r->processes_memfd || r->processes_json;
}

int report_processes_copy(const struct report *r, FILE *out)
{
	char buf[64 * 1024];
	off_t off = 0;
	ssize_t n;

	if (!r->processes_memfd)
		return fwrite(r->processes_json, 1, r->processes_len, out) == r->processes_len
			       ? 0 : -EIO;
	while ((n = pread(r->processes_fd, buf, sizeof(buf), off)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -EIO;
		}
		if (fwrite(buf, 1, (size_t)n, out) != (size_t)n)
			return -EIO;
		off += n;
	}
	return 0;
}

struct json_object *report_processes_json(const struct report *r)
{
	struct json_object *arr = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *m;

	if (!report_has_processes(r))
		return json_object_new_array();
	m = open_memstream(&text, &len);
	if (!m)
		return NULL;
	if (fputc('[', m) == EOF || report_processes_copy(r, m) || fputc(']', m) == EOF) {
		fclose(m);
		free(text);
		return NULL;
	}
	if (!fclose(m))
		arr = json_tokener_parse(text);
	free(text);
	if (arr && !json_object_is_type(arr, json_type_array)) {
		json_object_put(arr);
		arr = NULL;
	}
	return arr;
}

void finding_set_fix(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	free(f->fix);
	va_start(ap, fmt);
	f->fix = xvasprintf(fmt, ap);
	va_end(ap);
}

const char *finding_fix(const struct finding *f)
{
	if (f->status == STATUS_PASS || f->status == STATUS_SKIP)
		return NULL;
	return f->fix ? f->fix : f->check->fix;
}

void finding_ev_str(struct finding *f, const char *key, const char *val)
{
	json_add_bytes(f->evidence, key, val);
}

void finding_ev_int(struct finding *f, const char *key, int64_t val)
{
	json_object_object_add(f->evidence, key, json_object_new_int64(val));
}

void finding_ev_bool(struct finding *f, const char *key, bool val)
{
	json_object_object_add(f->evidence, key, json_object_new_boolean(val));
}

void report_count(const struct report *r, unsigned int counts[STATUS__COUNT])
{
	size_t i;

	memset(counts, 0, sizeof(unsigned int) * STATUS__COUNT);
	for (i = 0; i < r->nfindings; i++)
		counts[r->findings[i].status]++;
}

bool report_reaches(const struct report *r, enum check_status threshold)
{
	size_t i;

	for (i = 0; i < r->nfindings; i++) {
		enum check_status st = r->findings[i].status;

		if (st == STATUS_SKIP || st == STATUS_PASS || st == STATUS_INFO)
			continue;
		if (st >= threshold)
			return true;
	}
	return false;
}
