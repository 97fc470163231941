// SPDX-License-Identifier: GPL-2.0-or-later
/* Collects CPU isolation, IRQ placement, governors, NUMA and irqbalance. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cpu_facts.h"
#include "proc_identity.h"
#include "parse.h"
#include "procfs.h"

#define P_ONLINE "sys/devices/system/cpu/online"
#define P_POSSIBLE "sys/devices/system/cpu/possible"
#define P_ISOLATED "sys/devices/system/cpu/isolated"
#define P_NOHZ "sys/devices/system/cpu/nohz_full"
#define P_CMDLINE "proc/cmdline"
#define P_INTERRUPTS "proc/interrupts"
#define P_NODE_ONLINE "sys/devices/system/node/online"
#define GOVERNOR_PATH "sys/devices/system/cpu/cpu%u/cpufreq/scaling_governor"	/* read, named */

static int read_cpulist(const struct sysroot *sr, const char *path, struct cpuset *set,
			struct fact_err *e)
{
	char line[CPULIST_MAX];
	int err;

	err = sysroot_read_line(sr, path, line, sizeof(line));
	if (err) {
		fact_fail_read(e, path, err);
		return err;
	}
	if (cpulist_parse(line, set)) {
		fact_fail(e, -EBADMSG, "cannot parse '%s': '%.40s' is not a CPU list", path, line);
		return -EBADMSG;
	}
	return 0;
}

__attribute__((format(printf, 4, 5)))
static void read_cpulistf(const struct sysroot *sr, struct cpuset *set, struct fact_err *e,
			  const char *fmt, ...)
{
	FACT_WITH_PATH(e, fmt, read_cpulist(sr, path_, set, e));
}

static void collect_cmdline(const struct sysroot *sr, struct cpu_facts *cf)
{
	char *text, val[CPULIST_MAX];
	size_t len;
	int err;

	err = sysroot_read_file(sr, P_CMDLINE, 64 * 1024, &text, &len);
	if (err) {
		fact_fail_read(&cf->cmdline_e, P_CMDLINE, err);
		return;
	}
	if (!cmdline_get(text, "isolcpus", val, sizeof(val))) {
		cf->has_isolcpus = true;
		if (cmdline_parse_isolcpus(val, &cf->isolcpus))
			fact_fail(&cf->cmdline_e, -EBADMSG, "cannot parse isolcpus=%.40s in '%s'", val,
				  P_CMDLINE);
	}
	if (!cmdline_get(text, "rcu_nocbs", val, sizeof(val))) {
		cf->has_rcu_nocbs = true;
		if (cmdline_parse_cpulist(val, &cf->possible, &cf->rcu_nocbs))
			fact_fail(&cf->cmdline_e, -EBADMSG, "cannot parse rcu_nocbs=%.40s in '%s'", val,
				  P_CMDLINE);
	}
	if (!cmdline_get(text, "nohz_full", val, sizeof(val))) {
		cf->has_nohz_full = true;
		if (cmdline_parse_cpulist(val, &cf->possible, &cf->nohz_full_arg))
			fact_fail(&cf->cmdline_e, -EBADMSG, "cannot parse nohz_full=%.40s in '%s'", val,
				  P_CMDLINE);
	}
	free(text);
}

static void collect_irq_affinity(const struct sysroot *sr, struct irq_info *ii)
{
	const char *file = "effective_affinity_list";
	char line[CPULIST_MAX];
	int err;

	err = sysroot_read_linef(sr, line, sizeof(line), "proc/irq/%u/%s", ii->line.irq, file);
	ii->effective = !err;
	if (err) {
		file = "smp_affinity_list";
		err = sysroot_read_linef(sr, line, sizeof(line), "proc/irq/%u/%s", ii->line.irq, file);
	}
	if (err) {
		fact_fail_readf(&ii->e, err, "proc/irq/%u/%s", ii->line.irq, file);
		return;
	}
	if (cpulist_parse(line, &ii->affinity))
		fact_fail(&ii->e, -EBADMSG, "cannot parse 'proc/irq/%u/%s': '%.40s'", ii->line.irq,
			  file, line);
}

static void collect_irqs(const struct sysroot *sr, struct cpu_facts *cf)
{
	struct irq_line *lines;
	size_t n, i;
	char *text;
	size_t len;
	int err;

	err = sysroot_read_file(sr, P_INTERRUPTS, 16 * 1024 * 1024, &text, &len);
	if (err) {
		fact_fail_read(&cf->irq_e, P_INTERRUPTS, err);
		return;
	}
	err = interrupts_parse(text, &lines, &n);
	free(text);
	if (err) {
		fact_fail(&cf->irq_e, err == -ENOMEM ? -ENOMEM : -EBADMSG,
			  "cannot parse '%s': unexpected content", P_INTERRUPTS);
		return;
	}
	cf->irqs = calloc(n ? n : 1, sizeof(*cf->irqs));
	if (!cf->irqs) {
		free(lines);
		fact_fail(&cf->irq_e, -ENOMEM, "out of memory reading '%s'", P_INTERRUPTS);
		return;
	}
	for (i = 0; i < n; i++) {
		struct irq_info *ii = &cf->irqs[i];

		ii->line = lines[i];
		ii->cls = irq_classify(ii->line.name, ii->device, sizeof(ii->device));
		/* Only queue interrupts matter to the checks: skip the others' files. */
		if (ii->cls != IRQ_OTHER)
			collect_irq_affinity(sr, ii);
	}
	cf->nirqs = n;
	free(lines);
}

static void collect_governors(const struct sysroot *sr, struct cpu_facts *cf)
{
	unsigned int cpu, n = cpuset_count(&cf->online), found = 0;
	int err;

	cf->governors = calloc(n ? n : 1, sizeof(*cf->governors));
	if (!cf->governors) {
		fact_fail(&cf->gov_e, -ENOMEM, "out of memory");
		return;
	}
	for (cpu = 0; cpu < CPULIST_MAX && cf->ngovernors < n; cpu++) {
		struct cpu_governor *g;

		if (!cpuset_has(&cf->online, cpu))
			continue;
		g = &cf->governors[cf->ngovernors++];
		g->cpu = cpu;
		err = sysroot_read_linef(sr, g->governor, sizeof(g->governor), GOVERNOR_PATH, cpu);
		if (!err)
			found++;
		else if (err != -ENOENT)
			fact_fail_readf(&cf->gov_e, err, GOVERNOR_PATH, cpu);
	}
	if (!found && fact_ok(&cf->gov_e))
		fact_fail(&cf->gov_e, -ENOENT,
			  "no CPU has sys/devices/system/cpu/cpuN/cpufreq: frequency is not under "
			  "the kernel's control (a VM, or no cpufreq driver)");
}

static void collect_numa(const struct sysroot *sr, struct cpu_facts *cf)
{
	struct cpuset nodes;
	unsigned int node;

	if (read_cpulist(sr, P_NODE_ONLINE, &nodes, &cf->numa_e))
		return;
	for (node = 0; node < CPULIST_MAX && cf->nnodes < NUMA_NODES_MAX; node++) {
		if (!cpuset_has(&nodes, node))
			continue;
		cf->nodes[cf->nnodes].node = node;
		read_cpulistf(sr, &cf->nodes[cf->nnodes].cpus, &cf->numa_e,
			      "sys/devices/system/node/node%u/cpulist", node);
		if (!fact_ok(&cf->numa_e))
			return;
		cf->nnodes++;
	}
}

/* IRQBALANCE_BANNED_CPULIST (1.8+) or the older hex IRQBALANCE_BANNED_CPUS. */
static bool banned_from_env(const char *text, size_t len, char sep, struct cpuset *set)
{
	static const char list_key[] = "IRQBALANCE_BANNED_CPULIST=";
	static const char mask_key[] = "IRQBALANCE_BANNED_CPUS=";
	const char *p = text, *end = text + len;
	bool found = false;
	char val[CPULIST_MAX];

	while (p < end) {
		const char *e = memchr(p, sep, (size_t)(end - p));
		size_t n = e ? (size_t)(e - p) : (size_t)(end - p);
		const char *s = p;

		while (s < p + n && (*s == ' ' || *s == '\t'))
			s++;
		if (*s != '#') {
			size_t klen = 0;
			bool is_list = false;

			if (!strncmp(s, list_key, sizeof(list_key) - 1)) {
				klen = sizeof(list_key) - 1;
				is_list = true;
			} else if (!strncmp(s, mask_key, sizeof(mask_key) - 1)) {
				klen = sizeof(mask_key) - 1;
			}
			if (klen) {
				size_t vlen = n - (size_t)(s - p) - klen;

				snprintf(val, sizeof(val), "%.*s", (int)vlen, s + klen);
				/* strip shell quotes */
				if (val[0] == '"' || val[0] == '\'') {
					memmove(val, val + 1, strlen(val));
					val[strcspn(val, "\"'")] = '\0';
				}
				if (is_list ? !cpulist_parse(val, set) : !cpumask_parse_hex(val, set))
					found = true;
			}
		}
		p += n + 1;
	}
	return found;
}

static void collect_irqbalance(const struct sysroot *sr, struct cpu_facts *cf)
{
	static const char *const configs[] = { "etc/default/irqbalance", "etc/sysconfig/irqbalance" };
	char comm[64], *text;
	size_t len, i, nproc = 0;
	struct task_iter it;
	pid_t pid;
	int err;

	err = proc_iter_open(&it, sr);
	if (err) {
		fact_fail_read(&cf->irqbalance_e, "proc", err);
		return;
	}
	while ((pid = task_iter_next(&it))) {
		nproc++;
		if (sysroot_read_namef(sr, comm, sizeof(comm), "proc/%d/comm", pid))
			continue;	/* exited meanwhile, or not ours to read */
		if (!strcmp(comm, "irqbalance")) {
			struct daemon_identity id;

			err = proc_daemon_identity(sr, pid, "irqbalance", &id);
			if (err == -ENOENT || err == -ESRCH)
				continue;	/* exited meanwhile */
			if (err)
				snprintf(id.why, sizeof(id.why), "its status cannot be read (%s)",
					 strerror(-err));
			if (id.genuine) {
				cf->irqbalance_running = true;
				cf->irqbalance_pid = pid;
				cf->irqbalance_exe_checked = id.exe_checked;
				break;
			}
			/* Another user's program by that name: named, and its word not taken. */
			if (cf->nimpostors < IMPOSTORS_MAX) {
				cf->impostors[cf->nimpostors].pid = pid;
				snprintf(cf->impostors[cf->nimpostors].why,
					 sizeof(cf->impostors[0].why), "%s", id.why);
			}
			cf->nimpostors++;
		}
	}
	task_iter_close(&it);
	/* A tree without any process cannot say that irqbalance is absent. */
	if (!nproc) {
		fact_fail(&cf->irqbalance_e, -ENOENT,
			  "no process directories under proc/: cannot tell whether irqbalance runs");
		return;
	}
	if (!cf->irqbalance_running)
		return;

	/* The running daemon's environment is the truth; the config files only say what it read. */
	if (!sysroot_read_bytesf(sr, 1024 * 1024, &text, &len, "proc/%d/environ",
				 cf->irqbalance_pid)) {
		cf->banned_known = true;
		snprintf(cf->banned_source, sizeof(cf->banned_source), "proc/%d/environ",
			 cf->irqbalance_pid);
		banned_from_env(text, len, '\0', &cf->banned);
		free(text);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(configs); i++) {
		if (sysroot_read_file(sr, configs[i], 1024 * 1024, &text, &len))
			continue;
		/* A config file without a ban bans nothing: the daemon reads this file. */
		cf->banned_known = true;
		snprintf(cf->banned_source, sizeof(cf->banned_source), "%s", configs[i]);
		banned_from_env(text, len, '\n', &cf->banned);
		free(text);
		return;
	}
}

int cpu_online_read(const struct sysroot *sr, struct cpuset *online, struct fact_err *e)
{
	return read_cpulist(sr, P_ONLINE, online, e);
}

void cpu_facts_collect(const struct sysroot *sr, bool irqbalance, struct cpu_facts *cf)
{
	struct fact_err ignored;

	memset(cf, 0, sizeof(*cf));
	read_cpulist(sr, P_ONLINE, &cf->online, &cf->online_e);
	if (read_cpulist(sr, P_POSSIBLE, &cf->possible, &ignored))
		cf->possible = cf->online;
	read_cpulist(sr, P_ISOLATED, &cf->isolated, &cf->isolated_e);
	/* nohz_full exists only with CONFIG_NO_HZ_FULL; absent means none. */
	read_cpulist(sr, P_NOHZ, &cf->nohz_full, &cf->nohz_e);
	collect_cmdline(sr, cf);
	collect_irqs(sr, cf);
	if (fact_ok(&cf->online_e))
		collect_governors(sr, cf);
	else
		cf->gov_e = cf->online_e;
	collect_numa(sr, cf);
	if (irqbalance)
		collect_irqbalance(sr, cf);
	else
		fact_fail(&cf->irqbalance_e, -ECANCELED,
			  "not read: no check selected for this command needs irqbalance");
}

void cpu_facts_free(struct cpu_facts *cf)
{
	free(cf->irqs);
	free(cf->governors);
	cf->irqs = NULL;
	cf->governors = NULL;
}

int cpu_facts_node_of(const struct cpu_facts *cf, unsigned int cpu)
{
	unsigned int i;

	for (i = 0; i < cf->nnodes; i++)
		if (cpuset_has(&cf->nodes[i].cpus, cpu))
			return (int)cf->nodes[i].node;
	return -1;
}
