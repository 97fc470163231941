/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_INTERRUPTS_H
#define URINGLINT_INTERRUPTS_H

#include <stddef.h>
#include <stdint.h>

#include "cpulist.h"

enum irq_class {
	IRQ_OTHER,
	IRQ_STORAGE,
	IRQ_NETWORK,
};

/* One numbered line of /proc/interrupts. */
struct irq_line {
	unsigned int irq;
	uint64_t count;		/* summed over CPUs */
	char chip[64];
	char name[96];		/* the action names ("nvme0q3", "virtio2-input.0") */
};

/*
 * Parses /proc/interrupts: the header gives the number of CPU columns;
 * numbered lines are kept, named ones (NMI, LOC, ...) skipped. On success
 * *lines is a heap array the caller frees. 0 or -EBADMSG / -ENOMEM.
 */
int interrupts_parse(const char *text, struct irq_line **lines, size_t *n);

/*
 * Storage or network queue interrupt, by the names drivers give them; the
 * device ("nvme0", "virtio2", "eth0") goes to device.
 */
enum irq_class irq_classify(const char *name, char *device, size_t devsz);
const char *irq_class_name(enum irq_class c);

#endif
