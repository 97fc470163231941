/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_INTERRUPTS_H
#define URINGLINT_INTERRUPTS_H

#include <stdbool.h>
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

/*
 * Whether an action name is a network queue's, by the fast-path names the
 * drivers give them (the patterns of Seastar's perftune.py):
 * "<if>-TxRx-3" (Intel, bnxt), "<x>-Tx-Rx-1" (ena), "<x>-fp-2" (Broadcom),
 * "mlx4-3@<bus>", "mlx5_comp3@<bus>", "virtioN-input.3" / "virtioN-output.3",
 * "<if>-rx-0" / "<if>-tx-0". *queue gets the queue's index, -1 when none.
 */
bool irq_net_queue(const char *name, int *queue);

/*
 * Whether an action name names this network device: its interface name as
 * a word of the name ("eth0-TxRx-3", "i40e-eth0-TxRx-3"), or its bus
 * device ("mlx5_comp3@pci:0000:3b:00.0", "virtio2-input.0"). busdev may be
 * empty.
 */
bool irq_names_netdev(const char *name, const char *ifname, const char *busdev);

/*
 * The IRQs irqbalance is told to leave alone on its command line
 * (proc/PID/cmdline, NUL-separated): --banirq=N, --banirq N, -i N, -iN.
 * Stores at most max of them; returns how many there are. args[len] must
 * be readable and NUL (sysroot_read_bytes ends its buffer so).
 */
size_t irqbalance_banned_irqs(const char *args, size_t len, unsigned int *irqs, size_t max);

#endif
