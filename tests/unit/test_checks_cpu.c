// SPDX-License-Identifier: GPL-2.0-or-later
/* CPU, IRQ and NUMA checks on hand-built facts: each passes and fails. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "checks.h"
#include "testutil.h"
#include "check_run.h"

static struct plan plan;
static struct host_facts hf;
static struct irq_info irqs[3];
static struct cpu_governor govs[2];
static struct dir_facts dir;

/* A two-CPU, one-node host; SQPOLL planned on CPU 1; one data dir on nvme0n1. */
static int setup(void **state)
{
	(void)state;
	memset(&hf, 0, sizeof(hf));
	plan_defaults(&plan);
	plan.has_sqpoll_cpus = true;
	cpulist_parse("1", &plan.sqpoll_cpus);
	hf.live = true;
	hf.cpus = 2;
	cpulist_parse("0-1", &hf.cpu.online);
	cpulist_parse("1", &hf.cpu.isolated);
	cpulist_parse("1", &hf.cpu.nohz_full);
	hf.cpu.has_rcu_nocbs = true;
	cpulist_parse("1", &hf.cpu.rcu_nocbs);

	memset(irqs, 0, sizeof(irqs));
	irqs[0].line.irq = 50;
	snprintf(irqs[0].line.name, sizeof(irqs[0].line.name), "nvme0q1");
	irqs[0].cls = IRQ_STORAGE;
	snprintf(irqs[0].device, sizeof(irqs[0].device), "nvme0");
	cpulist_parse("0", &irqs[0].affinity);
	irqs[1].line.irq = 60;
	snprintf(irqs[1].line.name, sizeof(irqs[1].line.name), "eth0-TxRx-1");
	irqs[1].cls = IRQ_NETWORK;
	cpulist_parse("0", &irqs[1].affinity);
	irqs[2].line.irq = 9;
	snprintf(irqs[2].line.name, sizeof(irqs[2].line.name), "acpi");
	irqs[2].cls = IRQ_OTHER;
	cpulist_parse("1", &irqs[2].affinity);
	hf.cpu.irqs = irqs;
	hf.cpu.nirqs = 3;

	govs[0].cpu = 0;
	snprintf(govs[0].governor, sizeof(govs[0].governor), "powersave");
	govs[1].cpu = 1;
	snprintf(govs[1].governor, sizeof(govs[1].governor), "performance");
	hf.cpu.governors = govs;
	hf.cpu.ngovernors = 2;

	hf.cpu.nnodes = 1;
	cpulist_parse("0-1", &hf.cpu.nodes[0].cpus);

	memset(&dir, 0, sizeof(dir));
	snprintf(dir.path, sizeof(dir.path), "/srv/db");
	snprintf(dir.resolved, sizeof(dir.resolved), "/srv/db");
	snprintf(dir.mount.m.fstype, sizeof(dir.mount.m.fstype), "xfs");
	snprintf(dir.blk.name, sizeof(dir.blk.name), "nvme0n1");
	snprintf(dir.blk.disk, sizeof(dir.blk.disk), "nvme0n1");
	dir.blk.numa_node = 1;
	hf.dirs = &dir;
	hf.ndirs = 1;
	return 0;
}

static const struct finding *run(const char *id, struct report *r)
{
	return run_check(id, (struct check_ctx){ .host = &hf, .plan = &plan }, "preflight", r);
}


static void test_isolated(void **state)
{
	const struct finding *f;
	struct report r;

	setup(state);
	f = run("sqpoll-cpu-isolated", &r);
	assert_int_equal(f->status, STATUS_PASS);
	assert_string_equal(f->subject, "cpu 1");
	assert_contains(f->message, "nohz_full and rcu_nocbs");
	report_free(&r);

	cpulist_parse("", &hf.cpu.isolated);
	expect_says("sqpoll-cpu-isolated", STATUS_WARN, "not isolated");

	plan.has_sqpoll_cpus = false;
	expect_says("sqpoll-cpu-isolated", STATUS_SKIP, "--sqpoll-cpu");
}

static void test_irqs(void **state)
{
	const struct finding *f;
	struct report r;

	setup(state);
	/* Only the "other" IRQ is on CPU 1. */
	f = run("sqpoll-cpu-irqs", &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);

	cpulist_parse("0-1", &irqs[0].affinity);
	f = run("sqpoll-cpu-irqs", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "IRQ 50 nvme0q1 (storage)");
	assert_contains(finding_fix(f), "echo 0 > /proc/irq/50/smp_affinity_list");
	assert_contains(finding_fix(f), "managed_irq");
	report_free(&r);

	/* An interrupt whose affinity could not be read is never passed over. */
	cpulist_parse("0", &irqs[0].affinity);
	fact_fail(&irqs[1].e, -EACCES,
		  "cannot read 'proc/irq/60/smp_affinity_list': Permission denied");
	f = run("sqpoll-cpu-irqs", &r);
	assert_int_equal(f->status, STATUS_SKIP);
	assert_contains(f->message, "IRQ 60 eth0-TxRx-1 (network)");
	assert_contains(f->message, "Permission denied");
	report_free(&r);
	/* Garbage in the affinity file is an error, not a skip. */
	fact_fail(&irqs[1].e, -EBADMSG, "cannot parse 'proc/irq/60/smp_affinity_list': 'x'");
	f = run("sqpoll-cpu-irqs", &r);
	assert_int_equal(f->status, STATUS_ERROR);
	report_free(&r);
	/* One known on the CPU still fails, and says more are unknown. */
	cpulist_parse("1", &irqs[0].affinity);
	f = run("sqpoll-cpu-irqs", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "the affinity of more is unknown");
	report_free(&r);
	memset(&irqs[1].e, 0, sizeof(irqs[1].e));

	fact_fail(&hf.cpu.irq_e, -EACCES, "cannot read 'proc/interrupts': Permission denied");
	f = run("sqpoll-cpu-irqs", &r);
	assert_int_equal(f->status, STATUS_SKIP);
	report_free(&r);
}

static void test_irqbalance(void **state)
{
	const struct finding *f;
	struct report r;

	setup(state);
	f = run("irqbalance", &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);

	hf.cpu.irqbalance_running = true;
	hf.cpu.irqbalance_pid = 812;
	hf.cpu.banned_known = true;
	snprintf(hf.cpu.banned_source, sizeof(hf.cpu.banned_source), "etc/default/irqbalance");
	f = run("irqbalance", &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(finding_fix(f), "IRQBALANCE_BANNED_CPULIST=1");
	report_free(&r);

	cpulist_parse("1", &hf.cpu.banned);
	expect_says("irqbalance", STATUS_PASS, "bans SQPOLL CPUs 1");
}

static void test_governor(void **state)
{
	const struct finding *f;
	struct report r;

	setup(state);
	/* CPU 0's powersave does not matter: only CPU 1 is planned. */
	f = run("cpu-frequency-governor", &r);
	assert_int_equal(f->status, STATUS_PASS);
	report_free(&r);

	plan.has_sqpoll_cpus = false;
	expect_says("cpu-frequency-governor", STATUS_WARN, "cpu0 powersave");

	fact_fail(&hf.cpu.gov_e, -ENOENT, "no CPU has cpufreq");
	f = run("cpu-frequency-governor", &r);
	assert_int_equal(f->status, STATUS_SKIP);
	report_free(&r);
}

static void test_numa(void **state)
{
	const struct finding *f;
	struct report r;

	setup(state);
	expect_says("numa-locality", STATUS_PASS, "single NUMA node");

	hf.cpu.nnodes = 2;
	cpulist_parse("0", &hf.cpu.nodes[0].cpus);
	hf.cpu.nodes[1].node = 1;
	cpulist_parse("1", &hf.cpu.nodes[1].cpus);
	f = run("numa-locality", &r);
	assert_int_equal(f->status, STATUS_PASS);
	assert_string_equal(f->subject, "/srv/db");
	report_free(&r);

	cpulist_parse("0", &plan.sqpoll_cpus);
	f = run("numa-locality", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "NUMA node 1");
	assert_contains(finding_fix(f), "--cpunodebind=1");
	report_free(&r);

	dir.blk.numa_node = -1;
	f = run("numa-locality", &r);
	assert_int_equal(f->status, STATUS_SKIP);
	report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_isolated),
		cmocka_unit_test(test_irqs),
		cmocka_unit_test(test_irqbalance),
		cmocka_unit_test(test_governor),
		cmocka_unit_test(test_numa),
	};

	return cmocka_run_group_tests_name("checks_cpu", tests, NULL, NULL);
}
