// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uringlint capture [--pid PID]... -o DIR: copies every file uringlint reads,
 * for the host and the named processes, into a tree that --root DIR
 * replays, so a bug report can carry the host and anyone can reproduce the
 * verdicts. Symlinks are copied as links (their targets kept, not followed),
 * so partitions still resolve to their disks inside the tree.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "cmd.h"
#include "parse.h"
#include "xalloc.h"

#define CAPTURE_FILE_MAX (16u << 20)

struct capture {
	const char *out;
	unsigned int files, links;
	int err;		/* the first write error: the capture is then incomplete */
};

/* Creates the directories above out/rel. */
static void parents(const char *out, const char *rel)
{
	char path[PATH_MAX + 16];
	char *p;

	snprintf(path, sizeof(path), "%s/%s", out, rel);
	for (p = path + strlen(out) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
}

/*
 * Copies one regular file's content to out/rel; missing or unreadable files
 * are left out, as they would be missing to uringlint on the host.
 */
static void copy_to(struct capture *c, const char *abs, const char *rel)
{
	char dst[PATH_MAX + 16], *buf;
	ssize_t n = 0, total = 0;
	struct stat st;
	int in, outfd;

	in = open(abs, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (in < 0)
		return;
	if (fstat(in, &st) || !S_ISREG(st.st_mode) || !(buf = malloc(CAPTURE_FILE_MAX))) {
		close(in);
		return;
	}
	/* 64 KiB at a time: sysctl files refuse reads larger than kmalloc can serve. */
	while (total < CAPTURE_FILE_MAX &&
	       (n = read(in, buf + total, CAPTURE_FILE_MAX - (size_t)total < 65536
						  ? CAPTURE_FILE_MAX - (size_t)total : 65536)) > 0)
		total += n;
	close(in);
	if (n < 0 && !total) {	/* some /proc files refuse the read itself */
		free(buf);
		return;
	}
	parents(c->out, rel);
	snprintf(dst, sizeof(dst), "%s/%s", c->out, rel);
	outfd = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (outfd < 0 || write(outfd, buf, (size_t)total) != total) {
		if (!c->err)
			c->err = -errno;
	} else {
		c->files++;
	}
	if (outfd >= 0)
		close(outfd);
	free(buf);
}

static void copy_file(struct capture *c, const char *abs)
{
	copy_to(c, abs, abs + 1);
}

/* The same symlink inside the tree. */
static void copy_link(struct capture *c, const char *abs)
{
	char target[PATH_MAX], dst[PATH_MAX + 16];
	ssize_t n = readlink(abs, target, sizeof(target) - 1);

	if (n < 0)
		return;
	target[n] = '\0';
	parents(c->out, abs + 1);
	snprintf(dst, sizeof(dst), "%s%s", c->out, abs);
	unlink(dst);
	if (symlink(target, dst) == 0)
		c->links++;
}

static void copy_glob(struct capture *c, const char *pattern)
{
	glob_t g;
	size_t i;

	if (glob(pattern, GLOB_NOSORT, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc; i++)
		copy_file(c, g.gl_pathv[i]);
	globfree(&g);
}

static void touch_marker(struct capture *c, const char *abs)
{
	char dst[PATH_MAX + 16];
	int fd;

	if (access(abs, F_OK))
		return;
	parents(c->out, abs + 1);
	snprintf(dst, sizeof(dst), "%s%s", c->out, abs);
	fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
}

static void capture_host(struct capture *c)
{
	static const char *const files[] = {
		"/proc/sys/kernel/osrelease", "/proc/sys/kernel/hostname", "/proc/version",
		"/proc/version_signature", "/proc/sys/kernel/io_uring_disabled",
		"/proc/sys/kernel/io_uring_group", "/proc/cmdline", "/proc/interrupts",
		"/sys/devices/system/cpu/online", "/sys/devices/system/cpu/possible",
		"/sys/devices/system/cpu/isolated", "/sys/devices/system/cpu/nohz_full",
		"/sys/devices/system/node/online", "/proc/1/comm", "/etc/default/irqbalance",
		"/etc/sysconfig/irqbalance", "/sys/module/nvme/parameters/poll_queues",
		"/sys/module/virtio_blk/parameters/poll_queues",
	};
	static const char *const self[] = { "status", "limits", "mountinfo", "cgroup" };
	char path[PATH_MAX], rel[PATH_MAX];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++)
		copy_file(c, files[i]);
	/* Our own credentials and limits stand for the service's: proc/self as a directory. */
	for (i = 0; i < ARRAY_SIZE(self); i++) {
		snprintf(path, sizeof(path), "/proc/self/%s", self[i]);
		snprintf(rel, sizeof(rel), "proc/self/%s", self[i]);
		copy_to(c, path, rel);
	}
	touch_marker(c, "/.dockerenv");
	touch_marker(c, "/run/.containerenv");
	copy_glob(c, "/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor");
	copy_glob(c, "/sys/devices/system/node/node[0-9]*/cpulist");
	copy_glob(c, "/proc/irq/[0-9]*/effective_affinity_list");
	copy_glob(c, "/proc/irq/[0-9]*/smp_affinity_list");
}

static void capture_blockdev(struct capture *c, const char *name)
{
	static const char *const queue[] = { "logical_block_size", "physical_block_size",
					     "max_sectors_kb", "nr_requests", "dma_alignment",
					     "io_poll", "rotational", "scheduler" };
	char cls[PATH_MAX], real[PATH_MAX], p[PATH_MAX + 512], dev[64], dreal[PATH_MAX];
	struct dirent *de;
	size_t i;
	DIR *d;
	FILE *f;

	snprintf(cls, sizeof(cls), "/sys/class/block/%s", name);
	if (!realpath(cls, real))
		return;
	copy_link(c, cls);
	snprintf(p, sizeof(p), "%s/uevent", real);
	copy_file(c, p);
	snprintf(p, sizeof(p), "%s/dev", real);
	copy_file(c, p);
	snprintf(p, sizeof(p), "%s/dm/name", real);
	copy_file(c, p);
	snprintf(p, sizeof(p), "%s/dev", real);
	f = fopen(p, "re");
	if (f && fgets(dev, sizeof(dev), f)) {
		dev[strcspn(dev, "\n")] = '\0';
		snprintf(p, sizeof(p), "/sys/dev/block/%s", dev);
		copy_link(c, p);
	}
	if (f)
		fclose(f);
	snprintf(p, sizeof(p), "%s/queue", real);
	if (access(p, F_OK))
		return;	/* a partition: its disk is captured on its own */
	snprintf(p, sizeof(p), "/sys/block/%s", name);
	copy_link(c, p);
	for (i = 0; i < ARRAY_SIZE(queue); i++) {
		snprintf(p, sizeof(p), "%s/queue/%s", real, queue[i]);
		copy_file(c, p);
	}
	snprintf(p, sizeof(p), "%s/loop/backing_file", real);
	copy_file(c, p);
	snprintf(p, sizeof(p), "%s/slaves", real);
	d = opendir(p);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/slaves/%.200s", real, de->d_name);
		copy_link(c, p);
	}
	if (d)
		closedir(d);
	snprintf(p, sizeof(p), "%s/device", real);
	if (!realpath(p, dreal))
		return;
	copy_link(c, p);
	snprintf(p, sizeof(p), "%s/numa_node", dreal);
	copy_file(c, p);
	snprintf(p, sizeof(p), "%s/device", dreal);
	copy_link(c, p);
	if (realpath(p, real)) {
		snprintf(p, sizeof(p), "%s/numa_node", real);
		copy_file(c, p);
	}
}

static void capture_blockdevs(struct capture *c)
{
	struct dirent *de;
	DIR *d = opendir("/sys/class/block");

	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			capture_blockdev(c, de->d_name);
	if (d)
		closedir(d);
}

static int capture_process(struct capture *c, pid_t pid)
{
	static const char *const files[] = { "stat", "status", "limits", "mountinfo", "comm", "maps" };
	char p[PATH_MAX], base[64];
	struct dirent *de;
	size_t i;
	DIR *d;

	snprintf(base, sizeof(base), "/proc/%d", (int)pid);
	if (access(base, F_OK)) {
		error_msg("pid %d: no such process", (int)pid);
		return EXIT_CANNOT;
	}
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(p, sizeof(p), "%s/%s", base, files[i]);
		copy_file(c, p);
	}
	snprintf(p, sizeof(p), "%s/fd", base);
	d = opendir(p);
	if (!d) {
		error_msg("cannot read '%s': %s", p, strerror(errno));
		return EXIT_CANNOT;
	}
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(p, sizeof(p), "%s/fd/%.16s", base, de->d_name);
		copy_link(c, p);
		snprintf(p, sizeof(p), "%s/fdinfo/%.16s", base, de->d_name);
		copy_file(c, p);
	}
	closedir(d);
	snprintf(p, sizeof(p), "%s/task", base);
	d = opendir(p);
	while (d && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		for (i = 0; i < 3; i++) {
			static const char *const tf[] = { "stat", "status", "wchan" };

			snprintf(p, sizeof(p), "%s/task/%.16s/%s", base, de->d_name, tf[i]);
			copy_file(c, p);
		}
	}
	if (d)
		closedir(d);
	return 0;
}

enum { OPT_PID = OPT_CMD_BASE };

const struct cmd_option capture_options[] = {
	{ "pid", 0, OPT_PID, ARG_PID, "PID", NULL, CMDOPT_REPEAT, NULL,
	  "also copy this process's files" },
	{ NULL },
};

int cmd_capture(int argc, char **argv, struct global_opts *g)
{
	struct capture c = { 0 };
	pid_t *pids = NULL;
	size_t npids = 0, i;
	char stamp[64], path[PATH_MAX];
	struct stat st;
	DIR *d;
	FILE *f;
	time_t now;
	int opt, ret = 0;

	while ((opt = cmd_getopt(argc, argv, g, &ret)) != -1) {
		if (opt == OPT_PID) {
			pids = xreallocarray(pids, npids + 1, sizeof(*pids));
			ret = arg_pid(optarg, &pids[npids]);
			if (ret)
				goto out;
			npids++;
		}
	}
	if (ret)
		goto out;
	if (!g->output) {
		ret = usage_error("capture needs -o DIR, the tree to write");
		goto out;
	}
	c.out = g->output;
	if (!stat(c.out, &st)) {
		struct dirent *de;
		bool empty = true;

		d = S_ISDIR(st.st_mode) ? opendir(c.out) : NULL;
		while (d && (de = readdir(d)))
			empty &= de->d_name[0] == '.' && (!de->d_name[1] ||
							  (de->d_name[1] == '.' && !de->d_name[2]));
		if (d)
			closedir(d);
		if (!d || !empty) {
			ret = usage_error("-o '%s' exists and is not an empty directory", c.out);
			goto out;
		}
	} else if (mkdir(c.out, 0755)) {
		error_msg("cannot create '%s': %s", c.out, strerror(errno));
		ret = EXIT_CANNOT;
		goto out;
	}
	capture_host(&c);
	capture_blockdevs(&c);
	for (i = 0; i < npids; i++)
		ret |= capture_process(&c, pids[i]);
	now = time(NULL);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	snprintf(path, sizeof(path), "%s/CAPTURE", c.out);
	f = fopen(path, "we");
	if (f) {
		fprintf(f, "captured: %s by uringlint capture\nuid: %u gid: %u\n", stamp,
			(unsigned int)geteuid(), (unsigned int)getegid());
		for (i = 0; i < npids; i++)
			fprintf(f, "pid: %d\n", (int)pids[i]);
		if (fclose(f) && !c.err)
			c.err = -EIO;
	}
	if (c.err) {
		error_msg("cannot write into '%s': %s", c.out, strerror(-c.err));
		ret = EXIT_CANNOT;
	} else if (g->verbosity >= 0) {
		printf("captured %u files and %u links into %s\n", c.files, c.links, c.out);
		if (fflush(stdout))
			ret = EXIT_CANNOT;
	}
out:
	free(pids);
	return ret;
}
