// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one table of checks. `uringlint checks`, `explain`, the report and the
 * docs all come from here: add a row, not a special case.
 */
#include <string.h>

#include "checks.h"

const struct check_category check_categories[] = {
	{ "kernel", "Kernel and io_uring availability" },
	{ "limits", "Limits" },
};
const size_t check_categories_len = sizeof(check_categories) / sizeof(check_categories[0]);

const struct check check_table[] = {
	{
		.id = "kernel-version",
		.title = "Kernel is recent enough for io_uring's fast path",
		.category = "kernel",
		.severity = SEVERITY_HIGH,
		.scope = SCOPE_HOST,
		.run = check_kernel_min,
		.param.kernel_min = {
			.fail_below = KV(5, 10, 0),
			.warn_below = KV(6, 1, 0),
			.fail_why = "older than 5.10, the oldest LTS whose io_uring current "
				    "services target: SQPOLL needs root, io-wq workers are "
				    "kernel threads, and many opcodes are missing",
			.warn_why = "older than 6.1, the first LTS with "
				    "IORING_SETUP_DEFER_TASKRUN and statx(STATX_DIOALIGN)",
		},
		.looks_at = "proc/sys/kernel/osrelease, and for distribution kernels that "
			    "freeze the sublevel, the real one from proc/version (Debian) or "
			    "proc/version_signature (Ubuntu).",
		.why = "io_uring changed more than any other kernel interface between 5.1 and "
		       "6.x. Before 5.10 there is no LTS kernel with the io-wq and SQPOLL model "
		       "services are written for; SQPOLL needs root before 5.11 (CAP_SYS_NICE "
		       "in 5.11 and 5.12); io-wq workers became iou-wrk threads of the process "
		       "in 5.12 (backported late in 5.10.y). 6.1 adds IORING_SETUP_DEFER_TASKRUN (completion work run "
		       "only when the task asks for it) and statx(STATX_DIOALIGN), which tells "
		       "the O_DIRECT alignment a file really needs.",
		.fix = "upgrade to an LTS kernel of 6.1 or later (Debian 12 ships 6.1; "
		       "bookworm-backports and Debian 13 ship newer ones)",
		.reference = "https://man7.org/linux/man-pages/man2/io_uring_setup.2.html",
	},
	{
		.id = "io-uring-available",
		.title = "io_uring_setup() works here, or the exact reason it does not",
		.category = "kernel",
		.severity = SEVERITY_CRITICAL,
		.scope = SCOPE_HOST,
		.run = check_io_uring_available,
		.looks_at = "Live: the result of a real io_uring_setup() of a one-entry ring, "
			    "destroyed at once. Then, to name the cause of a failure: "
			    "kernel.io_uring_disabled and kernel.io_uring_group, the Seccomp, "
			    "CapEff, Gid and Groups lines of proc/self/status, and "
			    "RLIMIT_MEMLOCK. Under --root the same files decide, and the "
			    "message says that nothing was tested live.",
		.why = "A service that cannot create a ring either stops or silently falls "
		       "back to a slower I/O path. The kernel refuses setup with ENOSYS "
		       "when io_uring is not built in (or a sandbox fakes that), EPERM when "
		       "kernel.io_uring_disabled is 2, or is 1 and the caller has neither "
		       "CAP_SYS_ADMIN nor kernel.io_uring_group, when a seccomp filter denies "
		       "the call (Docker 25+ and containerd 2.0+ default profiles do) or a "
		       "security module does, and ENOMEM when RLIMIT_MEMLOCK cannot hold the "
		       "ring on kernels that charge ring memory to it (up to 5.11 and from "
		       "6.14).",
		.fix = "make io_uring_setup() succeed for the service's user: allow it in "
		       "kernel.io_uring_disabled and kernel.io_uring_group, in its seccomp "
		       "profile and LSM policy, and give it enough RLIMIT_MEMLOCK; the "
		       "finding names the cause it found",
		.reference = "https://docs.kernel.org/admin-guide/sysctl/kernel.html#io-uring-disabled",
	},
	{
		.id = "io-uring-disabled-sysctl",
		.title = "kernel.io_uring_disabled lets the service create rings",
		.category = "kernel",
		.severity = SEVERITY_HIGH,
		.scope = SCOPE_HOST,
		.run = check_io_uring_disabled_sysctl,
		.looks_at = "proc/sys/kernel/io_uring_disabled and "
			    "proc/sys/kernel/io_uring_group (both Linux 6.6 and later).",
		.why = "0 allows every process. 1 allows only processes with CAP_SYS_ADMIN "
		       "and members of the group kernel.io_uring_group names (its default, "
		       "-1, names none), so an unprivileged service gets EPERM. 2 refuses "
		       "io_uring_setup() to everyone, root included; rings created before the "
		       "change keep working, so the failure shows only at the next restart.",
		.fix = "sysctl -w kernel.io_uring_disabled=0, persisted in "
		       "/etc/sysctl.d/90-io_uring.conf; or, to keep the restriction, "
		       "kernel.io_uring_group=GID with the service's user in that group",
		.reference = "https://docs.kernel.org/admin-guide/sysctl/kernel.html#io-uring-disabled",
	},
	{
		.id = "memlock-limit",
		.title = "RLIMIT_MEMLOCK holds the rings and registered buffers a service needs",
		.category = "limits",
		.severity = SEVERITY_HIGH,
		.scope = SCOPE_HOST,
		.run = check_memlock_limit,
		.looks_at = "The Max locked memory row of proc/self/limits, CapEff of "
			    "proc/self/status, and the kernel version, against a typical "
			    "deployment: one 4096-entry ring (8192 CQEs) and 64 MiB of "
			    "registered buffers.",
		.why = "io_uring charges registered buffers to RLIMIT_MEMLOCK on every kernel, "
		       "and ring memory too up to 5.11 and again from 6.14 (5.12 to 6.13 "
		       "charge rings to the memory cgroup instead). The charge is per user, "
		       "summed over all of that user's processes, and is skipped only for "
		       "callers with CAP_IPC_LOCK; it is released asynchronously after a ring "
		       "is closed, so a service restarted at once can briefly hit the limit. Beyond the limit io_uring_setup() or "
		       "io_uring_register_buffers() fail with ENOMEM, and a service that treats "
		       "registration as optional quietly runs on unregistered buffers. Debian "
		       "12's default limit is 8 MiB.",
		.fix = FIX_MEMLOCK_TEXT,
		.reference = "https://github.com/axboe/liburing/issues/1408",
	},
};
const size_t check_table_len = sizeof(check_table) / sizeof(check_table[0]);

const struct check *check_find(const char *id)
{
	size_t i;

	for (i = 0; i < check_table_len; i++)
		if (!strcmp(check_table[i].id, id))
			return &check_table[i];
	return NULL;
}

const char *check_category_title(const char *id)
{
	size_t i;

	for (i = 0; i < check_categories_len; i++)
		if (!strcmp(check_categories[i].id, id))
			return check_categories[i].title;
	return id;
}

const char *check_scope_name(enum check_scope scope)
{
	switch (scope) {
	case SCOPE_HOST:
		return "host";
	case SCOPE_PROCESS:
		return "process";
	case SCOPE_PROBE:
		return "probe";
	}
	return "?";
}
