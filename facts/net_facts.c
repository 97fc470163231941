// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Collects what a planned network service meets on its NIC: the queues,
 * RPS, XPS and RFS settings, and where the queue interrupts are delivered.
 * Judges nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "procfs.h"
#include "net_facts.h"
#include "parse.h"

#define P_ROUTE "proc/net/route"
#define P_RPS_SOCK_FLOW "proc/sys/net/core/rps_sock_flow_entries"
#define FLOW_CNT_PATH "sys/class/net/%s/queues/rx-%u/rps_flow_cnt"	/* read and named */

/*
 * Drivers of a VM's NIC: how many queues it has is the hypervisor's
 * choice, made outside this host.
 */
static const char *const paravirt_drivers[] = { "virtio_net", "vif", "xen-netfront",
						"hv_netvsc", "vmxnet3" };

/* A queue's or a vector's number: decimal digits only. */
static int parse_index(const char *s, unsigned int *out)
{
	uint64_t v;

	if (*s < '0' || *s > '9' || s[strspn(s, "0123456789")] || parse_u64(s, 10, &v) ||
	    v > 0xffffffffu)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Queues by index and IRQs by number: each struct begins with that unsigned int. */
static int by_number(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

/* A hex CPU mask (rps_cpus, xps_cpus) into set; the failure into e. */
static void read_mask(const struct sysroot *sr, const char *path, struct cpuset *set,
		      struct fact_err *e)
{
	char line[CPULIST_MAX / 3];
	int err;

	err = sysroot_read_line(sr, path, line, sizeof(line));
	if (err)
		fact_fail_read(e, path, err);
	else if (cpumask_parse_hex(line, set))
		fact_fail(e, -EBADMSG, "cannot parse '%s': '%.40s' is not a CPU mask", path, line);
}

__attribute__((format(printf, 4, 5)))
static void read_maskf(const struct sysroot *sr, struct cpuset *set, struct fact_err *e,
		       const char *fmt, ...)
{
	FACT_WITH_PATH(e, fmt, read_mask(sr, path_, set, e));
}

/* The software device's lower devices (a bond's slaves, a VLAN's parent). */
static void collect_links(const struct sysroot *sr, struct net_dev *d)
{
	char target[256];
	struct dirent *de;
	DIR *dir;

	dir = sysroot_opendirf(sr, "sys/class/net/%s", d->name);
	if (!dir) {
		fact_fail(&d->e, -errno, "no network interface '%s' (sys/class/net/%s: %s)",
			  d->name, d->name, sysroot_strerror(-errno));
		return;
	}
	while ((de = readdir(dir)) && d->nlower < NET_LOWER_MAX) {
		if (strncmp(de->d_name, "lower_", 6) || strlen(de->d_name + 6) >= NET_IFNAME_MAX)
			continue;
		/* Read, not only listed, so that a captured tree keeps the link. */
		if (sysroot_readlinkf(sr, target, sizeof(target), "sys/class/net/%s/%s", d->name,
				      de->d_name))
			continue;
		snprintf(d->lower[d->nlower++], NET_IFNAME_MAX, "%s", de->d_name + 6);
	}
	closedir(dir);
}

static void collect_kind(const struct sysroot *sr, struct net_dev *d)
{
	char target[256];
	size_t i;

	if (!sysroot_readlinkf(sr, target, sizeof(target), "sys/class/net/%s/device", d->name)) {
		d->has_device = true;
		snprintf(d->busdev, sizeof(d->busdev), "%.63s", base_name(target));
		if (!sysroot_readlinkf(sr, target, sizeof(target), "sys/class/net/%s/device/driver",
				       d->name))
			snprintf(d->driver, sizeof(d->driver), "%.31s", base_name(target));
	}
	if (!d->has_device) {
		d->is_virtual = true;
		snprintf(d->virtual_why, sizeof(d->virtual_why),
			 "a software device (no sys/class/net/%s/device)", d->name);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(paravirt_drivers); i++)
		if (!strcmp(d->driver, paravirt_drivers[i])) {
			d->is_virtual = true;
			snprintf(d->virtual_why, sizeof(d->virtual_why),
				 "a VM's paravirtual NIC (driver %s)", d->driver);
		}
}

static void collect_rxq(const struct sysroot *sr, const char *dev, struct net_rxq *q)
{
	read_maskf(sr, &q->rps, &q->rps_e, "sys/class/net/%s/queues/rx-%u/rps_cpus", dev, q->idx);
	fact_read_i64f(sr, &q->flow_e, &q->flow_cnt, FLOW_CNT_PATH, dev, q->idx);
	if (fact_ok(&q->flow_e) && q->flow_cnt < 0)
		fact_fail(&q->flow_e, -EBADMSG, "cannot parse '" FLOW_CNT_PATH "': %lld is not a "
			  "table size", dev, q->idx, (long long)q->flow_cnt);
}

static void collect_queues(const struct sysroot *sr, struct net_dev *d)
{
	struct dirent *de;
	unsigned int idx;
	DIR *dir, *qd;
	size_t i;

	dir = sysroot_opendirf(sr, "sys/class/net/%s/queues", d->name);
	if (!dir) {
		fact_fail(&d->queues_e, -errno, "cannot list 'sys/class/net/%s/queues': %s",
			  d->name, sysroot_strerror(-errno));
		return;
	}
	while ((de = readdir(dir))) {
		bool rx = !strncmp(de->d_name, "rx-", 3), tx = !strncmp(de->d_name, "tx-", 3);

		if ((!rx && !tx) || parse_index(de->d_name + 3, &idx))
			continue;
		/* Opened too, so a captured tree keeps a queue whose files are absent. */
		qd = sysroot_opendirf(sr, "sys/class/net/%s/queues/%s", d->name, de->d_name);
		if (qd)
			closedir(qd);
		/* Counted all, kept up to NET_QUEUES_MAX: sized to what the device has. */
		if (rx && d->nrx < NET_QUEUES_MAX) {
			if (array_grow(&d->rx, &d->rx_cap, d->nrx + 1))
				break;
			memset(&d->rx[d->nrx], 0, sizeof(d->rx[d->nrx]));
			d->rx[d->nrx].idx = idx;
		}
		if (tx && d->ntx < NET_QUEUES_MAX) {
			if (array_grow(&d->tx, &d->tx_cap, d->ntx + 1))
				break;
			memset(&d->tx[d->ntx], 0, sizeof(d->tx[d->ntx]));
			d->tx[d->ntx].idx = idx;
		}
		d->nrx += rx;
		d->ntx += tx;
	}
	closedir(dir);
	if (de) {
		fact_fail(&d->queues_e, -ENOMEM, "out of memory listing the queues of %s", d->name);
		return;
	}
	if (d->nrx)	/* qsort() takes no NULL, even for no element */
		qsort(d->rx, d->nrx < NET_QUEUES_MAX ? d->nrx : NET_QUEUES_MAX, sizeof(*d->rx),
		      by_number);
	if (d->ntx)
		qsort(d->tx, d->ntx < NET_QUEUES_MAX ? d->ntx : NET_QUEUES_MAX, sizeof(*d->tx),
		      by_number);
	for (i = 0; i < d->nrx && i < NET_QUEUES_MAX; i++)
		collect_rxq(sr, d->name, &d->rx[i]);
	for (i = 0; i < d->ntx && i < NET_QUEUES_MAX; i++)
		read_maskf(sr, &d->tx[i].xps, &d->tx[i].xps_e, "sys/class/net/%s/queues/tx-%u/xps_cpus",
			   d->name, d->tx[i].idx);
	if (!d->nrx && !d->ntx)
		fact_fail(&d->queues_e, -ENOENT, "sys/class/net/%s/queues holds no rx-N or tx-N",
			  d->name);
}

/* One affinity file into set; false when it cannot be read or parsed (the parse failure into e). */
static bool read_cpus(const struct sysroot *sr, unsigned int irq, const char *file,
		      struct cpuset *set, struct fact_err *e)
{
	char line[CPULIST_MAX];

	if (sysroot_read_linef(sr, line, sizeof(line), "proc/irq/%u/%s", irq, file))
		return false;
	if (!cpulist_parse(line, set))
		return true;
	fact_fail(e, -EBADMSG, "cannot parse 'proc/irq/%u/%s': '%.40s' is not a CPU list", irq, file,
		  line);
	return false;
}

static void read_affinity(const struct sysroot *sr, struct net_irq *ii)
{
	struct fact_err bad = { 0 };

	ii->has_effective = read_cpus(sr, ii->irq, "effective_affinity_list", &ii->effective, &bad);
	ii->has_configured = read_cpus(sr, ii->irq, "smp_affinity_list", &ii->configured, &bad);
	if (ii->has_effective || ii->has_configured)
		return;
	if (!fact_ok(&bad))
		ii->e = bad;
	else
		fact_fail(&ii->e, -ENOENT, "no readable affinity under proc/irq/%u", ii->irq);
}

static const struct irq_info *irq_line_of(const struct cpu_facts *cf, unsigned int irq)
{
	size_t i;

	for (i = 0; i < cf->nirqs; i++)
		if (cf->irqs[i].line.irq == irq)
			return &cf->irqs[i];
	return NULL;
}

static void add_irq(struct net_dev *d, const struct irq_info *ii)
{
	struct net_irq *n;

	if (d->nirqs >= NET_IRQS_MAX || array_grow(&d->irqs, &d->irqs_cap, d->nirqs + 1))
		return;		/* the device's IRQs past that are not judged */
	n = &d->irqs[d->nirqs++];
	memset(n, 0, sizeof(*n));
	n->irq = ii->line.irq;
	snprintf(n->name, sizeof(n->name), "%s", ii->line.name);
	n->fast_path = irq_net_queue(n->name, &n->queue);
}

/* The IRQ numbers of a PCI device's MSI vectors; false when it has none. */
static bool irqs_from_msi(const struct sysroot *sr, const struct cpu_facts *cf, struct net_dev *d)
{
	const struct irq_info *ii;
	struct dirent *de;
	unsigned int irq;
	char mode[16];
	DIR *dir;

	dir = sysroot_opendirf(sr, "sys/class/net/%s/device/msi_irqs", d->name);
	if (!dir)
		return false;
	while ((de = readdir(dir))) {
		if (parse_index(de->d_name, &irq))
			continue;
		/* "msix" or "msi"; read so that a captured tree keeps the entry. */
		sysroot_read_linef(sr, mode, sizeof(mode), "sys/class/net/%s/device/msi_irqs/%u",
				   d->name, irq);
		ii = irq_line_of(cf, irq);
		if (ii)		/* a vector with no line has no handler yet */
			add_irq(d, ii);
	}
	closedir(dir);
	snprintf(d->irq_source, sizeof(d->irq_source), "sys/class/net/%s/device/msi_irqs",
		 d->name);
	return true;
}

/* Keeps only the queues' vectors when the names tell them (perftune.py does the same). */
static void keep_fast_path(struct net_dev *d)
{
	size_t i, out = 0, fast = 0;

	for (i = 0; i < d->nirqs; i++)
		fast += d->irqs[i].fast_path;
	if (!fast || fast == d->nirqs)
		return;
	for (i = 0; i < d->nirqs; i++)
		if (d->irqs[i].fast_path)
			d->irqs[out++] = d->irqs[i];
	snprintf(d->irq_source + strlen(d->irq_source), sizeof(d->irq_source) - strlen(d->irq_source),
		 ", %zu queue vectors of %zu", out, d->nirqs);
	d->nirqs = out;
}

static void collect_irqs(const struct sysroot *sr, const struct cpu_facts *cf, struct net_dev *d)
{
	size_t i;

	if (!fact_ok(&cf->irq_e)) {
		d->irq_e = cf->irq_e;
		return;
	}
	/* virtio-net's vectors belong to the PCI function above the virtio device: by name. */
	if (strncmp(d->busdev, "virtio", 6) && d->has_device && irqs_from_msi(sr, cf, d)) {
		/* found by number */
	} else {
		for (i = 0; i < cf->nirqs; i++)
			if (irq_names_netdev(cf->irqs[i].line.name, d->name, d->busdev))
				add_irq(d, &cf->irqs[i]);
		snprintf(d->irq_source, sizeof(d->irq_source), "proc/interrupts lines naming %s%s%s",
			 d->name, d->busdev[0] ? " or " : "", d->busdev);
	}
	keep_fast_path(d);
	if (d->nirqs)
		qsort(d->irqs, d->nirqs, sizeof(*d->irqs), by_number);
	for (i = 0; i < d->nirqs; i++)
		read_affinity(sr, &d->irqs[i]);
	if (!d->nirqs)
		fact_fail(&d->irq_e, -ENOENT, "no interrupt of %s found (%s)", d->name, d->irq_source);
}

static void collect_dev(const struct sysroot *sr, const struct cpu_facts *cf, struct net_dev *d)
{
	collect_links(sr, d);
	if (!fact_ok(&d->e))
		return;
	collect_kind(sr, d);
	collect_queues(sr, d);
	collect_irqs(sr, cf, d);
}

static void choose_devs(const struct sysroot *sr, const char *const *names, size_t nnames,
			struct net_facts *nf)
{
	char found[NET_DEVS_MAX][NET_IFNAME_MAX];
	char *text;
	size_t len, i, n = 0;
	int err;

	if (nnames) {
		snprintf(nf->chosen_by, sizeof(nf->chosen_by), "--net-dev");
		for (i = 0; i < nnames && nf->ndevs < NET_DEVS_MAX; i++)
			snprintf(nf->devs[nf->ndevs++].name, NET_IFNAME_MAX, "%s", names[i]);
		return;
	}
	snprintf(nf->chosen_by, sizeof(nf->chosen_by), "the IPv4 default route (%s)", P_ROUTE);
	err = sysroot_read_file(sr, P_ROUTE, SYSROOT_READ_MAX, &text, &len);
	if (err) {
		fact_fail(&nf->e, err, "cannot read '%s' to find the default route's device: %s; "
			  "name it with --net-dev", P_ROUTE, sysroot_strerror(err));
		return;
	}
	err = net_route_default_ifaces(text, found, NET_DEVS_MAX, &n);
	free(text);
	if (err) {
		fact_fail(&nf->e, err, "cannot parse '%s': unexpected content", P_ROUTE);
		return;
	}
	if (!n) {
		fact_fail(&nf->e, -ENOENT, "no IPv4 default route in '%s': name the service's "
			  "device with --net-dev", P_ROUTE);
		return;
	}
	for (i = 0; i < n; i++)
		memcpy(nf->devs[nf->ndevs++].name, found[i], NET_IFNAME_MAX);
}

/* irqbalance's own command line: --banirq is how perftune.py keeps it off the NIC's IRQs. */
static void collect_banirq(const struct sysroot *sr, const struct cpu_facts *cf,
			   struct net_facts *nf)
{
	char *args;
	size_t len, n;

	if (!cf->irqbalance_running)
		return;
	if (sysroot_read_bytesf(sr, 64 * 1024, &args, &len, "proc/%d/cmdline", cf->irqbalance_pid))
		return;
	nf->banirq_known = true;
	n = irqbalance_banned_irqs(args, len, nf->banirq, NET_IRQS_MAX);
	nf->nbanirq = n < NET_IRQS_MAX ? n : NET_IRQS_MAX;
	free(args);
}

void net_facts_collect(const struct sysroot *sr, const char *const *names, size_t nnames,
		       const struct cpu_facts *cf, struct net_facts *nf)
{
	size_t i;

	memset(nf, 0, sizeof(*nf));
	fact_read_i64(sr, P_RPS_SOCK_FLOW, &nf->rps_sock_flow_entries.e,
		      &nf->rps_sock_flow_entries.value);
	choose_devs(sr, names, nnames, nf);
	for (i = 0; i < nf->ndevs; i++)
		collect_dev(sr, cf, &nf->devs[i]);
	collect_banirq(sr, cf, nf);
}

void net_facts_free(struct net_facts *nf)
{
	size_t i;

	for (i = 0; i < nf->ndevs; i++) {
		free(nf->devs[i].rx);
		free(nf->devs[i].tx);
		free(nf->devs[i].irqs);
		nf->devs[i].rx = NULL;
		nf->devs[i].tx = NULL;
		nf->devs[i].irqs = NULL;
	}
}

bool net_facts_banned(const struct net_facts *nf, unsigned int irq)
{
	size_t i;

	for (i = 0; i < nf->nbanirq && i < NET_IRQS_MAX; i++)
		if (nf->banirq[i] == irq)
			return true;
	return false;
}
