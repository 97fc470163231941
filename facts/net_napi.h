/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_NET_NAPI_H
#define URINGLINT_NET_NAPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fact.h"
#include "sysroot.h"

/*
 * A network device of /sys/class/net (the devices of uringlint's own
 * network namespace) with the two knobs that let busy polling keep its
 * interrupts off: napi_defer_hard_irqs (interrupts deferred this many
 * times after a poll found work) and gro_flush_timeout (ns, the timer
 * that stands in for them meanwhile).
 */
struct net_dev_napi {
	char name[32];
	bool loopback;			/* IFF_LOOPBACK in flags */
	struct fact_err e;		/* the knobs could not be read (before 4.10 / 5.11) */
	int64_t defer_hard_irqs, gro_flush_timeout;
};

#define NET_NAPI_DEVS_MAX 256

struct net_devs {
	struct fact_err e;		/* the directory could not be listed */
	struct net_dev_napi *v;
	size_t n;
	size_t left_out;		/* past NET_NAPI_DEVS_MAX: not read */
};

void net_devs_collect(const struct sysroot *sr, struct net_devs *d);
void net_devs_free(struct net_devs *d);

#endif
