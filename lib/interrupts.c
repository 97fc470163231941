// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "interrupts.h"

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static const char *next_word(const char *p, char *out, size_t outsz)
{
	size_t n;

	p = skip_ws(p);
	n = strcspn(p, " \t\n");
	if (out && outsz) {
		size_t c = n < outsz - 1 ? n : outsz - 1;

		memcpy(out, p, c);
		out[c] = '\0';
	}
	return p + n;
}

static int parse_line(const char *line, unsigned int ncpu, struct irq_line *l)
{
	const char *p = skip_ws(line), *end;
	unsigned long long v;
	char *e;
	unsigned int i;

	memset(l, 0, sizeof(*l));
	v = strtoull(p, &e, 10);
	if (e == p || *e != ':' || v > 0xffffffffULL)
		return -EBADMSG;
	l->irq = (unsigned int)v;
	p = e + 1;
	for (i = 0; i < ncpu; i++) {
		p = skip_ws(p);
		if (*p < '0' || *p > '9')
			break;	/* some lines (ERR, MIS) carry fewer columns */
		v = strtoull(p, &e, 10);
		l->count += v;
		p = e;
	}
	p = next_word(p, l->chip, sizeof(l->chip));
	p = next_word(p, NULL, 0);	/* hwirq and trigger: "5-edge", "327680-edge" */
	p = skip_ws(p);
	end = p + strcspn(p, "\n");
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	snprintf(l->name, sizeof(l->name), "%.*s", (int)(end - p), p);
	return 0;
}

int interrupts_parse(const char *text, struct irq_line **lines, size_t *n)
{
	const char *p = text, *nl;
	struct irq_line *arr = NULL, l;
	size_t cap = 0, cnt = 0;
	unsigned int ncpu = 0;
	char word[32];

	*lines = NULL;
	*n = 0;
	/* Header: "           CPU0       CPU1" */
	nl = strchr(p, '\n');
	if (!nl)
		return -EBADMSG;
	while (p < nl) {
		p = skip_ws(p);
		if (p >= nl)
			break;
		p = next_word(p, word, sizeof(word));
		if (strncmp(word, "CPU", 3))
			return -EBADMSG;
		ncpu++;
	}
	if (!ncpu)
		return -EBADMSG;
	for (p = nl + 1; *p; p = nl ? nl + 1 : p + strlen(p)) {
		const char *s = skip_ws(p);

		nl = strchr(p, '\n');
		if (*s < '0' || *s > '9')
			continue;	/* NMI:, LOC:, ERR: ... */
		if (parse_line(p, ncpu, &l)) {
			free(arr);
			return -EBADMSG;
		}
		if (array_grow(&arr, &cap, cnt + 1)) {
			free(arr);
			return -ENOMEM;
		}
		arr[cnt++] = l;
		if (!nl)
			break;
	}
	*lines = arr;
	*n = cnt;
	return 0;
}

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Copies name up to the first of the stop characters. */
static void device_part(const char *name, const char *stop, char *device, size_t devsz)
{
	snprintf(device, devsz, "%.*s", (int)strcspn(name, stop), name);
}

enum irq_class irq_classify(const char *name, char *device, size_t devsz)
{
	static const char *const storage[] = {
		"nvme", "ahci", "megasas", "mpt2sas", "mpt3sas", "aacraid", "hpsa", "smartpqi",
		"lpfc", "qla2xxx", "mlx5_nvme", "ata_piix", "virtio_scsi", "vmw_pvscsi",
	};
	static const char *const network[] = {
		"mlx4", "mlx5", "i40e", "ice", "ixgbe", "igb", "igc", "e1000", "bnxt", "ena",
		"gve", "efa", "virtio_net", "qede", "sfc", "be2net", "hinic", "vmxnet3",
		"eth", "ens", "enp", "eno", "enx", "ib",
	};
	const char *dash;
	size_t i;

	device[0] = '\0';
	/* virtio: the queue name says the device type (blk: req/requests; net: input/output). */
	if (has_prefix(name, "virtio") && isdigit((unsigned char)name[6])) {
		dash = strchr(name, '-');
		device_part(name, "-", device, devsz);
		if (dash && (has_prefix(dash + 1, "req") || has_prefix(dash + 1, "request")))
			return IRQ_STORAGE;
		/* virtio-net numbers its queues; virtio-rng and console have a bare "input". */
		if (dash && (has_prefix(dash + 1, "input.") || has_prefix(dash + 1, "output.")))
			return IRQ_NETWORK;
		return IRQ_OTHER;
	}
	for (i = 0; i < ARRAY_SIZE(storage); i++) {
		if (has_prefix(name, storage[i])) {
			/* nvme0q3 -> nvme0 */
			if (has_prefix(name, "nvme"))
				device_part(name, "q", device, devsz);
			else
				device_part(name, "-@ ", device, devsz);
			return IRQ_STORAGE;
		}
	}
	for (i = 0; i < ARRAY_SIZE(network); i++) {
		if (has_prefix(name, network[i])) {
			device_part(name, "-@ ", device, devsz);
			return IRQ_NETWORK;
		}
	}
	/* Per-queue names many NIC drivers use: "<ifname>-TxRx-3", "<ifname>-rx-0". */
	if (strstr(name, "-TxRx-") || strstr(name, "-rx-") || strstr(name, "-tx-")) {
		device_part(name, "-", device, devsz);
		return IRQ_NETWORK;
	}
	return IRQ_OTHER;
}

const char *irq_class_name(enum irq_class c)
{
	switch (c) {
	case IRQ_STORAGE:
		return "storage";
	case IRQ_NETWORK:
		return "network";
	default:
		return "other";
	}
}
