/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_PROC_FACTS_H
#define URINGLINT_PROC_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "blockdev.h"
#include "procfs.h"
#include "fact.h"
#include "file_state.h"
#include "apps.h"
#include "proc_sockets.h"
#include "scene.h"
#include "proc_tasks.h"
#include "proc_window.h"
#include "strpool.h"
#include "sysroot.h"

struct punt_watch;

enum proc_file_type {
	PFILE_REGULAR,
	PFILE_BLOCK,
	PFILE_SOCKET,
	PFILE_PIPE,
	PFILE_URING,		/* anon_inode:[io_uring] */
	PFILE_OTHER,		/* other anon inodes, char devices, memfd, ... */
};

/* One open fd that is not a ring. */
struct proc_file {
	/* (In an order without holes: an audit holds 10,000 of them.) */
	int fd;
	enum proc_file_type type;
	char *path;			/* the readlink target, " (deleted)" kept; in paths */
	struct fdinfo_generic gen;
	uint64_t size;
	int mount;			/* index into proc_facts.mounts by mnt_id; -1 unknown */
	/* FIEMAP, live only, for regular files worth judging (see proc_facts.c); -errno */
	int ext_err;
	uint32_t extents, unwritten;
	/* statx(STATX_DIOALIGN) of the open file, live only; 0 unknown */
	uint32_t dio_mem_align, dio_offset_align;
	/* A block device's own number (PFILE_BLOCK, statx'd); 0:0 unknown */
	uint32_t rdev_major, rdev_minor;
	bool size_known;		/* statx'd: live, and a check judges it (PFILE_NEED_ALL) */
	bool registered;		/* in some ring's UserFiles */
	bool extents_truncated;
};

struct proc_ring {
	int fd;
	struct fdinfo_generic gen;
	struct uring_fdinfo u;
	int reads;			/* fdinfo reads it took */
	bool busy;			/* the ring lock stayed busy: the lock-held lines are missing */
	struct fact_err e;		/* unreadable or garbage */
};

/* A mount that holds some of the process's files (kept small: 10,000 fds share a few). */
struct proc_mount {
	uint32_t id;
	unsigned int major, minor;
	char fstype[32];
	char *source;			/* as long as mountinfo has it: it is shown */
};

/*
 * A data device of the process, with what its queue says: one a filesystem
 * of its files sits on, or a block device it holds open itself (opened).
 */
struct proc_device {
	unsigned int major, minor;
	bool opened;
	struct blockdev_facts blk;
};

/* Everything audit judges about one process. */
struct proc_facts {
	pid_t pid;
	/*
	 * The process pinned from its first read to its last (live, where
	 * pidfd_open works): a pid is the process's only while it lives, and
	 * the watch follows no other process that takes it.
	 */
	bool pinned;
	int pidfd;
	struct fact_err e;		/* -ESRCH: no such process; -EACCES: not ours */
	bool incomplete;		/* it exited while we read it */
	bool unread;			/* it exited before any of it was read (audit --exec) */
	bool kernel_thread, zombie;
	char comm[64];

	struct {
		struct fact_err e;
		struct proc_status st;
	} status;
	struct {
		struct fact_err e;
		struct proc_limits lim;
	} limits;

	/* fd table: files and rings; e holds why it could not be listed */
	struct fact_err fds_e;
	struct proc_file *files;
	size_t nfiles;
	/*
	 * Files (regular and the like) whose fdinfo could not be read or
	 * parsed while their fd stayed open: not in files, their flags unknown.
	 */
	unsigned int fdinfo_unread;
	struct strpool paths;		/* the files' paths */
	struct proc_ring *rings;
	size_t nrings;
	/*
	 * Without a ring of its own: its descendants that hold one (a forking
	 * server's workers), the first URING_CHILDREN_MAX, breadth first.
	 */
	pid_t ring_children[64];
	size_t nring_children;
	unsigned int nfds;

	/* socket fds, and sockets only in a ring's file table, with their tables' lines */
	struct proc_sockets sockets;

	struct proc_mount *mounts;
	size_t nmounts;

	struct proc_devices {
		struct proc_device *v;
		size_t n;
	} devices;

	struct proc_threads threads;

	/* What its mappings show: rings whose fd was closed, AIO, the libraries it uses */
	struct proc_maps maps;
	char exe[256];			/* basename of its executable, "" unknown */
	/*
	 * A QEMU system emulator's disk images and how it opens them, from its
	 * command line (read for such a process only; nothing else of it kept).
	 */
	struct qemu_drives qemu;
	/*
	 * A Samba server's smb.conf (the -s file, else /etc/samba/smb.conf,
	 * read inside the process's root), for an smbd root started only (real
	 * or saved uid 0): the path is the process's to choose. Only the
	 * io_uring parameters kept.
	 */
	struct smb_conf smb;
	char smb_conf_path[256];	/* "" when not read */
	/*
	 * A MariaDB server's InnoDB I/O settings, from the option files it reads
	 * (those the process's own user could read) and its command line; NULL
	 * for another process.
	 */
	struct my_cnf *mariadb;
	/*
	 * Its systemd unit and container, from proc/PID/cgroup; e holds why not
	 * (-ENOENT: a tree captured before cgroups were recorded).
	 */
	struct {
		struct fact_err e;
		struct cgroup_owner o;
		bool transient;		/* its unit was made by systemd-run (live only) */
		/* its PID and mount namespaces, and a container they show (proc_container.c) */
		struct proc_container {
			bool other_pid;		/* a PID namespace below the reader's (NSpid) */
			int other_mnt;		/* 1, 0, or -errno: ns/mnt is not the reader's */
			pid_t nspid;		/* its pid in its own namespace */
			bool named_by_ns;	/* the container was named from these, not the cgroup */
			char manager_said[72];	/* /run/host/container-manager in its root, "" none */
			char uuid[40];		/* /run/host/container-uuid */
		} ns;
	} owner;

	/* SQPOLL rings and threads read twice, PROC_WINDOW_MS apart (live only) */
	struct proc_window window;

	/*
	 * audit --watch: punts counted over some seconds; NULL when not asked.
	 * The watch is a layer above facts/ (watch/watch.h): what frees it comes
	 * with it, so proc_facts_free() calls no code it cannot see.
	 */
	struct punt_watch *watch;
	void (*watch_free)(struct punt_watch *w);
	/*
	 * The scene over the watch's window (or one reading without one):
	 * devices, CPUs, memory, load, io-wq CPU (scene.h). taken: read at all.
	 */
	bool scene_taken;
	struct scene scene;
};

/* FIEMAP only for regular files this large, or registered with a ring. */
#define PROC_EXTENT_MIN_SIZE (1ull << 20)

/* What a file is read for: a check judges it, or only its type tells it apart, or nothing. */
enum proc_file_need {
	PFILE_NEED_ALL,		/* size, O_DIRECT alignment, extents (FIEMAP) */
	PFILE_NEED_TYPE,	/* regular, a block device, or neither (a FIFO on a disk) */
	PFILE_NEED_NONE,
};

/*
 * What the checks need of each file, asked once its fdinfo, mount and
 * registration are known: a statx is most of an audit of 10,000 files
 * beyond reading their links and fdinfo. NULL, or no need function: all.
 */
struct proc_collect {
	enum proc_file_need (*need)(const struct proc_facts *pf, const struct proc_file *f,
				    void *arg);
	void *arg;
	/* The socket tables of the namespaces read so far; NULL: this process's own. */
	struct net_cache *net;
};

/* All of it: what proc_facts_gather reads, then the window over it. */
void proc_facts_collect(const struct sysroot *sr, pid_t pid, const struct proc_collect *how,
			struct proc_facts *pf);
/*
 * The same in parts, for many processes in one window: everything but the
 * window (the heavy reads), then the window's first reading, then its last
 * (which sleeps what is left of PROC_WINDOW_MS since the first). The
 * window comes after the heavy reads: on a small host the audit's own CPU
 * would otherwise be in what it measures.
 */
void proc_facts_gather(const struct sysroot *sr, pid_t pid, const struct proc_collect *how,
		       struct proc_facts *pf);
void proc_facts_window_begin(const struct sysroot *sr, struct proc_facts *pf);
void proc_facts_window_end(const struct sysroot *sr, struct proc_facts *pf);
/* Live: the files a need filter spared, read in full (a watch decides which are data). */
void proc_facts_complete_files(const struct sysroot *sr, struct proc_facts *pf);
void proc_facts_free(struct proc_facts *pf);
/*
 * The process a task id belongs to (its Tgid): a thread's id, as top -H
 * lists it, names its process. 0 or -errno.
 */
int proc_tgid(const struct sysroot *sr, pid_t tid, pid_t *tgid);
/*
 * Whether pid's own task is there and not a zombie: a process whose main
 * thread exited while others run shows no fds under its pid, only under
 * theirs.
 */
bool proc_leader_alive(const struct sysroot *sr, pid_t pid);
/* The mount of a file, or NULL when its mnt_id was not found. */
const struct proc_mount *proc_file_mount(const struct proc_facts *pf, const struct proc_file *f);
/* Its filesystem type, "" when unknown. */
const char *proc_file_fstype(const struct proc_facts *pf, const struct proc_file *f);
/* The filesystem of mount mnt_id, NULL when it is not among pf's mounts. */
const char *proc_mount_fstype(const struct proc_facts *pf, uint32_t mnt_id);
/*
 * The filesystem of a file the watch saw (opened since the audit read the
 * process, or closed since): by its mount, else its device; "" when unknown.
 */
const char *proc_state_fstype(const struct proc_facts *pf, const struct file_state *st);
/*
 * Adds the mounts mnt_ids[n] to pf's mounts when they are not among them, from
 * the process's mount table (read once, only when one is missing). Live only.
 */
void proc_facts_add_mounts(const struct sysroot *sr, struct proc_facts *pf, const uint32_t *mnt_ids,
			   size_t n);


/* The device a file lives on, or NULL. */
const struct proc_device *proc_facts_device(const struct proc_facts *pf, const struct proc_file *f);
/*
 * The iou-sqp threads no ring's SqThread names: some ring hid its own (its
 * lock busy, or before 6.7 the SQPOLL thread's lock held while it polls).
 */
size_t proc_facts_sqp_unnamed(const struct proc_facts *pf);

#endif
