/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_BLOCKDEV_H
#define URINGLINT_BLOCKDEV_H

#include <stdbool.h>
#include <stdint.h>

#include "fact.h"
#include "sysroot.h"

/* The block device under a filesystem, from sysfs, walked from a partition to its disk. */
struct blockdev_facts {
	struct fact_err e;		/* -ENODEV: the filesystem has no block device */
	unsigned int major, minor;
	char name[64];			/* what the filesystem sits on: vda1, dm-0, md0, loop0 */
	char disk[64];			/* the whole disk: vda for vda1 */
	bool partition;
	uint64_t logical_block_size, physical_block_size;
	uint64_t max_sectors_kb, nr_requests;
	int64_t dma_alignment;		/* a mask (511 = 512 bytes), 6.1+; -1 unknown */
	int io_poll;			/* queue/io_poll: -1 unknown */
	int rotational;			/* -1 unknown */
	char scheduler[32];		/* the active one, "none" included; "" when there is no file */
	char schedulers[128];		/* the whole line, "none [mq-deadline] kyber bfq" */
	char slaves[256];		/* "sda1,sdb1" for md and dm */
	char backing_file[512];		/* loop devices: the file underneath */
	int numa_node;			/* -1: none reported; -2: unknown */
	/* The driver's poll queues (nvme.poll_queues, virtio_blk.poll_queues); -1 unknown */
	int poll_queues;
	char poll_driver[16];		/* "nvme", "virtio_blk"; "" for other drivers */
};

/* Fills bd from sys/dev/block/MAJ:MIN; failures land in bd->e. */
void blockdev_collect(const struct sysroot *sr, unsigned int major, unsigned int minor,
		      struct blockdev_facts *bd);

/* Finds a block device by name under sys/class/block (vda1, dm-0) or dm name; 0 or -ENOENT. */
int blockdev_lookup(const struct sysroot *sr, const char *devpath, unsigned int *major,
		    unsigned int *minor);

#endif
