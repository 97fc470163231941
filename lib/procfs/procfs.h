/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROCFS_H
#define URINGLINT_PROCFS_H

/* lib/procfs/: parsers of what the kernel shows in /proc and /sys. */

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cpulist.h"
#include "fact.h"
#include "sysroot.h"

/* fdinfo.c */

/* The four lines every /proc/PID/fdinfo/N starts with. */
struct fdinfo_generic {
	uint64_t pos;
	uint32_t flags;		/* f_flags, octal in the file: O_DIRECT, O_APPEND, ... */
	uint32_t mnt_id;	/* the ID column of /proc/PID/mountinfo */
	uint64_t ino;
};

struct uring_user_file {
	uint32_t index;
	char *path;		/* full path (6.14+) or basename (before); never "<none>" */
};

struct uring_user_buf {
	uint32_t index;
	uint64_t addr, len;
};

/*
 * The io_uring part of an io_uring fd's fdinfo, for every format from 5.10
 * to 6.18 (see docs/kernel-facts.md, section 1). has_* say which lines the kernel
 * printed; a field whose line is absent is unknown, never zero.
 */
struct uring_fdinfo {
	bool has_ring_state;		/* SqMask ... CachedCqTail (5.17+) */
	uint32_t sq_entries, cq_entries;
	uint32_t sq_head, sq_tail, cached_sq_head, cq_head, cq_tail, cached_cq_tail;
	uint32_t sqes_pending, cqes_pending;

	bool has_sq_thread;
	int32_t sq_thread;		/* TID, -1 none */
	int32_t sq_thread_cpu;

	bool has_sq_times;		/* 6.9+ */
	uint64_t sq_total_time_us, sq_work_time_us;

	bool has_user_files;
	uint32_t user_files;		/* table size incl. empty slots */
	uint32_t user_file_lines;	/* slot lines printed, "<none>" included */
	struct uring_user_file *files;	/* the non-empty slots */
	size_t nfiles, files_cap;

	bool has_user_bufs;
	uint32_t user_bufs;
	uint32_t user_buf_lines;
	struct uring_user_buf *bufs;	/* the non-empty slots */
	size_t nbufs, bufs_cap;

	bool has_overflow_list;		/* CqOverflowList (5.17+) */
	uint32_t cq_overflow;		/* entries listed */

	/*
	 * 6.12+ with CONFIG_NET_RX_BUSY_POLL: "NAPI:\tenabled" or "disabled"
	 * (napi_on), and when enabled the busy-poll time (ns) and whether it
	 * prefers busy polling to interrupts; 6.13+ the tracking mode.
	 */
	bool has_napi;
	char napi[32];			/* as printed: a later kernel's word is kept */
	bool napi_on;			/* "enabled" */
	bool has_napi_dt, has_napi_prefer;
	uint64_t napi_busy_poll_dt_ns;
	bool napi_prefer_busy_poll;
	char napi_tracking[16];		/* "dynamic", "static"; "" not printed (6.12) */
};

/* 0 or -EBADMSG when the generic lines are missing or garbled. */
int fdinfo_parse_generic(const char *text, struct fdinfo_generic *g);

/*
 * Parses the io_uring lines. Returns 0, -ENODATA when none are there (the
 * ring lock was busy on 6.18: only the generic lines), -EBADMSG for garbage,
 * -ENOMEM. Frees nothing on entry: call uring_fdinfo_free after.
 */
int uring_fdinfo_parse(const char *text, struct uring_fdinfo *u);
void uring_fdinfo_free(struct uring_fdinfo *u);

/*
 * Whether the kernel skipped the lock-protected part while printing: slot
 * lines missing though the table has slots. On 6.14+ empty file slots are
 * not printed, so only buffers (and files before 6.14) can tell.
 */
bool uring_fdinfo_lock_skipped(const struct uring_fdinfo *u, bool files_print_empty);


/* mountinfo.c */

/* One line of /proc/PID/mountinfo (proc(5)), octal escapes decoded. */
struct mount_entry {
	unsigned int id, parent;
	unsigned int major, minor;	/* st_dev of files on this mount */
	char root[1024];
	char mount_point[1024];
	char options[512];		/* per-mount: rw,relatime,... */
	char fstype[64];
	char source[512];
	char super_options[1024];	/* per-superblock: discard, ... */
};

/* 0 or -EBADMSG / -ENOMEM; *entries is a heap array the caller frees. */
int mountinfo_parse(const char *text, struct mount_entry **entries, size_t *n);

struct sysroot;

/*
 * Reads and parses a mount table under the sysroot ("proc/self/mountinfo"):
 * 0, or -errno of the read or the parse; *entries as mountinfo_parse.
 */
int mountinfo_read(const struct sysroot *sr, const char *rel, struct mount_entry **entries,
		   size_t *n);

/*
 * The mount a path lives on: the last entry (the top of a stack of mounts)
 * whose mount point is the longest directory prefix of path. With
 * major/minor given (live: from stat), entries of another device are
 * skipped, which sees through bind mounts and symlinked paths.
 */
const struct mount_entry *mountinfo_find(const struct mount_entry *e, size_t n, const char *path,
					 bool match_dev, unsigned int major, unsigned int minor);

/* Whether a comma-separated option list holds opt exactly ("sync", "lazytime"). */
bool mount_has_option(const char *options, const char *opt);


/* proc_maps.c */

/*
 * What proc/PID/maps shows of io_uring and of what a service falls back to
 * without it. A ring's memory is mapped as anon_inode:[io_uring] (two
 * mappings with liburing: the rings and the SQEs), even after its fd was
 * closed (io_uring_close_ring_fd()); each io_setup() context of Linux AIO
 * maps its ring as "/[aio] (deleted)"; an io_uring library linked
 * dynamically shows by its file. A runtime built into the binary leaves
 * no mark here.
 */
#define PROC_MAPS_MAX_LIBS 256

struct proc_maps {
	struct fact_err e;
	unsigned int mappings;
	unsigned int uring_maps;	/* anon_inode:[io_uring] */
	unsigned int aio_contexts;	/* /[aio] */
	char runtime[512];		/* path of the first io_uring library mapped, "" none */
	bool runtime_truncated;
	/* basenames of the shared objects mapped, distinct: which application this is */
	char *libs[PROC_MAPS_MAX_LIBS];
	size_t nlibs;
};

/*
 * 0, or -EBADMSG for a line that is not "addr perms offset dev inode [path]"
 * (m is then empty). Call proc_maps_free after either.
 */
int proc_maps_parse(const char *text, struct proc_maps *m);
void proc_maps_free(struct proc_maps *m);

/* Reads and parses proc/PID/maps; why it could not in m->e. */
void proc_maps_collect(const struct sysroot *sr, pid_t pid, struct proc_maps *m);


/* procfs_limits.c */

#define LIMIT_INFINITY UINT64_MAX

struct rlimit_pair {
	uint64_t soft, hard;	/* LIMIT_INFINITY for "unlimited" */
};

/* The rows of /proc/PID/limits that io_uring deployments depend on. */
struct proc_limits {
	struct rlimit_pair memlock;	/* bytes */
	struct rlimit_pair nproc;	/* processes (caps unbounded io-wq workers) */
	struct rlimit_pair nofile;	/* files */
};

/* 0, or -EBADMSG when a needed row is missing or its numbers are garbage. */
int proc_limits_parse(const char *text, struct proc_limits *lim);


/* procfs_status.c */

#define STATUS_MAX_GROUPS 256

/* Capability bit numbers (linux/capability.h) that io_uring cares about. */
#define CAP_BIT_IPC_LOCK 14
#define CAP_BIT_SYS_ADMIN 21
#define CAP_BIT_SYS_NICE 23

/* What uringlint needs from /proc/PID/status. */
struct proc_status {
	char name[64];
	pid_t tgid;
	uid_t uids[4];		/* real, effective, saved, filesystem */
	gid_t gids[4];
	uid_t euid;
	gid_t egid;
	gid_t groups[STATUS_MAX_GROUPS];
	unsigned int ngroups;
	bool groups_truncated;
	uint64_t cap_eff;
	int seccomp;		/* 0 off, 1 strict, 2 filter; -1 when the kernel has no line */
	int seccomp_filters;	/* -1 when absent (before 5.9) */
	int threads;
	uint64_t vm_lck_kb, vm_pin_kb;
	char cpus_allowed_list[256];
	/*
	 * NSpid: its pid in its own PID namespace, and how many namespaces
	 * the line lists (1: the reader's own; 2 or more: a nested one, such
	 * as a container's); 0 and 0 without the line.
	 */
	pid_t nspid;
	unsigned int ns_levels;
};

/* 0, or -EBADMSG when a line the kernel always prints is missing or garbled. */
int proc_status_parse(const char *text, struct proc_status *st);

/* Every one of the four user IDs is root's: started by root, not a set-user-ID program. */
bool proc_status_all_root(const struct proc_status *st);

bool proc_status_has_cap(const struct proc_status *st, unsigned int bit);
bool proc_status_in_group(const struct proc_status *st, gid_t gid);


/* task_iter.c */

/*
 * The processes under proc/ and the threads of a process, from
 * proc/PID/task: through a sysroot (a captured tree, or the live /proc:
 * one road, so a capture replays the processes and threads a live run
 * saw), or, for threads only, with sr NULL straight from the live /proc
 * (the probe's own threads). Entries that are not a PID are passed over,
 * so a planted "12x" or "." never becomes process 12 or 0.
 */
struct task_iter {
	DIR *d;
	int err;	/* after the end: 0, or -errno when the listing broke off */
};

/* Every process under proc/: 0, or -errno when proc/ cannot be listed. */
int proc_iter_open(struct task_iter *it, const struct sysroot *sr);
/* 0, or -errno: the process is gone (-ENOENT) or not readable. */
int task_iter_open(struct task_iter *it, const struct sysroot *sr, pid_t pid);
/* The next PID or TID in directory order; 0 at the end (see err). */
pid_t task_iter_next(struct task_iter *it);
void task_iter_close(struct task_iter *it);
/* The number of threads of pid there now, or -errno as task_iter_open. */
int task_count(const struct sysroot *sr, pid_t pid);


/* cmdline.c */

/*
 * Finds param=value in a kernel command line (/proc/cmdline). The kernel
 * lets a later occurrence override an earlier one, so the last one wins;
 * parameters after a lone "--" go to init and are ignored. Returns 0,
 * -ENOENT, or -EOVERFLOW when the value does not fit.
 */
int cmdline_get(const char *cmdline, const char *param, char *out, size_t outsz);

/* isolcpus=[nohz,domain,managed_irq,]LIST */
struct isolcpus {
	struct cpuset cpus;
	bool domain;		/* scheduler domain isolation (also the default with no flag) */
	bool nohz;
	bool managed_irq;	/* kernel-managed IRQs (NVMe queues) kept off these CPUs */
};

/* 0 or -EBADMSG. */
int cmdline_parse_isolcpus(const char *value, struct isolcpus *iso);

/* rcu_nocbs and nohz_full take a plain cpulist; "all" is allowed for rcu_nocbs. */
int cmdline_parse_cpulist(const char *value, const struct cpuset *possible, struct cpuset *set);


/* interrupts.c */

enum irq_class {
	IRQ_OTHER,
	IRQ_STORAGE,
	IRQ_NETWORK,
};

/* One numbered line of /proc/interrupts. */
struct irq_line {
	unsigned int irq;
	uint64_t count;		/* summed over CPUs */
	char chip[64];
	char name[96];		/* the action names ("nvme0q3", "virtio2-input.0") */
};

/*
 * Parses /proc/interrupts: the header gives the number of CPU columns;
 * numbered lines are kept, named ones (NMI, LOC, ...) skipped. On success
 * *lines is a heap array the caller frees. 0 or -EBADMSG / -ENOMEM.
 */
int interrupts_parse(const char *text, struct irq_line **lines, size_t *n);

/*
 * Storage or network queue interrupt, by the names drivers give them; the
 * device ("nvme0", "virtio2", "eth0") goes to device.
 */
enum irq_class irq_classify(const char *name, char *device, size_t devsz);
const char *irq_class_name(enum irq_class c);

/*
 * Whether an action name is a network queue's, by the fast-path names the
 * drivers give them (the patterns of Seastar's perftune.py):
 * "<if>-TxRx-3" (Intel, bnxt), "<x>-Tx-Rx-1" (ena), "<x>-fp-2" (Broadcom),
 * "mlx4-3@<bus>", "mlx5_comp3@<bus>", "virtioN-input.3" / "virtioN-output.3",
 * "<if>-rx-0" / "<if>-tx-0". *queue gets the queue's index, -1 when none.
 */
bool irq_net_queue(const char *name, int *queue);

/*
 * Whether an action name names this network device: its interface name as
 * a word of the name ("eth0-TxRx-3", "i40e-eth0-TxRx-3"), or its bus
 * device ("mlx5_comp3@pci:0000:3b:00.0", "virtio2-input.0"). busdev may be
 * empty.
 */
bool irq_names_netdev(const char *name, const char *ifname, const char *busdev);

/*
 * The IRQs irqbalance is told to leave alone on its command line
 * (proc/PID/cmdline, NUL-separated): --banirq=N, --banirq N, -i N, -iN.
 * Stores at most max of them; returns how many there are. args[len] must
 * be readable and NUL (sysroot_read_bytes ends its buffer so).
 */
size_t irqbalance_banned_irqs(const char *args, size_t len, unsigned int *irqs, size_t max);


/* cgroup_owner.c */

/*
 * Who runs a process, from its /proc/PID/cgroup: the systemd unit (a
 * service of the system or of a user's manager, or a scope: a login
 * session, a transient run) and the container (Docker, containerd or CRI-O
 * under Kubernetes, Podman, LXC, systemd-nspawn and other machines), each
 * recognised by the names their managers give cgroup directories. The
 * strings are the cgroup's bytes, unescaped: any user with a delegated
 * subtree names its directories, so writers escape them.
 */
enum cgroup_unit_kind {
	UNIT_NONE,
	UNIT_SYSTEM,		/* a unit of the system manager: NAME.service, NAME.scope */
	UNIT_USER,		/* a unit of user@UID.service, the user's own manager */
	UNIT_SESSION,		/* a login session's scope (session-N.scope): PAM's limits */
};

#define CGROUP_NAME_MAX 256

struct cgroup_owner {
	struct {
		enum cgroup_unit_kind kind;
		char name[CGROUP_NAME_MAX];	/* "fio.service", "session-3.scope" */
		char slice[CGROUP_NAME_MAX];	/* the slice it is in: "system.slice", "" none */
		long uid;			/* UNIT_USER, UNIT_SESSION: the user; -1 unknown */
	} unit;
	struct {
		const char *runtime;		/* "docker", "podman", "containerd", "cri-o",
						   "kubernetes", "lxc", "systemd-nspawn",
						   "machine"; NULL none */
		char id[CGROUP_NAME_MAX];	/* a container id ("" none) */
		char name[CGROUP_NAME_MAX];	/* lxc, nspawn or machine name ("" none) */
		char pod_uid[64];		/* Kubernetes pod UID ("" none) */
		/*
		 * A container under a user's manager (user@UID.service): rootless,
		 * that user's to run (or a scope the user named so); -1 none.
		 */
		long uid;
	} container;
	/* How it was recognised: "cgroup v2 path /system.slice/fio.service" */
	char how[CGROUP_NAME_MAX + 64];
};

/*
 * Parses the text of /proc/PID/cgroup: the v2 line ("0::PATH"), else v1's
 * name=systemd, else a v1 controller line whose path names a container.
 * 0 with o filled (a process in the root cgroup, in one no manager's
 * names, or on a host with no hierarchy mounted, whose file is empty, has
 * neither unit nor container), or -EBADMSG for text that is not a cgroup
 * file.
 */
int cgroup_owner_parse(const char *text, struct cgroup_owner *o);

/*
 * In words, "" when neither: "fio.service", "user 1000's unit x.service",
 * "docker container 0123456789ab", "fio.service in systemd-nspawn guest".
 */
void cgroup_owner_words(const struct cgroup_owner *o, char *buf, size_t n);
/* The container alone, "" when none. */
void cgroup_container_words(const struct cgroup_owner *o, char *buf, size_t n);


/* kernel_version.c */

struct kernel_version {
	unsigned int major, minor, patch;
	/* Where patch came from when the release string hides it (Debian, Ubuntu). */
	char patch_source[32];
	char release[128];
};

/* Comparable code; stable sublevels pass 255, so 10 bits each. */
#define KV(a, b, c) ((uint32_t)(a) << 20 | (uint32_t)(b) << 10 | (uint32_t)(c))

static inline uint32_t kernel_version_code(const struct kernel_version *kv)
{
	return KV(kv->major, kv->minor, kv->patch > 1023 ? 1023 : kv->patch);
}

/* Parses a release string ("6.18.44-fc-v657", "5.10.0-23-amd64"): 0 or -EBADMSG. */
int kernel_version_parse(const char *release, struct kernel_version *kv);

/*
 * Distribution kernels freeze the sublevel in the release string
 * ("6.1.0-50-cloud-amd64") and name the real one elsewhere: Debian at the
 * end of /proc/version ("Debian 6.1.158-1"), Ubuntu in
 * /proc/version_signature ("Ubuntu 5.15.0-91.101-generic 5.15.131").
 * Either text may be NULL. Only a version with the same major.minor is taken.
 */
void kernel_version_refine(struct kernel_version *kv, const char *proc_version,
			   const char *version_signature);


/* net_inet.c */

/*
 * The socket tables of /proc/PID/net, in the order a collector reads them:
 * the common ones first, so that a process whose sockets are all found
 * there costs no more reads.
 */
enum net_proto {
	NET_TCP,
	NET_TCP6,
	NET_UDP,
	NET_UDP6,
	NET_UNIX,
	NET_RAW,
	NET_RAW6,
	NET_UDPLITE,
	NET_UDPLITE6,
	NET_NPROTO,
	NET_OTHER = NET_NPROTO,	/* in no table read */
};

/* "tcp", "udp6", ...; the name of the file under /proc/PID/net too. "other" past the tables. */
const char *net_proto_name(enum net_proto p);
/* Whether the table has IPv6 addresses (32 hex digits). */
bool net_proto_v6(enum net_proto p);

/*
 * One line of tcp, tcp6, udp, udp6, raw, raw6, udplite or udplite6, all
 * printed by the kernel in the same columns (get_tcp4_sock,
 * udp4_format_sock, raw_sock_seq_show and their IPv6 twins). Addresses are
 * in network byte order, an IPv4 one in the first 4 bytes.
 */
struct inet_sock {
	uint64_t inode;		/* 0: no socket of a process (TIME_WAIT, a request) */
	uint8_t local[16], remote[16];
	uint16_t lport, rport;
	uint8_t state;		/* TCP_ESTABLISHED 1 ... TCP_NEW_SYN_RECV 12 */
	uint32_t tx_queue, rx_queue;	/* a listener's rx_queue: its accept queue now */
	uint32_t uid;
};

struct inet_table {
	struct inet_sock *v;
	size_t n, cap;
};

/* The longest line any of these tables has (tcp6: 178 bytes); longer is not the kernel's. */
#define NET_LINE_MAX 512

/*
 * Parses a whole table: its header, then one socket a line. 0, -EBADMSG
 * when the header or any line is not the kernel's (a truncated last line
 * too: the kernel ends each with a newline), -ENOMEM. Appends to t.
 */
int inet_table_parse(const char *text, bool v6, struct inet_table *t);
void inet_table_free(struct inet_table *t);

/* "LISTEN", "ESTABLISHED", ...; "UNKNOWN" past the kernel's states. */
const char *inet_state_name(uint8_t state);
#define INET_LISTEN 10

/*
 * An address as people write it: "127.0.0.1", "::1", and with a port
 * "127.0.0.1:8080" or "[::1]:8080". out needs INET_ADDR_MAX bytes.
 */
#define INET_ADDR_MAX 56
void inet_addr_text(const uint8_t *addr, bool v6, char *out, size_t outsz);
void inet_endpoint_text(const uint8_t *addr, uint16_t port, bool v6, char *out, size_t outsz);


/* net_route.c */

/* IFNAMSIZ, with its NUL: the longest interface name the kernel takes. */
#define NET_IFNAME_MAX 16

/*
 * The interfaces of the IPv4 default routes in /proc/net/route (a route
 * that is up, with destination and mask 0.0.0.0), each once, in table
 * order, at most max of them. 0, or -EBADMSG when the header is not the
 * kernel's or a line is cut short (a name too long, a field not hex).
 */
int net_route_default_ifaces(const char *text, char names[][NET_IFNAME_MAX], size_t max,
			     size_t *n);


/* net_unix.c */

/*
 * One unix socket: a line of /proc/PID/net/unix (net/unix/af_unix.c,
 * unix_seq_show), or one answer of NETLINK_SOCK_DIAG (lib/netlink/netlink.h).
 */
struct unix_sock {
	uint64_t inode;
	uint16_t type;		/* SOCK_STREAM 1, SOCK_DGRAM 2, SOCK_SEQPACKET 5 */
	uint8_t st;		/* SS_UNCONNECTED 1 ... SS_DISCONNECTING 4 */
	bool listening;		/* __SO_ACCEPTCON in Flags: listen() was called */
	char *path;		/* NULL unbound; "@name" abstract (each NUL an '@'), as printed */
	char *name;		/* the name's exact bytes (sock_diag only), NULL when unknown */
	uint16_t name_len;
	/*
	 * The table only: the line after this one claims a socket another line
	 * also claims, so it may be the rest of this socket's path made to look
	 * like a socket: this path may be cut short.
	 */
	bool path_suspect;
	uint32_t line;		/* the table only: its line, from 1 after the header */
};

struct unix_table {
	struct unix_sock *v;
	size_t n, cap;
	size_t skipped;		/* lines that are no socket: see unix_table_parse */
	bool from_diag;		/* read through sock_diag, not the table */
};

/*
 * Parses the whole table. 0, -EBADMSG when the header is not the kernel's
 * or the last line is cut before its newline, -ENOMEM. A bound path may
 * hold a newline, which the kernel prints raw: a line that is no socket
 * line is the rest of the path before it, and is joined to it (or, after
 * an unbound socket, counted in skipped). A path made to hold what looks
 * like a whole socket line cannot be told apart from one; when that line
 * claims the inode of another line, the caller finds the inode twice
 * (net_ns_unix's *ambiguous, never either identity), and the socket of
 * the line before each claim is marked path_suspect. Appends to t.
 */
int unix_table_parse(const char *text, struct unix_table *t);
void unix_table_free(struct unix_table *t);

/* "STREAM", "DGRAM", "SEQPACKET", or "UNKNOWN". */
const char *unix_type_name(uint16_t type);
/* As ss says it: "LISTEN", "ESTABLISHED" (connected), "UNCONNECTED", "CONNECTING", ... */
const char *unix_state_name(const struct unix_sock *u);


/* netstat.c */

/*
 * The listen counters of /proc/PID/net/netstat (TcpExt), which count for
 * the whole network namespace of PID since it was created, every
 * listener of every process in it together: ListenOverflows, a connection
 * that completed its handshake while the accept queue was full (or a SYN
 * dropped for it), and ListenDrops, every connection a listener dropped,
 * overflows included.
 */
struct netstat_listen {
	bool has_overflows, has_drops;
	uint64_t overflows, drops;
};

/*
 * Parses the whole file: pairs of lines, "Prefix: Name Name ..." then
 * "Prefix: value value ...", as net/ipv4/proc.c prints them. 0 (the
 * counters the kernel lacks left unset), or -EBADMSG when a pair does not
 * match (another prefix, another count of fields, a value that is not a
 * number), a line is cut, or a counter is named twice.
 */
int netstat_parse(const char *text, struct netstat_listen *out);


#endif
