// SPDX-License-Identifier: GPL-2.0-or-later
/* The filesystem under each --dir: its type, O_DIRECT, alignment and mount options. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "array.h"
#include "checks.h"

struct fs_verdict {
	const char *const *types;	/* NULL-terminated */
	enum check_status status;
	const char *words;
};

static const char *const fs_xfs[] = { "xfs", NULL };
static const char *const fs_ext4[] = { "ext4", NULL };
static const char *const fs_btrfs[] = { "btrfs", NULL };
static const char *const fs_memory[] = { "tmpfs", "ramfs", "devtmpfs", "hugetlbfs", NULL };
static const char *const fs_overlay[] = { "overlay", "aufs", NULL };
static const char *const fs_remote[] = { "nfs", "nfs4", "cifs", "smb3", "ceph", "glusterfs",
					 "9p", "virtiofs", "fuse*", NULL };
static const char *const fs_zfs[] = { "zfs", NULL };

/* An entry ending in '*' matches by prefix ("fuse*": fuse.sshfs, fuseblk). */
static bool in_list(const char *const *types, const char *t)
{
	for (; *types; types++) {
		size_t n = strlen(*types);

		if ((*types)[n - 1] == '*' ? !strncmp(*types, t, n - 1) : !strcmp(*types, t))
			return true;
	}
	return false;
}

/* docs/kernel-facts.md, section 3, in the words an operator needs. */
static const struct fs_verdict fs_verdicts[] = {
	{ fs_xfs, STATUS_PASS,
	  "XFS takes O_DIRECT writes and, from 6.0, buffered writes without blocking; O_DIRECT "
	  "writes that allocate, start past the end of the file or are smaller than a block in "
	  "unwritten (fallocate()d) extents, and writes that find the file's inode lock held, "
	  "still go to io-wq, so write data files once before use and measure with the probe" },
	{ fs_ext4, STATUS_PASS,
	  "ext4 has no NOWAIT for buffered writes: every buffered io_uring write is punted to "
	  "io-wq, so data files must use O_DIRECT; O_DIRECT overwrites of written blocks stay on "
	  "the fast path, appends and extending writes do not" },
	{ fs_btrfs, STATUS_WARN,
	  "btrfs copies on write: every write to a copy-on-write file, buffered or O_DIRECT, is "
	  "punted to io-wq unless the file is NOCOW (chattr +C on an empty file) or "
	  "preallocated, and statx reports no O_DIRECT alignment" },
	{ fs_memory, STATUS_FAIL,
	  "tmpfs and other memory filesystems: nothing reaches a device, O_DIRECT is refused before 6.6 and a "
	  "no-op after, and the data is gone at reboot" },
	{ fs_overlay, STATUS_WARN,
	  "overlayfs: io_uring requests pass through overlayfs to the underlying "
	  "file, and O_DIRECT and NOWAIT depend on that filesystem; put data directories on a "
	  "volume mounted directly" },
	{ fs_remote, STATUS_WARN,
	  "a network or FUSE filesystem: reads and writes wait on the network, which io_uring cannot do "
	  "without blocking, so they are handed to io-wq workers; measure with the probe" },
	{ fs_zfs, STATUS_WARN,
	  "ZFS runs I/O through its own pipeline and honours O_DIRECT only from OpenZFS 2.3; "
	  "measure with the probe" },
};

static void fs_type_one(const struct check *c, struct check_ctx *ctx, const struct dir_facts *df)
{
	const char *t = df->mount.m.fstype;
	struct finding *f = NULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fs_verdicts); i++)
		if (in_list(fs_verdicts[i].types, t)) {
			f = dir_add(c, ctx, df, fs_verdicts[i].status, "%s", fs_verdicts[i].words);
			break;
		}
	if (!f)
		f = dir_add(c, ctx, df, STATUS_WARN,
			    "%s: not a filesystem uringlint knows how io_uring behaves on; run "
			    "`uringlint probe --dir %s` to measure punts to io-wq",
			    t, df->path);
	if (f->status != STATUS_PASS)
		finding_set_fix(f, "put data files on XFS or ext4 on a local block device, opened "
				   "with O_DIRECT");
	if (df->blkid.type[0])
		finding_ev_str(f, "blkid_type", df->blkid.type);
	if (fact_ok(&df->statfs.e)) {
		char magic[24];

		snprintf(magic, sizeof(magic), "0x%llx", (unsigned long long)df->statfs.f_type);
		finding_ev_str(f, "statfs_type", magic);
		finding_ev_int(f, "avail_bytes", (int64_t)df->statfs.avail_bytes);
	}
}

void check_fs_type(const struct check *c, struct check_ctx *ctx)
{
	dir_checks_each(c, ctx, fs_type_one);
}

static void fs_o_direct_one(const struct check *c, struct check_ctx *ctx,
			    const struct dir_facts *df)
{
	const char *how = df->odirect.tmpfile ? "an O_TMPFILE" : "a temporary file (unlinked at once)";
	struct finding *f;

	if (!fact_ok(&df->odirect.e)) {
		check_fact_missing(c, ctx, df->path, &df->odirect.e);
		return;
	}
	if (df->odirect.open_err) {
		f = dir_add(c, ctx, df, STATUS_FAIL, "opening %s with O_DIRECT failed: %s%s", how,
			    strerror(-df->odirect.open_err),
			    df->odirect.open_err == -EINVAL ? " (this filesystem has no direct I/O)"
							    : "");
		finding_ev_int(f, "errno", -df->odirect.open_err);
	} else if (df->odirect.io_err) {
		f = dir_add(c, ctx, df, STATUS_FAIL,
			    "O_DIRECT open worked, but an aligned %u-byte write and read failed: %s",
			    df->odirect.io_size, strerror(-df->odirect.io_err));
		finding_ev_int(f, "errno", -df->odirect.io_err);
	} else if (in_list(fs_memory, df->mount.m.fstype)) {
		f = dir_add(c, ctx, df, STATUS_FAIL,
			    "%s accepted O_DIRECT, but %s implements it as a no-op (6.6+): the data "
			    "stays in memory and no I/O reaches a device",
			    how, df->mount.m.fstype);
	} else {
		f = dir_add(c, ctx, df, STATUS_PASS,
			    "%s opened with O_DIRECT took an aligned %u-byte write and read", how,
			    df->odirect.io_size);
	}
	if (f->status == STATUS_FAIL)
		finding_set_fix(f, "put the data directory on a filesystem with direct I/O (XFS or "
				   "ext4 on a block device)");
	finding_ev_bool(f, "o_tmpfile", df->odirect.tmpfile);
}

void check_fs_o_direct(const struct check *c, struct check_ctx *ctx)
{
	dir_checks_each(c, ctx, fs_o_direct_one);
}

static void dio_alignment_one(const struct check *c, struct check_ctx *ctx,
			      const struct dir_facts *df)
{
	const struct blockdev_facts *bd = &df->blk;
	bool have_blk = fact_ok(&bd->e) && bd->logical_block_size;
	uint64_t offset, mem, page = ctx->host->page_size;
	const char *source;
	struct finding *f;

	if (fact_ok(&df->odirect.e) && !df->odirect.open_err && df->odirect.dioalign) {
		if (!df->odirect.offset_align) {
			f = dir_add(c, ctx, df, STATUS_FAIL,
				    "statx(STATX_DIOALIGN) says files here do not support direct I/O");
			goto evidence;
		}
		offset = df->odirect.offset_align;
		mem = df->odirect.mem_align;
		source = "statx(STATX_DIOALIGN)";
	} else if (have_blk) {
		offset = bd->logical_block_size;
		/* 6.0+ needs only dma_alignment + 1 for memory; older kernels the block size. */
		mem = bd->dma_alignment >= 0 ? (uint64_t)bd->dma_alignment + 1 : offset;
		source = bd->dma_alignment >= 0 ? "queue/logical_block_size and queue/dma_alignment"
						: "queue/logical_block_size";
	} else {
		f = dir_add(c, ctx, df, STATUS_SKIP,
			    "neither statx(STATX_DIOALIGN) nor a block device tells the O_DIRECT "
			    "alignment here%s",
			    fact_ok(&df->odirect.e) ? "" : " (statx needs the live system)");
		goto evidence;
	}
	if (offset > page)
		f = dir_add(c, ctx, df, STATUS_WARN,
			    "O_DIRECT offsets and lengths must be multiples of %llu bytes, more than a "
			    "%llu-byte page: code that assumes 4 KiB gets EINVAL (from %s)",
			    (unsigned long long)offset, (unsigned long long)page, source);
	else
		f = dir_add(c, ctx, df, STATUS_PASS,
			    "O_DIRECT offsets and lengths in multiples of %llu bytes, buffers aligned "
			    "to %llu bytes (from %s)",
			    (unsigned long long)offset, (unsigned long long)mem, source);
	finding_ev_int(f, "offset_align", (int64_t)offset);
	finding_ev_int(f, "mem_align", (int64_t)mem);
	finding_ev_str(f, "source", source);
evidence:
	if (df->odirect.dioalign) {
		finding_ev_int(f, "statx_dio_offset_align", df->odirect.offset_align);
		finding_ev_int(f, "statx_dio_mem_align", df->odirect.mem_align);
	}
	if (have_blk) {
		finding_ev_int(f, "logical_block_size", (int64_t)bd->logical_block_size);
		finding_ev_int(f, "physical_block_size", (int64_t)bd->physical_block_size);
		if (bd->dma_alignment >= 0)
			finding_ev_int(f, "dma_alignment", bd->dma_alignment);
	}
}

void check_dio_alignment(const struct check *c, struct check_ctx *ctx)
{
	dir_checks_each(c, ctx, dio_alignment_one);
}

static bool has_opt(const struct mount_entry *m, const char *opt)
{
	return mount_has_option(m->options, opt) || mount_has_option(m->super_options, opt);
}

static void mount_options_one(const struct check *c, struct check_ctx *ctx,
			      const struct dir_facts *df)
{
	const struct mount_entry *m = &df->mount.m;
	struct finding *f;

	if (has_opt(m, "sync") || has_opt(m, "dirsync")) {
		f = dir_add(c, ctx, df, STATUS_WARN,
			    "mounted %s: every write%s waits for the device and its metadata, and "
			    "such writes under NOWAIT are often handed to io-wq; measure with the probe",
			    has_opt(m, "sync") ? "sync" : "dirsync",
			    has_opt(m, "sync") ? "" : " that changes a directory");
		finding_set_fix(f, "remount without sync/dirsync (mount -o remount,async %s) and ask "
				   "for durability where it is needed, with O_DSYNC or fsync",
				m->mount_point);
	} else if (!strcmp(m->fstype, "xfs") && !has_opt(m, "lazytime") && !has_opt(m, "ro")) {
		f = dir_add(c, ctx, df, STATUS_WARN,
			    "XFS without lazytime: a write that must update the file's timestamps "
			    "cannot do so under NOWAIT and is handed to io-wq (lazytime cut such "
			    "punts about fivefold in measurements on 6.18, without removing them all)");
		finding_set_fix(f, "mount -o remount,lazytime %s, and add lazytime to its fstab "
				   "entry", m->mount_point);
	} else {
		f = dir_add(c, ctx, df, STATUS_PASS, "no mount option that slows io_uring (%s)",
			    m->options);
	}
	finding_ev_str(f, "options", m->options);
	finding_ev_str(f, "super_options", m->super_options);
}

void check_mount_options(const struct check *c, struct check_ctx *ctx)
{
	dir_checks_each(c, ctx, mount_options_one);
}
