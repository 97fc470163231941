// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "procfs.h"

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

/* The decimal number at s, or -1: a queue index is small. */
static int queue_index(const char *s)
{
	long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	return v <= 65535 ? (int)v : -1;
}

bool irq_net_queue(const char *name, int *queue)
{
	static const char *const infix[] = { "-TxRx-", "-Tx-Rx-", "-fp-", "-rx-", "-tx-" };
	const char *p;
	size_t i;

	*queue = -1;
	for (i = 0; i < ARRAY_SIZE(infix); i++) {
		p = strstr(name, infix[i]);
		/* Intel's Flow Director vector ("...:fdir-TxRx-0") is no queue. */
		if (p && !(i == 0 && p >= name + 4 && !strncmp(p - 4, "fdir", 4))) {
			*queue = queue_index(p + strlen(infix[i]));
			return true;
		}
	}
	if (has_prefix(name, "mlx5_comp") || has_prefix(name, "mlx4-")) {
		p = name + (name[3] == '5' ? 9 : 5);
		*queue = queue_index(p);
		/* "mlx5_comp3@pci:...": a number, then the bus. */
		return *queue >= 0 && p[strspn(p, "0123456789")] == '@';
	}
	if (has_prefix(name, "virtio") && isdigit((unsigned char)name[6])) {
		p = strchr(name, '-');
		if (p && (has_prefix(p + 1, "input.") || has_prefix(p + 1, "output."))) {
			*queue = queue_index(strchr(p, '.') + 1);
			return true;
		}
	}
	return false;
}

/* Whether word occurs in s bounded by the start, the end or one of the separators. */
static bool has_word(const char *s, const char *word, const char *seps)
{
	size_t n = strlen(word);
	const char *p;

	if (!n)
		return false;
	for (p = strstr(s, word); p; p = strstr(p + 1, word)) {
		bool left = p == s || strchr(seps, p[-1]);
		bool right = !p[n] || strchr(seps, p[n]);

		if (left && right)
			return true;
	}
	return false;
}

bool irq_names_netdev(const char *name, const char *ifname, const char *busdev)
{
	if (has_word(name, ifname, "-@:, "))
		return true;
	/* virtio-net's queues are named after the virtio device, not the interface. */
	if (has_prefix(busdev, "virtio"))
		return has_prefix(name, busdev) && name[strlen(busdev)] == '-';
	return busdev[0] && has_word(name, busdev, "@:-, ");
}

/* A whole decimal IRQ number, or -1. */
static long irq_number(const char *s)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	return *end || v > 0xffffffffL ? -1 : v;
}

size_t irqbalance_banned_irqs(const char *args, size_t len, unsigned int *irqs, size_t max)
{
	const char *p = args, *end = args + len, *val;
	size_t n = 0, alen;
	long v;

	while (p < end) {
		alen = strnlen(p, (size_t)(end - p));
		val = NULL;
		if (!strncmp(p, "--banirq=", 9))
			val = p + 9;
		else if (!strncmp(p, "-i", 2) && alen > 2)
			val = p + 2;
		else if ((!strcmp(p, "--banirq") || !strcmp(p, "-i")) && p + alen + 1 < end)
			val = p + alen + 1;	/* the next argument */
		if (val && (v = irq_number(val)) >= 0) {
			if (n < max)
				irqs[n] = (unsigned int)v;
			n++;
		}
		p += alen + 1;
	}
	return n;
}
