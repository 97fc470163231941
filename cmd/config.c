// SPDX-License-Identifier: GPL-2.0-or-later
/* The policy file: skipped checks, thresholds, data paths, the planned deployment. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "input_file.h"
#include "parse.h"
#include "xalloc.h"

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static int parse_ratio(const char *v, double *out)
{
	char *end;
	double d = strtod(v, &end);

	if (end == v || *end || !(d >= 0 && d <= 1))
		return -EINVAL;
	*out = d;
	return 0;
}

static const char unknown_key[] = "unknown key";

/*
 * One key; NULL on success, else why the value is wrong. The why never
 * quotes the value: --config may be pointed at a file that is not a policy
 * (root's /etc/shadow, through a wrapper that lets a user choose), and an
 * error must not show a line of it. Only the line's number and a key that
 * is one of this table's are named.
 */
static const char *apply(struct config *c, const char *key, const char *val)
{
	uint64_t v;
	char *bad = NULL;

	if (!strcmp(key, "skip") || !strcmp(key, "only")) {
		struct check_policy p = { .skip = val };

		int err = check_policy_validate(&p, &bad);

		free(bad);
		if (err == -ENODATA)
			return "names no check";
		if (err)
			return "names a check uringlint does not have (see 'uringlint checks')";
		free(key[0] == 's' ? c->skip : c->only);
		if (key[0] == 's')
			c->skip = xstrdup(val);
		else
			c->only = xstrdup(val);
		return NULL;
	}
	if (!strcmp(key, "fail-on")) {
		if (strcmp(val, "warn") && strcmp(val, "fail") && strcmp(val, "never"))
			return "fail-on takes warn, fail or never";
		c->has_fail_on = true;
		snprintf(c->fail_on, sizeof(c->fail_on), "%s", val);
		return NULL;
	}
	if (!strcmp(key, "data-path")) {
		xarray_grow(&c->data_paths, &c->data_paths_cap, c->ndata_paths + 1);
		c->data_paths[c->ndata_paths++] = xstrdup(val);
		return NULL;
	}
	if (!strcmp(key, "sqpoll-cpu")) {
		if (cpulist_parse(val, &c->plan.sqpoll_cpus) || !cpuset_count(&c->plan.sqpoll_cpus))
			return "sqpoll-cpu takes a CPU list like 2-3";
		c->plan.has_sqpoll_cpus = true;
		c->plan_set |= PLAN_SET_SQPOLL_CPU;
		return NULL;
	}
	if (!strcmp(key, "workers")) {
		if (parse_count(val, PLAN_WORKERS_MAX, &c->plan.workers))
			return "workers takes a number of threads from 1 to 8192";
		c->plan_set |= PLAN_SET_WORKERS;
		return NULL;
	}
	if (!strcmp(key, "worker-cpus")) {
		if (cpulist_parse(val, &c->plan.worker_cpus) || !cpuset_count(&c->plan.worker_cpus))
			return "worker-cpus takes a CPU list like 2-7";
		c->plan.has_worker_cpus = true;
		c->plan_set |= PLAN_SET_WORKER_CPUS;
		return NULL;
	}
	if (!strcmp(key, "net-dev")) {
		if (!config_net_dev_valid(val))
			return "net-dev takes a network interface name like eth0";
		xarray_grow(&c->net_devs, &c->net_devs_cap, c->nnet_devs + 1);
		c->net_devs[c->nnet_devs++] = xstrdup(val);
		return NULL;
	}
	if (!strcmp(key, "depth") || !strcmp(key, "ring-entries")) {
		unsigned int n;

		if (parse_count(val, PLAN_ENTRIES_MAX, &n))
			return "takes a number from 1 to 32768";
		v = n;
		if (key[0] == 'd') {
			c->plan.depth = (unsigned int)v;
			c->plan_set |= PLAN_SET_DEPTH;
		} else {
			c->plan.ring_entries = (unsigned int)v;
			c->plan_set |= PLAN_SET_RING_ENTRIES;
		}
		return NULL;
	}
	if (!strcmp(key, "fixed-buffers")) {
		if (parse_size(val, &v) || v > PLAN_FIXED_BUFFERS_MAX)
			return "fixed-buffers takes a size like 64M";
		c->plan.fixed_buffer_bytes = v;
		c->plan_set |= PLAN_SET_FIXED_BUFFERS;
		return NULL;
	}
	if (!strcmp(key, "busy-ratio-idle"))
		return parse_ratio(val, &c->th.busy_idle) ? "takes a ratio from 0 to 1" : NULL;
	if (!strcmp(key, "busy-ratio-saturated"))
		return parse_ratio(val, &c->th.busy_saturated) ? "takes a ratio from 0 to 1" : NULL;
	if (!strcmp(key, "punt-tolerance"))
		return parse_ratio(val, &c->th.punt_tolerance) ? "takes a ratio from 0 to 1" : NULL;
	if (!strcmp(key, "extent-limit")) {
		if (parse_u64(val, 10, &v) || !v || v > 100000000)
			return "extent-limit takes a positive number";
		c->th.extent_limit = (unsigned int)v;
		return NULL;
	}
	return unknown_key;
}

int config_read(FILE *f, const char *name, struct config *cfg)
{
	char line[4096], *key, *val, *eq;
	const char *why;
	unsigned int n = 0;

	snprintf(cfg->path, sizeof(cfg->path), "%s", name);
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (!strchr(line, '\n') && !feof(f)) {
			error_msg("%s:%u: line longer than %zu bytes", cfg->path, n, sizeof(line) - 2);
			return EXIT_USAGE;
		}
		key = trim(line);
		if (!*key || *key == '#')
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			error_msg("%s:%u: not a 'key = value' line", cfg->path, n);
			return EXIT_USAGE;
		}
		*eq = '\0';
		val = trim(eq + 1);
		key = trim(key);
		why = apply(cfg, key, val);
		if (why == unknown_key) {
			error_msg("%s:%u: %s (see 'uringlint --help' for the keys)", cfg->path, n, why);
			return EXIT_USAGE;
		}
		if (why) {
			error_msg("%s:%u: %s: %s", cfg->path, n, key, why);
			return EXIT_USAGE;
		}
	}
	if (cfg->th.busy_idle >= cfg->th.busy_saturated) {
		error_msg("%s: busy-ratio-idle must be below busy-ratio-saturated", cfg->path);
		return EXIT_USAGE;
	}
	return 0;
}

int config_load(const char *path, struct config *cfg)
{
	struct path_refusal refusal;
	FILE *f;
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	plan_defaults(&cfg->plan);
	thresholds_defaults(&cfg->th);
	f = input_file_fopen(path ? path : CONFIG_DEFAULT_PATH, &refusal);
	if (!f) {
		if (!path && errno == ENOENT)
			return 0;	/* no policy file is the usual case */
		error_msg("cannot read '%s': %s", path ? path : CONFIG_DEFAULT_PATH,
			  input_file_strerror(-errno, &refusal));
		return EXIT_USAGE;
	}
	ret = config_read(f, path ? path : CONFIG_DEFAULT_PATH, cfg);
	fclose(f);
	return ret;
}

void config_free(struct config *cfg)
{
	size_t i;

	free(cfg->only);
	free(cfg->skip);
	for (i = 0; i < cfg->ndata_paths; i++)
		free(cfg->data_paths[i]);
	free(cfg->data_paths);
	for (i = 0; i < cfg->nnet_devs; i++)
		free(cfg->net_devs[i]);
	free(cfg->net_devs);
	memset(cfg, 0, sizeof(*cfg));
}

void config_apply_plan(const struct config *cfg, struct plan *plan)
{
	if (cfg->plan_set & PLAN_SET_SQPOLL_CPU) {
		plan->has_sqpoll_cpus = true;
		plan->sqpoll_cpus = cfg->plan.sqpoll_cpus;
	}
	if (cfg->plan_set & PLAN_SET_DEPTH)
		plan->depth = cfg->plan.depth;
	if (cfg->plan_set & PLAN_SET_RING_ENTRIES)
		plan->ring_entries = cfg->plan.ring_entries;
	if (cfg->plan_set & PLAN_SET_FIXED_BUFFERS)
		plan->fixed_buffer_bytes = cfg->plan.fixed_buffer_bytes;
	if (cfg->plan_set & PLAN_SET_WORKERS)
		plan->workers = cfg->plan.workers;
	if (cfg->plan_set & PLAN_SET_WORKER_CPUS) {
		plan->has_worker_cpus = true;
		plan->worker_cpus = cfg->plan.worker_cpus;
	}
}

bool config_net_dev_valid(const char *name)
{
	size_t n = strlen(name);

	/* The kernel's dev_valid_name(): no '/', ':' or blank, not "." or "..". */
	return n && n < NET_IFNAME_MAX && strcspn(name, "/: \t\n") == n && strcmp(name, ".") &&
	       strcmp(name, "..");
}
