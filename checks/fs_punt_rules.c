// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What makes a filesystem punt a kind of io_uring request, by filesystem
 * and kernel, from the kernel source (docs/kernel-facts.md, section 11, has the
 * functions and the measurements): one static table, read by the checks
 * that name a cause (file-punts) and that judge a file by its flags
 * (fd-o-direct). A rule is "certain" only when every such request is
 * punted whatever the load.
 */
#include <string.h>

#include "array.h"
#include "checks.h"

/* Kernel versions as major * 1000 + minor. */
#define KVER(a, b) ((a) * 1000 + (b))
#define ANY_KV 0, 999999

static const struct punt_rule punt_rules[] = {
	/* tmpfs never sets FMODE_NOWAIT; from 6.5 io_uring trusts nothing else (io_file_get_flags). */
	{ "tmpfs", PUNT_ANY, KVER(6, 5), 999999, true,
	  "tmpfs never marks a file FMODE_NOWAIT, and from 6.5 io_uring tries no request "
	  "without it: every read and write on tmpfs goes to io-wq, O_DIRECT or not",
	  "keep io_uring's data off tmpfs (a block device filesystem: ext4 or XFS)" },
	{ "tmpfs", PUNT_BUFFERED_WRITE, ANY_KV, true,
	  "tmpfs takes no buffered write without blocking (no FMODE_BUF_WASYNC): every one "
	  "goes to io-wq",
	  "keep io_uring's data off tmpfs (a block device filesystem: ext4 or XFS)" },
	/* btrfs_write_check(): IOCB_NOWAIT on an inode neither NODATACOW nor PREALLOC: -EAGAIN. */
	{ "btrfs", PUNT_WRITE, ANY_KV, true,
	  "btrfs refuses a nonblocking write to a copy-on-write file (btrfs_write_check): "
	  "every write goes to io-wq, buffered or O_DIRECT, unless the file is NOCOW "
	  "(chattr +C) or was fallocated",
	  "make the data files NOCOW (chattr +C on the empty file or its directory before the "
	  "files are made) or preallocate them with fallocate, or keep io_uring's data on ext4 "
	  "or XFS" },
	/* ext4: no FOP_BUFFER_WASYNC / FMODE_BUF_WASYNC up to 6.18: io_write() punts first. */
	{ "ext4", PUNT_BUFFERED_WRITE, ANY_KV, true,
	  "ext4 takes no buffered write without blocking (no FOP_BUFFER_WASYNC, 6.1 to "
	  "6.18): every buffered io_uring write on ext4 goes to io-wq",
	  "open the file with O_DIRECT (aligned buffers, offsets and lengths)" },
	/*
	 * XFS: FOP_BUFFER_WASYNC since 6.0. xfs_file_buffered_write() takes the
	 * I/O lock exclusive (xfs_ilock_iocb: -EAGAIN when held);
	 * xfs_file_write_checks() refuses a write starting past EOF (zeroing) and
	 * kiocb_modified() one whose timestamps need an update.
	 */
	{ "xfs", PUNT_BUFFERED_WRITE, KVER(6, 0), 999999, false,
	  "XFS takes a buffered write without blocking, but each holds the file's I/O lock "
	  "exclusively: a write that finds it held (another write of the file in flight, or "
	  "an io-wq worker finishing an earlier punt) is punted, as is one that starts past "
	  "the end of the file (a gap to zero) or needs a timestamp update (about once a "
	  "clock tick): the share grows with the writes in flight on one file",
	  "open the file with O_DIRECT, or spread the writes over more files (one writer a "
	  "file)" },
	{ "xfs", PUNT_BUFFERED_WRITE, 0, KVER(5, 99), true,
	  "XFS before 6.0 takes no buffered write without blocking: every one goes to io-wq",
	  "open the file with O_DIRECT, or run 6.0 or later" },
	/* ext4_dio_write_checks(): extending writes and holes: -EAGAIN under IOCB_NOWAIT. */
	{ "ext4", PUNT_DIO_EXTEND, ANY_KV, true,
	  "ext4 punts every O_DIRECT write that extends the file (ext4_dio_write_checks)",
	  NULL },
	/*
	 * xfs_file_write_checks(): a start past EOF needs zeroing; an append
	 * needs blocks (xfs_direct_write_iomap_begin: allocation under
	 * IOMAP_NOWAIT is -EAGAIN) unless space was preallocated past EOF.
	 */
	{ "xfs", PUNT_DIO_EXTEND, ANY_KV, false,
	  "XFS punts an O_DIRECT write that starts past the end of the file (a gap to zero) "
	  "or appends into space not yet allocated (8192 of 8192 appends measured on 6.18); "
	  "an append into space preallocated past the end (fallocate --keep-size) needs no "
	  "allocation", NULL },
	{ "ext4", PUNT_DIO_HOLE, ANY_KV, true,
	  "ext4 punts every O_DIRECT write into a hole (it needs an allocation)", NULL },
	{ "xfs", PUNT_DIO_HOLE, ANY_KV, true,
	  "XFS punts every O_DIRECT write into a hole (it needs an allocation)", NULL },
	/* ext4_overwrite_io() counts unwritten extents as overwrites from 6.3 (240930fb7e6b). */
	{ "ext4", PUNT_DIO_UNWRITTEN, KVER(6, 3), 999999, false,
	  "ext4 from 6.3 writes block-aligned O_DIRECT into unwritten extents without "
	  "punting; only writes smaller than a block there are punted", NULL },
	{ "ext4", PUNT_DIO_UNWRITTEN, 0, KVER(6, 2), true,
	  "ext4 before 6.3 punts every O_DIRECT write into unwritten (fallocated) extents",
	  NULL },
	/*
	 * XFS converts unwritten extents at completion; xfs_direct_write_iomap_begin()
	 * refuses a sub-block write there, and any when the ILOCK is contended.
	 */
	{ "xfs", PUNT_DIO_UNWRITTEN, ANY_KV, false,
	  "XFS takes a block-aligned O_DIRECT write into unwritten extents without blocking "
	  "(it converts them when the write completes), but punts one smaller than a block "
	  "there, and any whose mapping finds the inode's lock held by another's conversion "
	  "(23% at depth 8 measured on 6.18)", NULL },
};

/* A rule for every write covers buffered writes and each kind of O_DIRECT one. */
static bool rule_kind_matches(enum punt_kind rule, enum punt_kind asked)
{
	if (rule == asked || rule == PUNT_ANY)
		return true;
	if (rule == PUNT_WRITE)
		return asked != PUNT_READ && asked != PUNT_BUFFERED_READ;
	if (rule == PUNT_READ)
		return asked == PUNT_BUFFERED_READ;
	return false;
}

const struct punt_rule *punt_rule_find(const char *fstype, const struct kernel_version *kv,
				       enum punt_kind kind)
{
	int v = kv ? KVER((int)kv->major, (int)kv->minor) : -1;
	size_t i;

	if (!fstype || !fstype[0])
		return NULL;
	for (i = 0; i < ARRAY_SIZE(punt_rules); i++) {
		const struct punt_rule *r = &punt_rules[i];

		if (strcmp(r->fs, fstype) || !rule_kind_matches(r->kind, kind))
			continue;
		/* A versioned rule needs the version; the table's next row is the fallback. */
		if (r->kv_min || r->kv_max != 999999) {
			if (v < 0 || v < r->kv_min || v > r->kv_max)
				continue;
		}
		return r;
	}
	return NULL;
}
