// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uringlint capture [--pid PID]... [--dir DIR]... [--net-dev DEV]... -o DIR:
 * a tree of exactly what uringlint reads of this host and of the named
 * processes (and network devices, default those of the default route), that
 * --root DIR replays, so a bug report can carry the host and anyone can
 * reproduce the verdicts.
 *
 * The collectors and checks of `report` run once over the live / opened
 * as if it were a captured tree, with the sysroot recording each read: the
 * code path is the replay's own, so a replay reads no path the capture
 * lacks, and the tree holds the bytes uringlint read, not a second look.
 * Facts that only the live system can give (tries, windows of two
 * readings, extents) are skipped in that run as they are in the replay.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "cmd.h"
#include "config.h"
#include "host_facts.h"
#include "procfs.h"
#include "tree_write.h"
#include "xalloc.h"

enum { OPT_PID = OPT_CMD_BASE, OPT_DIR, OPT_NET_DEV };

const struct cmd_option capture_options[] = {
	{ "pid", 0, OPT_PID, ARG_PID, "PID", NULL, CMDOPT_REPEAT, NULL,
	  "also record what an audit of this process reads" },
	{ "dir", 0, OPT_DIR, ARG_DIR, "DIR", NULL, CMDOPT_REPEAT, NULL,
	  "record the filesystem and device of DIR (default: every\nmount on a block device)" },
	{ "net-dev", 0, OPT_NET_DEV, ARG_VALUE, "DEV", NULL, CMDOPT_REPEAT, NULL,
	  "record the network device DEV (default: the devices of the\ndefault route)" },
	{ NULL },
};

struct capture_args {
	pid_t *pids;
	size_t npids, pids_cap;
	char **dirs;	/* absolute: a replay matches them against mountinfo */
	size_t ndirs, dirs_cap;
	const char **net_devs;
	size_t nnet_devs, net_devs_cap;
};

/* Without --dir: every mount on a block device, so a replay can judge any data directory. */
static int block_mounts(const struct sysroot *sr, struct capture_args *a)
{
	struct mount_entry *m;
	size_t n, i;
	int err;

	err = mountinfo_read(sr, "proc/self/mountinfo", &m, &n);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		if (!m[i].major || strncmp(m[i].source, "/dev/", 5))
			continue;
		xarray_grow(&a->dirs, &a->dirs_cap, a->ndirs + 1);
		a->dirs[a->ndirs++] = xstrdup(m[i].mount_point);
	}
	free(m);
	return 0;
}

/* The run a replay makes, over / as a tree, every read recorded. */
static int record_run(const struct global_opts *g, struct capture_args *a,
		      struct sysroot_record *rec)
{
	struct global_opts run = *g;
	struct collect_opts copts;
	struct audit_opts aopts = { 0 };
	struct cmd_run cr;
	struct sysroot sr;
	struct plan plan;
	bool gone = false;
	int err, ret = 0;

	err = sysroot_open(&sr, "/");
	if (err) {
		error_msg("cannot open '/': %s", sysroot_strerror(err));
		return EXIT_CANNOT;
	}
	sysroot_record_start(&sr, rec);
	if (!a->ndirs && block_mounts(&sr, a))
		error_msg("warning: cannot list the mounts: no filesystem is captured");
	run.format = FORMAT_TEXT;	/* the report is thrown away: no inventory to build */
	run.policy = (struct check_policy){ 0 };	/* what every check would read */
	plan_defaults(&plan);
	cmd_dir_opts(&run, &sr, (const char *const *)a->dirs, a->ndirs, &copts);
	copts.net_devs = a->net_devs;
	copts.nnet_devs = a->nnet_devs;
	aopts = (struct audit_opts){ .data_paths = (const char *const *)g->cfg->data_paths,
				     .ndata_paths = g->cfg->ndata_paths };
	cmd_run_begin(&cr, &run, &sr, &copts, &plan, &aopts);
	checks_run_scope(SCOPE_HOST, &cr.ctx, &run.policy);
	if (a->npids)
		ret = cmd_audit_processes(&run, &sr, &a->pids, &a->npids, 0, &cr.ctx, &gone);
	if (!ret && gone)
		ret = EXIT_CANNOT;
	cmd_run_end(&cr);
	sysroot_close(&sr);
	return ret;
}

/*
 * The variables the collectors read from an environment: PID 1's
 * container= (container.c) and irqbalance's banned CPUs (cpu_facts.c). The
 * rest of an environment is the host's business, not a bug report's.
 */
static const char *const kept_vars[] = { "container=", "IRQBALANCE_BANNED_CPULIST=",
					  "IRQBALANCE_BANNED_CPUS=" };

static bool kept_var(const char *v)
{
	size_t k;

	for (k = 0; k < ARRAY_SIZE(kept_vars); k++)
		if (!strncmp(v, kept_vars[k], strlen(kept_vars[k])))
			return true;
	return false;
}

static void keep_read_vars(struct sysroot_read *r)
{
	const char *base = strrchr(r->rel, '/');
	size_t i, out = 0, n;

	if (r->kind != SR_FILE || !base || strcmp(base, "/environ"))
		return;
	for (i = 0; i < r->len; i += n + 1) {
		n = strnlen(r->data + i, r->len - i);
		if (kept_var(r->data + i)) {
			memmove(r->data + out, r->data + i, n);
			out += n;
			r->data[out++] = '\0';
		}
	}
	r->len = out;
}

static const char *first_denied(const struct sysroot_record *rec)
{
	size_t i;

	for (i = 0; i < rec->n; i++)
		if (rec->v[i].kind == SR_DENIED)
			return rec->v[i].rel;
	return "";
}

/*
 * Opens -o DIR once: a directory it makes (0700: what root reads of other
 * processes is not for every user of this host), or an empty one of the
 * user's own. A symbolic link at the name is not followed, and a directory
 * of another user is refused: whoever owns it could read the capture or
 * plant links in it. The fd or an exit status (as a negative number).
 */
static int open_out_dir(const char *out)
{
	struct dirent *de;
	struct stat st;
	bool empty = true;
	DIR *d;
	int fd;

	if (mkdir(out, 0700) && errno != EEXIST) {
		error_msg("cannot create '%s': %s", out, strerror(errno));
		return -EXIT_CANNOT;
	}
	fd = open(out, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && (errno == ENOTDIR || errno == ELOOP))
		return -usage_error("-o '%s' exists and is not a directory (a symbolic link is not "
				    "followed)", out);
	if (fd < 0) {
		error_msg("cannot open '%s': %s", out, strerror(errno));
		return -EXIT_CANNOT;
	}
	if (fstat(fd, &st) || st.st_uid != geteuid()) {
		close(fd);
		return -usage_error("-o '%s' belongs to another user: capture writes into a new "
				    "directory or an empty one of its own", out);
	}
	d = fdopendir(dup(fd));
	while (d && (de = readdir(d)))
		empty &= !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
	if (d)
		closedir(d);
	if (!d || !empty) {
		close(fd);
		return -usage_error("-o '%s' exists and is not an empty directory", out);
	}
	return fd;
}

/* The tree and its CAPTURE note; 0 or -errno, *what naming what could not be written. */
static int write_tree(int outfd, const char *out, struct sysroot_record *rec,
		      const struct capture_args *a, struct tree_writer *tw, const char **what)
{
	char stamp[64];
	time_t now = time(NULL);
	size_t i;
	FILE *f;
	int fd, err = 0;

	tw->outfd = outfd;
	tw->livefd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	*what = out;
	if (tw->outfd < 0 || tw->livefd < 0)
		err = -errno;
	for (i = 0; !err && i < rec->n; i++) {
		keep_read_vars(&rec->v[i]);
		err = tree_write(tw, &rec->v[i]);
		if (err)
			*what = rec->v[i].rel;
	}
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fd = err ? -1 : openat(tw->outfd, "CAPTURE", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (f) {
		fprintf(f, "captured: %s by uringlint capture\nuid: %u gid: %u\n", stamp,
			(unsigned int)geteuid(), (unsigned int)getegid());
		for (i = 0; i < a->npids; i++)
			fprintf(f, "pid: %d\n", (int)a->pids[i]);
		for (i = 0; i < a->ndirs; i++)
			fprintf(f, "dir: %s\n", a->dirs[i]);
		for (i = 0; i < a->nnet_devs; i++)
			fprintf(f, "net-dev: %s\n", a->net_devs[i]);
		for (i = 0; i < rec->n; i++)
			if (rec->v[i].kind == SR_DENIED)
				fprintf(f, "not readable: %s (%s)\n", rec->v[i].rel,
					strerror(-rec->v[i].err));
		if (fclose(f))
			err = -errno;
	} else if (!err) {
		err = -errno;
		if (fd >= 0)
			close(fd);
	}
	if (tw->outfd >= 0)
		close(tw->outfd);
	if (tw->livefd >= 0)
		close(tw->livefd);
	return err;
}

int cmd_capture(int argc, char **argv, struct global_opts *g)
{
	struct sysroot_record rec = { 0 };
	struct capture_args a = { 0 };
	struct tree_writer tw = { 0 };
	const char *what = NULL;
	char real[PATH_MAX];
	size_t i, denied;
	int opt, ret = 0, err, outfd;

	while ((opt = cmd_getopt(argc, argv, g, &ret)) != -1) {
		if (opt == OPT_PID) {
			xarray_grow(&a.pids, &a.pids_cap, a.npids + 1);
			ret = arg_pid(optarg, &a.pids[a.npids]);
			if (ret)
				goto out;
			a.npids++;
		} else if (opt == OPT_DIR) {
			ret = arg_dir(optarg);
			if (ret)
				goto out;
			/* A replay has no cwd on this host: the mount is matched by the full path. */
			if (!realpath(optarg, real)) {
				ret = usage_error("cannot use --dir '%s': %s", optarg, strerror(errno));
				goto out;
			}
			xarray_grow(&a.dirs, &a.dirs_cap, a.ndirs + 1);
			a.dirs[a.ndirs++] = xstrdup(real);
		} else if (opt == OPT_NET_DEV) {
			if (!config_net_dev_valid(optarg)) {
				ret = usage_error("--net-dev takes a network interface name like "
						  "eth0, not '%s'", optarg);
				goto out;
			}
			xarray_grow(&a.net_devs, &a.net_devs_cap, a.nnet_devs + 1);
			a.net_devs[a.nnet_devs++] = optarg;
		}
	}
	if (ret)
		goto out;
	if (!g->output) {
		ret = usage_error("capture needs -o DIR, the tree to write");
		goto out;
	}
	outfd = open_out_dir(g->output);
	if (outfd < 0) {
		ret = -outfd;
		goto out;
	}
	ret = record_run(g, &a, &rec);
	if (rec.err) {
		error_msg("out of memory recording the reads");
		ret = EXIT_CANNOT;
	}
	err = write_tree(outfd, g->output, &rec, &a, &tw, &what);
	if (err) {
		error_msg("cannot write '%s' into '%s': %s", what, g->output, strerror(-err));
		ret = EXIT_CANNOT;
	} else if (g->verbosity >= 0) {
		printf("captured %u files, %u links and %u directories into %s\n", tw.files,
		       tw.links, tw.dirs, g->output);
		if (fflush(stdout))
			ret = EXIT_CANNOT;
	}
	/* What this user could not read, the tree lacks: a replay would take it for absent. */
	for (i = 0, denied = 0; i < rec.n; i++)
		denied += rec.v[i].kind == SR_DENIED;
	if (denied)
		error_msg("warning: %zu paths could not be read for want of permission (the first: "
			  "%s); the tree lacks them, and CAPTURE lists them: capture as root",
			  denied, first_denied(&rec));
out:
	sysroot_record_free(&rec);
	for (i = 0; i < a.ndirs; i++)
		free(a.dirs[i]);
	free(a.dirs);
	free(a.net_devs);
	free(a.pids);
	return ret;
}
