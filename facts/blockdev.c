// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blockdev.h"
#include "parse.h"

/*
 * uevent: "MAJOR=254\nMINOR=1\nDEVNAME=vda1\nDEVTYPE=partition\n", of the
 * device major:minor, or of its parent with up "/..". A failure lands in e.
 */
#define UEVENT_PATH "sys/dev/block/%u:%u%s/uevent"
static int read_uevent(const struct sysroot *sr, unsigned int major, unsigned int minor,
		       const char *up, char *devname, size_t namesz, bool *partition,
		       struct fact_err *e)
{
	char *text, *p;
	size_t len;
	int err;

	err = sysroot_read_filef(sr, 64 * 1024, &text, &len, UEVENT_PATH, major, minor, up);
	if (err) {
		fact_fail_readf(e, err, UEVENT_PATH, major, minor, up);
		return err;
	}
	devname[0] = '\0';
	for (p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, "DEVNAME=", 8))
			snprintf(devname, namesz, "%.*s", (int)strcspn(p + 8, "\n"), p + 8);
		else if (!strncmp(p, "DEVTYPE=partition", 17))
			*partition = true;
	}
	free(text);
	/* A name with a slash would walk elsewhere in sys/block: refuse it. */
	if (devname[0] && !strchr(devname, '/'))
		return 0;
	fact_fail_readf(e, -EBADMSG, UEVENT_PATH, major, minor, up);
	return -EBADMSG;
}

static void read_u64(const struct sysroot *sr, const char *disk, const char *attr, uint64_t *out)
{
	char line[64];

	if (sysroot_read_linef(sr, line, sizeof(line), "sys/block/%s/%s", disk, attr) ||
	    parse_u64(line, 10, out))
		*out = 0;
}

/* sys/block/DISK/ATTR as a signed number: 0, or -1 when missing or not a number. */
static int read_int(const struct sysroot *sr, const char *disk, const char *attr, int64_t *out)
{
	char line[64];

	if (sysroot_read_linef(sr, line, sizeof(line), "sys/block/%s/%s", disk, attr) ||
	    parse_i64(line, 10, out))
		return -1;
	return 0;
}

/* "none [mq-deadline] kyber bfq" -> "mq-deadline"; "none" alone (NVMe) -> "none". */
static void active_scheduler(const char *line, char *out, size_t outsz)
{
	const char *l = strchr(line, '['), *r = l ? strchr(l, ']') : NULL;

	if (l && r)
		snprintf(out, outsz, "%.*s", (int)(r - l - 1), l + 1);
	else
		snprintf(out, outsz, "%.*s", (int)strcspn(line, " "), line);
}

static void collect_slaves(const struct sysroot *sr, struct blockdev_facts *bd)
{
	struct dirent *de;
	size_t used = 0;
	DIR *d;

	d = sysroot_opendirf(sr, "sys/block/%s/slaves", bd->disk);
	if (!d)
		return;
	while ((de = readdir(d))) {
		int n;

		if (de->d_name[0] == '.')
			continue;
		n = snprintf(bd->slaves + used, sizeof(bd->slaves) - used, "%s%s", used ? "," : "",
			     de->d_name);
		if (n < 0 || (size_t)n >= sizeof(bd->slaves) - used)
			break;
		used += (size_t)n;
	}
	closedir(d);
}

void blockdev_collect(const struct sysroot *sr, unsigned int major, unsigned int minor,
		      struct blockdev_facts *bd)
{
	char line[128];
	bool parent_part = false;
	int64_t v;

	memset(bd, 0, sizeof(*bd));
	bd->major = major;
	bd->minor = minor;
	bd->dma_alignment = -1;
	bd->io_poll = -1;
	bd->rotational = -1;
	bd->numa_node = -2;
	bd->poll_queues = -1;

	if (read_uevent(sr, major, minor, "", bd->name, sizeof(bd->name), &bd->partition, &bd->e))
		return;
	snprintf(bd->disk, sizeof(bd->disk), "%s", bd->name);
	if (bd->partition) {
		/* The parent directory of a partition is its disk. */
		if (read_uevent(sr, major, minor, "/..", bd->disk, sizeof(bd->disk), &parent_part,
				&bd->e))
			return;
	}
	read_u64(sr, bd->disk, "queue/logical_block_size", &bd->logical_block_size);
	read_u64(sr, bd->disk, "queue/physical_block_size", &bd->physical_block_size);
	read_u64(sr, bd->disk, "queue/max_sectors_kb", &bd->max_sectors_kb);
	read_u64(sr, bd->disk, "queue/nr_requests", &bd->nr_requests);
	if (!read_int(sr, bd->disk, "queue/dma_alignment", &v))
		bd->dma_alignment = v;
	if (!read_int(sr, bd->disk, "queue/io_poll", &v))
		bd->io_poll = (int)v;
	if (!read_int(sr, bd->disk, "queue/rotational", &v))
		bd->rotational = (int)v;
	if (!sysroot_read_linef(sr, line, sizeof(line), "sys/block/%s/queue/scheduler", bd->disk)) {
		snprintf(bd->schedulers, sizeof(bd->schedulers), "%s", line);
		active_scheduler(line, bd->scheduler, sizeof(bd->scheduler));
	}
	collect_slaves(sr, bd);
	sysroot_read_linef(sr, bd->backing_file, sizeof(bd->backing_file),
			   "sys/block/%s/loop/backing_file", bd->disk);
	/* virtio and SCSI disks carry numa_node on device/, NVMe namespaces one level up. */
	if (!read_int(sr, bd->disk, "device/numa_node", &v) ||
	    !read_int(sr, bd->disk, "device/device/numa_node", &v))
		bd->numa_node = (int)v;
	/* Both drivers give a disk poll queues only through a module parameter. */
	if (!strncmp(bd->disk, "nvme", 4))
		snprintf(bd->poll_driver, sizeof(bd->poll_driver), "nvme");
	else if (!strncmp(bd->disk, "vd", 2))
		snprintf(bd->poll_driver, sizeof(bd->poll_driver), "virtio_blk");
	if (bd->poll_driver[0] &&
	    !sysroot_read_linef(sr, line, sizeof(line), "sys/module/%s/parameters/poll_queues",
				bd->poll_driver) && !parse_i64(line, 10, &v))
		bd->poll_queues = (int)v;
}

int blockdev_lookup(const struct sysroot *sr, const char *devpath, unsigned int *major,
		    unsigned int *minor)
{
	const char *base = strrchr(devpath, '/');
	char line[64], dmname[256];
	struct dirent *de;
	DIR *d;

	base = base ? base + 1 : devpath;
	if (!*base || base[0] == '.')
		return -ENOENT;
	if (!sysroot_read_linef(sr, line, sizeof(line), "sys/class/block/%s/dev", base) &&
	    sscanf(line, "%u:%u", major, minor) == 2)
		return 0;
	/* /dev/mapper/vg-lv: the dm-N whose dm/name says so. */
	if (strncmp(devpath, "/dev/mapper/", 12))
		return -ENOENT;
	d = sysroot_opendir(sr, "sys/class/block");
	if (!d)
		return -ENOENT;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "dm-", 3))
			continue;
		if (sysroot_read_linef(sr, dmname, sizeof(dmname), "sys/class/block/%s/dm/name",
				       de->d_name) || strcmp(dmname, base))
			continue;
		if (!sysroot_read_linef(sr, line, sizeof(line), "sys/class/block/%s/dev", de->d_name) &&
		    sscanf(line, "%u:%u", major, minor) == 2) {
			closedir(d);
			return 0;
		}
	}
	closedir(d);
	return -ENOENT;
}
