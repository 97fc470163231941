// SPDX-License-Identifier: GPL-2.0-or-later
/* Collects host_facts through the sysroot; judges nothing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_facts.h"
#include "net_tables.h"
#include "parse.h"

#define P_OSRELEASE "proc/sys/kernel/osrelease"
#define P_VERSION "proc/version"
#define P_VERSION_SIGNATURE "proc/version_signature"
#define P_HOSTNAME "proc/sys/kernel/hostname"
#define P_URING_DISABLED "proc/sys/kernel/io_uring_disabled"
#define P_TCP_MIGRATE_REQ "proc/sys/net/ipv4/tcp_migrate_req"
#define P_SOMAXCONN "proc/sys/net/core/somaxconn"
#define P_SYN_BACKLOG "proc/sys/net/ipv4/tcp_max_syn_backlog"
#define P_BUSY_READ "proc/sys/net/core/busy_read"
#define P_BUSY_POLL "proc/sys/net/core/busy_poll"
#define P_URING_GROUP "proc/sys/kernel/io_uring_group"
#define P_SELF_STATUS "proc/self/status"
#define P_SELF_LIMITS "proc/self/limits"
#define P_MOUNTINFO "proc/self/mountinfo"

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
	long n;

	if (sysroot_read_line(sr, P_HOSTNAME, hf->hostname, sizeof(hf->hostname)))
		snprintf(hf->hostname, sizeof(hf->hostname), "unknown");
	n = sysconf(_SC_PAGESIZE);
	/* A captured tree does not record the page size; x86-64 and most arm64 use 4 KiB. */
	hf->page_size = hf->live && n > 0 ? (uint64_t)n : 4096;
}

static void collect_dirs(const struct sysroot *sr, const struct collect_opts *opts,
			 struct host_facts *hf)
{
	const char *const *dirs = opts->dirs;
	size_t ndirs = opts->ndirs;
	struct mount_entry *mounts = NULL;
	size_t nmounts = 0, i;
	char *text;
	size_t len;

	if (!ndirs)
		return;
	/* One read of the mount table serves every directory. */
	if (!sysroot_read_file(sr, P_MOUNTINFO, 16 * 1024 * 1024, &text, &len)) {
		mountinfo_parse(text, &mounts, &nmounts);
		free(text);
	}
	hf->dirs = calloc(ndirs, sizeof(*hf->dirs));
	if (!hf->dirs) {
		free(mounts);
		return;
	}
	hf->ndirs = ndirs;
	for (i = 0; i < ndirs; i++)
		dir_facts_collect(sr, mounts, nmounts, dirs[i], opts->try_odirect, &hf->dirs[i]);
	free(mounts);
}

void host_facts_collect(const struct sysroot *sr, const struct collect_opts *opts,
			struct host_facts *hf)
{
	memset(hf, 0, sizeof(*hf));
	hf->live = sr->live;
	hf->tool_is_root = geteuid() == 0;

	collect_identity(sr, hf);
	collect_kernel(sr, hf);
	fact_read_i64(sr, P_URING_DISABLED, &hf->uring_disabled.e, &hf->uring_disabled.value);
	fact_read_i64(sr, P_URING_GROUP, &hf->uring_group.e, &hf->uring_group.value);
	fact_read_i64(sr, P_TCP_MIGRATE_REQ, &hf->tcp_migrate_req.e, &hf->tcp_migrate_req.value);
	fact_read_i64(sr, P_SOMAXCONN, &hf->somaxconn.e, &hf->somaxconn.value);
	fact_read_i64(sr, P_SYN_BACKLOG, &hf->tcp_max_syn_backlog.e,
		      &hf->tcp_max_syn_backlog.value);
	fact_read_i64(sr, P_BUSY_READ, &hf->busy_read.e, &hf->busy_read.value);
	fact_read_i64(sr, P_BUSY_POLL, &hf->busy_poll.e, &hf->busy_poll.value);
	net_devs_collect(sr, &hf->netdevs);
	hf->netns = sr->live ? net_ns_inode(sr, getpid()) : 0;
	fact_read_parsed(sr, P_SELF_STATUS, &hf->self_status.e, parse_status, &hf->self_status.st);
	fact_read_parsed(sr, P_SELF_LIMITS, &hf->self_limits.e, parse_limits, &hf->self_limits.lim);

	if (sr->live) {
		uring_probe_setup(opts->ring_entries, &hf->uring_setup.r);
		if (opts->try_features)
			uring_features_probe(&hf->features);
		else
			fact_fail(&hf->features.e, -ECANCELED,
				  "not tried: io-uring-features is not selected");
	} else {
		fact_fail(&hf->uring_setup.e, -EOPNOTSUPP,
			  "io_uring_setup() not tried: --root judges a captured tree");
		fact_fail(&hf->features.e, -EOPNOTSUPP,
			  "nothing tried: --root judges a captured tree");
	}
	cpu_facts_collect(sr, opts->read_irqbalance, &hf->cpu);
	if (fact_ok(&hf->cpu.online_e))
		hf->cpus = cpuset_count(&hf->cpu.online);
	container_facts_collect(sr, &hf->container);
	net_facts_collect(sr, opts->net_devs, opts->nnet_devs, &hf->cpu, &hf->net);
	collect_dirs(sr, opts, hf);
}

void host_facts_free(struct host_facts *hf)
{
	net_facts_free(&hf->net);
	cpu_facts_free(&hf->cpu);
	net_devs_free(&hf->netdevs);
	free(hf->dirs);
	hf->dirs = NULL;
	hf->ndirs = 0;
}
