// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Collects one process for audit: stat, status, limits, every fd (files
 * with their mount, and as the caller's checks need them their type, size,
 * extents and O_DIRECT alignment; rings with their fdinfo), the devices
 * under its files, and its threads. An fd closed
 * between readdir and read is skipped; a process that exits meanwhile is
 * marked incomplete.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app_config.h"
#include "array.h"
#include "fiemap.h"
#include "file_state.h"
#include "file_types.h"
#include "pid_wait.h"
#include "proc_container.h"
#include "proc_facts.h"
#include "proc_mounts.h"
#include "proc_scan.h"

#define PF_KTHREAD 0x00200000UL
/*
 * Reads of a ring whose lock looked busy. An SQPOLL thread under steady load
 * holds the lock most of the time; short, uneven pauses find it free.
 */
#define RING_READS 100
#define EXTENT_MAX 1000000		/* FIEMAP stops counting here */
#define URING_TARGET "anon_inode:[io_uring]"
#define FDINFO_PATH "proc/%d/fdinfo/%d"	/* pid, fd: read and named in messages */

static void sleep_us(long us)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = us * 1000L };

	nanosleep(&ts, NULL);
}

static int collect_stat(const struct sysroot *sr, struct proc_facts *pf)
{
	struct proc_thread t;
	unsigned long flags = 0;
	int err;

	err = proc_stat_readf(sr, &t, &flags, "proc/%d/stat", (int)pf->pid);
	if (err == -ENOENT) {
		fact_fail(&pf->e, -ESRCH, "pid %d: no such process", (int)pf->pid);
		return -ESRCH;
	}
	if (err == -EBADMSG) {
		fact_fail(&pf->e, err, "cannot parse 'proc/%d/stat': unexpected content",
			  (int)pf->pid);
		return err;
	}
	if (err) {
		fact_fail_readf(&pf->e, err, "proc/%d/stat", (int)pf->pid);
		return err;
	}
	snprintf(pf->comm, sizeof(pf->comm), "%s", t.comm);
	pf->kernel_thread = flags & PF_KTHREAD;
	pf->zombie = t.state == 'Z' || t.state == 'X';
	return 0;
}

static int parse_status(const char *text, void *out)
{
	return proc_status_parse(text, out);
}

static int parse_limits(const char *text, void *out)
{
	return proc_limits_parse(text, out);
}

static enum proc_file_type type_of(const char *target)
{
	if (!strcmp(target, URING_TARGET))
		return PFILE_URING;
	if (!strncmp(target, "socket:[", 8))
		return PFILE_SOCKET;
	if (!strncmp(target, "pipe:[", 6))
		return PFILE_PIPE;
	if (target[0] == '/' && strncmp(target, "/dev/", 5) && strncmp(target, "/memfd:", 7))
		return PFILE_REGULAR;
	return PFILE_OTHER;
}

/*
 * A ring's fdinfo, read again while the kernel skipped its lock-held part
 * (6.18 prints only the generic lines then; older kernels drop the slots).
 */
static void collect_ring(const struct sysroot *sr, pid_t pid, int fd, struct proc_ring *r)
{
	char *text;
	size_t len;
	int err = 0, i;

	r->fd = fd;
	/*
	 * A live ring may be busy: read again. So may one a capture records
	 * (the live / read as a tree), and the tree must hold the good read.
	 */
	for (i = 0; i < (sr->live || sr->rec ? RING_READS : 1); i++) {
		if (i)
			sleep_us(100 + (i * 7919) % 900);	/* 0.1 to 1 ms, never in step */
		uring_fdinfo_free(&r->u);
		err = sysroot_read_filef(sr, 64 * 1024 * 1024, &text, &len, FDINFO_PATH, (int)pid, fd);
		if (err)
			break;
		r->reads = i + 1;
		if (fdinfo_parse_generic(text, &r->gen)) {
			err = -EBADMSG;
		} else {
			err = uring_fdinfo_parse(text, &r->u);
			/* Files print every slot up to 6.13: the caller cannot know the kernel here. */
			if (!err && uring_fdinfo_lock_skipped(&r->u, false))
				err = -ENODATA;
		}
		free(text);
		if (err != -ENODATA)
			break;
	}
	if (err == -ENODATA) {
		r->busy = true;
		return;
	}
	if (err == -EBADMSG)
		fact_fail(&r->e, err, "cannot parse '" FDINFO_PATH "': unexpected content", (int)pid,
			  fd);
	else if (err)
		fact_fail_readf(&r->e, err, FDINFO_PATH, (int)pid, fd);
}

/* Whether the fd table still has entries: an exiting process drops it first. */
static bool fd_table_alive(const struct sysroot *sr, pid_t pid)
{
	struct dirent *de;
	bool any = false;
	DIR *d;

	d = sysroot_opendirf(sr, "proc/%d/fd", (int)pid);
	if (!d)
		return false;
	while (!any && (de = readdir(d)))
		any = de->d_name[0] != '.';
	closedir(d);
	return any;
}

static int by_ring_fd(const void *a, const void *b)
{
	const struct proc_ring *x = a, *y = b;

	return (x->fd > y->fd) - (x->fd < y->fd);
}

static int by_file_fd(const void *a, const void *b)
{
	const struct proc_file *x = a, *y = b;

	return (x->fd > y->fd) - (x->fd < y->fd);
}

static bool files_in_fd_order(const struct proc_facts *pf)
{
	size_t i;

	for (i = 1; i < pf->nfiles; i++)
		if (pf->files[i - 1].fd > pf->files[i].fd)
			return false;
	return true;
}

/*
 * fd's name in its directory, put together by hand, as snprintf was a
 * tenth of the user time of an audit of 10,000 fds.
 */
static void fd_name(char *buf, size_t size, int fd)
{
	char digits[16], *p = digits + sizeof(digits);
	unsigned int v = (unsigned int)fd;

	if (fd < 0 || sizeof(digits) > size) {
		snprintf(buf, size, "%d", fd);
		return;
	}
	*--p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	memcpy(buf, p, (size_t)(digits + sizeof(digits) - p));
}

static void collect_fds(const struct sysroot *sr, struct proc_facts *pf)
{
	char name[16], target[4096], small[1024], *text;
	struct sysroot_dir links, infos;
	size_t len;
	int err;
	struct dirent *de;
	unsigned int vanished = 0;
	DIR *d;

	d = sysroot_opendirf(sr, "proc/%d/fd", (int)pf->pid);
	if (!d) {
		fact_fail_readf(&pf->fds_e, -errno, "proc/%d/fd", (int)pf->pid);
		return;
	}
	/* Each fd's link and fdinfo by name from its directory; failing that, by path. */
	sysroot_dir_openf(sr, &links, "proc/%d/fd", (int)pf->pid);
	sysroot_dir_openf(sr, &infos, "proc/%d/fdinfo", (int)pf->pid);
	while ((de = readdir(d))) {
		enum proc_file_type type;
		int fd;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		fd = atoi(de->d_name);
		fd_name(name, sizeof(name), fd);
		if (sysroot_dir_readlink(&links, name, target, sizeof(target))) {
			vanished++;	/* closed between readdir and readlink */
			continue;
		}
		pf->nfds++;
		type = type_of(target);
		if (type == PFILE_URING) {
			if (array_grow_implied(&pf->rings, pf->nrings, sizeof(*pf->rings)))
				break;
			memset(&pf->rings[pf->nrings], 0, sizeof(*pf->rings));
			collect_ring(sr, pf->pid, fd, &pf->rings[pf->nrings]);
			if (pf->rings[pf->nrings].e.err == -ENOENT) {
				uring_fdinfo_free(&pf->rings[pf->nrings].u);
				continue;	/* closed meanwhile */
			}
			pf->nrings++;
			continue;
		}
		if (type == PFILE_SOCKET) {
			/* its inode is in the link: the tables say the rest */
			if (proc_sockets_add_fd(&pf->sockets, fd, target) == -ENOMEM)
				break;
			continue;
		}
		if (type != PFILE_REGULAR && type != PFILE_OTHER)
			continue;	/* pipes: nothing to judge */
		if (array_grow_implied(&pf->files, pf->nfiles, sizeof(*pf->files)))
			break;
		struct proc_file *f = &pf->files[pf->nfiles];

		memset(f, 0, sizeof(*f));
		f->fd = fd;
		f->type = type;
		err = sysroot_dir_read_into(&infos, name, small, sizeof(small), &len);
		/* Lines of many locks may not fit: then on the heap, as any file. */
		if (err == -EFBIG && !sysroot_read_filef(sr, 64 * 1024, &text, &len, FDINFO_PATH,
							 (int)pf->pid, fd)) {
			err = fdinfo_parse_generic(text, &f->gen);
			free(text);
		} else if (!err) {
			err = fdinfo_parse_generic(small, &f->gen);
		}
		/* Closed meanwhile: gone, nothing to judge. Anything else is a file not seen. */
		if (err) {
			pf->fdinfo_unread += err != -ENOENT && err != -ESRCH;
			continue;
		}
		f->path = strpool_dup(&pf->paths, target);
		if (!f->path)
			break;
		pf->nfiles++;
	}
	closedir(d);
	sysroot_dir_close(&links);
	sysroot_dir_close(&infos);
	/*
	 * In fd order, as the live /proc lists them: a captured tree's directory
	 * lists in its filesystem's order, and the replay must say the same.
	 */
	/*
	 * (qsort is given no array when there is none: NULL is not one.) The
	 * live /proc lists fds in order already: a pass to see that is cheaper
	 * than sorting 10,000 files that are.
	 */
	if (pf->nrings > 1)
		qsort(pf->rings, pf->nrings, sizeof(*pf->rings), by_ring_fd);
	if (pf->nfiles > 1 && !files_in_fd_order(pf))
		qsort(pf->files, pf->nfiles, sizeof(*pf->files), by_file_fd);
	/* Many fds gone at once, and none left: the process is exiting under us. */
	if (sr->live && vanished && !fd_table_alive(sr, pf->pid))
		pf->incomplete = true;
}

static bool proc_writable(const struct proc_file *f)
{
	return (f->gen.flags & O_ACCMODE) != O_RDONLY;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* UserFiles print the full path from 6.14, the basename before. */
static void mark_registered(struct proc_facts *pf)
{
	size_t i, r, k;

	for (i = 0; i < pf->nfiles; i++) {
		struct proc_file *f = &pf->files[i];

		for (r = 0; r < pf->nrings && !f->registered; r++) {
			const struct uring_fdinfo *u = &pf->rings[r].u;

			for (k = 0; k < u->nfiles; k++) {
				const char *p = u->files[k].path;

				if (!strcmp(p, f->path) ||
				    (!strchr(p, '/') && !strcmp(p, base_name(f->path)))) {
					f->registered = true;
					break;
				}
			}
		}
	}
}

/* The executable's basename, for the application table; a name over 255 bytes cannot be. */
static void collect_exe(const struct sysroot *sr, struct proc_facts *pf)
{
	char target[4096], *base;
	size_t n;

	if (sysroot_readlinkf(sr, target, sizeof(target), "proc/%d/exe", (int)pf->pid))
		return;
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	n = strnlen(base, sizeof(pf->exe) - 1);
	memcpy(pf->exe, base, n);
	pf->exe[n] = '\0';
}

static int parse_owner(const char *text, void *out)
{
	return cgroup_owner_parse(text, out);
}

/*
 * Whether its unit is transient (systemd-run): a drop-in does not outlive
 * it, so its fix is another systemd-run. Only units of this host's
 * managers: a container's are under its own root.
 */
static void collect_transient(const struct sysroot *sr, struct proc_facts *pf)
{
	const struct cgroup_owner *o = &pf->owner.o;
	char path[CGROUP_NAME_MAX + 64];

	if (!sr->live || !fact_ok(&pf->owner.e) || o->container.runtime ||
	    !strchr(o->unit.name, '.') || strchr(o->unit.name, '/'))
		return;
	if (o->unit.kind == UNIT_SYSTEM)
		snprintf(path, sizeof(path), "run/systemd/transient/%s", o->unit.name);
	else if (o->unit.kind == UNIT_USER && o->unit.uid >= 0)
		snprintf(path, sizeof(path), "run/user/%ld/systemd/transient/%s", o->unit.uid,
			 o->unit.name);
	else
		return;
	pf->owner.transient = sysroot_exists(sr, path);
}

/* What the caller's checks need of f; everything without a need function. */
static enum proc_file_need file_need(const struct proc_collect *how, const struct proc_facts *pf,
				     const struct proc_file *f)
{
	return how && how->need ? how->need(pf, f, how->arg) : PFILE_NEED_ALL;
}

/* Whether the path leaves the type open: a path, not an anon inode or memfd, may name a FIFO. */
static bool type_unsure(const struct proc_file *f)
{
	return f->path[0] == '/' && strncmp(f->path, "/memfd:", 7);
}

/* Size, type, O_DIRECT alignment and extents through /proc/PID/fd/N. */
static void collect_file_detail(const struct sysroot *sr, struct proc_facts *pf,
				struct proc_file *f)
{
	struct statx stx;
	int fd;

	fd = sysroot_statxf(sr, STATX_TYPE | STATX_SIZE | STATX_DIOALIGN, &stx, "proc/%d/fd/%d",
			    (int)pf->pid, f->fd);
	if (fd) {
		f->ext_err = fd;
		return;
	}
	proc_file_set_type(f, stx.stx_mode);
	if (f->type == PFILE_OTHER) {
		f->ext_err = -EINVAL;
		return;
	}
	f->size_known = true;
	f->size = stx.stx_size;
	if (f->type == PFILE_BLOCK) {
		f->rdev_major = stx.stx_rdev_major;
		f->rdev_minor = stx.stx_rdev_minor;
	}
	if (stx.stx_mask & STATX_DIOALIGN) {
		f->dio_mem_align = stx.stx_dio_mem_align;
		f->dio_offset_align = stx.stx_dio_offset_align;
	}
	if (f->type != PFILE_REGULAR || (f->size < PROC_EXTENT_MIN_SIZE && !f->registered)) {
		f->ext_err = -ECANCELED;	/* small and not registered */
		return;
	}
	fd = sysroot_open_regularf(sr, "proc/%d/fd/%d", (int)pf->pid, f->fd);
	if (fd < 0) {
		f->ext_err = fd;
		return;
	}
	f->ext_err = fiemap_count(fd, EXTENT_MAX, &f->extents, &f->unwritten,
				  &f->extents_truncated);
	close(fd);
}

/* Live only: each file's details, or its type alone, as the checks need them. */
static void collect_file_details(const struct sysroot *sr, const struct proc_collect *how,
				 struct proc_facts *pf)
{
	size_t i, n = 0, *typeless = NULL;

	if (sr->live)
		typeless = calloc(pf->nfiles ? pf->nfiles : 1, sizeof(*typeless));
	for (i = 0; i < pf->nfiles; i++) {
		struct proc_file *f = &pf->files[i];

		if (!sr->live) {
			f->ext_err = -EOPNOTSUPP;	/* extents need the live system */
			continue;
		}
		/* A file only read, and not registered, is never data: spare it the statx. */
		if (f->type == PFILE_REGULAR && !proc_writable(f) && !f->registered) {
			f->ext_err = -ECANCELED;
			continue;
		}
		switch (file_need(how, pf, f)) {
		case PFILE_NEED_TYPE:
			if (!type_unsure(f))
				break;
			if (typeless) {
				typeless[n++] = i;
				break;
			}
			/* No memory for the list: its statx tells the type too. */
			/* fall through */
		case PFILE_NEED_ALL:
			collect_file_detail(sr, pf, f);
			continue;
		case PFILE_NEED_NONE:
			break;
		}
		f->ext_err = -ECANCELED;
	}
	if (n)
		file_types_resolve(sr, pf, typeless, n);
	free(typeless);
}

static bool is_sq_thread(const struct proc_facts *pf, pid_t tid)
{
	size_t i;

	for (i = 0; i < pf->nrings; i++)
		if (pf->rings[i].u.sq_thread > 0 && pf->rings[i].u.sq_thread == tid)
			return true;
	return false;
}

/*
 * An io thread's comm can be renamed like any thread's: the one a ring's
 * SqThread names is the SQPOLL thread, whatever it is called now.
 */
static void kind_io_threads(struct proc_facts *pf)
{
	struct proc_threads *pt = &pf->threads;
	size_t i;

	pt->iou_wrk = pt->iou_sqp = 0;
	for (i = 0; i < pt->n; i++) {
		struct proc_thread *t = &pt->v[i];

		if (t->kind != THREAD_PLAIN && is_sq_thread(pf, t->tid))
			t->kind = THREAD_IOU_SQP;
		pt->iou_wrk += t->kind == THREAD_IOU_WRK;
		pt->iou_sqp += t->kind == THREAD_IOU_SQP;
	}
	for (i = 0; i < pf->window.nthreads; i++) {
		struct window_thread *t = &pf->window.threads[i];

		if (t->io_thread && is_sq_thread(pf, t->tid))
			t->kind = THREAD_IOU_SQP;
	}
}

/* The first reading of the window over the rings that name a SQPOLL thread. */
static void window_begin(const struct sysroot *sr, struct proc_facts *pf)
{
	int *fds = calloc(pf->nrings ? pf->nrings : 1, sizeof(*fds));
	size_t i, n = 0;

	if (!fds) {
		fact_fail(&pf->window.e, -ENOMEM, "out of memory");
		return;
	}
	for (i = 0; i < pf->nrings; i++)
		if (!pf->rings[i].busy && fact_ok(&pf->rings[i].e) && pf->rings[i].u.sq_thread > 0)
			fds[n++] = pf->rings[i].fd;
	proc_window_begin(sr, pf->pid, fds, n, &pf->window);
	free(fds);
}

void proc_facts_gather(const struct sysroot *sr, pid_t pid, const struct proc_collect *how,
		       struct proc_facts *pf)
{

	memset(pf, 0, sizeof(*pf));
	pf->pid = pid;
	pf->pidfd = sr->live ? pid_wait_open(pid) : -1;
	pf->pinned = pf->pidfd >= 0;
	if (collect_stat(sr, pf))
		return;
	fact_read_parsedf(sr, &pf->status.e, parse_status, &pf->status.st, "proc/%d/status", (int)pid);
	fact_read_parsedf(sr, &pf->limits.e, parse_limits, &pf->limits.lim, "proc/%d/limits", (int)pid);
	if (pf->kernel_thread || pf->zombie)
		return;
	collect_fds(sr, pf);
	if (!pf->nrings && fact_ok(&pf->fds_e))
		uring_children_find(sr, pid, pf->ring_children,
				    sizeof(pf->ring_children) / sizeof(pf->ring_children[0]),
				    &pf->nring_children);
	/*
	 * The mappings: without a ring fd, rings whose fd was closed and what it
	 * uses instead; always, the libraries that say which application it is.
	 */
	proc_maps_collect(sr, pid, &pf->maps);
	collect_exe(sr, pf);
	app_config_collect(sr, pf);
	fact_read_parsedf(sr, &pf->owner.e, parse_owner, &pf->owner.o, "proc/%d/cgroup", (int)pid);
	collect_transient(sr, pf);
	proc_container_collect(sr, pf);
	proc_mounts_collect(sr, pf);
	mark_registered(pf);
	proc_sockets_collect(sr, pf, how ? how->net : NULL);
	collect_file_details(sr, how, pf);
	proc_devices_collect(sr, pf);
	proc_threads_collect(sr, pid, &pf->threads);
	/* Gone while read: some of it may be from whatever took its pid since. */
	if (pf->pinned && pid_wait_gone(pf->pidfd, pid, 0))
		pf->incomplete = true;
}

void proc_facts_window_begin(const struct sysroot *sr, struct proc_facts *pf)
{
	if (pf->kernel_thread || pf->zombie || pf->e.err)
		return;
	window_begin(sr, pf);
}

void proc_facts_window_end(const struct sysroot *sr, struct proc_facts *pf)
{
	if (pf->kernel_thread || pf->zombie || pf->e.err)
		return;
	kind_io_threads(pf);
	proc_window_end(sr, pf->pid, &pf->window);

	/* Gone or dead now? Then some of the above comes from a dying process. */
	if (sr->live) {
		struct proc_thread t;

		if (proc_stat_readf(sr, &t, NULL, "proc/%d/stat", (int)pf->pid) || t.state == 'Z' ||
		    t.state == 'X')
			pf->incomplete = true;
	}
}

void proc_facts_collect(const struct sysroot *sr, pid_t pid, const struct proc_collect *how,
			struct proc_facts *pf)
{
	proc_facts_gather(sr, pid, how, pf);
	/*
	 * The window comes after the heavy reads (FIEMAP, the thread table): on a small
	 * host the audit's own CPU would otherwise be in what it measures.
	 */
	proc_facts_window_begin(sr, pf);
	proc_facts_window_end(sr, pf);
}

void proc_facts_complete_files(const struct sysroot *sr, struct proc_facts *pf)
{
	size_t i;

	for (i = 0; sr->live && i < pf->nfiles; i++) {
		struct proc_file *f = &pf->files[i];

		/* Spared by the need filter: neither read in full, nor a read-only plain file. */
		if (f->ext_err == -ECANCELED && !f->size_known &&
		    !(f->type == PFILE_REGULAR && !proc_writable(f) && !f->registered))
			collect_file_detail(sr, pf, f);
	}
}

bool proc_leader_alive(const struct sysroot *sr, pid_t pid)
{
	bool alive;
	size_t len;
	char *text, *p;

	if (sysroot_read_filef(sr, 4096, &text, &len, "proc/%d/stat", (int)pid))
		return false;
	/* The state follows the comm's closing parenthesis, which the comm may hold too. */
	p = strrchr(text, ')');
	alive = p && p[1] == ' ' && p[2] && p[2] != 'Z' && p[2] != 'X';
	free(text);
	return alive;
}

int proc_tgid(const struct sysroot *sr, pid_t tid, pid_t *tgid)
{
	struct proc_status st;
	size_t len;
	char *text;
	int err;

	err = sysroot_read_filef(sr, 64 * 1024, &text, &len, "proc/%d/status", (int)tid);
	if (err)
		return err;
	err = proc_status_parse(text, &st);
	free(text);
	if (!err)
		*tgid = st.tgid;
	return err;
}

void proc_facts_free(struct proc_facts *pf)
{
	size_t i;

	if (pf->pinned)
		close(pf->pidfd);
	strpool_free(&pf->paths);
	free(pf->files);
	for (i = 0; i < pf->nrings; i++)
		uring_fdinfo_free(&pf->rings[i].u);
	free(pf->rings);
	free(pf->devices.v);
	scene_free(&pf->scene);
	for (i = 0; i < pf->nmounts; i++)
		free(pf->mounts[i].source);
	free(pf->mounts);
	proc_sockets_free(&pf->sockets);
	if (pf->watch && pf->watch_free)
		pf->watch_free(pf->watch);
	free(pf->watch);
	proc_window_free(&pf->window);
	proc_threads_free(&pf->threads);
	proc_maps_free(&pf->maps);
	qemu_drives_free(&pf->qemu);
	smb_conf_free(&pf->smb);
	free(pf->mariadb);
	memset(pf, 0, sizeof(*pf));
}

size_t proc_facts_sqp_unnamed(const struct proc_facts *pf)
{
	size_t i, r, unnamed = 0;

	for (i = 0; i < pf->threads.n; i++) {
		bool named = false;

		if (pf->threads.v[i].kind != THREAD_IOU_SQP)
			continue;
		for (r = 0; r < pf->nrings; r++)
			named |= pf->rings[r].u.sq_thread == pf->threads.v[i].tid;
		unnamed += !named;
	}
	return unnamed;
}
