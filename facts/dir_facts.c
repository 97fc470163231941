// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Collects the facts of one data directory: its mount (mountinfo through
 * the sysroot), the block device under it (sysfs), and, on the live system,
 * statfs, libblkid and a real O_DIRECT temporary file.
 */
#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dir_facts.h"
#include "tmpfile.h"

#define LIVE_ONLY "needs the live system; --root replays a captured tree"

static void collect_mount(const struct mount_entry *mounts, size_t nmounts, struct dir_facts *df,
			  bool match_dev, unsigned int major, unsigned int minor)
{
	const struct mount_entry *m;

	if (!mounts) {
		fact_fail(&df->mount.e, -ENOENT, "no mount table: cannot read 'proc/self/mountinfo'");
		return;
	}
	m = mountinfo_find(mounts, nmounts, df->resolved, match_dev, major, minor);
	if (!m)
		fact_fail(&df->mount.e, -ENOENT, "no mount in proc/self/mountinfo holds '%s'",
			  df->resolved);
	else
		df->mount.m = *m;
}

/* Which device the filesystem sits on: its st_dev, or the mount source for btrfs and friends. */
static void collect_blockdev(const struct sysroot *sr, struct dir_facts *df)
{
	const struct mount_entry *m = &df->mount.m;
	unsigned int major = m->major, minor = m->minor;
	struct stat st;

	if (major == 0) {
		/* Anonymous st_dev (btrfs, overlay, tmpfs, nfs): a /dev source still names a device. */
		int err = -ENOENT;

		if (!strncmp(m->source, "/dev/", 5)) {
			if (sr->live && !stat(m->source, &st) && S_ISBLK(st.st_mode)) {
				major = major(st.st_rdev);
				minor = minor(st.st_rdev);
				err = 0;
			} else {
				err = blockdev_lookup(sr, m->source, &major, &minor);
			}
		}
		if (err) {
			fact_fail(&df->blk.e, -ENODEV, "%s has no block device (source '%s')",
				  m->fstype, m->source);
			return;
		}
	}
	blockdev_collect(sr, major, minor, &df->blk);
}

static void collect_blkid(struct dir_facts *df)
{
	char node[96];
	const char *type = NULL;
	blkid_topology tp;
	blkid_probe pr;

	snprintf(node, sizeof(node), "/dev/%s", df->blk.name);
	pr = blkid_new_probe_from_filename(node);
	if (!pr) {
		fact_fail(&df->blkid.e, errno ? -errno : -EIO, "libblkid cannot open '%s': %s", node,
			  strerror(errno ? errno : EIO));
		return;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_topology(pr, 1);
	if (blkid_do_safeprobe(pr) == 0 && !blkid_probe_lookup_value(pr, "TYPE", &type, NULL))
		snprintf(df->blkid.type, sizeof(df->blkid.type), "%s", type);
	tp = blkid_probe_get_topology(pr);
	if (tp) {
		df->blkid.logical = blkid_topology_get_logical_sector_size(tp);
		df->blkid.physical = blkid_topology_get_physical_sector_size(tp);
		df->blkid.minimum_io = blkid_topology_get_minimum_io_size(tp);
		df->blkid.optimal_io = blkid_topology_get_optimal_io_size(tp);
		df->blkid.alignment_offset = blkid_topology_get_alignment_offset(tp);
	}
	blkid_free_probe(pr);
}

static void collect_odirect(struct dir_facts *df)
{
	struct statx stx;
	uint32_t size = 4096;
	void *buf = NULL;
	int fd;

	fd = tmpfile_open(df->resolved, O_DIRECT, &df->odirect.tmpfile);
	if (fd == -EACCES || fd == -EPERM || fd == -EROFS) {
		fact_fail(&df->odirect.e, fd, "cannot create a file in '%s': %s", df->path,
			  strerror(-fd));
		return;
	}
	if (fd < 0) {
		df->odirect.open_err = fd;
		return;
	}
	if (!statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) && (stx.stx_mask & STATX_DIOALIGN)) {
		df->odirect.dioalign = true;
		df->odirect.mem_align = stx.stx_dio_mem_align;
		df->odirect.offset_align = stx.stx_dio_offset_align;
		if (stx.stx_dio_offset_align > size)
			size = stx.stx_dio_offset_align;
	}
	if (df->blk.logical_block_size > size && df->blk.logical_block_size <= 65536)
		size = (uint32_t)df->blk.logical_block_size;
	df->odirect.io_size = size;
	if (posix_memalign(&buf, size, size)) {
		df->odirect.io_err = -ENOMEM;
	} else {
		memset(buf, 0x5a, size);
		if (pwrite(fd, buf, size, 0) != (ssize_t)size)
			df->odirect.io_err = errno ? -errno : -EIO;
		else if (pread(fd, buf, size, 0) != (ssize_t)size)
			df->odirect.io_err = errno ? -errno : -EIO;
	}
	free(buf);
	close(fd);
}

void dir_facts_collect(const struct sysroot *sr, const struct mount_entry *mounts, size_t nmounts,
		       const char *path, bool try_odirect, struct dir_facts *df)
{
	struct statfs sfs;
	struct stat st;

	memset(df, 0, sizeof(*df));
	snprintf(df->path, sizeof(df->path), "%s", path);
	snprintf(df->resolved, sizeof(df->resolved), "%s", path);

	if (!sr->live) {
		/* A captured host: match the mount by path, read its sysfs; try nothing. */
		collect_mount(mounts, nmounts, df, false, 0, 0);
		if (fact_ok(&df->mount.e))
			collect_blockdev(sr, df);
		else
			df->blk.e = df->mount.e;
		fact_fail(&df->statfs.e, -EOPNOTSUPP, LIVE_ONLY);
		fact_fail(&df->blkid.e, -EOPNOTSUPP, LIVE_ONLY);
		fact_fail(&df->odirect.e, -EOPNOTSUPP, LIVE_ONLY);
		return;
	}

	if (stat(path, &st) < 0 || !realpath(path, df->resolved)) {
		fact_fail(&df->e, -errno, "cannot use --dir '%s': %s", path, strerror(errno));
		df->mount.e = df->blk.e = df->statfs.e = df->blkid.e = df->odirect.e = df->e;
		return;
	}
	collect_mount(mounts, nmounts, df, true, major(st.st_dev), minor(st.st_dev));
	if (fact_ok(&df->mount.e))
		collect_blockdev(sr, df);
	else
		df->blk.e = df->mount.e;

	if (statfs(df->resolved, &sfs) < 0) {
		fact_fail(&df->statfs.e, -errno, "statfs '%s': %s", path, strerror(errno));
	} else {
		df->statfs.f_type = (uint64_t)sfs.f_type;
		df->statfs.f_bsize = (uint64_t)sfs.f_bsize;
		df->statfs.avail_bytes = (uint64_t)sfs.f_bavail * (uint64_t)sfs.f_bsize;
	}
	if (fact_ok(&df->blk.e))
		collect_blkid(df);
	else
		df->blkid.e = df->blk.e;
	if (try_odirect)
		collect_odirect(df);
	else
		fact_fail(&df->odirect.e, -ECANCELED, "not tried: no selected check needs it");
}

const char *dir_facts_device(const struct dir_facts *df, char *buf, size_t bufsz)
{
	if (!fact_ok(&df->blk.e))
		snprintf(buf, bufsz, "%s", fact_ok(&df->mount.e) ? df->mount.m.source : "unknown");
	else if (df->blk.partition)
		snprintf(buf, bufsz, "%s on %s", df->blk.name, df->blk.disk);
	else
		snprintf(buf, bufsz, "%s", df->blk.name);
	return buf;
}
