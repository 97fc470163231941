/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_CHECKS_H
#define URINGLINT_CHECKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apps.h"
#include "host_facts.h"
#include "net.h"
#include "probe.h"
#include "proc_facts.h"
#include "report.h"
#include "watch.h"

/*
 * A check is a row of check_table (registry.c): static data plus a pure
 * function from facts to findings. Checks never open files and never
 * print; the collectors in facts/ did the reading, report/'s writers do the printing.
 */

enum check_scope {
	SCOPE_HOST,
	SCOPE_PROCESS,
	SCOPE_PROBE,
};

#define CHECK_NEEDS_ROOT (1u << 0)	/* skip with a reason when not root */
#define CHECK_LIVE_ONLY (1u << 1)	/* skip with a reason under --root */
/*
 * Judged from more on the live system than a captured tree holds (a live
 * try, a window of two readings, extents): a replay may say less, and it
 * says so; it never passes what the live system failed.
 */
#define CHECK_LIVE_FACTS (1u << 3)
/* Judges the network probe (probe --net), not the storage probe. */
#define CHECK_PROBE_NET (1u << 4)
/* Its pass is the probe's verdict: the JSON's probe.fast_path. */
#define CHECK_PROBE_VERDICT (1u << 2)

/*
 * The live tries, and the reads of the whole host, a check's facts need, in
 * its row: the collectors do them only when a selected check asks, so no
 * command lists check ids.
 */
#define CHECK_TRY_FEATURES (1u << 0)	/* a ring with each setup flag, opcode, registration */
#define CHECK_TRY_ODIRECT (1u << 1)	/* an O_DIRECT temporary file in each data directory */
#define CHECK_READ_PROCESSES (1u << 2)	/* every process's comm: whether irqbalance runs */

/* What the operator plans to run: preflight judges the host against it. */
struct plan {
	bool has_sqpoll_cpus;
	struct cpuset sqpoll_cpus;
	unsigned int depth;		/* queue depth per ring */
	unsigned int ring_entries;	/* SQ entries per ring (CQ: twice that) */
	uint64_t fixed_buffer_bytes;	/* registered buffers in all */
	bool iopoll;
	/*
	 * The planned network service: its worker threads, one a CPU in the
	 * thread-per-core model, and the CPUs they are pinned to (unknown
	 * without --worker-cpus). workers 0: no network service planned.
	 */
	unsigned int workers;
	bool has_worker_cpus;
	struct cpuset worker_cpus;
};

/* The most workers a plan may name: CONFIG_NR_CPUS's ceiling. */
#define PLAN_WORKERS_MAX CPULIST_MAX

#define PLAN_DEFAULT_DEPTH 128u
#define PLAN_DEFAULT_RING_ENTRIES 4096u
#define PLAN_DEFAULT_FIXED_BUFFERS (64ull << 20)

void plan_defaults(struct plan *p);
/* After the options: --worker-cpus alone plans one worker on each of its CPUs. */
void plan_net_defaults(struct plan *p);

/* The judgment thresholds a --config file may move. */
struct thresholds {
	double busy_idle;		/* SQPOLL work ratio below this spins idle (0.10) */
	double busy_saturated;		/* above this is saturated (0.95) */
	unsigned int extent_limit;	/* a data file with more extents is fragmented (1000) */
	/*
	 * The share of a process's (or a file's, or the probe's) requests that
	 * may be punted without a failure: one rule for every punt check. Under
	 * it, punts are named with their cause as advice (info): another
	 * reader's page cache, an XFS timestamp update now and then.
	 */
	double punt_tolerance;
};

#define PUNT_TOLERANCE_DEFAULT 0.01

void thresholds_defaults(struct thresholds *t);

/* What audit is told about the process's data. */
struct audit_opts {
	const char *const *data_paths;	/* --data-path GLOBs */
	size_t ndata_paths;
};

struct check_ctx {
	const struct host_facts *host;
	const struct plan *plan;
	const struct proc_facts *proc;	/* process checks */
	const struct audit_opts *audit;
	const struct probe_result *probe;	/* probe checks */
	const struct net_result *probe_net;	/* probe checks of CHECK_PROBE_NET rows */
	const struct thresholds *th;		/* NULL: the defaults */
	struct report *report;
	/*
	 * The application of app_of (proc_app), matched once per process: the
	 * file checks ask for every file, and a match is a glob per rule and
	 * mapped library. Set with check_ctx_set_proc().
	 */
	const struct proc_facts *app_of;
	const struct app_entry *app;
};

/*
 * Why a filesystem punts a kind of request, on which kernels (fs_punt_rules.c):
 * certain when every such request is punted whatever the load.
 */
enum punt_kind {
	PUNT_ANY,		/* every read and write */
	PUNT_WRITE,		/* every write, buffered or O_DIRECT */
	PUNT_READ,		/* every read, buffered or O_DIRECT */
	PUNT_BUFFERED_WRITE,
	PUNT_BUFFERED_READ,
	PUNT_DIO_EXTEND,	/* O_DIRECT writes past the end of the file */
	PUNT_DIO_HOLE,		/* O_DIRECT writes into holes */
	PUNT_DIO_UNWRITTEN,	/* O_DIRECT writes into unwritten (fallocated) extents */
};

struct punt_rule {
	const char *fs;		/* the fstype as mountinfo names it */
	enum punt_kind kind;
	int kv_min, kv_max;	/* major * 1000 + minor; 0, 999999: every kernel */
	bool certain;
	const char *why;	/* the mechanism, in a sentence */
	const char *fix;	/* NULL: the cause's own fix */
};

struct kernel_version;
/* The rule for fstype on kernel kv (NULL: unknown) and this kind of request, or NULL. */
const struct punt_rule *punt_rule_find(const char *fstype, const struct kernel_version *kv,
				       enum punt_kind kind);

/* The context's thresholds, or the defaults. */
const struct thresholds *check_thresholds(const struct check_ctx *ctx);

/*
 * One rule for every punt check (checks/punt_chance.c): fail when the punts
 * show a share of reqs over the tolerance, more than chance would give at
 * the tolerated share (or reqs is unknown); info when they do not; pass
 * without punts.
 */
enum check_status punt_status(const struct check_ctx *ctx, uint64_t punts, uint64_t reqs);

/*
 * The chance of punts or more among reqs requests if each punted at the
 * tolerated share: 1 when the share is at most the tolerance.
 */
double punt_chance(const struct check_ctx *ctx, uint64_t punts, uint64_t reqs);

/*
 * For an info finding, ", under the punt tolerance of 1% (punt-tolerance):
 * not off the fast path" or ", over the punt tolerance of 1% (...) by no more
 * than chance (...): not shown off the fast path"; "" for any other status.
 */
const char *punt_tolerance_text(const struct check_ctx *ctx, enum check_status st,
				uint64_t punts, uint64_t reqs, char *buf, size_t n);

struct check;
typedef void (*check_run_fn)(const struct check *c, struct check_ctx *ctx);

struct check {
	struct check_info info;	/* id, title, category, severity and the explain texts */
	enum check_scope scope;
	unsigned int flags;
	unsigned int tries;	/* CHECK_TRY_*: the live tries its facts need */
	check_run_fn run;
	/* Parameters of generic runners, so simple checks need no function. */
	union {
		struct {
			uint32_t fail_below, warn_below;
			const char *fail_why, *warn_why;
		} kernel_min;
	} param;
};

extern const struct check check_table[];
extern const size_t check_table_len;

const struct check *check_find(const char *id);
const char *check_scope_name(enum check_scope scope);

/* --only / --skip: comma-separated ids. */
struct check_policy {
	const char *only;
	const char *skip;
};

/*
 * 0, or -EINVAL with *bad pointing at the unknown id (caller frees *bad),
 * or -ENODATA (*bad NULL) for a list given that names no check at all
 * ("", ","): it would run nothing, or skip nothing, and say all is well.
 */
int check_policy_validate(const struct check_policy *pol, char **bad);

/* Whether the policy lets check id run (it exists, is in --only, not in --skip). */
bool check_policy_selects(const struct check_policy *pol, const char *id);

/* The CHECK_TRY_* bits of every check the policy selects. */
unsigned int check_policy_tries(const struct check_policy *pol);

/* Runs every check of one scope, in table order, honouring the policy. */
void checks_run_scope(enum check_scope scope, struct check_ctx *ctx,
		      const struct check_policy *pol);

/* Runners, shared by rows of the table. */
void check_kernel_min(const struct check *c, struct check_ctx *ctx);
void check_io_uring_available(const struct check *c, struct check_ctx *ctx);
void check_io_uring_disabled_sysctl(const struct check *c, struct check_ctx *ctx);
void check_memlock_limit(const struct check *c, struct check_ctx *ctx);
void check_kernel_cves(const struct check *c, struct check_ctx *ctx);
void check_io_uring_features(const struct check *c, struct check_ctx *ctx);
void check_container_seccomp(const struct check *c, struct check_ctx *ctx);
void check_nproc_limit(const struct check *c, struct check_ctx *ctx);
void check_nofile_limit(const struct check *c, struct check_ctx *ctx);
void check_sqpoll_cpu_isolated(const struct check *c, struct check_ctx *ctx);
void check_sqpoll_cpu_irqs(const struct check *c, struct check_ctx *ctx);
void check_irqbalance(const struct check *c, struct check_ctx *ctx);
void check_cpu_frequency_governor(const struct check *c, struct check_ctx *ctx);
void check_numa_locality(const struct check *c, struct check_ctx *ctx);
void check_net_queues(const struct check *c, struct check_ctx *ctx);
void check_net_irq_placement(const struct check *c, struct check_ctx *ctx);
void check_net_rps_xps(const struct check *c, struct check_ctx *ctx);
void check_net_backlog_limits(const struct check *c, struct check_ctx *ctx);
void check_fs_type(const struct check *c, struct check_ctx *ctx);
void check_fs_o_direct(const struct check *c, struct check_ctx *ctx);
void check_dio_alignment(const struct check *c, struct check_ctx *ctx);
void check_mount_options(const struct check *c, struct check_ctx *ctx);
void check_blk_queue_depth(const struct check *c, struct check_ctx *ctx);
void check_blk_scheduler(const struct check *c, struct check_ctx *ctx);
void check_blk_stacked(const struct check *c, struct check_ctx *ctx);
void check_blk_iopoll(const struct check *c, struct check_ctx *ctx);
void check_uring_fallback(const struct check *c, struct check_ctx *ctx);
void check_proc_rings(const struct check *c, struct check_ctx *ctx);
void check_fd_o_direct(const struct check *c, struct check_ctx *ctx);
void check_fd_append(const struct check *c, struct check_ctx *ctx);
void check_fixed_buf_alignment(const struct check *c, struct check_ctx *ctx);
void check_file_extents(const struct check *c, struct check_ctx *ctx);
void check_sqpoll_busy_ratio(const struct check *c, struct check_ctx *ctx);
void check_sqpoll_submitter_cpu(const struct check *c, struct check_ctx *ctx);
void check_sqpoll_cpu_placement(const struct check *c, struct check_ctx *ctx);
void check_sqpoll_shared(const struct check *c, struct check_ctx *ctx);
void check_cq_overflow(const struct check *c, struct check_ctx *ctx);
void check_iowq_workers(const struct check *c, struct check_ctx *ctx);
/* The incident scene (proc_scene.c); thresholds in docs/commands.md. */
#define SCENE_UTIL_LIMIT 95.0	/* %util at which a device is at its limit */
#define SCENE_QUEUE_FULL 8.0	/* aqu-sz of a full queue */
#define SCENE_LOW_IOPS 1000.0	/* requests/s under which a full queue is a collapse */
#define SCENE_IDLE_UTIL 1.0	/* %util under which a device did (next to) nothing */
#define SCENE_CPU_LOST 10.0	/* percent of a CPU lost to hi+si, or to steal */
#define SCENE_IOWQ_CPU 0.5	/* CPUs io-wq workers may burn */
void check_scene_device(const struct check *c, struct check_ctx *ctx);
void check_scene_cpu(const struct check *c, struct check_ctx *ctx);
void check_scene_writeback(const struct check *c, struct check_ctx *ctx);
void check_scene_iowq(const struct check *c, struct check_ctx *ctx);
void check_dstate_threads(const struct check *c, struct check_ctx *ctx);
void check_proc_memlock(const struct check *c, struct check_ctx *ctx);
void check_iowq_punts(const struct check *c, struct check_ctx *ctx);
void check_file_punts(const struct check *c, struct check_ctx *ctx);
void check_ring_submitters(const struct check *c, struct check_ctx *ctx);
void check_ring_completion_errors(const struct check *c, struct check_ctx *ctx);
void check_ring_iosqe_async(const struct check *c, struct check_ctx *ctx);
void check_ring_cq_fill(const struct check *c, struct check_ctx *ctx);
void check_ring_setup_flags(const struct check *c, struct check_ctx *ctx);
void check_ring_thread_cpus(const struct check *c, struct check_ctx *ctx);
void check_ring_taskrun(const struct check *c, struct check_ctx *ctx);
void check_ring_latency(const struct check *c, struct check_ctx *ctx);
void check_net_listeners(const struct check *c, struct check_ctx *ctx);
void check_net_punts(const struct check *c, struct check_ctx *ctx);
/*
 * With a watch, "; in the 2.0 s watched, ACCEPT went to ring fd 5 from tid
 * 10, 11": which rings took ACCEPT requests and the threads that drive
 * them, for net-listeners to say who accepts; empty without one.
 */
void net_accept_threads(const struct check_ctx *ctx, char *buf, size_t n);
void check_net_multishot(const struct check *c, struct check_ctx *ctx);
void check_net_accept_backlog(const struct check *c, struct check_ctx *ctx);
void check_net_busy_poll(const struct check *c, struct check_ctx *ctx);


void check_probe_o_direct(const struct check *c, struct check_ctx *ctx);
void check_probe_fast_path(const struct check *c, struct check_ctx *ctx);
void check_probe_sqpoll(const struct check *c, struct check_ctx *ctx);
void check_probe_fixed_buffers(const struct check *c, struct check_ctx *ctx);
void check_probe_cq_overflow(const struct check *c, struct check_ctx *ctx);
void check_probe_net_punts(const struct check *c, struct check_ctx *ctx);
void check_probe_net_features(const struct check *c, struct check_ctx *ctx);
void check_probe_net_echo(const struct check *c, struct check_ctx *ctx);
void check_probe_net_enobufs(const struct check *c, struct check_ctx *ctx);
void check_probe_net_napi(const struct check *c, struct check_ctx *ctx);

/*
 * The status of a finding about a missing fact: error when it was read but
 * made no sense (-EBADMSG), skip when it could not be read (no permission,
 * no such file, the process gone, a feature absent: any other errno).
 */
enum check_status fact_status(const struct fact_err *e);

/*
 * What a host check calls when a fact it needs is missing: a finding with
 * fact_status() and the fact's reason as its message.
 */
struct finding *check_fact_missing(const struct check *c, struct check_ctx *ctx,
				   const char *subject, const struct fact_err *e);

/*
 * Per-directory checks: a finding whose subject is the directory and whose
 * evidence names its filesystem and device. dir_checks_each() calls fn for
 * every --dir whose mount is known, and reports the others, or the lack of
 * any --dir, as skips.
 */
__attribute__((format(printf, 5, 6)))
struct finding *dir_add(const struct check *c, struct check_ctx *ctx, const struct dir_facts *df,
			enum check_status st, const char *fmt, ...);
void dir_checks_each(const struct check *c, struct check_ctx *ctx,
		     void (*fn)(const struct check *c, struct check_ctx *ctx,
				const struct dir_facts *df));

/*
 * Process checks: a finding about pid (subject "pid N ..." and the pid
 * field set). proc_usable() reports, once per check, why a process cannot
 * be judged (gone, kernel thread, zombie, no io_uring, unreadable fds) and
 * returns false then.
 */
__attribute__((format(printf, 5, 6)))
struct finding *proc_add(const struct check *c, struct check_ctx *ctx, enum check_status st,
			 const char *subject, const char *fmt, ...);
bool proc_usable(const struct check *c, struct check_ctx *ctx, bool need_fds);
/* check_fact_missing() for a process check: the pid field set too. */
struct finding *proc_fact_missing(const struct check *c, struct check_ctx *ctx,
				  const char *subject, const struct fact_err *e);

/*
 * The ring map's checks (audit --watch): the watch when there are rings
 * with samples to judge, else NULL and the finding that says why; and a
 * ring's subject, by the fd it was matched to or else by its order.
 */
const struct punt_watch *ringmap_watch(const struct check *c, struct check_ctx *ctx);
void ringmap_subject(const struct proc_facts *pf, size_t ring, char *buf, size_t n);
/* The same without the pid: "ring fd 3", "ring 2 (fd not matched)"; returns buf. */
const char *ringmap_ring_name(const struct proc_facts *pf, size_t ring, char *buf, size_t n);
/* A thread with at least this share of a ring's requests is named as one that drives it. */
#define DRIVER_SHARE 0.05

/*
 * The process's SQPOLL threads for a check, each once with the first ring
 * that names it (at most SQ_MAX); none adds a skip that says why.
 */
/*
 * What the audit's window measured of the time a SQPOLL thread lost: waiting
 * for a CPU (schedstat) and, where fdinfo has the times, how saturated it was.
 * Placement is judged by it: a placement that cost nothing measured is a risk
 * to know of, not a warning.
 */
#define SQPOLL_WAIT_HARM_PCT 10		/* of the window spent waiting for a CPU */
struct sqpoll_harm {
	const char *why;		/* not measured, and why; NULL when measured */
	unsigned int window_ms;
	uint64_t wait_ns;		/* waited for a CPU in the window */
	double busy;			/* work / CPU time in the window; < 0 unknown */
	bool waited;			/* wait_ns >= SQPOLL_WAIT_HARM_PCT of the window */
	bool saturated;			/* busy over the busy-ratio check's threshold */
};
void sqpoll_harm(const struct check_ctx *ctx, const struct proc_ring *r, struct sqpoll_harm *h);

#define SQ_MAX 256
size_t sqpoll_rings_or_skip(const struct check *c, struct check_ctx *ctx,
			    const struct proc_ring **sq);

/* Why a file counts as a data file (registered, --data-path, large and written), or NULL. */
/*
 * Why f is a data file of io_uring's, or NULL: io_uring made requests on
 * it while watched; else registered with a ring, or named by --data-path.
 */
const char *proc_data_file(const struct check_ctx *ctx, const struct proc_file *f);
/*
 * Not watched, and not known to be io_uring's: a writable file on a disk
 * that io_uring may or may not write. Judging it would claim more than was
 * seen; it is listed as not judged.
 */
bool proc_unjudged_file(const struct check_ctx *ctx, const struct proc_file *f);
bool proc_file_writable(const struct proc_file *f);
/*
 * What the file checks read of f, asked while the process is collected
 * (not watched yet; a watched audit collects everything): all of a data
 * file's or an O_DIRECT file's details, a writable file's type, or nothing.
 */
enum proc_file_need proc_file_need(const struct check_ctx *ctx, const struct proc_file *f);

/*
 * What the process's io-wq workers did in the audit's window: ran (or sat
 * blocked in D state on a punted request), slept through it (a pool keeps
 * its last worker for good once a punt started one), started during it,
 * exited (an idle timeout), or could not be told; workers the collection
 * counted that the window never saw are unknown. False without a window.
 */
struct workers_activity {
	unsigned int ran, idle, started, exited, unknown;
	unsigned int blocked;		/* among ran: in D state at a reading */
};
bool proc_workers_activity(const struct proc_facts *pf, struct workers_activity *a);

/* The known application (lib/apps/app_fixes.tbl) the process is, or NULL. */
const struct app_entry *proc_app(const struct proc_facts *pf);
/* Sets ctx->proc (NULL: none) and looks its application up once. */
void check_ctx_set_proc(struct check_ctx *ctx, const struct proc_facts *pf);
/* proc_app() of ctx->proc: the one looked up by check_ctx_set_proc() when it is that process's. */
const struct app_entry *check_ctx_app(const struct check_ctx *ctx);
/* Adds the application's own setting for kind to fi's fix, when the table has one. */
void proc_app_fix(const struct check_ctx *ctx, struct finding *fi, enum app_fix_kind kind);
/*
 * The same for a finding about one file (path as /proc/PID/fd names it),
 * or with path NULL about the process: where the application's command
 * line says how it opens the file (QEMU's -drive and -blockdev), the fix
 * quotes that option and the evidence holds it (qemu_drive).
 */
void proc_app_fix_file(const struct check_ctx *ctx, struct finding *fi, enum app_fix_kind kind,
		       const char *path);
/*
 * What the application's own settings say of a kind of finding on path
 * (NULL: the process), in says: "-drive file=/vm.img has no aio= (threads,
 * the default)", "[share] aio read size = 0, aio write size = 0"; from
 * names where they were read ("its command line", smb.conf's path, marked
 * "(a path in the container's root)" for a container's process). false,
 * with says empty, when they say nothing of it; drive is the one QEMU
 * drive when path named one.
 */
struct qemu_drive;
#define APP_FROM_MAX 400
bool proc_app_config_says(const struct check_ctx *ctx, enum app_fix_kind kind, const char *path,
			  char *says, size_t sayssz, const struct qemu_drive **drive,
			  char from[APP_FROM_MAX]);
/*
 * Where a fix for a process in a container is to be run, "" outside one:
 * "; inside its systemd-nspawn container: nsenter -t 4242 -m -u -i -n -p".
 */
void proc_container_run(const struct proc_facts *pf, char *buf, size_t n);
/*
 * The container runtime's own command into pf's container (docker exec,
 * podman exec, lxc-attach, machinectl shell) into buf, "" when it has none
 * or the name or id it takes is unknown; returns buf.
 */
const char *proc_container_enter(const struct proc_facts *pf, char *buf, size_t n);

/* audit --watch ran with the tracepoints: per-file accounts exist. */
bool proc_watched(const struct proc_facts *pf);
/* The watch's account of an open file (its fd, on the same path), or NULL; wf may be NULL. */
const struct ut_file *proc_watched_file(const struct proc_facts *pf, const struct proc_file *f,
					const struct watch_file **wf);
/*
 * What the watch saw on registered files of the rings that register f: the
 * events name no fd, so these are the ring's, shared by its files; requests
 * of rings the audit could not tell apart are kept apart.
 */
struct watched_fixed {
	uint64_t reqs, punts;
	size_t files;			/* registered files of those rings */
	uint64_t unmapped_reqs, unmapped_punts;
};
void proc_watched_fixed(const struct proc_facts *pf, const struct proc_file *f,
			struct watched_fixed *wfx);

/*
 * The causes of a file's punts (punt_causes.c): their text, fixes and
 * evidence, built one causes_add() at a time. writes_always_punt(): the
 * filesystem punts every write of the file, whatever the worker did;
 * observed_causes() takes the punted writes whose worker showed its cause
 * off *rest_w and returns the timestamp punts a second; state_causes()
 * gives the rest in one direction the causes the file's flags and state
 * support; app_fixes_for_causes() adds the application's own settings.
 */
struct causes {
	char text[1024];
	char fix[1024];
	struct json_object *list;	/* evidence: [{cause, punts, certain, observed}] */
	unsigned int n;
	bool observed;			/* the causes added now were seen in the workers */
	bool glued;			/* the next cause's text follows a lead-in, no "; " */
	bool certain;			/* one cause is certain: every such request punts */
	bool kinds[APP_FIX_KINDS];	/* the application settings that would fix them */
};

__attribute__((format(printf, 6, 7)))
void causes_add(struct causes *c, const char *id, uint64_t punts, bool certain,
		const char *fix, const char *fmt, ...);
bool writes_always_punt(const struct check_ctx *ctx, const struct proc_file *pfile,
			const struct watch_file *wf);
double observed_causes(struct causes *c, const struct punt_watch *w, const struct ut_file *uf,
		       uint64_t *rest_w);
void state_causes(struct causes *c, const struct check_ctx *ctx, const struct proc_file *pfile,
		  const struct watch_file *wf, uint64_t punts, bool writes);
void app_fixes_for_causes(const struct check_ctx *ctx, struct finding *fi,
			  const struct causes *cs, const char *path);

/* "cpu 2" style subjects and "0-3" lists for messages. */
void cpus_format(const struct cpuset *set, char *buf, size_t bufsz);

/*
 * The host network checks' helpers (host_net.c, host_net_rps.c): fn called
 * for each device whose facts were read (skips for the others, and one when
 * no service is planned); the RX and TX queues read, NET_QUEUES_MAX at most;
 * a device's evidence; the i-th CPU of set, round robin.
 */
void net_devs_each(const struct check *c, struct check_ctx *ctx,
		   void (*fn)(const struct check *c, struct check_ctx *ctx,
			      const struct net_dev *d));
unsigned int nrxq(const struct net_dev *d);
unsigned int ntxq(const struct net_dev *d);
void dev_evidence(struct finding *f, const struct check_ctx *ctx, const struct net_dev *d);
unsigned int nth_cpu(const struct cpuset *set, unsigned int i);

/*
 * Why io_uring_setup() fails for credentials st (NULL when unknown), as the
 * kernel decides it (uring_causes.c): the EPERM cause, described in buf,
 * and the command that removes it.
 */
enum uring_eperm_cause {
	EPERM_NONE,
	EPERM_SYSCTL,	/* kernel.io_uring_disabled = 2 */
	EPERM_GROUP,	/* = 1, without CAP_SYS_ADMIN, not in kernel.io_uring_group */
	EPERM_SECCOMP,	/* a filter is active: a likely cause, not a proven one */
};
enum uring_eperm_cause uring_eperm_cause(const struct host_facts *hf, const struct proc_status *st,
					 char *buf, size_t len);
const char *uring_eperm_fix(enum uring_eperm_cause cause);

/*
 * RLIMIT_MEMLOCK against one ring: what a ring of sq_entries (CQ twice
 * that) charges on this kernel (an unknown kernel is taken as 6.14+), and
 * whether a caller with status st and limits lim (NULL when unknown) can
 * be refused for it.
 */
enum ring_memlock {
	RING_ML_UNKNOWN,	/* the caller's limit or capabilities unknown */
	RING_ML_CAP,		/* CAP_IPC_LOCK: io_uring charges nothing */
	RING_ML_UNCHARGED,	/* 5.12 to 6.13 charge rings to the memory cgroup */
	RING_ML_UNLIMITED,
	RING_ML_BELOW,		/* the limit is below one such ring */
	RING_ML_FITS,		/* it holds one; the user's other charges may not leave room */
};
uint64_t ring_memlock_charge(const struct host_facts *hf, uint32_t sq_entries, uint32_t cq_entries);
enum ring_memlock ring_memlock_judge(const struct host_facts *hf, const struct proc_status *st,
				     const struct proc_limits *lim, uint64_t need);
/* Why io_uring_setup() of such a ring got ENOMEM, in words, into buf. */
void ring_enomem_why(const struct host_facts *hf, const struct proc_status *st,
		     const struct proc_limits *lim, uint32_t sq_entries, char *buf, size_t len);

#define FIX_SYSCTL_ZERO                                                                    \
	"sysctl -w kernel.io_uring_disabled=0, and persist it: echo "                      \
	"'kernel.io_uring_disabled = 0' > /etc/sysctl.d/90-io_uring.conf"
#define FIX_GROUP                                                                          \
	"add the service's user to a group and allow that group: sysctl -w "               \
	"kernel.io_uring_group=GID (persist in /etc/sysctl.d/90-io_uring.conf), or allow " \
	"everyone: " FIX_SYSCTL_ZERO
#define FIX_SECCOMP                                                                        \
	"run the service with a seccomp profile that allows io_uring_setup, "              \
	"io_uring_enter and io_uring_register (Docker: --security-opt seccomp=PROFILE.json; " \
	"Kubernetes: a Localhost seccompProfile); the runtime default profiles of Docker 25+ " \
	"and containerd 2.0+ block them"

/*
 * proc-memlock on kernels that charge rings to RLIMIT_MEMLOCK: whether the
 * limit, less used bytes locked and pinned and the process's own rings,
 * leaves no room for one more ring like its largest (none: the plan's
 * size); the words in buf when it does not.
 */
bool proc_memlock_ring_short(const struct check_ctx *ctx, uint64_t used, char *buf, size_t len);

/* Shared by the memlock-limit row and its findings. */
/*
 * The memlock fix for pf aimed at what starts it (its unit, container
 * runtime or login session), in buf; FIX_MEMLOCK_TEXT when none is known.
 */
const char *proc_memlock_fix(const struct proc_facts *pf, char *buf, size_t n);

#define FIX_MEMLOCK_TEXT                                                                   \
	"raise RLIMIT_MEMLOCK for the service's user: systemd unit [Service] "             \
	"LimitMEMLOCK=infinity (or a size); PAM logins: '<user> - memlock unlimited' in "  \
	"/etc/security/limits.d/io_uring.conf; containers: --ulimit memlock=-1:-1; or "    \
	"grant the service CAP_IPC_LOCK, which io_uring does not charge"

#endif
