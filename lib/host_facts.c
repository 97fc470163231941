// SPDX-License-Identifier: GPL-2.0-or-later
/* Collects host_facts through the sysroot; judges nothing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpulist.h"
#include "host_facts.h"
#include "parse.h"

#define P_OSRELEASE "proc/sys/kernel/osrelease"
#define P_VERSION "proc/version"
#define P_VERSION_SIGNATURE "proc/version_signature"
#define P_HOSTNAME "proc/sys/kernel/hostname"
#define P_URING_DISABLED "proc/sys/kernel/io_uring_disabled"
#define P_URING_GROUP "proc/sys/kernel/io_uring_group"
#define P_SELF_STATUS "proc/self/status"
#define P_SELF_LIMITS "proc/self/limits"
#define P_CPU_ONLINE "sys/devices/system/cpu/online"

static void collect_kernel(const struct sysroot *sr, struct host_facts *hf)
{
	char release[256], *version = NULL, *signature = NULL;
	size_t len;
	int err;

	err = sysroot_read_line(sr, P_OSRELEASE, release, sizeof(release));
	if (err) {
		fact_fail_read(&hf->kernel.e, P_OSRELEASE, err);
		return;
	}
	if (kernel_version_parse(release, &hf->kernel.v)) {
		fact_fail(&hf->kernel.e, -EBADMSG, "cannot parse '%s': '%.64s' is not a kernel release",
			  P_OSRELEASE, release);
		return;
	}
	/* Both optional: they only sharpen the sublevel of distribution kernels. */
	sysroot_read_file(sr, P_VERSION, 64 * 1024, &version, &len);
	sysroot_read_file(sr, P_VERSION_SIGNATURE, 64 * 1024, &signature, &len);
	kernel_version_refine(&hf->kernel.v, version, signature);
	free(version);
	free(signature);
}

static void collect_sysctl(const struct sysroot *sr, const char *path,
			   struct fact_err *e, int64_t *value)
{
	char line[64];
	int err;

	err = sysroot_read_line(sr, path, line, sizeof(line));
	if (err) {
		fact_fail_read(e, path, err);
		return;
	}
	if (parse_i64(line, 10, value))
		fact_fail(e, -EBADMSG, "cannot parse '%s': '%s' is not a number", path, line);
}

/* Reads a whole file and hands it to a parser; shared by status and limits. */
static void collect_parsed(const struct sysroot *sr, const char *path, struct fact_err *e,
			   int (*parse)(const char *, void *), void *out)
{
	size_t len;
	char *text;
	int err;

	err = sysroot_read_file(sr, path, SYSROOT_READ_MAX, &text, &len);
	if (err) {
		fact_fail_read(e, path, err);
		return;
	}
	if (parse(text, out))
		fact_fail(e, -EBADMSG, "cannot parse '%s': unexpected content", path);
	free(text);
}

static int parse_status(const char *text, void *out)
{
	return proc_status_parse(text, out);
}

static int parse_limits(const char *text, void *out)
{
	return proc_limits_parse(text, out);
}

static void collect_identity(const struct sysroot *sr, struct host_facts *hf)
{
	char line[CPULIST_MAX];
	struct cpuset set;
	long n;

	if (sysroot_read_line(sr, P_HOSTNAME, hf->hostname, sizeof(hf->hostname)))
		snprintf(hf->hostname, sizeof(hf->hostname), "unknown");
	if (!sysroot_read_line(sr, P_CPU_ONLINE, line, sizeof(line)) &&
	    !cpulist_parse(line, &set))
		hf->cpus = cpuset_count(&set);
	n = sysconf(_SC_PAGESIZE);
	/* A captured tree does not record the page size; x86-64 and most arm64 use 4 KiB. */
	hf->page_size = hf->live && n > 0 ? (uint64_t)n : 4096;
}

void host_facts_collect(const struct sysroot *sr, struct host_facts *hf)
{
	memset(hf, 0, sizeof(*hf));
	hf->live = sr->live;
	hf->tool_is_root = geteuid() == 0;

	collect_identity(sr, hf);
	collect_kernel(sr, hf);
	collect_sysctl(sr, P_URING_DISABLED, &hf->uring_disabled.e, &hf->uring_disabled.value);
	collect_sysctl(sr, P_URING_GROUP, &hf->uring_group.e, &hf->uring_group.value);
	collect_parsed(sr, P_SELF_STATUS, &hf->self_status.e, parse_status, &hf->self_status.st);
	collect_parsed(sr, P_SELF_LIMITS, &hf->self_limits.e, parse_limits, &hf->self_limits.lim);

	if (sr->live)
		uring_probe_setup(&hf->uring_setup.r);
	else
		fact_fail(&hf->uring_setup.e, -EOPNOTSUPP,
			  "io_uring_setup() not tried: --root judges a captured tree");
}
