// SPDX-License-Identifier: GPL-2.0-or-later
/* The network service checks on hand-built facts: each passes and fails. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "checks.h"
#include "testutil.h"
#include "check_run.h"

static struct plan plan;
static struct host_facts hf;
static struct net_rxq rx[4];
static struct net_txq tx[4];
static struct net_irq irqs[4];
static struct net_dev *dev;

/*
 * A tuned host: 8 CPUs, SQPOLL on CPU 1, four workers on CPUs 2-5, an
 * ixgbe NIC with four queues whose interrupts are one on each worker CPU,
 * XPS one worker CPU a TX queue, RPS off, backlogs at 4096.
 */
static int setup(void **state)
{
	unsigned int i;

	(void)state;
	memset(&hf, 0, sizeof(hf));
	plan_defaults(&plan);
	plan.has_sqpoll_cpus = true;
	cpulist_parse("1", &plan.sqpoll_cpus);
	plan.has_worker_cpus = true;
	cpulist_parse("2-5", &plan.worker_cpus);
	plan_net_defaults(&plan);
	hf.live = true;
	hf.cpus = 8;
	cpulist_parse("0-7", &hf.cpu.online);
	hf.somaxconn.value = 4096;
	hf.tcp_max_syn_backlog.value = 4096;

	memset(rx, 0, sizeof(rx));
	memset(tx, 0, sizeof(tx));
	memset(irqs, 0, sizeof(irqs));
	for (i = 0; i < 4; i++) {
		rx[i].idx = tx[i].idx = i;
		cpuset_set(&tx[i].xps, 2 + i);
		irqs[i].irq = 60 + i;
		snprintf(irqs[i].name, sizeof(irqs[i].name), "eth0-TxRx-%u", i);
		irqs[i].queue = (int)i;
		irqs[i].fast_path = true;
		irqs[i].has_effective = irqs[i].has_configured = true;
		cpuset_set(&irqs[i].effective, 2 + i);
		cpuset_set(&irqs[i].configured, 2 + i);
	}
	hf.net.ndevs = 1;
	dev = &hf.net.devs[0];
	snprintf(dev->name, sizeof(dev->name), "eth0");
	dev->has_device = true;
	snprintf(dev->busdev, sizeof(dev->busdev), "0000:3b:00.0");
	snprintf(dev->driver, sizeof(dev->driver), "ixgbe");
	dev->nrx = dev->ntx = 4;
	dev->rx = rx;
	dev->tx = tx;
	dev->irqs = irqs;
	dev->nirqs = 4;
	snprintf(dev->irq_source, sizeof(dev->irq_source), "sys/class/net/eth0/device/msi_irqs");
	return 0;
}

static const struct finding *run(const char *id, struct report *r)
{
	return run_check(id, (struct check_ctx){ .host = &hf, .plan = &plan }, "preflight", r);
}

/* A VM's NIC with one queue, its two interrupts on CPU 0. */
static void single_queue_vm(void)
{
	snprintf(dev->driver, sizeof(dev->driver), "virtio_net");
	snprintf(dev->busdev, sizeof(dev->busdev), "virtio2");
	dev->is_virtual = true;
	snprintf(dev->virtual_why, sizeof(dev->virtual_why), "a VM's paravirtual NIC (driver virtio_net)");
	dev->nrx = dev->ntx = 1;
	dev->nirqs = 2;
	memset(&tx[0].xps, 0, sizeof(tx[0].xps));
	fact_fail(&tx[0].xps_e, -ENOENT, "cannot read 'xps_cpus': No such file or directory");
	memset(&irqs[0].effective, 0, sizeof(irqs[0].effective));
	memset(&irqs[1].effective, 0, sizeof(irqs[1].effective));
	cpuset_set(&irqs[0].effective, 0);
	cpuset_set(&irqs[1].effective, 0);
	irqs[1].queue = 0;
}

static void test_no_service(void **state)
{
	setup(state);
	plan.workers = 0;
	plan.has_worker_cpus = false;
	expect_says("net-queues", STATUS_SKIP, "--workers N");
	expect_says("net-irq-placement", STATUS_SKIP, "no network service planned");
	expect_says("net-rps-xps", STATUS_SKIP, "no network service planned");
	expect_says("net-backlog-limits", STATUS_SKIP, "no network service planned");
}

static void test_queues(void **state)
{
	const struct finding *f;
	struct report r;

	setup(state);
	f = run("net-queues", &r);
	assert_int_equal(f->status, STATUS_PASS);
	assert_string_equal(f->subject, "eth0");
	assert_contains(f->message, "4 RX and 4 TX queues for 4 workers");
	report_free(&r);

	plan.workers = 6;
	f = run("net-queues", &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(f->message, "2 workers have no queue of their own");
	assert_contains(finding_fix(f), "ethtool -L eth0 combined 6");
	report_free(&r);

	/* perftune.py's split: fewer queues, RPS over the workers. */
	plan.workers = 6;
	cpulist_parse("2-7", &plan.worker_cpus);
	for (unsigned int i = 0; i < 4; i++)
		cpulist_parse("2-7", &rx[i].rps);
	expect_says("net-queues", STATUS_PASS, "perftune.py's model");

	/* A VM's single queue: not a failure, and RPS named as the remedy. */
	setup(state);
	single_queue_vm();
	expect_says("net-queues", STATUS_SKIP, "RPS is what spreads it");

	setup(state);
	dev->has_device = false;
	dev->is_virtual = true;
	snprintf(dev->virtual_why, sizeof(dev->virtual_why), "a software device");
	dev->nlower = 1;
	snprintf(dev->lower[0], sizeof(dev->lower[0]), "eno1");
	expect_says("net-queues", STATUS_SKIP, "below it: eno1");

	setup(state);
	fact_fail(&dev->queues_e, -ENOENT, "cannot list 'sys/class/net/eth0/queues'");
	expect_says("net-queues", STATUS_SKIP, "cannot list");

	setup(state);
	fact_fail(&hf.net.e, -ENOENT, "no IPv4 default route in 'proc/net/route'");
	expect_says("net-queues", STATUS_SKIP, "no IPv4 default route");
}

static void test_irq_placement(void **state)
{
	const struct finding *f;
	struct report r;

	setup(state);
	f = run("net-irq-placement", &r);
	assert_int_equal(f->status, STATUS_PASS);
	assert_contains(f->message, "spread over worker CPUs 2-5");
	report_free(&r);

	/* Queue 1's interrupt on the SQPOLL CPU. */
	memset(&irqs[1].effective, 0, sizeof(irqs[1].effective));
	cpuset_set(&irqs[1].effective, 1);
	f = run("net-irq-placement", &r);
	assert_int_equal(f->status, STATUS_FAIL);
	assert_contains(f->message, "IRQ 61 eth0-TxRx-1");
	assert_contains(finding_fix(f), "echo 3 > /proc/irq/61/smp_affinity_list");
	report_free(&r);

	/* All four stacked on one worker CPU. */
	setup(state);
	for (unsigned int i = 0; i < 4; i++) {
		memset(&irqs[i].effective, 0, sizeof(irqs[i].effective));
		cpuset_set(&irqs[i].effective, 2);
	}
	expect_says("net-irq-placement", STATUS_WARN, "only 1 worker CPU (2)");

	/* Split between worker CPUs and CPU 0. */
	memset(&irqs[3].effective, 0, sizeof(irqs[3].effective));
	cpuset_set(&irqs[3].effective, 0);
	expect_says("net-irq-placement", STATUS_WARN, "split: 3 on worker CPUs, 1 elsewhere");

	/* All on CPU 0, apart from the workers: perftune.py's IRQ CPU. */
	for (unsigned int i = 0; i < 4; i++) {
		memset(&irqs[i].effective, 0, sizeof(irqs[i].effective));
		cpuset_set(&irqs[i].effective, 0);
	}
	expect_says("net-irq-placement", STATUS_PASS, "none of them a worker's");

	/* irqbalance runs and bans none of them, then all of them. */
	setup(state);
	hf.cpu.irqbalance_running = true;
	hf.cpu.irqbalance_pid = 812;
	hf.net.banirq_known = true;
	f = run("net-irq-placement", &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(f->message, "does not --banirq IRQs 60,61,62,63");
	assert_contains(finding_fix(f), "--banirq=N for each of IRQs 60,61,62,63");
	report_free(&r);
	for (unsigned int i = 0; i < 4; i++)
		hf.net.banirq[i] = 60 + i;
	hf.net.nbanirq = 4;
	expect_says("net-irq-placement", STATUS_PASS, "irqbalance is told to leave them alone");

	/* Whether irqbalance runs not known: a placement it may undo is not passed. */
	setup(state);
	fact_fail(&hf.cpu.irqbalance_e, -EACCES, "cannot read 'proc': Permission denied");
	expect_says("net-irq-placement", STATUS_SKIP, "whether irqbalance runs and moves them");

	/* One affinity unknown: the others are not passed as the whole. */
	setup(state);
	irqs[2].has_effective = irqs[2].has_configured = false;
	fact_fail(&irqs[2].e, -ENOENT, "no readable affinity under proc/irq/62");
	expect_says("net-irq-placement", STATUS_SKIP, "not judged as a whole");
	fact_fail(&irqs[2].e, -EBADMSG, "cannot parse 'proc/irq/62/smp_affinity_list'");
	expect_says("net-irq-placement", STATUS_ERROR, "cannot parse");

	setup(state);
	fact_fail(&dev->irq_e, -ENOENT, "no interrupt of eth0 found");
	expect_says("net-irq-placement", STATUS_SKIP, "no interrupt of eth0 found");
}

static void test_rps_xps(void **state)
{
	const struct finding *f;
	struct report r;
	unsigned int i;

	setup(state);
	expect_says("net-rps-xps", STATUS_PASS, "RPS adds nothing");

	/* The VM's single queue, RPS off: the honest answer is RPS. */
	single_queue_vm();
	f = run("net-rps-xps", &r);
	assert_int_equal(f->status, STATUS_WARN);
	assert_contains(f->message, "1 RX queue for 4 workers and RPS off (rps_cpus 0)");
	assert_contains(finding_fix(f), "echo 3c > $q/rps_cpus");
	report_free(&r);

	/* RPS to the workers but RFS off. */
	cpulist_parse("2-5", &rx[0].rps);
	expect_says("net-rps-xps", STATUS_WARN, "RPS without RFS");
	hf.net.rps_sock_flow_entries.value = 32768;
	rx[0].flow_cnt = 32768;
	expect_says("net-rps-xps", STATUS_PASS, "covering the workers, with RFS");
	rx[0].flow_cnt = 0;
	expect_says("net-rps-xps", STATUS_WARN, "rps_flow_cnt 0");

	/* RPS onto the SQPOLL CPU. */
	rx[0].flow_cnt = 32768;
	cpulist_parse("1-5", &rx[0].rps);
	expect_says("net-rps-xps", STATUS_FAIL, "includes SQPOLL CPUs");

	/* Garbage in rps_cpus is an error, not a verdict. */
	fact_fail(&rx[0].rps_e, -EBADMSG, "cannot parse 'rps_cpus': 'zz' is not a CPU mask");
	expect_says("net-rps-xps", STATUS_ERROR, "is not a CPU mask");

	/* Four queues, XPS off. */
	setup(state);
	for (i = 0; i < 4; i++)
		memset(&tx[i].xps, 0, sizeof(tx[i].xps));
	expect_says("net-rps-xps", STATUS_WARN, "XPS is off on all 4 TX queues");
	/* The queues disagree. */
	setup(state);
	cpulist_parse("2-5", &rx[0].rps);
	hf.net.rps_sock_flow_entries.value = 32768;
	for (i = 0; i < 4; i++)
		rx[i].flow_cnt = 8192;
	expect_says("net-rps-xps", STATUS_WARN, "the RX queues disagree");
}

static void test_backlog(void **state)
{
	setup(state);
	expect_says("net-backlog-limits", STATUS_PASS, "at least perftune.py's 4096");
	hf.somaxconn.value = 128;
	expect_says("net-backlog-limits", STATUS_WARN, "net.core.somaxconn is 128");
	hf.somaxconn.value = 4096;
	hf.tcp_max_syn_backlog.value = 512;
	expect_says("net-backlog-limits", STATUS_WARN, "tcp_max_syn_backlog is 512");
	fact_fail(&hf.somaxconn.e, -ENOENT, "cannot read 'proc/sys/net/core/somaxconn'");
	expect_says("net-backlog-limits", STATUS_SKIP, "cannot read");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_service),
		cmocka_unit_test(test_queues),
		cmocka_unit_test(test_irq_placement),
		cmocka_unit_test(test_rps_xps),
		cmocka_unit_test(test_backlog),
	};

	return cmocka_run_group_tests_name("checks_host_net", tests, NULL, NULL);
}
