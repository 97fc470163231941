// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where a process's files live: each file's mount, by the mnt_id its fdinfo
 * gives, from the process's own mount table, and the block device under
 * each mount (proc_mounts.h, and the lookups proc_facts.h declares).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "array.h"
#include "blockdev.h"
#include "procfs.h"
#include "proc_facts.h"
#include "proc_mounts.h"

/*
 * The index in pf->mounts of mount id, added from the process's mount table
 * (mounts) when not there yet; -1 when the table has no such mount or
 * memory ran out.
 */
static int mount_index(struct proc_facts *pf, const struct mount_entry *mounts, size_t nmounts,
		       uint32_t id)
{
	size_t j, k;

	for (k = 0; k < pf->nmounts && pf->mounts[k].id != id; k++)
		;
	if (k < pf->nmounts)
		return (int)k;
	for (j = 0; j < nmounts && mounts[j].id != id; j++)
		;
	if (j == nmounts || array_grow_implied(&pf->mounts, pf->nmounts, sizeof(*pf->mounts)))
		return -1;
	struct proc_mount *m = &pf->mounts[pf->nmounts];

	m->id = mounts[j].id;
	m->major = mounts[j].major;
	m->minor = mounts[j].minor;
	snprintf(m->fstype, sizeof(m->fstype), "%.31s", mounts[j].fstype);
	m->source = strdup(mounts[j].source);
	if (!m->source)
		return -1;
	return (int)pf->nmounts++;
}

static int read_mounts(const struct sysroot *sr, pid_t pid, struct mount_entry **mounts,
		       size_t *nmounts)
{
	size_t len;
	char *text;
	int err;

	*mounts = NULL;
	*nmounts = 0;
	err = sysroot_read_filef(sr, 16 * 1024 * 1024, &text, &len, "proc/%d/mountinfo", (int)pid);
	if (err)
		return err;
	mountinfo_parse(text, mounts, nmounts);
	free(text);
	return 0;
}

/* Each file's filesystem and device, by mnt_id in the process's own mount table. */
void proc_mounts_collect(const struct sysroot *sr, struct proc_facts *pf)
{
	struct mount_entry *mounts;
	size_t nmounts, i;

	for (i = 0; i < pf->nfiles; i++)
		pf->files[i].mount = -1;
	if (read_mounts(sr, pf->pid, &mounts, &nmounts))
		return;
	for (i = 0; i < pf->nfiles; i++)
		pf->files[i].mount = mount_index(pf, mounts, nmounts, pf->files[i].gen.mnt_id);
	free(mounts);
}

void proc_facts_add_mounts(const struct sysroot *sr, struct proc_facts *pf, const uint32_t *mnt_ids,
			   size_t n)
{
	struct mount_entry *mounts = NULL;
	size_t nmounts = 0, i;
	bool read = false;

	for (i = 0; i < n; i++) {
		if (proc_mount_fstype(pf, mnt_ids[i]))
			continue;
		/* One read of the table, only when a mount is missing. */
		if (!read && read_mounts(sr, pf->pid, &mounts, &nmounts))
			return;
		read = true;
		mount_index(pf, mounts, nmounts, mnt_ids[i]);
	}
	free(mounts);
}

/* A new device of the process, or NULL when it is known already or there is no memory. */
static struct proc_device *device_add(struct proc_facts *pf, unsigned int major,
				      unsigned int minor)
{
	struct proc_device *d;
	size_t j;

	for (j = 0; j < pf->devices.n; j++)
		if (pf->devices.v[j].major == major && pf->devices.v[j].minor == minor)
			return NULL;
	if (array_grow_implied(&pf->devices.v, pf->devices.n, sizeof(*pf->devices.v)))
		return NULL;
	d = &pf->devices.v[pf->devices.n++];
	memset(d, 0, sizeof(*d));
	d->major = major;
	d->minor = minor;
	return d;
}

/* The block devices under the files, each read from sysfs once. */
void proc_devices_collect(const struct sysroot *sr, struct proc_facts *pf)
{
	struct proc_device *d;
	size_t i;

	/* One device per mount at most: walk the mounts, not the 10,000 files. */
	for (i = 0; i < pf->nmounts; i++) {
		const struct proc_mount *m = &pf->mounts[i];

		d = device_add(pf, m->major, m->minor);
		if (!d)
			continue;
		if (!d->major)
			fact_fail(&d->blk.e, -ENODEV, "%s has no block device", m->fstype);
		else
			blockdev_collect(sr, d->major, d->minor, &d->blk);
	}
	/*
	 * A block device held open (a database's or fio's raw disk): its
	 * mount is devtmpfs, so its I/O is the device's own, not a filesystem's.
	 */
	for (i = 0; i < pf->nfiles; i++) {
		const struct proc_file *f = &pf->files[i];

		if (f->type != PFILE_BLOCK || !f->rdev_major)
			continue;
		d = device_add(pf, f->rdev_major, f->rdev_minor);
		if (!d)
			continue;
		d->opened = true;
		blockdev_collect(sr, d->major, d->minor, &d->blk);
	}
}

const struct proc_mount *proc_file_mount(const struct proc_facts *pf, const struct proc_file *f)
{
	return f->mount >= 0 && (size_t)f->mount < pf->nmounts ? &pf->mounts[f->mount] : NULL;
}

const char *proc_file_fstype(const struct proc_facts *pf, const struct proc_file *f)
{
	const struct proc_mount *m = proc_file_mount(pf, f);

	return m ? m->fstype : "";
}

const char *proc_mount_fstype(const struct proc_facts *pf, uint32_t mnt_id)
{
	size_t i;

	for (i = 0; i < pf->nmounts; i++)
		if (pf->mounts[i].id == mnt_id)
			return pf->mounts[i].fstype;
	return NULL;
}

const char *proc_state_fstype(const struct proc_facts *pf, const struct file_state *st)
{
	const char *fs = st->mnt_known ? proc_mount_fstype(pf, st->mnt_id) : NULL;
	size_t i;

	if (fs)
		return fs;
	/* Bind mounts of one device share its filesystem: the first will do. */
	for (i = 0; i < pf->nmounts; i++)
		if (pf->mounts[i].major == major(st->dev) && pf->mounts[i].minor == minor(st->dev))
			return pf->mounts[i].fstype;
	return "";
}

const struct proc_device *proc_facts_device(const struct proc_facts *pf, const struct proc_file *f)
{
	const struct proc_mount *m = proc_file_mount(pf, f);
	size_t i;

	for (i = 0; m && i < pf->devices.n; i++)
		if (pf->devices.v[i].major == m->major && pf->devices.v[i].minor == m->minor)
			return &pf->devices.v[i];
	return NULL;
}
