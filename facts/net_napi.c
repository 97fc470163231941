// SPDX-License-Identifier: GPL-2.0-or-later
/* The network devices' interrupt deferral knobs, for judging busy polling (net_napi.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "net_napi.h"
#include "parse.h"

#define IFF_LOOPBACK_BIT 0x8	/* include/uapi/linux/if.h */
#define KNOB_PATH "sys/class/net/%s/%s"	/* device, attribute: read and named in messages */

static int knob(const struct sysroot *sr, const char *dev, const char *name, int64_t *v,
		struct fact_err *e)
{
	char line[64];
	int err;

	err = sysroot_read_linef(sr, line, sizeof(line), KNOB_PATH, dev, name);
	if (err) {
		fact_fail_readf(e, err, KNOB_PATH, dev, name);
		return err;
	}
	if (parse_i64(line, 10, v) || *v < 0) {
		fact_fail(e, -EBADMSG, "cannot parse '" KNOB_PATH "': '%s' is not a count", dev, name,
			  line);
		return -EBADMSG;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct net_dev_napi *)a)->name, ((const struct net_dev_napi *)b)->name);
}

void net_devs_collect(const struct sysroot *sr, struct net_devs *d)
{
	size_t cap = 0;
	struct dirent *de;
	char line[64];
	uint64_t flags;
	DIR *dir;

	memset(d, 0, sizeof(*d));
	dir = sysroot_opendir(sr, "sys/class/net");
	if (!dir) {
		fact_fail_read(&d->e, "sys/class/net", -errno);
		return;
	}
	while ((de = readdir(dir))) {
		struct net_dev_napi *nd;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(nd->name))
			continue;
		if (d->n >= NET_NAPI_DEVS_MAX) {
			d->left_out++;
			continue;
		}
		if (array_grow(&d->v, &cap, d->n + 1)) {
			fact_fail(&d->e, -ENOMEM, "out of memory");
			break;
		}
		nd = &d->v[d->n++];
		memset(nd, 0, sizeof(*nd));
		snprintf(nd->name, sizeof(nd->name), "%s", de->d_name);
		nd->loopback = !sysroot_read_linef(sr, line, sizeof(line), "sys/class/net/%s/flags",
						   nd->name) &&
			       !parse_u64(line, 16, &flags) && (flags & IFF_LOOPBACK_BIT);
		if (!knob(sr, nd->name, "napi_defer_hard_irqs", &nd->defer_hard_irqs, &nd->e))
			knob(sr, nd->name, "gro_flush_timeout", &nd->gro_flush_timeout, &nd->e);
	}
	closedir(dir);
	if (d->n > 1)
		qsort(d->v, d->n, sizeof(*d->v), by_name);
}

void net_devs_free(struct net_devs *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}
