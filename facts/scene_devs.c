// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The devices of a scene: each device a filesystem of the process sits
 * on, the whole disk of a partition, the devices under a dm or md device,
 * and the device holding a loop device's backing file: the one that does
 * the I/O in the end is the one iostat shows at its limit.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "scene.h"

static struct scene_dev *dev_add(struct scene *s, const char *name, unsigned int major,
				 unsigned int minor, enum scene_dev_role role)
{
	struct scene_dev *d;
	size_t i;

	if (!name[0])
		return NULL;
	for (i = 0; i < s->ndevs; i++)
		if (!strcmp(s->devs[i].name, name))
			return NULL;
	if (s->ndevs == SCENE_MAX_DEVS) {
		s->devs_left_out++;
		return NULL;
	}
	d = &s->devs[s->ndevs++];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->major = major;
	d->minor = minor;
	d->role = role;
	d->in_flight = -1;
	return d;
}

/* dm's and md's slaves: "sda1,sdb1", each with its own disk. */
static void add_slaves(const struct sysroot *sr, struct scene *s, const char *slaves)
{
	char name[64];
	const char *p = slaves;

	while (*p) {
		size_t n = strcspn(p, ",");
		unsigned int maj, min;
		struct blockdev_facts bd;

		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		p += n + (p[n] == ',');
		if (blockdev_lookup(sr, name, &maj, &min))
			continue;
		blockdev_collect(sr, maj, min, &bd);
		dev_add(s, name, maj, min, SCENE_DEV_SLAVE);
		if (fact_ok(&bd.e) && bd.partition)
			dev_add(s, bd.disk, 0, 0, SCENE_DEV_DISK);
	}
}

static void add_one(const struct sysroot *sr, struct scene *s, const struct blockdev_facts *bd,
		    enum scene_dev_role role, int depth)
{
	struct blockdev_facts under;
	struct stat st;

	dev_add(s, bd->name, bd->major, bd->minor, role);
	if (bd->partition)
		dev_add(s, bd->disk, 0, 0, SCENE_DEV_DISK);
	if (bd->slaves[0])
		add_slaves(sr, s, bd->slaves);
	/* The scene is live only: the backing file's device is stat(2)'s st_dev. */
	if (!bd->backing_file[0] || depth > 2 || stat(bd->backing_file, &st) ||
	    !major(st.st_dev))
		return;
	blockdev_collect(sr, major(st.st_dev), minor(st.st_dev), &under);
	if (fact_ok(&under.e))
		add_one(sr, s, &under, SCENE_DEV_BACKING, depth + 1);
}

void scene_devs_resolve(const struct sysroot *sr, const struct scene_target *t, struct scene *s)
{
	size_t i;

	for (i = 0; i < t->ndevs; i++)
		if (fact_ok(&t->devs[i]->e))
			add_one(sr, s, t->devs[i], t->opened && t->opened[i] ? SCENE_DEV_OPEN :
				SCENE_DEV_FS, 0);
}
