// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where the planned SQPOLL threads will run: isolated CPUs, no storage or
 * network interrupts there, irqbalance not undoing it, a steady clock.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "output.h"

void cpus_format(const struct cpuset *set, char *buf, size_t bufsz)
{
	cpuset_format(set, buf, bufsz);
	if (!buf[0])
		snprintf(buf, bufsz, "none");
}

/* Planned SQPOLL CPUs, or a skip saying none were planned. */
static bool have_plan(const struct check *c, struct check_ctx *ctx)
{
	if (ctx->plan->has_sqpoll_cpus)
		return true;
	report_add(ctx->report, &c->info, STATUS_SKIP, "host",
		   "no SQPOLL CPUs planned: name them with --sqpoll-cpu LIST");
	return false;
}

void check_sqpoll_cpu_isolated(const struct check *c, struct check_ctx *ctx)
{
	const struct cpu_facts *cf = &ctx->host->cpu;
	const struct cpuset *plan = &ctx->plan->sqpoll_cpus;
	char subject[32], list[64];
	unsigned int cpu;
	struct finding *f;

	if (!have_plan(c, ctx))
		return;
	if (!fact_ok(&cf->isolated_e)) {
		check_fact_missing(c, ctx, "host", &cf->isolated_e);
		return;
	}
	for (cpu = 0; cpu < CPULIST_MAX; cpu++) {
		bool iso, nohz, nocb;

		if (!cpuset_has(plan, cpu))
			continue;
		snprintf(subject, sizeof(subject), "cpu %u", cpu);
		iso = cpuset_has(&cf->isolated, cpu);
		nohz = fact_ok(&cf->nohz_e) && cpuset_has(&cf->nohz_full, cpu);
		nocb = cf->has_rcu_nocbs && cpuset_has(&cf->rcu_nocbs, cpu);
		if (!iso) {
			cpus_format(&cf->isolated, list, sizeof(list));
			f = report_add(ctx->report, &c->info, STATUS_WARN, subject,
				       "CPU %u is not isolated (isolated: %s): the scheduler puts other "
				       "tasks there, and they compete with the SQPOLL thread's polling",
				       cpu, list);
		} else if (!nohz || !nocb) {
			f = report_add(ctx->report, &c->info, STATUS_PASS, subject,
				       "CPU %u is isolated; %s%s%s still interrupt it", cpu,
				       nohz ? "" : "scheduler ticks (no nohz_full)",
				       !nohz && !nocb ? " and " : "",
				       nocb ? "" : "RCU callbacks (no rcu_nocbs)");
		} else {
			f = report_add(ctx->report, &c->info, STATUS_PASS, subject,
				       "CPU %u is isolated, nohz_full and rcu_nocbs", cpu);
		}
		finding_ev_int(f, "cpu", cpu);
		finding_ev_bool(f, "isolated", iso);
		finding_ev_bool(f, "nohz_full", nohz);
		finding_ev_bool(f, "rcu_nocbs", nocb);
		finding_ev_bool(f, "managed_irq", cf->has_isolcpus && cf->isolcpus.managed_irq);
	}
}

void check_sqpoll_cpu_irqs(const struct check *c, struct check_ctx *ctx)
{
	const struct cpu_facts *cf = &ctx->host->cpu;
	const struct cpuset *plan = &ctx->plan->sqpoll_cpus;
	struct cpuset rest;
	char subject[32], names[768], others[64], cmds[1024];
	unsigned int cpu;
	size_t i, hits, nnames, ncmds, nunknown;
	const struct irq_info *unknown;
	bool nvme;
	struct json_object *list;
	struct finding *f;

	if (!have_plan(c, ctx))
		return;
	if (!fact_ok(&cf->irq_e)) {
		check_fact_missing(c, ctx, "host", &cf->irq_e);
		return;
	}
	/* Where the IRQs should go instead: online CPUs outside the plan. */
	cpuset_andnot(&rest, &cf->online, plan);
	cpus_format(&rest, others, sizeof(others));

	for (cpu = 0; cpu < CPULIST_MAX; cpu++) {
		if (!cpuset_has(plan, cpu))
			continue;
		snprintf(subject, sizeof(subject), "cpu %u", cpu);
		list = json_object_new_array();
		names[0] = cmds[0] = '\0';
		hits = nnames = ncmds = nunknown = 0;
		unknown = NULL;
		nvme = false;
		for (i = 0; i < cf->nirqs; i++) {
			const struct irq_info *ii = &cf->irqs[i];
			struct json_object *o;

			if (ii->cls == IRQ_OTHER)
				continue;
			/* An interrupt whose CPUs are unknown may be on this one. */
			if (!fact_ok(&ii->e)) {
				if (!nunknown++)
					unknown = ii;
				continue;
			}
			if (!cpuset_has(&ii->affinity, cpu))
				continue;
			hits++;
			nvme |= !strncmp(ii->device, "nvme", 4);
			o = json_object_new_object();
			json_object_object_add(o, "irq", json_object_new_int((int)ii->line.irq));
			json_add_bytes(o, "name", ii->line.name);
			json_add_bytes(o, "device", ii->device);
			json_object_object_add(o, "class", json_object_new_string(irq_class_name(ii->cls)));
			json_object_array_add(list, o);
			if (strlen(names) + strlen(ii->line.name) + 40 < sizeof(names)) {
				snprintf(names + strlen(names), sizeof(names) - strlen(names),
					 "%sIRQ %u %s (%s)", nnames ? ", " : "", ii->line.irq, ii->line.name,
					 irq_class_name(ii->cls));
				nnames++;
			}
			if (strlen(cmds) + 64 < sizeof(cmds)) {
				snprintf(cmds + strlen(cmds), sizeof(cmds) - strlen(cmds),
					 "%secho %s > /proc/irq/%u/smp_affinity_list", ncmds ? "; " : "",
					 others, ii->line.irq);
				ncmds++;
			}
		}
		if (!hits && unknown) {
			/* Unreadable is a skip; garbage in the file is an error. */
			enum check_status st = fact_status(&unknown->e);

			f = report_add(ctx->report, &c->info, st == STATUS_ERROR ? st : STATUS_SKIP,
				       subject, "no storage or network interrupt known to be delivered "
				       "to CPU %u, but the affinity of %zu is unknown, the first IRQ %u "
				       "%s (%s): %s", cpu, nunknown, unknown->line.irq,
				       unknown->line.name, irq_class_name(unknown->cls),
				       unknown->e.why);
		} else if (!hits) {
			f = report_add(ctx->report, &c->info, STATUS_PASS, subject,
				       "no storage or network interrupt is delivered to CPU %u", cpu);
		} else {
			f = report_add(ctx->report, &c->info, STATUS_FAIL, subject,
				       "%zu storage or network interrupt%s delivered to CPU %u, where the "
				       "SQPOLL thread will poll: %s%s%s",
				       hits, hits == 1 ? " is" : "s are", cpu, names,
				       nnames < hits ? ", …" : "",
				       nunknown ? " (and the affinity of more is unknown)" : "");
			finding_set_fix(f, "%s%s%s%s", cmds, ncmds < hits ? "; …" : "",
					nvme ? ". NVMe queue interrupts are kernel-managed and refuse "
					       "the write (EIO): boot with isolcpus=managed_irq,LIST to keep "
					       "them off the SQPOLL CPUs"
					     : "",
					cf->irqbalance_running ? "; and ban these CPUs in irqbalance, or "
								 "it moves the IRQs back"
							       : "");
		}
		finding_ev_int(f, "cpu", cpu);
		finding_ev_int(f, "irqs_unknown", (int64_t)nunknown);
		json_object_object_add(f->evidence, "irqs", list);
	}
}

/*
 * The processes that call themselves irqbalance but are not the daemon
 * (facts/proc_identity.h): named in the evidence, their word not taken.
 */
static void irqbalance_impostors(struct finding *f, const struct cpu_facts *cf)
{
	struct json_object *list, *o;
	size_t i;

	if (!cf->nimpostors)
		return;
	list = json_object_new_array();
	for (i = 0; i < cf->nimpostors && i < IMPOSTORS_MAX; i++) {
		o = json_object_new_object();
		json_object_object_add(o, "pid", json_object_new_int(cf->impostors[i].pid));
		json_object_object_add(o, "why", json_object_new_string(cf->impostors[i].why));
		json_object_array_add(list, o);
	}
	json_object_object_add(f->evidence, "impostors", list);
	finding_ev_int(f, "impostors_total", (int64_t)cf->nimpostors);
}

/* " (pid N, named irqbalance, is not the daemon: WHY; ignored)" or "". */
static const char *impostor_note(const struct cpu_facts *cf, char *buf, size_t bufsz)
{
	if (!cf->nimpostors)
		return "";
	snprintf(buf, bufsz, "; pid %d calls itself irqbalance but %s: not the daemon, ignored%s",
		 cf->impostors[0].pid, cf->impostors[0].why,
		 cf->nimpostors > 1 ? " (and more: see impostors)" : "");
	return buf;
}

void check_irqbalance(const struct check *c, struct check_ctx *ctx)
{
	char note[256];
	const struct cpu_facts *cf = &ctx->host->cpu;
	const struct cpuset *plan = &ctx->plan->sqpoll_cpus;
	char list[64], banned[64];
	struct cpuset unbanned;
	struct finding *f;

	if (!fact_ok(&cf->irqbalance_e)) {
		check_fact_missing(c, ctx, "host", &cf->irqbalance_e);
		return;
	}
	if (!cf->irqbalance_running) {
		f = report_add(ctx->report, &c->info, STATUS_PASS, "host",
			       "irqbalance is not running: manual IRQ placement stays as set%s",
			       impostor_note(cf, note, sizeof(note)));
		finding_ev_bool(f, "running", false);
		irqbalance_impostors(f, cf);
		return;
	}
	if (!ctx->plan->has_sqpoll_cpus) {
		f = report_add(ctx->report, &c->info, STATUS_SKIP, "host",
			       "irqbalance runs (pid %d); with no --sqpoll-cpu planned there is no "
			       "placement for it to undo",
			       cf->irqbalance_pid);
		finding_ev_bool(f, "running", true);
		return;
	}
	cpuset_andnot(&unbanned, plan, &cf->banned);
	cpus_format(plan, list, sizeof(list));
	cpus_format(&cf->banned, banned, sizeof(banned));
	if (!cf->banned_known) {
		f = report_add(ctx->report, &c->info, STATUS_WARN, "host",
			       "irqbalance runs (pid %d) and its banned CPUs could not be read (its "
			       "environment needs root); it may move IRQs onto SQPOLL CPUs %s",
			       cf->irqbalance_pid, list);
	} else if (cpuset_count(&unbanned)) {
		cpus_format(&unbanned, banned, sizeof(banned));
		f = report_add(ctx->report, &c->info, STATUS_WARN, "host",
			       "irqbalance runs (pid %d) and does not ban SQPOLL CPU%s %s (%s): it "
			       "will move interrupts back onto them every 10 seconds",
			       cf->irqbalance_pid, cpuset_count(&unbanned) == 1 ? "" : "s", banned,
			       cf->banned_source);
	} else {
		f = report_add(ctx->report, &c->info, STATUS_PASS, "host",
			       "irqbalance runs (pid %d) and bans SQPOLL CPUs %s (banned: %s, from %s)",
			       cf->irqbalance_pid, list, banned, cf->banned_source);
	}
	if (f->status == STATUS_WARN)
		finding_set_fix(f, "set IRQBALANCE_BANNED_CPULIST=%s in /etc/default/irqbalance "
				   "(IRQBALANCE_BANNED_CPUS, a hex mask, before irqbalance 1.8) and "
				   "restart it, or stop irqbalance and place IRQs by hand",
				list);
	finding_ev_bool(f, "running", true);
	finding_ev_int(f, "pid", cf->irqbalance_pid);
	finding_ev_bool(f, "exe_checked", cf->irqbalance_exe_checked);
	irqbalance_impostors(f, cf);
}

void check_cpu_frequency_governor(const struct check *c, struct check_ctx *ctx)
{
	const struct cpu_facts *cf = &ctx->host->cpu;
	char slow[256] = "", subject[64];
	struct json_object *govs;
	struct finding *f;
	size_t i, judged = 0, nslow = 0;

	if (!fact_ok(&cf->gov_e)) {
		check_fact_missing(c, ctx, "host", &cf->gov_e);
		return;
	}
	govs = json_object_new_object();
	for (i = 0; i < cf->ngovernors; i++) {
		const struct cpu_governor *g = &cf->governors[i];
		char key[16];

		/* With a plan only its CPUs matter; without one, all of them. */
		if (ctx->plan->has_sqpoll_cpus && !cpuset_has(&ctx->plan->sqpoll_cpus, g->cpu))
			continue;
		if (!g->governor[0])
			continue;
		judged++;
		snprintf(key, sizeof(key), "%u", g->cpu);
		json_add_bytes(govs, key, g->governor);
		if (strcmp(g->governor, "performance")) {
			if (strlen(slow) + 48 < sizeof(slow))
				snprintf(slow + strlen(slow), sizeof(slow) - strlen(slow), "%scpu%u %s",
					 nslow ? ", " : "", g->cpu, g->governor);
			nslow++;
		}
	}
	snprintf(subject, sizeof(subject), "%s", ctx->plan->has_sqpoll_cpus ? "sqpoll cpus" : "host");
	if (!judged)
		f = report_add(ctx->report, &c->info, STATUS_SKIP, subject,
			       "the planned SQPOLL CPUs have no cpufreq governor");
	else if (nslow)
		f = report_add(ctx->report, &c->info, STATUS_WARN, subject,
			       "%zu of %zu CPUs do not run the performance governor (%s): a polling "
			       "thread that goes idle lets the clock drop, and the next burst pays "
			       "the ramp-up",
			       nslow, judged, slow);
	else
		f = report_add(ctx->report, &c->info, STATUS_PASS, subject,
			       "all %zu CPUs judged run the performance governor", judged);
	json_object_object_add(f->evidence, "governors", govs);
}
