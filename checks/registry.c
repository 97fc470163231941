// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one table of checks. `uringlint checks`, `explain`, the report and the
 * docs all come from here: add a row, not a special case.
 */
#include <string.h>

#include "array.h"
#include "checks.h"

const struct check check_table[] = {
	{
		.info.id = "kernel-version",
		.info.title = "Kernel is recent enough for io_uring's fast path",
		.info.category = "kernel",
		.info.severity = SEVERITY_HIGH,
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
		.info.looks_at = "proc/sys/kernel/osrelease, and for distribution kernels that "
			    "freeze the sublevel, the real one from proc/version (Debian) or "
			    "proc/version_signature (Ubuntu).",
		.info.why = "io_uring changed more than any other kernel interface between 5.1 and "
		       "6.x. Before 5.10 there is no LTS kernel with the io-wq and SQPOLL model "
		       "services are written for; SQPOLL needs root before 5.11 (CAP_SYS_NICE "
		       "in 5.11 and 5.12); io-wq workers became iou-wrk threads of the process "
		       "in 5.12 (backported late in 5.10.y). 6.1 adds IORING_SETUP_DEFER_TASKRUN (completion work run "
		       "only when the task asks for it) and statx(STATX_DIOALIGN), which tells "
		       "the O_DIRECT alignment a file really needs.",
		.info.fix = "upgrade to an LTS kernel of 6.1 or later (Debian 12 ships 6.1; "
		       "bookworm-backports and Debian 13 ship newer ones)",
		.info.reference = "https://man7.org/linux/man-pages/man2/io_uring_setup.2.html",
	},
	{
		.info.id = "io-uring-available",
		.info.title = "io_uring_setup() works here, or the exact reason it does not",
		.info.category = "kernel",
		.info.severity = SEVERITY_CRITICAL,
		.scope = SCOPE_HOST,
		.flags = CHECK_LIVE_FACTS,
		.run = check_io_uring_available,
		.info.looks_at = "Live: the result of a real io_uring_setup() of a one-entry ring and, "
			    "for preflight and report, of a ring of the planned --ring-entries "
			    "(the CQ twice that, as liburing makes it), each destroyed at once. "
			    "An ENOMEM is tried again for 500 ms: a ring just closed, by uringlint "
			    "or another process of the same user, stays charged until the kernel's "
			    "teardown has run (15 to 65 ms on an idle 6.18 host). Then, to name the "
			    "cause of a failure: "
			    "kernel.io_uring_disabled and kernel.io_uring_group, the Seccomp, "
			    "CapEff, Gid and Groups lines of proc/self/status, and "
			    "RLIMIT_MEMLOCK. Under --root the same files decide, for both rings, "
			    "and the message says that nothing was tested live.",
		.info.why = "A service that cannot create a ring either stops or silently falls "
		       "back to a slower I/O path. The kernel refuses setup with ENOSYS "
		       "when io_uring is not built in (or a sandbox fakes that), EPERM when "
		       "kernel.io_uring_disabled is 2, or is 1 and the caller has neither "
		       "CAP_SYS_ADMIN nor kernel.io_uring_group, when a seccomp filter denies "
		       "the call (Docker 25+ and containerd 2.0+ default profiles do) or a "
		       "security module does, and ENOMEM when RLIMIT_MEMLOCK cannot hold the "
		       "ring on kernels that charge ring memory to it (up to 5.11 and from "
		       "6.14). A limit that holds a one-entry ring (8 KiB) can still refuse the "
		       "service's: a 4096-entry ring needs 404 KiB on 6.14 and later (512 KiB on "
		       "5.10, which rounded each region to a power of two of pages), so the "
		       "planned size is tried too, and its failure names the size it needs.",
		.info.fix = "make io_uring_setup() succeed for the service's user: allow it in "
		       "kernel.io_uring_disabled and kernel.io_uring_group, in its seccomp "
		       "profile and LSM policy, and give it enough RLIMIT_MEMLOCK; the "
		       "finding names the cause it found",
		.info.reference = "https://docs.kernel.org/admin-guide/sysctl/kernel.html#io-uring-disabled",
	},
	{
		.info.id = "io-uring-disabled-sysctl",
		.info.title = "kernel.io_uring_disabled lets the service create rings",
		.info.category = "kernel",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_HOST,
		.run = check_io_uring_disabled_sysctl,
		.info.looks_at = "proc/sys/kernel/io_uring_disabled and "
			    "proc/sys/kernel/io_uring_group (both Linux 6.6 and later).",
		.info.why = "0 allows every process. 1 allows only processes with CAP_SYS_ADMIN "
		       "and members of the group kernel.io_uring_group names (its default, "
		       "-1, names none), so an unprivileged service gets EPERM. 2 refuses "
		       "io_uring_setup() to everyone, root included; rings created before the "
		       "change keep working, so the failure shows only at the next restart.",
		.info.fix = "sysctl -w kernel.io_uring_disabled=0, persisted in "
		       "/etc/sysctl.d/90-io_uring.conf; or, to keep the restriction, "
		       "kernel.io_uring_group=GID with the service's user in that group",
		.info.reference = "https://docs.kernel.org/admin-guide/sysctl/kernel.html#io-uring-disabled",
	},
	{
		.info.id = "kernel-known-cves",
		.info.title = "Kernel version outside the affected ranges of known io_uring CVEs",
		.info.category = "kernel",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_HOST,
		.run = check_kernel_cves,
		.info.looks_at = "The kernel version (with the real sublevel of Debian and Ubuntu "
			    "kernels) against a table of io_uring CVEs with the version each "
			    "appeared in, was fixed in mainline, and was fixed in stable branches.",
		.info.why = "io_uring has been a rich source of local privilege escalations; several "
		       "(CVE-2022-29582, CVE-2023-2598, CVE-2024-0582) have public exploits. Only "
		       "the version is visible here, and distributions backport fixes without "
		       "changing it, so a kernel in an affected range may well be fixed: the "
		       "verdict is a prompt to check the vendor's tracker, not proof of the bug.",
		.info.fix = "check the distribution's security tracker for each listed CVE and this "
		       "kernel package; upgrade where no fix is listed; suppress with --skip "
		       "kernel-known-cves once verified",
		.info.reference = "https://security-tracker.debian.org/tracker/source-package/linux",
	},
	{
		.info.id = "io-uring-features",
		.info.title = "The setup flags, registrations and opcodes a service uses really work",
		.info.category = "kernel",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_HOST,
		.tries = CHECK_TRY_FEATURES,
		.flags = CHECK_LIVE_ONLY,
		.run = check_io_uring_features,
		.info.looks_at = "Throwaway rings created with SQPOLL, SQPOLL with SQ_AFF, ATTACH_WQ, "
			    "COOP_TASKRUN, SINGLE_ISSUER and DEFER_TASKRUN; registration of a "
			    "buffer, a file, the ring fd, and a read of IOWQ_MAX_WORKERS (which "
			    "changes nothing); and the opcode table of IORING_REGISTER_PROBE for "
			    "the storage and network opcodes. The evidence lists each with the "
			    "errno it failed with.",
		.info.why = "Version tables lie on distribution and vendor kernels: features get "
		       "backported, or disabled. A service that assumes DEFER_TASKRUN or "
		       "registered buffers and gets EINVAL either fails to start or silently "
		       "falls back to a slower path. Trying each is the only proof. Missing "
		       "SQPOLL, registered buffers or files, or the basic read, write and fsync "
		       "opcodes fail the check; newer flags and opcodes only warn. A try refused "
		       "with ENOMEM says nothing of the kernel's features: it is the memory the "
		       "try is charged (RLIMIT_MEMLOCK for registered buffers on every kernel, "
		       "and for rings up to 5.11 and from 6.14), so it is reported with the "
		       "limit and the sizes the tries needed (a second 4-entry ring, 8 KiB on "
		       "6.14 and later, beside the probe's own; a one-page buffer), and its fix "
		       "is the limit, not the kernel.",
		.info.fix = "use a kernel that has what the service asks for (6.1 or later has all of "
		       "it), or configure the service not to ask for what is missing; for what "
		       "was refused with ENOMEM, raise RLIMIT_MEMLOCK (the finding says so)",
		.info.reference = "https://man7.org/linux/man-pages/man2/io_uring_setup.2.html",
	},
	{
		.info.id = "container-seccomp",
		.info.title = "No container seccomp profile blocks the io_uring system calls",
		.info.category = "kernel",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_HOST,
		.run = check_container_seccomp,
		.info.looks_at = "Seccomp in proc/self/status; marks of a container runtime "
			    "(/.dockerenv, /run/.containerenv, container= in PID 1's environment, "
			    "runtime names in proc/self/cgroup); and the live result of "
			    "io_uring_setup().",
		.info.why = "Docker's default seccomp profile blocks io_uring_setup, io_uring_enter "
		       "and io_uring_register since Docker 25 (moby PR 46762), and containerd's "
		       "RuntimeDefault since 2.0 (PR 9320), so a service that works on the host "
		       "gets EPERM in its container. Run uringlint inside the container to "
		       "judge it.",
		.info.fix = "give the container a seccomp profile that allows io_uring_setup, "
		       "io_uring_enter and io_uring_register",
		.info.reference = "https://github.com/moby/moby/pull/46762",
	},
	{
		.info.id = "memlock-limit",
		.info.title = "RLIMIT_MEMLOCK holds the rings and registered buffers a service needs",
		.info.category = "limits",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_HOST,
		.run = check_memlock_limit,
		.info.looks_at = "The Max locked memory row of proc/self/limits, CapEff of "
			    "proc/self/status, and the kernel version, against a typical "
			    "deployment: one 4096-entry ring (8192 CQEs) and 64 MiB of "
			    "registered buffers.",
		.info.why = "io_uring charges registered buffers to RLIMIT_MEMLOCK on every kernel, "
		       "and ring memory too up to 5.11 and again from 6.14 (5.12 to 6.13 "
		       "charge rings to the memory cgroup instead). The charge is per user, "
		       "summed over all of that user's processes, and is skipped only for "
		       "callers with CAP_IPC_LOCK; it is released asynchronously after a ring "
		       "is closed, so a service restarted at once can briefly hit the limit. Beyond the limit io_uring_setup() or "
		       "io_uring_register_buffers() fail with ENOMEM, and a service that treats "
		       "registration as optional quietly runs on unregistered buffers. Debian "
		       "12's default limit is 8 MiB.",
		.info.fix = FIX_MEMLOCK_TEXT,
		.info.reference = "https://github.com/axboe/liburing/issues/1408",
	},
	{
		.info.id = "nproc-limit",
		.info.title = "RLIMIT_NPROC bounds io-wq's unbounded workers and leaves room for the bounded ones",
		.info.category = "limits",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_HOST,
		.run = check_nproc_limit,
		.info.looks_at = "The Max processes row of proc/self/limits, the online CPUs and the "
			    "planned ring entries (--ring-entries).",
		.info.why = "io-wq keeps two pools per ring: bounded work (regular files, block "
		       "devices) up to min(SQ entries, 4 x CPUs) workers, and unbounded work "
		       "(sockets, pipes, anything that can block for long) up to RLIMIT_NPROC. "
		       "Workers are threads of the user and count against that limit. Unlimited "
		       "lets a burst of blocking requests create thousands of iou-wrk threads; "
		       "too low, and workers cannot be created at all.",
		.info.fix = "set a finite RLIMIT_NPROC (systemd: LimitNPROC=) above the service's "
		       "threads plus its bounded workers, and cap io-wq per ring with "
		       "io_uring_register_iowq_max_workers()",
		.info.reference = "https://man7.org/linux/man-pages/man2/io_uring_register.2.html",
	},
	{
		.info.id = "nofile-limit",
		.info.title = "RLIMIT_NOFILE leaves room for files, sockets and registered file tables",
		.info.category = "limits",
		.info.severity = SEVERITY_LOW,
		.scope = SCOPE_HOST,
		.run = check_nofile_limit,
		.info.looks_at = "The Max open files row of proc/self/limits.",
		.info.why = "io_uring_register_files() refuses tables larger than RLIMIT_NOFILE "
		       "(EMFILE), and a network service runs out of sockets at the same limit. "
		       "The soft limit of 1024 that many distributions still default to is "
		       "far below what a server needs.",
		.info.fix = "raise RLIMIT_NOFILE (systemd: LimitNOFILE=; limits.conf: '<user> - nofile "
		       "N'), or let the service raise its soft limit to the hard one at start",
		.info.reference = "https://man7.org/linux/man-pages/man2/io_uring_register.2.html",
	},
	{
		.info.id = "sqpoll-cpu-isolated",
		.info.title = "Planned SQPOLL CPUs are isolated from the scheduler",
		.info.category = "cpu",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_HOST,
		.run = check_sqpoll_cpu_isolated,
		.info.looks_at = "The planned --sqpoll-cpu list against sys/devices/system/cpu/isolated "
			    "and nohz_full (what the kernel applied) and the isolcpus=, nohz_full= "
			    "and rcu_nocbs= parameters of proc/cmdline.",
		.info.why = "An SQPOLL thread polls the submission queue on its CPU. Other tasks "
		       "scheduled there preempt it, and every preemption is latency for the "
		       "requests waiting in the ring. isolcpus keeps the scheduler's tasks off; "
		       "nohz_full stops the tick and rcu_nocbs moves RCU callbacks away. An "
		       "isolated CPU only hosts the thread if the ring pins it there with "
		       "IORING_SETUP_SQ_AFF.",
		.info.fix = "boot with isolcpus=managed_irq,domain,LIST nohz_full=LIST rcu_nocbs=LIST "
		       "for the SQPOLL CPUs, and pin the threads with IORING_SETUP_SQ_AFF and "
		       "sq_thread_cpu",
		.info.reference = "https://docs.kernel.org/admin-guide/kernel-parameters.html",
	},
	{
		.info.id = "sqpoll-cpu-irqs",
		.info.title = "No storage or network interrupt lands on a planned SQPOLL CPU",
		.info.category = "cpu",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_HOST,
		.tries = CHECK_READ_PROCESSES,	/* the fix says whether irqbalance moves them back */
		.run = check_sqpoll_cpu_irqs,
		.info.looks_at = "proc/interrupts, classified by driver naming (nvme, virtio block and "
			    "net queues, common NIC drivers), and each IRQ's effective affinity "
			    "(proc/irq/N/effective_affinity_list, else smp_affinity_list).",
		.info.why = "An interrupt delivered to the SQPOLL CPU stops the polling thread for "
		       "the handler and the softirq that follows; with NVMe or NIC queue "
		       "interrupts that can be tens of thousands a second. NVMe queue "
		       "interrupts are kernel-managed: their affinity cannot be written, only "
		       "kept off isolated CPUs with isolcpus=managed_irq.",
		.info.fix = "move each listed IRQ off the SQPOLL CPUs "
		       "(echo CPUS > /proc/irq/N/smp_affinity_list); for NVMe boot with "
		       "isolcpus=managed_irq,LIST",
		.info.reference = "https://docs.kernel.org/core-api/irq/irq-affinity.html",
	},
	{
		.info.id = "irqbalance",
		.info.title = "irqbalance will not move interrupts back onto SQPOLL CPUs",
		.info.category = "cpu",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_HOST,
		.tries = CHECK_READ_PROCESSES,
		.run = check_irqbalance,
		.info.looks_at = "Whether a process named irqbalance runs (proc/PID/comm), and its "
			    "IRQBALANCE_BANNED_CPULIST or IRQBALANCE_BANNED_CPUS: from its "
			    "environment (root), else /etc/default/irqbalance or "
			    "/etc/sysconfig/irqbalance.",
		.info.why = "irqbalance rewrites IRQ affinities every 10 seconds by default. Manual "
		       "placement that keeps interrupts off the SQPOLL CPUs lasts until its next "
		       "pass, unless those CPUs are banned.",
		.info.fix = "ban the SQPOLL CPUs (IRQBALANCE_BANNED_CPULIST=LIST in "
		       "/etc/default/irqbalance, then restart it), or stop irqbalance",
		.info.reference = "https://github.com/Irqbalance/irqbalance",
	},
	{
		.info.id = "cpu-frequency-governor",
		.info.title = "SQPOLL CPUs run the performance frequency governor",
		.info.category = "cpu",
		.info.severity = SEVERITY_LOW,
		.scope = SCOPE_HOST,
		.run = check_cpu_frequency_governor,
		.info.looks_at = "sys/devices/system/cpu/cpuN/cpufreq/scaling_governor of the planned "
			    "SQPOLL CPUs (of every CPU when none are planned).",
		.info.why = "Power-saving governors lower the clock when a CPU looks idle. An SQPOLL "
		       "thread that sleeps after sq_thread_idle, or a mostly idle ring, lets the "
		       "clock drop, and the next burst runs slowly until it ramps back. VMs "
		       "usually have no cpufreq: the check skips there.",
		.info.fix = "cpupower frequency-set -g performance (or write performance to each "
		       "CPU's scaling_governor), made permanent with the distribution's tuned or "
		       "cpufrequtils profile",
		.info.reference = "https://docs.kernel.org/admin-guide/pm/cpufreq.html",
	},
	{
		.info.id = "numa-locality",
		.info.title = "Each data device and the SQPOLL CPUs share a NUMA node",
		.info.category = "numa",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_HOST,
		.run = check_numa_locality,
		.info.looks_at = "sys/devices/system/node (online nodes and their CPUs), the "
			    "numa_node of the disk under each --dir (device/numa_node, or its "
			    "parent PCI device's), and --sqpoll-cpu.",
		.info.why = "A submission thread on one node driving a device attached to another "
		       "sends every doorbell, DMA and completion across the interconnect, which "
		       "costs latency and bandwidth. Single-node hosts pass.",
		.info.fix = "plan the SQPOLL CPUs, and run the service, on the device's node",
		.info.reference = "https://man7.org/linux/man-pages/man8/numactl.8.html",
	},
	{
		.info.id = "net-queues",
		.info.title = "The NIC has a receive and a transmit queue for each network worker",
		.info.category = "net",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_HOST,
		.run = check_net_queues,
		.info.looks_at = "The rx-N and tx-N directories of sys/class/net/DEV/queues for each "
			    "--net-dev (default: the devices of the IPv4 default route in "
			    "proc/net/route), the device link and driver (none: a software device; "
			    "virtio_net, vif, hv_netvsc, vmxnet3: a VM's NIC), against --workers "
			    "(default: one worker on each --worker-cpus CPU).",
		.info.why = "With RSS each receive queue has its own interrupt and softirq work, "
		       "and each transmit queue its own lock. A worker without a queue of its own "
		       "gets its packets by another CPU's interrupt and shares a transmit queue. "
		       "perftune.py sets the RX channels to the number of IRQ CPUs (the same CPUs "
		       "as the workers on small hosts) and has RPS carry packets to the compute "
		       "CPUs when they are more: fewer queues than workers passes when rps_cpus "
		       "covers the worker CPUs. A VM's NIC has the queues its hypervisor gives it: "
		       "one queue there is not judged, RPS is the remedy.",
		.info.fix = "ethtool -L DEV combined N (or rx N tx N), N the workers, up to what "
		       "'ethtool -l DEV' offers; or set rps_cpus to the worker CPUs",
		.info.reference = "https://docs.kernel.org/networking/scaling.html",
	},
	{
		.info.id = "net-irq-placement",
		.info.title = "NIC queue interrupts avoid SQPOLL CPUs and sit on one CPU set, "
			      "spread, and irqbalance leaves them there",
		.info.category = "net",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_HOST,
		.tries = CHECK_READ_PROCESSES,
		.run = check_net_irq_placement,
		.info.looks_at = "The device's interrupts: sys/class/net/DEV/device/msi_irqs, else the "
			    "proc/interrupts lines that name the interface or its bus device "
			    "(virtio-net: virtioN-input.K, virtioN-output.K), kept to the queue "
			    "vectors when their names tell them (-TxRx-, -Tx-Rx-, -fp-, mlx5_compN@, "
			    "mlx4-N@); each one's proc/irq/N/effective_affinity_list (else "
			    "smp_affinity_list); irqbalance's --banirq arguments in "
			    "proc/PID/cmdline. Judged against --sqpoll-cpu and --worker-cpus.",
		.info.why = "A queue interrupt and the softirq after it stop whatever runs on the "
		       "CPU: on an SQPOLL CPU that is the polling thread. perftune.py puts all of "
		       "a NIC's queue interrupts on one CPU set, the IRQ CPUs, one interrupt a "
		       "CPU: either the compute CPUs themselves (small hosts) or CPUs set apart "
		       "from them, with RPS carrying the packets on. Queue interrupts split "
		       "between worker and other CPUs load some workers and not others; many "
		       "queues stacked on few worker CPUs make those workers do every queue's "
		       "work. irqbalance moves interrupts every 10 seconds unless told to leave "
		       "them (perftune.py bans each NIC interrupt it places).",
		.info.fix = "echo CPU > /proc/irq/N/smp_affinity_list for each queue interrupt "
		       "(one CPU each, none an SQPOLL CPU); --banirq=N in IRQBALANCE_ARGS "
		       "(/etc/default/irqbalance), or stop irqbalance",
		.info.reference = "https://docs.kernel.org/core-api/irq/irq-affinity.html",
	},
	{
		.info.id = "net-rps-xps",
		.info.title = "RPS, RFS and XPS steer each flow to the worker that handles it",
		.info.category = "net",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_HOST,
		.run = check_net_rps_xps,
		.info.looks_at = "Each RX queue's rps_cpus and rps_flow_cnt and each TX queue's "
			    "xps_cpus under sys/class/net/DEV/queues, and "
			    "net.core.rps_sock_flow_entries, against --workers, --worker-cpus and "
			    "--sqpoll-cpu.",
		.info.why = "With fewer RX queues than workers (a VM's single-queue NIC above "
		       "all), RPS is what spreads receive processing: without it every packet is "
		       "handled on the CPU its queue interrupt lands on. RPS alone picks a CPU by "
		       "hash; RFS (rps_sock_flow_entries and each queue's rps_flow_cnt, both "
		       "needed) sends a flow to the CPU of the worker that reads its socket, "
		       "but only among rps_cpus, so rps_cpus must hold every worker CPU and no "
		       "SQPOLL CPU. Queues that disagree treat flows by where RSS happens to "
		       "put them. XPS gives each sending CPU its own TX queue, so workers do not "
		       "share queue locks. perftune.py sets rps_cpus on every queue, 32768 flow "
		       "entries split evenly across the queues, and XPS over all CPUs. With a "
		       "queue per worker, RPS adds nothing (the kernel's scaling guide).",
		.info.fix = "echo MASK > /sys/class/net/DEV/queues/rx-N/rps_cpus (MASK: the worker "
		       "CPUs); sysctl -w net.core.rps_sock_flow_entries=32768 and echo "
		       "32768/QUEUES > rx-N/rps_flow_cnt; echo CPUMASK > tx-N/xps_cpus, one "
		       "worker CPU a queue",
		.info.reference = "https://docs.kernel.org/networking/scaling.html",
	},
	{
		.info.id = "net-backlog-limits",
		.info.title = "somaxconn and tcp_max_syn_backlog hold a burst of connections",
		.info.category = "net",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_HOST,
		.run = check_net_backlog_limits,
		.info.looks_at = "net.core.somaxconn and net.ipv4.tcp_max_syn_backlog, in "
			    "uringlint's own network namespace, when a network service is planned.",
		.info.why = "listen() caps the backlog a service asks for at somaxconn without a "
		       "word; connections that arrive while the accept queue is full are dropped "
		       "and retried a second later. tcp_max_syn_backlog bounds the half-open "
		       "connections, past which the listener answers with SYN cookies (which lose "
		       "window scaling and SACK on old kernels) or drops. perftune.py sets both to "
		       "4096, somaxconn's default since Linux 5.4.",
		.info.fix = "sysctl -w net.core.somaxconn=4096 net.ipv4.tcp_max_syn_backlog=4096, "
		       "persisted in /etc/sysctl.d/, and listen() with a backlog that large",
		.info.reference = "https://docs.kernel.org/networking/ip-sysctl.html",
	},
	{
		.info.id = "fs-type",
		.info.title = "The filesystem under each data directory supports io_uring's fast path",
		.info.category = "storage",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_HOST,
		.run = check_fs_type,
		.info.looks_at = "The mount that holds each --dir in proc/self/mountinfo (matched by "
			    "device live, by path under --root), and libblkid's probe of its "
			    "device.",
		.info.why = "Whether io_uring can issue a request without blocking (IOCB_NOWAIT) is "
		       "the filesystem's call. XFS and ext4 do it for O_DIRECT overwrites; only "
		       "XFS and btrfs (6.0+) for buffered writes, so on ext4 every buffered "
		       "io_uring write goes to an io-wq worker. btrfs copies on write; memory "
		       "filesystems have no device; overlay, network and FUSE filesystems hand "
		       "most work to io-wq.",
		.info.fix = "put data files on XFS or ext4 on a local block device, opened with O_DIRECT",
		.info.reference = "https://kernel.dk/io_uring.pdf",
	},
	{
		.info.id = "fs-o-direct",
		.info.title = "O_DIRECT really works in each data directory",
		.info.category = "storage",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_HOST,
		.tries = CHECK_TRY_ODIRECT,
		.flags = CHECK_LIVE_ONLY,
		.run = check_fs_o_direct,
		.info.looks_at = "A temporary file created in each --dir (O_TMPFILE, else a name "
			    "unlinked at once, never an existing file) with O_DIRECT, one aligned "
			    "write and read of a few KiB, then closed; nothing is left behind.",
		.info.why = "Buffered io_uring writes are punted to io-wq on most filesystems; "
		       "O_DIRECT is how a storage service stays on the fast path, and some "
		       "filesystems refuse it (EINVAL) or, like tmpfs since 6.6, accept it as a "
		       "no-op.",
		.info.fix = "put the data directory on a filesystem with direct I/O (XFS or ext4 on a "
		       "block device)",
		.info.reference = "https://man7.org/linux/man-pages/man2/open.2.html",
	},
	{
		.info.id = "dio-alignment",
		.info.title = "The O_DIRECT alignment each data directory needs is known",
		.info.category = "storage",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_HOST,
		.flags = CHECK_LIVE_FACTS,
		.tries = CHECK_TRY_ODIRECT,
		.run = check_dio_alignment,
		.info.looks_at = "statx(STATX_DIOALIGN) on the temporary O_DIRECT file (6.1+), else "
			    "the device's queue/logical_block_size and queue/dma_alignment.",
		.info.why = "O_DIRECT I/O, and registered buffers used for it, fail with EINVAL when "
		       "the offset, the length or the buffer address is not aligned: offsets and "
		       "lengths to the logical block size, buffers to the DMA alignment from "
		       "6.0 (the block size before). A device with 4 KiB logical blocks breaks "
		       "code written for 512.",
		.info.fix = "align offsets, lengths and buffers (posix_memalign) to the reported values",
		.info.reference = "https://man7.org/linux/man-pages/man2/statx.2.html",
	},
	{
		.info.id = "mount-options",
		.info.title = "No mount option pushes writes off the fast path",
		.info.category = "storage",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_HOST,
		.run = check_mount_options,
		.info.looks_at = "The per-mount and per-superblock options of each --dir's mount in "
			    "proc/self/mountinfo.",
		.info.why = "sync and dirsync make writes wait for the device and metadata, which "
		       "NOWAIT submission cannot do. On XFS a write that must update timestamps "
		       "cannot do it under NOWAIT (-EAGAIN) and is handed to io-wq; lazytime "
		       "keeps timestamp updates in memory, which cut such punts about fivefold "
		       "at depth 1024 here (seastar issues 2974 and 2987 describe the same).",
		.info.fix = "mount data filesystems without sync/dirsync, and with lazytime on XFS",
		.info.reference = "https://github.com/scylladb/seastar/issues/2974",
	},
	{
		.info.id = "blk-queue-depth",
		.info.title = "The planned queue depth fits the device's request queue",
		.info.category = "storage",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_HOST,
		.run = check_blk_queue_depth,
		.info.looks_at = "queue/nr_requests of the disk under each --dir against --depth.",
		.info.why = "A request beyond the device's tags waits for one (threads show "
		       "blk_mq_get_tag in their wchan). Whether that also sends requests to "
		       "io-wq depends on the kernel and device: on virtio with ext4 depths up to "
		       "1024 stayed on the fast path here, so the probe, not this check, is the "
		       "proof.",
		.info.fix = "keep the per-ring depth at or below nr_requests, or raise nr_requests "
		       "where the driver allows",
		.info.reference = "https://docs.kernel.org/block/queue-sysfs.html",
	},
	{
		.info.id = "blk-scheduler",
		.info.title = "The I/O scheduler is cheap enough for io_uring's rates",
		.info.category = "storage",
		.info.severity = SEVERITY_LOW,
		.scope = SCOPE_HOST,
		.run = check_blk_scheduler,
		.info.looks_at = "queue/scheduler of the disk under each --dir.",
		.info.why = "bfq does per-request accounting that costs CPU and latency at the request "
		       "rates io_uring reaches; none (NVMe) and mq-deadline are cheap.",
		.info.fix = "echo none (NVMe) or mq-deadline > /sys/block/DEV/queue/scheduler, "
		       "persisted with a udev rule",
		.info.reference = "https://docs.kernel.org/block/queue-sysfs.html",
	},
	{
		.info.id = "blk-stacked",
		.info.title = "Data sits on a plain device, not device-mapper, md or loop",
		.info.category = "storage",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_HOST,
		.run = check_blk_stacked,
		.info.looks_at = "slaves/ of the disk under each --dir (device-mapper and md), and "
			    "loop/backing_file for loop devices.",
		.info.why = "Stacked block devices have historically lacked NOWAIT support, so "
		       "io_uring handed their I/O to io-wq; recent kernels added it for some "
		       "targets. A loop device adds a second filesystem underneath. Measure "
		       "with the probe before trusting either.",
		.info.fix = "measure with `uringlint probe --dir DIR`; where requests punt, put hot "
		       "data on a plain partition",
		.info.reference = "https://docs.kernel.org/block/queue-sysfs.html",
	},
	{
		.info.id = "blk-iopoll",
		.info.title = "With --iopoll, the device really polls",
		.info.category = "storage",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_HOST,
		.run = check_blk_iopoll,
		.info.looks_at = "queue/io_poll of the disk under each --dir and, for NVMe and "
			    "virtio-blk, the driver's poll_queues module parameter.",
		.info.why = "An IOPOLL ring busy-polls the device for completions; that needs "
		       "O_DIRECT files and a driver with poll queues. Without them every request "
		       "fails with EOPNOTSUPP (seen on virtio here). NVMe and virtio-blk have no "
		       "poll queues unless nvme.poll_queues or virtio_blk.poll_queues is set.",
		.info.fix = "nvme.poll_queues=N or virtio_blk.poll_queues=N on the kernel command line "
		       "(or in modprobe.d), or drop IORING_SETUP_IOPOLL",
		.info.reference = "https://docs.kernel.org/block/queue-sysfs.html",
	},
	{
		.info.id = "uring-fallback",
		.info.title = "The process runs on io_uring, not on a fallback",
		.info.category = "proc-rings",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_PROCESS,
		.run = check_uring_fallback,
		.info.looks_at = "Its io_uring fds; without one, proc/PID/maps: anon_inode:[io_uring] "
			    "mappings (rings whose fds were closed), an io_uring library mapped "
			    "(liburing.so, liburing-ffi.so) and Linux AIO rings (/[aio], one per "
			    "io_setup() context). For the cause: kernel.io_uring_disabled and "
			    "kernel.io_uring_group, the process's CapEff, groups and Seccomp, its "
			    "RLIMIT_MEMLOCK, and the kernel version, against what rings of 64, 256 "
			    "and 4096 entries are charged on it. Watched: the requests its rings "
			    "took and whether any named a file or socket, against its positional "
			    "reads and writes by plain system calls (pread64, pwrite64 and their "
			    "vector forms, each call's own tracepoint).",
		.info.why = "A service whose io_uring_setup() fails often falls back to another I/O "
		       "path (Linux AIO, a thread pool) and says so only in its log: every other "
		       "check then has no ring to judge. On kernels that charge ring memory to "
		       "RLIMIT_MEMLOCK (up to 5.11 and from 6.14) a limit too small for the ring "
		       "is the usual cause: a 4096-entry ring needs 404 KiB on 6.14 and later, "
		       "above the 64 KiB many systems still default to, while a 64-entry one "
		       "needs 8 KiB. 5.12 to 6.13 charge rings to the memory cgroup, so there "
		       "the limit is not named. A process with no ring that maps no io_uring "
		       "library and has no AIO context is not judged: a runtime built into the "
		       "binary leaves no mark in its maps.",
		.info.fix = "make io_uring_setup() succeed for the service (the finding names the cause "
		       "it sees): " FIX_MEMLOCK_TEXT "; or allow io_uring in kernel.io_uring_disabled, "
		       "kernel.io_uring_group and the service's seccomp profile",
		.info.reference = "https://github.com/axboe/liburing/issues/1408",
	},
	{
		.info.id = "proc-rings",
		.info.title = "The process's rings could be read",
		.info.category = "proc-rings",
		.info.severity = SEVERITY_INFO,
		.scope = SCOPE_PROCESS,
		.run = check_proc_rings,
		.info.looks_at = "Every fd of the process whose link is anon_inode:[io_uring], and its "
			    "fdinfo, parsed for the formats of 5.10 to 6.18.",
		.info.why = "The kernel prints a ring's lock-protected state (SQPOLL thread, registered "
		       "files and buffers; on 6.18 the whole io_uring part) only when it can take "
		       "the ring lock at once. A ring read while busy is reread a few times, then "
		       "reported as unknown, never as a ring without SQPOLL.",
		.info.fix = "nothing in the service to change for a ring whose state stayed unknown "
			    "(the SQPOLL checks leave it out, saying so); an fdinfo that could not be "
			    "parsed is worth a report with the tree `uringlint capture` records",
		.info.reference = "https://man7.org/linux/man-pages/man5/proc_pid_fdinfo.5.html",
	},
	{
		.info.id = "sqpoll-busy-ratio",
		.info.title = "SQPOLL threads neither spin idle nor saturate",
		.info.category = "proc-rings",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROCESS,
		.flags = CHECK_LIVE_FACTS,
		.run = check_sqpoll_busy_ratio,
		.info.looks_at = "SqWorkTime and SqTotalTime of each SQPOLL thread (fdinfo, 6.9+) read "
			    "twice, 300 ms apart, with its rings' CachedSqHead and CachedCqTail: the "
			    "CPU time in loops that found work against all its CPU time in that "
			    "window, and whether requests were taken, completed or in flight.",
		.info.why = "An SQPOLL thread polls until sq_thread_idle passes without work. One that "
		       "spins on a ring with nothing taken, completed or in flight burns a CPU core "
		       "for nothing; one that polls while its requests are at the device is what "
		       "SQPOLL trades a core for; one that always finds work is saturated and "
		       "submissions queue behind it. The counters since the ring was created mix "
		       "start-up with now, so only the window is judged, and a thread that used "
		       "under 20 ms of CPU in it is not judged. Kernels before 6.9 do not print the "
		       "times: the check skips there.",
		.info.fix = "idle: shorter sq_thread_idle, or share one thread (ATTACH_WQ); saturated: "
		       "more SQPOLL threads on their own CPUs",
		.info.reference = "https://man7.org/linux/man-pages/man2/io_uring_setup.2.html",
	},
	{
		.info.id = "sqpoll-cpu-placement",
		.info.title = "SQPOLL threads run pinned, isolated, IRQ-free and near their device",
		.info.category = "proc-rings",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROCESS,
		.flags = CHECK_LIVE_FACTS,
		.run = check_sqpoll_cpu_placement,
		.info.looks_at = "SqThreadCpu, the SQPOLL thread's Cpus_allowed_list, the isolated CPUs, "
			    "storage and network IRQs' effective affinity, the NUMA node of the "
			    "devices under the process's files, and over the audit's window the "
			    "thread's wait for a CPU (schedstat) and SqWorkTime/SqTotalTime.",
		.info.why = "A thread not pinned with IORING_SETUP_SQ_AFF wanders; on a shared CPU it is "
		       "preempted; an IRQ on its CPU interrupts the polling; a device on another "
		       "node makes every request cross the interconnect. Each is a risk, not a "
		       "loss: the requests still bypass io-wq. So a placement short of the ideal "
		       "is info, and a warning only where the audit's window measured the loss "
		       "(the thread waiting for a CPU 10% of the window or more, or doing work in "
		       "over 95% of its CPU time); it never fails by itself.",
		.info.fix = "IORING_SETUP_SQ_AFF with sq_thread_cpu on an isolated, IRQ-free CPU of the "
		       "device's node",
		.info.reference = "https://docs.kernel.org/core-api/irq/irq-affinity.html",
	},
	{
		.info.id = "sqpoll-submitter-cpu",
		.info.title = "SQPOLL threads do not share a CPU with the threads that submit to them",
		.info.category = "proc-rings",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROCESS,
		.flags = CHECK_LIVE_FACTS,
		.run = check_sqpoll_submitter_cpu,
		.info.looks_at = "Over a 300 ms window: the CPU each thread of the process last ran on "
			    "(stat field 39) at both ends, its time on a CPU and waiting for one "
			    "(schedstat), and its Cpus_allowed_list; the threads other than io_uring's "
			    "that ran 1 ms or more are taken as the submitters.",
		.info.why = "A SQPOLL thread exists to poll while the application runs. On the CPU of a "
		       "thread that feeds it, the two take turns: the poller stalls whenever the "
		       "submitter runs, and its busy ratio then measures the scheduler, not the "
		       "load.",
		.info.fix = "IORING_SETUP_SQ_AFF with sq_thread_cpu on a CPU the submitting threads are "
		       "kept off (sched_setaffinity, taskset, cpusets)",
		.info.reference = "https://man7.org/linux/man-pages/man2/io_uring_setup.2.html",
	},
	{
		.info.id = "sqpoll-shared",
		.info.title = "Rings share SQPOLL threads instead of one thread each",
		.info.category = "proc-rings",
		.info.severity = SEVERITY_LOW,
		.scope = SCOPE_PROCESS,
		.run = check_sqpoll_shared,
		.info.looks_at = "The SqThread TID of every SQPOLL ring of the process: rings with the "
			    "same TID share a thread (IORING_SETUP_ATTACH_WQ).",
		.info.why = "Each SQPOLL thread polls its own CPU. Several rings that each created one "
		       "use several cores to do what one thread could, unless one really cannot "
		       "keep up.",
		.info.fix = "create later rings with IORING_SETUP_ATTACH_WQ and wq_fd of the first",
		.info.reference = "https://man7.org/linux/man-pages/man2/io_uring_setup.2.html",
	},
	{
		.info.id = "cq-overflow",
		.info.title = "No completion overflowed the CQ",
		.info.category = "proc-rings",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_PROCESS,
		.run = check_cq_overflow,
		.info.looks_at = "CqOverflowList in each ring's fdinfo (5.17+): completions that did not "
			    "fit the CQ ring.",
		.info.why = "When the CQ is full the kernel keeps completions on an overflow list in "
		       "kernel memory (IORING_FEAT_NODROP) and the application must enter the "
		       "kernel to flush them; without NODROP they are lost. Either way the "
		       "application reaps too slowly or its CQ is too small.",
		.info.fix = "reap completions more often, or size the CQ with IORING_SETUP_CQSIZE",
		.info.reference = "https://man7.org/linux/man-pages/man2/io_uring_setup.2.html",
	},
	{
		.info.id = "fd-o-direct",
		.info.title = "Data files written through io_uring are opened with O_DIRECT",
		.info.category = "proc-files",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_PROCESS,
		.run = check_fd_o_direct,
		.info.looks_at = "The flags in fdinfo of each open file, and which files are data: "
			    "registered with a ring (certain), matching --data-path, or written "
			    "files of 64 MiB or more on a block device.",
		.info.why = "A buffered io_uring write that cannot complete without blocking goes to an "
		       "io-wq worker; on ext4 that is every buffered write (8192 of 8192 here). "
		       "With iou-wrk workers already running, or on ext4, a data file without "
		       "O_DIRECT is the classic collapse: load climbs, throughput falls.",
		.info.fix = "open data files with O_DIRECT, with aligned buffers, offsets and lengths",
		.info.reference = "https://man7.org/linux/man-pages/man2/open.2.html",
	},
	{
		.info.id = "fd-append",
		.info.title = "No data file is written with O_APPEND",
		.info.category = "proc-files",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_PROCESS,
		.run = check_fd_append,
		.info.looks_at = "O_APPEND in the fdinfo flags of files registered with a ring, opened "
			    "O_DIRECT, or otherwise data.",
		.info.why = "An append extends the file, which needs allocation and a size update that "
		       "cannot be done without blocking: every O_DIRECT append was punted on ext4 "
		       "and XFS here. Logs opened O_APPEND outside io_uring are not judged.",
		.info.fix = "preallocate and write data files once, then overwrite at offsets",
		.info.reference = "https://man7.org/linux/man-pages/man2/open.2.html",
	},
	{
		.info.id = "fixed-buf-alignment",
		.info.title = "Registered buffers are aligned for O_DIRECT",
		.info.category = "proc-files",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_PROCESS,
		.run = check_fixed_buf_alignment,
		.info.looks_at = "UserBufs (address/length) of each ring against the O_DIRECT alignment "
			    "of the process's O_DIRECT files: statx(STATX_DIOALIGN) of the open "
			    "file, else its device's dma_alignment and logical block size.",
		.info.why = "O_DIRECT needs the buffer address aligned to the DMA alignment and the "
		       "length to the logical block size; a registered buffer that is not fails "
		       "every O_DIRECT request made with it with EINVAL.",
		.info.fix = "allocate registered buffers with posix_memalign or mmap, in multiples of "
		       "the block size",
		.info.reference = "https://man7.org/linux/man-pages/man2/statx.2.html",
	},
	{
		.info.id = "file-extents",
		.info.title = "Data files are neither fragmented nor full of unwritten extents",
		.info.category = "proc-files",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROCESS,
		.flags = CHECK_LIVE_FACTS,
		.run = check_file_extents,
		.info.looks_at = "FIEMAP of each data file (live): its extents and how many are "
			    "unwritten (allocated by fallocate, never written).",
		.info.why = "On XFS an O_DIRECT write into an unwritten extent must convert it, which "
		       "it cannot do without blocking: about a third of such writes were punted "
		       "at depth 128 here (ext4 punted none). Thousands of small extents mean "
		       "more allocation and mapping work per request.",
		.info.fix = "preallocate and write data files once before use; defragment by "
		       "rewriting them while the service is stopped",
		.info.reference = "https://docs.kernel.org/filesystems/fiemap.html",
	},
	{
		.info.id = "iowq-workers",
		.info.title = "Few or no io-wq workers: requests are not being punted",
		.info.category = "proc-threads",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_PROCESS,
		.flags = CHECK_LIVE_FACTS,
		.run = check_iowq_workers,
		.info.looks_at = "The process's iou-wrk threads (proc/PID/task), against one ring's bounded "
			    "pool (4 x CPUs) and RLIMIT_NPROC, and, on a live host, what each did in "
			    "a 300 ms window (schedstat run time; workers started meanwhile).",
		.info.why = "io-wq starts a worker only for a request that could not complete without "
		       "blocking. A worker that finds no work for 5 s exits, unless it is the last "
		       "of its pool: that one stays for good, asleep, after a single punt. Workers "
		       "that run mean punting now; dozens mean the fast path is lost and the "
		       "workers compete with the service for CPU. An idle leftover is said, not "
		       "warned about; so are workers whose work a watch measured as punts the "
		       "punt rule does not fail (iowq-punts judges them).",
		.info.fix = "find what punts (audit --watch), and fix it: O_DIRECT, no appends, "
		       "written extents, aligned I/O",
		.info.reference = "https://man7.org/linux/man-pages/man2/io_uring_register.2.html",
	},
	{
		.info.id = "iowq-punts",
		.info.title = "No request is punted to io-wq while watched",
		.info.category = "proc-threads",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_PROCESS,
		.run = check_iowq_punts,
		.info.looks_at = "With audit --watch SECONDS: the io_uring:io_uring_queue_async_work "
			    "tracepoint counted per thread of the process with perf_event_open, "
			    "with the opcode of each punt (root; global tracing is left alone). "
			    "Without root: new iou-wrk threads, each at least one punt.",
		.info.why = "A punt is a request io_uring could not issue without blocking and handed "
		       "to an io-wq worker thread: a context switch, a thread, and lost "
		       "latency each time. Counting them for a few seconds on the live process "
		       "is the proof of the fast path, or of where it breaks. Punts fail when "
		       "their share of the requests submitted is over punt-tolerance (1%) by more "
		       "than chance: a rate at the tolerance would show as many less than 5% of "
		       "the time; otherwise they are info.",
		.info.fix = "fix what punts, by opcode: writes to buffered or appended files, "
		       "unwritten extents, unaligned I/O, IOSQE_ASYNC",
		.info.reference = "https://docs.kernel.org/trace/events.html",
	},
	{
		.info.id = "scene-device",
		.info.title = "The devices under the process's files are not what holds it back",
		.info.category = "scene",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_PROCESS,
		.flags = CHECK_LIVE_ONLY,
		.run = check_scene_device,
		.info.looks_at = "With audit --watch: iostat -x's columns (r/s, w/s, rkB/s, wkB/s, "
			    "r_await, w_await, aqu-sz, %util, request sizes) over the watch's window "
			    "for each device under the process's files, the disk of a partition, the "
			    "devices under dm and md, and the device of a loop's backing file "
			    "(/proc/diskstats through libproc2, sysstat's formulas), joined to the "
			    "punts the watch counted and the io-wq workers in D.",
		.info.why = "A device at %util 95 or more with no punt is the bottleneck itself: "
		       "no io_uring setting helps (info). A full queue (aqu-sz 8 or more) at under "
		       "1000 requests/s while io-wq workers wait in D on punted writes is the "
		       "collapse of buffered writes into writeback: off the fast path now (fail). "
		       "Threads held in D while the device under the process's files did no I/O "
		       "are held by a lock, a frozen filesystem or a remote mount, not the device "
		       "(warn).",
		.info.fix = "open the data files O_DIRECT so writes stop punting into the page "
		       "cache; for a device at its limit, more or faster devices; for threads "
		       "in D on an idle device, what they wait in (dstate-threads): a thaw "
		       "(fsfreeze -u), the lock's holder, the remote server",
		.info.reference = "https://docs.kernel.org/admin-guide/iostats.html",
	},
	{
		.info.id = "scene-cpu",
		.info.title = "The CPUs the process runs on are not lost to interrupts or steal",
		.info.category = "scene",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROCESS,
		.flags = CHECK_LIVE_ONLY,
		.run = check_scene_cpu,
		.info.looks_at = "With audit --watch: each CPU's tics over the window (/proc/stat "
			    "through libproc2's STAT_TIC_DELTA items), for the CPUs the process's "
			    "threads last ran on, or all CPUs when none is known.",
		.info.why = "A CPU that loses 10% or more to a hypervisor's steal delays the ring's "
		       "submissions and completions on it: a warning. Hardirq and softirq time "
		       "of 10% or more is said as info: most often it is the process's own "
		       "completions and packets (a healthy O_DIRECT fio on a virtio disk spends "
		       "16% of a CPU there), a cost rather than a fault.",
		.info.fix = "move device IRQs off the service's CPUs (/proc/irq/N/smp_affinity_list, "
		       "irqbalance --banirq); for steal, a VM with dedicated vCPUs",
		.info.reference = "https://docs.kernel.org/core-api/irq/irq-affinity.html",
	},
	{
		.info.id = "scene-writeback",
		.info.title = "Dirty memory is under the dirty threshold",
		.info.category = "scene",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROCESS,
		.flags = CHECK_LIVE_ONLY,
		.run = check_scene_writeback,
		.info.looks_at = "Dirty and Writeback (/proc/meminfo) and nr_dirty_threshold "
			    "(/proc/vmstat), through libproc2, at the end of the watch (one reading "
			    "without one).",
		.info.why = "At the dirty threshold every buffered writer is throttled in "
		       "balance_dirty_pages(): a punted buffered write then sleeps in its io-wq "
		       "worker for as long as writeback takes.",
		.info.fix = "write the data files O_DIRECT; or lower vm.dirty_background_bytes so "
		       "writeback starts sooner: sysctl -w vm.dirty_background_bytes=268435456",
		.info.reference = "https://docs.kernel.org/admin-guide/sysctl/vm.html",
	},
	{
		.info.id = "scene-iowq",
		.info.title = "io-wq workers do not burn the service's CPU",
		.info.category = "scene",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROCESS,
		.flags = CHECK_LIVE_ONLY,
		.run = check_scene_iowq,
		.info.looks_at = "With audit --watch: the utime+stime of the process's iou-wrk "
			    "threads (task/TID/stat) at both ends of the window; a worker started "
			    "in it counts whole.",
		.info.why = "io-wq workers that burn more than half a CPU do the service's I/O "
		       "the slow way, a thread hand-off each, on CPU the service needs.",
		.info.fix = "find what punts (the iowq-punts and file-punts findings) and fix it: "
		       "O_DIRECT, no appends, written extents, aligned I/O",
		.info.reference = "https://man7.org/linux/man-pages/man7/io_uring.7.html",
	},
	{
		.info.id = "file-punts",
		.info.title = "No file's io_uring requests are punted to io-wq while watched",
		.info.category = "proc-files",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_PROCESS,
		.run = check_file_punts,
		.info.looks_at = "With audit --watch SECONDS, as root: io_uring_submit_req (opcode, SQE "
			    "flags), io_uring_file_get (the fd) and io_uring_queue_async_work (the "
			    "punt), sampled per thread with perf_event_open and joined per request; "
			    "each file's flags, size and allocation when first and last seen, its "
			    "extents (FIEMAP) and its pages in the page cache (cachestat, or mincore "
			    "on a read-only mapping: nothing read, faulted in or evicted). Requests "
			    "on registered files carry no fd: a ring with one registered file names "
			    "it, otherwise the candidates are listed. Where the kernel has them, what "
			    "each punted write's io-wq worker did: xfs:xfs_update_time, "
			    "xfs:xfs_iomap_alloc and writeback:balance_dirty_pages on its threads.",
		.info.why = "A file whose requests punt is off the fast path, and each cause has its "
		       "own fix: IOSQE_ASYNC set by the application, buffered I/O, O_APPEND, "
		       "writes that extend the file, writes into holes or unwritten extents, "
		       "pages of an O_DIRECT file in the page cache, and on XFS the file's times "
		       "to update once a clock tick. The share (punted of all "
		       "requests on that file) says how much of its I/O is affected. A cause "
		       "from the request's flags, or observed in the worker that ran the punted "
		       "write, is certain; one from the file's state is likely (inferred), "
		       "and said so. A share over punt-tolerance (1%) by no more than chance (a "
		       "rate at the tolerance shows as many 5% of the time or more) is info; "
		       "one over it by timestamp punts at no more than 1000 a second on the file "
		       "(the rest within chance, or a tenth of the punts at most) warns, not "
		       "fails.",
		.info.fix = "the fix of each cause named in the finding",
		.info.reference = "https://docs.kernel.org/trace/events.html",
	},
	{
		.info.id = "ring-submitters",
		.info.title = "Each ring has one submitting thread (or its SQPOLL thread)",
		.info.category = "proc-rings",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROCESS,
		.run = check_ring_submitters,
		.info.looks_at = "With audit --watch SECONDS, as root: io_uring_submit_req sampled on "
			    "every thread, with the thread and the CPU of each sample; each ring "
			    "(the kernel's ctx) matched to its fd through io_uring_create, the fd its "
			    "thread entered io_uring_enter with, or its SQPOLL thread in fdinfo. A "
			    "thread with 5% or more of a ring's requests drives it.",
		.info.why = "A ring submitted to by several threads serializes them on the ring's "
		       "submission lock and moves its memory between their CPUs. The "
		       "thread-per-core model gives each thread its own ring on its own CPU; "
		       "SQPOLL makes one kernel thread the only submitter.",
		.info.fix = "give each submitting thread its own ring, or hand submissions to one "
		       "thread (since 5.12 the io-wq pool belongs to the thread, not the ring: a "
		       "thread's rings share it, and IORING_SETUP_ATTACH_WQ shares only a "
		       "SQPOLL thread)",
		.info.reference = "https://man7.org/linux/man-pages/man7/io_uring.7.html",
	},
	{
		.info.id = "ring-completion-errors",
		.info.title = "No storm of failed completions (ENOBUFS, EAGAIN, ECANCELED, ...)",
		.info.category = "proc-rings",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROCESS,
		.run = check_ring_completion_errors,
		.info.looks_at = "With audit --watch SECONDS, as root: io_uring_complete sampled per "
			    "thread, joined to its request's opcode by the request pointer (the "
			    "CQEs a multishot request posts before its last carry none, and are "
			    "counted apart). Any "
			    "ENOBUFS counts; another errno counts at 1% or more of an opcode's "
			    "completions; expired timeouts and cancelled timeouts are not errors.",
		.info.why = "ENOBUFS means the provided buffer ring ran dry: each such receive is "
		       "redone, and a multishot one must be armed again. A steady share of "
		       "EAGAIN or ECANCELED is work done twice or thrown away.",
		.info.fix = "ENOBUFS: give the buffer ring more buffers, or return them sooner; "
		       "EAGAIN: let io_uring poll the file (no O_NONBLOCK games) rather than "
		       "retrying; ECANCELED: look at what cancels (links, timeouts)",
		.info.reference = "https://man7.org/linux/man-pages/man3/io_uring_register_buf_ring.3.html",
	},
	{
		.info.id = "ring-iosqe-async",
		.info.title = "No request is forced to io-wq with IOSQE_ASYNC",
		.info.category = "proc-rings",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROCESS,
		.run = check_ring_iosqe_async,
		.info.looks_at = "With audit --watch SECONDS, as root: the SQE flags io_uring_submit_req "
			    "carries, per ring; opcodes io_uring always runs in io-wq (FSYNC and "
			    "the like) and drained requests are left out.",
		.info.why = "IOSQE_ASYNC sends a request to an io-wq worker without first trying it "
		       "inline, so every one costs a worker's wake-up and a context switch; at "
		       "a high rate the pool grows to hundreds of threads.",
		.info.fix = "drop IOSQE_ASYNC (io_uring_sqe_set_flags without it); keep it only for "
		       "requests known to block every time",
		.info.reference = "https://man7.org/linux/man-pages/man3/io_uring_sqe_set_flags.3.html",
	},
	{
		.info.id = "ring-cq-fill",
		.info.title = "No completion queue runs nearly full",
		.info.category = "proc-rings",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROCESS,
		.run = check_ring_cq_fill,
		.info.looks_at = "With audit --watch SECONDS, as root: each ring's fdinfo read every "
			    "100 ms (CQEs: posted and not yet reaped; SQEs: queued and not yet "
			    "taken), against its CQ size; warns at 90%.",
		.info.why = "A completion queue that runs full overflows on the next burst: the "
		       "kernel then holds completions on a list (or, before 5.5, drops them) "
		       "and the application stalls on them. cq-overflow sees it after the "
		       "fact; this sees it coming.",
		.info.fix = "reap completions sooner, or size the CQ larger "
		       "(IORING_SETUP_CQSIZE, io_uring_queue_init_params)",
		.info.reference = "https://man7.org/linux/man-pages/man2/io_uring_setup.2.html",
	},
	{
		.info.id = "ring-setup-flags",
		.info.title = "Rings only their creator submits to are set up with SINGLE_ISSUER",
		.info.category = "proc-rings",
		.info.severity = SEVERITY_LOW,
		.scope = SCOPE_PROCESS,
		.run = check_ring_setup_flags,
		.info.looks_at = "With audit --watch SECONDS, as root: io_uring_create for rings set up "
			    "while watched (the only place the setup flags appear, with the thread "
			    "that set the ring up; a ring set up before the watch has unknown "
			    "flags), and the threads that submitted to each.",
		.info.why = "IORING_SETUP_SINGLE_ISSUER (6.0) is a promise that one task, the one "
		       "that sets the ring up, submits to it (another task's submissions fail "
		       "with EEXIST); IORING_SETUP_DEFER_TASKRUN (6.1) needs it, and runs "
		       "completion work when that task waits for completions instead of "
		       "interrupting it whenever a request completes. Only a ring submitted to "
		       "by its creator alone, every request sampled, is advised.",
		.info.fix = "set IORING_SETUP_SINGLE_ISSUER, and DEFER_TASKRUN where the thread "
		       "waits for its completions (io_uring_queue_init_params); a ring set up "
		       "by one thread for another: IORING_SETUP_R_DISABLED, then "
		       "IORING_REGISTER_ENABLE_RINGS from the thread that submits",
		.info.reference = "https://man7.org/linux/man-pages/man2/io_uring_setup.2.html",
	},
	{
		.info.id = "ring-thread-cpus",
		.info.title = "Each ring-driving thread is pinned to a CPU of its own",
		.info.category = "proc-rings",
		.info.severity = SEVERITY_LOW,
		.scope = SCOPE_PROCESS,
		.run = check_ring_thread_cpus,
		.info.looks_at = "With audit --watch SECONDS, as root: the threads with 5% or more of a "
			    "ring's sampled requests (SQPOLL threads apart), the CPUs each sample came "
			    "from and how often a thread's submissions moved CPU, and each thread's "
			    "Cpus_allowed_list read at the end of the watch; the CPUs the process's "
			    "pinned SQPOLL threads poll on (SqThreadCpu), and the storage and network "
			    "IRQs whose affinity holds each pinned thread's CPU.",
		.info.why = "In the thread-per-core model each thread owns a ring and a CPU: its "
		       "ring's memory stays in that CPU's cache and no other ring thread waits "
		       "for it. A thread that moves takes its ring's memory with it; two ring "
		       "threads pinned to one CPU take turns; a SQPOLL thread polls its CPU "
		       "without pause, so a ring thread pinned there runs only when the poller "
		       "yields. A device queue's IRQ on the CPU that submits to it is how blk-mq "
		       "and multi-queue NICs keep completions local: those IRQs are counted, not "
		       "judged. An unpinned thread that never moved while sampled passes.",
		.info.fix = "pin each ring's thread to its own CPU (pthread_setaffinity_np, "
		       "sched_setaffinity, or the runtime's per-core placement), away from the "
		       "CPUs given to SQPOLL threads (IORING_SETUP_SQ_AFF, sq_thread_cpu)",
		.info.reference = "https://man7.org/linux/man-pages/man3/pthread_setaffinity_np.3.html",
	},
	{
		.info.id = "ring-taskrun",
		.info.title = "Completion work does not interrupt a ring's thread often (COOP_TASKRUN)",
		.info.category = "proc-rings",
		.info.severity = SEVERITY_LOW,
		.scope = SCOPE_PROCESS,
		.run = check_ring_taskrun,
		.info.looks_at = "With audit --watch SECONDS, as root: the setup flags of rings set up "
			    "while watched (io_uring_create; audit --exec sees them all), the thread "
			    "that drives each, and io_uring_task_work_run in that thread (batches of "
			    "completion work, and their items), counting the batches run while the "
			    "thread was out of io_uring_enter (after its sys_exit and before its next "
			    "sys_enter): a wait in io_uring_enter runs a batch at each wakeup, which is "
			    "no interruption. Often is 1000 such batches a second or more.",
		.info.why = "Without IORING_SETUP_COOP_TASKRUN (5.19) or DEFER_TASKRUN (6.1), the "
		       "kernel queues a ring's completion work on the thread that owns the "
		       "requests with TWA_SIGNAL: the thread is interrupted (an IPI when it runs "
		       "on another CPU) each time a batch is queued, whatever it is doing. With "
		       "COOP_TASKRUN the batch waits until the thread next enters the kernel, "
		       "which a thread that waits for completions in io_uring_enter does anyway. "
		       "SQPOLL rings are never interrupted so. COOP_TASKRUN is about the "
		       "submitting thread, not the SQPOLL thread.",
		.info.fix = "set IORING_SETUP_COOP_TASKRUN (with TASKRUN_FLAG if the thread polls "
		       "the CQ without entering the kernel), or SINGLE_ISSUER with DEFER_TASKRUN "
		       "where one thread submits and waits (see ring-setup-flags)",
		.info.reference = "https://man7.org/linux/man-pages/man2/io_uring_setup.2.html",
	},
	{
		.info.id = "ring-latency-tail",
		.info.title = "No opcode's slowest requests run far behind its median",
		.info.category = "proc-rings",
		.info.severity = SEVERITY_INFO,
		.scope = SCOPE_PROCESS,
		.run = check_ring_latency,
		.info.looks_at = "With audit --watch SECONDS, as root: per ring and opcode, the time "
			    "from each sampled request's io_uring_submit_req to its first "
			    "io_uring_complete, in a histogram of 4 buckets per power of two; an "
			    "opcode with 1000 such requests or more is judged. A tail is a p99.9 of "
			    "10 times the median or more, and 1 ms or more.",
		.info.why = "Informational: a long tail is often the device or the load (a flush, "
			    "a garbage-collecting SSD, a slow peer), and sometimes the setup (punts "
			    "to io-wq, a full CQ, a thread that reaps late). The histogram says "
			    "where the slow requests sit; file-punts, ring-cq-fill and "
			    "ring-thread-cpus say whether the setup is to blame.",
		.info.fix = "read the histogram with file-punts, ring-cq-fill and ring-thread-cpus; "
		       "for storage, compare with the device's own latency (iostat -x, "
		       "/sys/block/DEV/stat) before changing the application",
		.info.reference = "https://man7.org/linux/man-pages/man7/io_uring.7.html",
	},
	{
		.info.id = "net-listeners",
		.info.title = "A SO_REUSEPORT group's closing listener hands its queue on",
		.info.category = "proc-net",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROCESS,
		.run = check_net_listeners,
		.info.looks_at = "The process's TCP LISTEN sockets (socket fds joined with "
			    "/proc/PID/net/tcp and tcp6 of its own namespace), grouped by address and "
			    "port with every LISTEN socket of that namespace: more than one on one "
			    "address and port is a SO_REUSEPORT group (or sockets bound to different "
			    "devices with SO_BINDTODEVICE or a VRF, which /proc/net/tcp does not "
			    "show, and which this check would take for one); each listener's accept "
			    "queue "
			    "(rx_queue) as read; net.ipv4.tcp_migrate_req of the namespace uringlint "
			    "runs in (5.14+), judged only when the process shares it.",
		.info.why = "Thread-per-core servers give each worker its own SO_REUSEPORT listener, "
		       "and the kernel ties each incoming connection to one of them at its SYN. "
		       "When a listener closes (a worker restarts, a deploy drains it), the "
		       "connections in its accept queue are aborted unless "
		       "net.ipv4.tcp_migrate_req is 1, which moves them to another listener of "
		       "the group. One listener shared by every worker needs nothing of this; it "
		       "is said plainly, with its queue.",
		.info.fix = "sysctl -w net.ipv4.tcp_migrate_req=1, kept in /etc/sysctl.d/",
		.info.reference = "https://docs.kernel.org/networking/ip-sysctl.html",
	},
	{
		.info.id = "net-punts",
		.info.title = "Socket requests wait on poll, not in io-wq workers",
		.info.category = "proc-net",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROCESS,
		.run = check_net_punts,
		.info.looks_at = "With audit --watch SECONDS, as root: each ring's socket requests "
			    "(the opcodes only sockets take: ACCEPT, CONNECT, SEND, RECV, SENDMSG, "
			    "RECVMSG, SEND_ZC, SENDMSG_ZC) seen from io_uring_submit_req to their "
			    "first io_uring_complete, each joined with io_uring_poll_arm (armed on "
			    "poll) and io_uring_queue_async_work (punted to io-wq), and the "
			    "IOSQE_ASYNC bit of its flags; only requests seen to completion count, "
			    "so events the kernel throttled (perf_event_max_sample_rate) do not "
			    "lower a share. A ring warns when 1% of its socket requests, and 20 or "
			    "more, were punted. Reads and writes on socket fds are file requests: "
			    "file-punts judges them.",
		.info.why = "A socket request that cannot finish at once gets -EAGAIN, and io_uring "
		       "arms it on the socket's poll (fast poll, 5.7+): it waits for data or room "
		       "with no thread, and runs when the socket is ready. IOSQE_ASYNC skips that "
		       "and hands the request to an io-wq worker, which blocks in the socket call: a "
		       "thread per waiting request, a context switch per message, and workers by "
		       "the thousand on a server with many idle connections. Without IOSQE_ASYNC a "
		       "socket request goes to io-wq only when its file cannot be polled or the "
		       "poll could not be set up.",
		.info.fix = "drop IOSQE_ASYNC from socket requests (in liburing: do not set "
		       "sqe->flags |= IOSQE_ASYNC, or io_uring_sqe_set_flags without it); poll "
		       "arming needs nothing set",
		.info.reference = "https://man7.org/linux/man-pages/man3/io_uring_enter.3.html",
	},
	{
		.info.id = "net-multishot",
		.info.title = "Multishot requests stay armed",
		.info.category = "proc-net",
		.info.severity = SEVERITY_LOW,
		.scope = SCOPE_PROCESS,
		.run = check_net_multishot,
		.info.looks_at = "With audit --watch SECONDS, as root: io_uring_complete's CQEs with "
			    "IORING_CQE_F_MORE, which a multishot request posts without its request, "
			    "joined by ring and user_data with the request's last CQE (no F_MORE): "
			    "each multishot run, how many CQEs it posted, and how it ended (ENOBUFS: "
			    "out of provided buffers; 0: end of stream; another error). A run that "
			    "ended 100 times a second or more, not at a stream's end, after fewer than "
			    "8 CQEs on average, warns. A run whose first CQE already ends it is not "
			    "seen as multishot; ring-completion-errors counts its error.",
		.info.why = "A multishot recv or accept is armed once and posts a CQE for each "
		       "message or connection, without a new request or a new poll arm. It ends "
		       "when the provided buffer ring it picks from runs dry (ENOBUFS), when the "
		       "stream ends, or on an error, and the application must submit it again: a "
		       "recv that ends every few messages costs a request and a poll arm each "
		       "time, as single-shot recvs would, and the data waits in the socket in "
		       "between.",
		.info.fix = "give the buffer ring more buffers (or larger ones, or incremental "
		       "consumption with IOU_PBUF_RING_INC on 6.12+), and hand buffers back with "
		       "io_uring_buf_ring_add and io_uring_buf_ring_advance as soon as each "
		       "completion is handled",
		.info.reference = "https://man7.org/linux/man-pages/man3/io_uring_prep_recv_multishot.3.html",
	},
	{
		.info.id = "net-accept-backlog",
		.info.title = "TCP listeners' accept queues keep up",
		.info.category = "proc-net",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_PROCESS,
		.flags = CHECK_LIVE_FACTS,
		.run = check_net_accept_backlog,
		.info.looks_at = "Each TCP LISTEN socket of the process: its accept queue (rx_queue "
			    "of /proc/PID/net/tcp and tcp6) against its backlog limit, which is in no "
			    "file and is read live through NETLINK_SOCK_DIAG (inet_diag's idiag_wqueue, "
			    "as ss -ltn shows it as Send-Q), for a process of uringlint's own network "
			    "namespace only; net.core.somaxconn and net.ipv4.tcp_max_syn_backlog of "
			    "that namespace; and with --watch, the growth of TcpExt ListenOverflows and "
			    "ListenDrops of /proc/PID/net/netstat, read just before and after the "
			    "watch. Those counters are per network namespace, not per process: "
			    "attributed to the process only when its listeners are all the TCP "
			    "listeners of the namespace, and said to be namespace-wide otherwise. "
			    "Without --watch only the lifetime total is shown, never judged: it may be "
			    "from long ago.",
		.info.why = "A connection that completes its handshake while the listener's accept "
		       "queue is full is dropped (ListenOverflows), and the client retries its SYN "
		       "after a second or more: a service whose ring accepts too slowly, or with a "
		       "small listen() backlog, shows as latency spikes of whole seconds at connect "
		       "time, not as errors. The backlog is listen()'s argument capped by "
		       "net.core.somaxconn when listen() ran; tcp_max_syn_backlog bounds the SYN "
		       "queue when syncookies are off.",
		.info.fix = "accept faster (multishot accept, more accepting rings), raise the "
			    "listen() backlog, and net.core.somaxconn when it caps it",
		.info.reference = "https://man7.org/linux/man-pages/man2/listen.2.html",
	},
	{
		.info.id = "net-busy-poll",
		.info.title = "NAPI busy polling of the process's rings is set up to work",
		.info.category = "proc-net",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROCESS,
		.run = check_net_busy_poll,
		.info.looks_at = "The NAPI lines of each ring's fdinfo (6.12+, with "
			    "CONFIG_NET_RX_BUSY_POLL: NAPI enabled or disabled, napi_busy_poll_dt in "
			    "ns, napi_prefer_busy_poll; 6.13+ napi tracking), the process's sockets "
			    "(all on loopback, or not), /sys/class/net/DEV/napi_defer_hard_irqs and "
			    "gro_flush_timeout of every device but loopback (which device carries a "
			    "socket's traffic is not told by /proc), and net.core.busy_read and "
			    "busy_poll (global, shown only in the initial network namespace).",
		.info.why = "IORING_REGISTER_NAPI (6.9) makes a ring busy-poll the NAPI instances of "
		       "the sockets it waits on instead of sleeping until an interrupt. A "
		       "busy-poll time of 0 polls nothing; prefer_busy_poll is meant to keep the "
		       "device's interrupts off while the application polls, which needs "
		       "napi_defer_hard_irqs and gro_flush_timeout: with both 0 the interrupts "
		       "are not deferred and the poll competes with them. Loopback traffic carries "
		       "no NAPI id, so polling it polls nothing. net.core.busy_read and busy_poll "
		       "are for blocking reads and poll/select, not io_uring. Kernels before 6.12 "
		       "print no NAPI lines: skipped, never passed.",
		.info.fix = "register NAPI with a busy-poll time, and set napi_defer_hard_irqs and "
			    "gro_flush_timeout on the NIC when using prefer_busy_poll",
		.info.reference = "https://docs.kernel.org/networking/napi.html",
	},
	{
		.info.id = "dstate-threads",
		.info.title = "No threads stuck in uninterruptible sleep",
		.info.category = "proc-threads",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_PROCESS,
		.run = check_dstate_threads,
		.info.looks_at = "Threads in state D with their wchan and, as root, their kernel stack, "
			    "classified: XFS inode lock, device tags, frozen filesystem, page "
			    "cache, ext4 journal, writeback throttling.",
		.info.why = "Threads in D cannot be interrupted and usually wait on the same lock or "
		       "queue. Which one says what to change: xfs_ilock points at buffered or "
		       "extending writes, blk_mq_get_tag at a queue depth above the device's "
		       "tags, folio waits at the page cache. A thread waiting on its own I/O "
		       "(a direct I/O's completion, a device tag, a page under I/O) is read "
		       "again until it is out of that sleep: stuck only after 3 s in it, since "
		       "a loaded device's requests keep their threads in D for up to a few "
		       "hundred ms; where a watch's scene measured its devices' requests taking "
		       "more than 300 ms on average, the finding says the wait may be a slow "
		       "device's (scene-device) and stays a warning; a thread waiting on a lock "
		       "is stuck after 20 ms.",
		.info.fix = "follow the fix of each class in the finding",
		.info.reference = "https://man7.org/linux/man-pages/man5/proc_pid_stat.5.html",
	},
	{
		.info.id = "proc-memlock",
		.info.title = "Locked and pinned memory leaves room under RLIMIT_MEMLOCK",
		.info.category = "proc-threads",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROCESS,
		.run = check_proc_memlock,
		.info.looks_at = "VmLck and VmPin (registered buffers show as pinned) of the process "
			    "against its RLIMIT_MEMLOCK and CAP_IPC_LOCK.",
		.info.why = "Registered buffers, and rings on 6.14+, are charged to RLIMIT_MEMLOCK; "
		       "close to the limit the next registration fails with ENOMEM. The charge "
		       "is per user, so other processes of the same user count too.",
		.info.fix = FIX_MEMLOCK_TEXT,
		.info.reference = "https://github.com/axboe/liburing/issues/1408",
	},
	{
		.info.id = "probe-o-direct",
		.info.title = "O_DIRECT is accepted where the probe ran",
		.info.category = "probe",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_PROBE,
		.run = check_probe_o_direct,
		.info.looks_at = "The probe's own temporary file in --dir, opened with O_DIRECT, and "
			    "its statx(STATX_DIOALIGN).",
		.info.why = "Every probe mode, like every storage service on io_uring's fast path, "
		       "needs direct I/O. tmpfs accepts it as a no-op from 6.6 and refuses it "
		       "before; some filesystems refuse it outright.",
		.info.fix = "run the probe, and the service, on XFS or ext4 on a block device",
		.info.reference = "https://man7.org/linux/man-pages/man2/open.2.html",
	},
	{
		.info.id = "probe-fast-path",
		.info.title = "No O_DIRECT request of the probe was punted to io-wq",
		.info.category = "probe",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_PROBE,
		.flags = CHECK_PROBE_VERDICT,
		.run = check_probe_fast_path,
		.info.looks_at = "Punts per mode: the io_uring:io_uring_queue_async_work tracepoint "
			    "counted on the probe's threads with perf_event_open (root), else new "
			    "iou-wrk threads. Fails when any O_DIRECT mode's share of punts is over "
			    "punt-tolerance (1%) by more than chance (under 5%).",
		.info.why = "Random O_DIRECT reads and overwrites of a written file are the best case: "
		       "if they punt here, the service will too. Measured on this host: ext4 on "
		       "virtio did not punt them at any depth; XFS on a loop device punted "
		       "writes at depth 16 and above.",
		.info.fix = "follow the cause named for the filesystem (lazytime on XFS; no stacked "
		       "device; depth within nr_requests)",
		.info.reference = "https://kernel.dk/io_uring.pdf",
	},
	{
		.info.id = "probe-sqpoll",
		.info.title = "SQPOLL came up and submissions stopped entering the kernel",
		.info.category = "probe",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROBE,
		.run = check_probe_sqpoll,
		.info.looks_at = "The sqpoll mode: an iou-sqp thread in the probe's task list, and "
			    "io_uring_enter calls per I/O (its syscall tracepoint as root, else the "
			    "probe's own calls).",
		.info.why = "With SQPOLL the kernel thread picks up submissions and completions are "
		       "polled from user space, so io_uring_enter should all but disappear. If "
		       "it does not, the thread keeps falling asleep (sq_thread_idle) or cannot "
		       "be created.",
		.info.fix = "SQPOLL needs root before 5.11 and CAP_SYS_NICE in 5.11-5.12",
		.info.reference = "https://man7.org/linux/man-pages/man2/io_uring_setup.2.html",
	},
	{
		.info.id = "probe-fixed-buffers",
		.info.title = "Registered buffers and a registered file work here",
		.info.category = "probe",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROBE,
		.run = check_probe_fixed_buffers,
		.info.looks_at = "The sqpoll-fixed mode's io_uring_register_buffers() of one buffer per "
			    "queue slot and io_uring_register_files() of the probe file.",
		.info.why = "Registration is charged to RLIMIT_MEMLOCK; where it fails with ENOMEM the "
		       "service silently runs without registered buffers. The probe says so and "
		       "runs the other modes.",
		.info.fix = FIX_MEMLOCK_TEXT,
		.info.reference = "https://github.com/axboe/liburing/issues/1408",
	},
	{
		.info.id = "probe-cq-overflow",
		.info.title = "The probe's rings never overflowed their CQ",
		.info.category = "probe",
		.info.severity = SEVERITY_LOW,
		.scope = SCOPE_PROBE,
		.run = check_probe_cq_overflow,
		.info.looks_at = "IORING_SQ_CQ_OVERFLOW in each mode's ring flags after the run.",
		.info.why = "The probe reaps every completion into a CQ twice its depth: an overflow "
		       "here means the measurement itself is suspect.",
		.info.fix = "report it: a CQ twice the queue depth should not overflow",
		.info.reference = "https://man7.org/linux/man-pages/man2/io_uring_setup.2.html",
	},
	{
		.info.id = "probe-net-punts",
		.info.title = "No socket request of the network probe was punted to io-wq",
		.info.category = "probe",
		.info.severity = SEVERITY_HIGH,
		.scope = SCOPE_PROBE,
		.flags = CHECK_PROBE_NET,
		.run = check_probe_net_punts,
		.info.looks_at = "probe --net: the io_uring:io_uring_queue_async_work tracepoint counted "
			    "on every thread of the probe with perf_event_open (root), per io_uring "
			    "mode, next to io_uring:io_uring_poll_arm; without root, the io-wq "
			    "workers alive when a mode's clients are done.",
		.info.why = "A socket request that cannot complete at once gets -EAGAIN and is armed "
		       "on poll (FEAT_FAST_POLL, 5.7+): the network fast path, with no thread "
		       "involved. It goes to an io-wq worker when the file cannot be polled, "
		       "arming the poll fails, the request kept getting -EAGAIN after its poll "
		       "wakeups (one retry on older kernels, up to APOLL_MAX_RETRY, 128, on "
		       "newer ones), or the application set IOSQE_ASYNC, which forces io-wq and "
		       "has made thread explosions in servers.",
		.info.fix = "never set IOSQE_ASYNC on socket requests; a punt of the probe on "
		       "loopback is rare: run it again, and report one that stays with the "
		       "kernel version",
		.info.reference = "https://github.com/axboe/liburing/issues/426",
	},
	{
		.info.id = "probe-net-features",
		.info.title = "The network features of io_uring work on this kernel",
		.info.category = "probe",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROBE,
		.flags = CHECK_PROBE_NET,
		.run = check_probe_net_features,
		.info.looks_at = "probe --net: each io_uring mode's features, tried before it runs: "
			    "the opcodes through io_uring_get_probe() (ACCEPT 5.5, RECV and SEND 5.6, "
			    "SEND_ZC 6.0), a provided buffer ring (5.19), multishot accept (5.19) and "
			    "multishot recv (6.0) on a loopback pair, IORING_REGISTER_NAPI (6.9).",
		.info.why = "Thread-per-core servers (monoio, glommio, Seastar) use multishot accept "
		       "and recv with provided buffer rings, zero-copy send and NAPI busy "
		       "polling where the kernel has them, and fall back, or fail, where it does "
		       "not. The kernel refuses an unknown flag or registration with EINVAL, "
		       "which is what the probe reads, never the version string.",
		.info.fix = "run the service on a kernel with the features it uses, or let it fall "
		       "back to single-shot requests",
		.info.reference = "https://man7.org/linux/man-pages/man2/io_uring_register.2.html",
	},
	{
		.info.id = "probe-net-echo",
		.info.title = "Every request of the network probe succeeded and every echo matched",
		.info.category = "probe",
		.info.severity = SEVERITY_MEDIUM,
		.scope = SCOPE_PROBE,
		.flags = CHECK_PROBE_NET,
		.run = check_probe_net_echo,
		.info.looks_at = "probe --net: failed completions on the servers, and the clients' "
			    "comparison of each echo with the message sent.",
		.info.why = "The numbers of a mode whose requests failed or whose echoes came back "
		       "wrong measure something else than an echo.",
		.info.fix = "report it with the kernel version and the failing mode",
		.info.reference = "https://man7.org/linux/man-pages/man2/io_uring_enter.2.html",
	},
	{
		.info.id = "probe-net-enobufs",
		.info.title = "Multishot recv never ran out of provided buffers",
		.info.category = "probe",
		.info.severity = SEVERITY_LOW,
		.scope = SCOPE_PROBE,
		.flags = CHECK_PROBE_NET,
		.run = check_probe_net_enobufs,
		.info.looks_at = "probe --net, multishot mode: recv completions with -ENOBUFS, and how "
			    "often a multishot request ended and was armed again.",
		.info.why = "A multishot recv whose buffer group is empty completes with ENOBUFS and "
		       "ends; the server must give buffers back and arm it again, and meanwhile "
		       "the connection is not read. The probe gives each worker two buffers a "
		       "connection and returns each as soon as it is copied, so ENOBUFS here "
		       "means buffers come back too late.",
		.info.fix = "return buffers to the ring right after use, size the ring for the "
		       "connections a thread holds",
		.info.reference = "https://github.com/axboe/liburing/issues/778",
	},
	{
		.info.id = "probe-net-napi",
		.info.title = "IORING_REGISTER_NAPI works on this kernel",
		.info.category = "probe",
		.info.severity = SEVERITY_INFO,
		.scope = SCOPE_PROBE,
		.flags = CHECK_PROBE_NET,
		.run = check_probe_net_napi,
		.info.looks_at = "probe --net, napi mode: IORING_REGISTER_NAPI on each worker's ring "
			    "(6.9+; EOPNOTSUPP without CONFIG_NET_RX_BUSY_POLL), and on 6.12+ the "
			    "ring's fdinfo line NAPI: enabled.",
		.info.why = "With NAPI registered, io_uring adds the NAPI id of each socket it arms "
		       "poll on to the ring's list and busy-polls those NAPI instances while "
		       "waiting for completions. Loopback traffic goes through no NAPI "
		       "instance a socket is marked with, so the list stays empty and nothing "
		       "is busy-polled: the probe shows that the registration works and what "
		       "it costs, not what busy polling gains on a real NIC.",
		.info.fix = "measure busy polling on the service's NIC, with napi_defer_hard_irqs "
		       "and gro_flush_timeout set when prefer-busy-poll is used",
		.info.reference = "https://docs.kernel.org/networking/napi.html",
	},
};
const size_t check_table_len = ARRAY_SIZE(check_table);
