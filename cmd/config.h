/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_CONFIG_H
#define URINGLINT_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "checks.h"

#define CONFIG_DEFAULT_PATH "/etc/uringlint.conf"

/* Bits of struct config.plan_set: which planning values the file gave. */
#define PLAN_SET_SQPOLL_CPU (1u << 0)
#define PLAN_SET_DEPTH (1u << 1)
#define PLAN_SET_RING_ENTRIES (1u << 2)
#define PLAN_SET_FIXED_BUFFERS (1u << 3)
#define PLAN_SET_WORKERS (1u << 4)
#define PLAN_SET_WORKER_CPUS (1u << 5)

/* The policy file: "key = value" lines, # comments. */
struct config {
	char path[4096];	/* "" when no file was read */
	char *only, *skip;
	bool has_fail_on;
	char fail_on[8];
	struct plan plan;
	unsigned int plan_set;
	struct thresholds th;
	char **data_paths;
	size_t ndata_paths, data_paths_cap;
	char **net_devs;		/* net-dev lines: the service's network devices */
	size_t nnet_devs, net_devs_cap;
};

/*
 * Reads path (NULL: /etc/uringlint.conf when it exists). A bad line prints
 * "uringlint: FILE:LINE: reason" and returns EXIT_USAGE; 0 otherwise.
 */
int config_load(const char *path, struct config *cfg);
/* The lines of an open file, named name in messages, over cfg as it is. */
int config_read(FILE *f, const char *name, struct config *cfg);
void config_free(struct config *cfg);
/* Whether name can be a network interface's (what --net-dev and net-dev take). */
bool config_net_dev_valid(const char *name);
/* The planning values the file gave, over the defaults already in plan. */
void config_apply_plan(const struct config *cfg, struct plan *plan);

#endif
