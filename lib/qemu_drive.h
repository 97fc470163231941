/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_QEMU_DRIVE_H
#define URINGLINT_QEMU_DRIVE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The disk images a QEMU system emulator was started with, and how it opens
 * them, from its command line (proc/PID/cmdline): each -drive, and each
 * -blockdev of the file driver (key=value or JSON, as libvirt writes it).
 * Only the options that decide the fast path are kept: the file, aio= and
 * the cache mode; never the rest of the command line (it may hold secrets).
 */
struct qemu_drive {
	char *file;		/* file= or filename=, as given (maybe relative) */
	const char *option;	/* "-drive" or "-blockdev" */
	char aio[16];		/* aio= as given, "" when not given */
	char cache[16];		/* cache= of -drive as given, "" when not given */
	/*
	 * Whether the image is opened with O_DIRECT: cache=none or directsync,
	 * or cache.direct=on; the default (writeback) uses the page cache.
	 */
	bool direct;
	bool uring;		/* aio=io_uring; the default is aio=threads */
};

struct qemu_drives {
	struct qemu_drive *v;
	size_t n;
};

/*
 * Parses args, LEN bytes of NUL-separated arguments as proc/PID/cmdline
 * holds them, into d (emptied first). 0 or -ENOMEM; options it does not
 * understand are passed over.
 */
int qemu_drives_parse(const char *args, size_t len, struct qemu_drives *d);
void qemu_drives_free(struct qemu_drives *d);
/* The drive whose file is path (absolute, as /proc/PID/fd names it), or NULL. */
const struct qemu_drive *qemu_drive_of(const struct qemu_drives *d, const char *path);

#endif
