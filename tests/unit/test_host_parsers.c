// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel command line, /proc/interrupts and mountinfo, on captures and garbage. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "procfs.h"
#include "testutil.h"

static void test_cmdline(void **state)
{
	const char *cl = "BOOT_IMAGE=/vmlinuz root=/dev/nvme0n1p1 isolcpus=2 quiet "
			 "isolcpus=managed_irq,domain,2-3 nohz_full=2-3 rcu_nocbs=all "
			 "-- isolcpus=7\n";
	struct isolcpus iso;
	struct cpuset possible, set;
	char val[64];

	(void)state;
	/* The last occurrence wins; words after "--" belong to init. */
	assert_int_equal(cmdline_get(cl, "isolcpus", val, sizeof(val)), 0);
	assert_string_equal(val, "managed_irq,domain,2-3");
	assert_int_equal(cmdline_get(cl, "irqaffinity", val, sizeof(val)), -ENOENT);
	assert_int_equal(cmdline_get(cl, "nohz", val, sizeof(val)), -ENOENT);
	assert_int_equal(cmdline_get(cl, "root", val, 5), -EOVERFLOW);
	assert_int_equal(cmdline_parse_isolcpus("managed_irq,domain,2-3", &iso), 0);
	assert_true(iso.managed_irq && iso.domain && !iso.nohz);
	assert_int_equal(cpuset_count(&iso.cpus), 2);
	/* No flag means domain isolation. */
	assert_int_equal(cmdline_parse_isolcpus("1", &iso), 0);
	assert_true(iso.domain);
	assert_int_equal(cmdline_parse_isolcpus("bogus,1", &iso), -EBADMSG);
	cpulist_parse("0-7", &possible);
	assert_int_equal(cmdline_parse_cpulist("all", &possible, &set), 0);
	assert_int_equal(cpuset_count(&set), 8);
	/* A quoted value holds spaces; the parser steps over it. */
	assert_int_equal(cmdline_get("dyndbg=\"file x +p\" nohz_full=1", "nohz_full", val,
				     sizeof(val)), 0);
	assert_string_equal(val, "1");
}

static void test_interrupts_capture(void **state)
{
	char *text = slurp(TESTDATA "/host-6.18/proc/interrupts");
	struct irq_line *l;
	size_t n, i;
	bool seen_blk = false;
	char dev[32];

	(void)state;
	assert_int_equal(interrupts_parse(text, &l, &n), 0);
	assert_true(n >= 10);
	for (i = 0; i < n; i++)
		if (!strcmp(l[i].name, "virtio1-req.0")) {
			seen_blk = true;
			assert_int_equal(l[i].irq, 36);
			assert_string_equal(l[i].chip, "PCI-MSIX-0000:00:02.0");
			assert_int_equal(irq_classify(l[i].name, dev, sizeof(dev)), IRQ_STORAGE);
			assert_string_equal(dev, "virtio1");
		}
	assert_true(seen_blk);
	free(l);
	free(text);
}

static void test_irq_classes(void **state)
{
	char dev[32];

	(void)state;
	assert_int_equal(irq_classify("nvme0q3", dev, sizeof(dev)), IRQ_STORAGE);
	assert_string_equal(dev, "nvme0");
	assert_int_equal(irq_classify("virtio2-input.0", dev, sizeof(dev)), IRQ_NETWORK);
	/* virtio-rng and console have a bare "input" queue: not a NIC. */
	assert_int_equal(irq_classify("virtio4-input", dev, sizeof(dev)), IRQ_OTHER);
	assert_int_equal(irq_classify("mlx5_comp3@pci:0000:3b:00.0", dev, sizeof(dev)), IRQ_NETWORK);
	assert_string_equal(dev, "mlx5_comp3");
	assert_int_equal(irq_classify("ens5-Tx-Rx-0", dev, sizeof(dev)), IRQ_NETWORK);
	assert_int_equal(irq_classify("i40e-ens1f0-TxRx-3", dev, sizeof(dev)), IRQ_NETWORK);
	assert_int_equal(irq_classify("ahci[0000:00:17.0]", dev, sizeof(dev)), IRQ_STORAGE);
	assert_int_equal(irq_classify("ttyS0", dev, sizeof(dev)), IRQ_OTHER);
	assert_int_equal(irq_classify("ACPI:Ged", dev, sizeof(dev)), IRQ_OTHER);
}

static void test_interrupts_garbage(void **state)
{
	struct irq_line *l;
	size_t n;

	(void)state;
	assert_int_equal(interrupts_parse("", &l, &n), -EBADMSG);
	assert_int_equal(interrupts_parse("garbage\n 1: 2 x\n", &l, &n), -EBADMSG);
	assert_int_equal(interrupts_parse("   CPU0\n x1: 5 IO-APIC 1-edge i8042\n", &l, &n), 0);
	assert_int_equal(n, 0);
	free(l);
	assert_int_equal(interrupts_parse("   CPU0\n 99999999999: 5 IO-APIC 1-edge x\n", &l, &n),
			 -EBADMSG);
	/* Truncated mid-line: still a line, with what it has. */
	assert_int_equal(interrupts_parse("   CPU0 CPU1\n 24: 1", &l, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(l[0].name, "");
	free(l);
}

static void test_mountinfo(void **state)
{
	char *text = slurp(TESTDATA "/host-6.18/proc/self/mountinfo");
	const struct mount_entry *m;
	struct mount_entry *e;
	size_t n;

	(void)state;
	assert_int_equal(mountinfo_parse(text, &e, &n), 0);
	m = mountinfo_find(e, n, "/mnt/xfs/db", false, 0, 0);
	assert_non_null(m);
	assert_string_equal(m->fstype, "xfs");
	assert_string_equal(m->source, "/dev/loop0");
	assert_int_equal(m->major, 7);
	m = mountinfo_find(e, n, "/mnt/xfsother", false, 0, 0);
	assert_string_equal(m->mount_point, "/");
	/* Two tmpfs stacked on /dev/shm: the top one (the later line) wins. */
	m = mountinfo_find(e, n, "/dev/shm", false, 0, 0);
	assert_string_equal(m->fstype, "tmpfs");
	assert_true(m == &e[n - 1] || m->id > 25);
	assert_null(mountinfo_find(e, n, "/", true, 999, 999));
	free(e);
	free(text);
}

static void test_mountinfo_escapes_and_garbage(void **state)
{
	const char *line = "36 35 98:0 /mnt1 /mnt\\040data rw,noatime master:1 - ext3 /dev/root "
			   "rw,errors=continue\n";
	struct mount_entry *e;
	size_t n;

	(void)state;
	assert_int_equal(mountinfo_parse(line, &e, &n), 0);
	assert_string_equal(e[0].mount_point, "/mnt data");
	assert_string_equal(e[0].fstype, "ext3");
	assert_string_equal(e[0].super_options, "rw,errors=continue");
	assert_true(mount_has_option(e[0].options, "noatime"));
	assert_false(mount_has_option(e[0].options, "atime"));
	free(e);
	assert_int_equal(mountinfo_parse("", &e, &n), -EBADMSG);
	assert_int_equal(mountinfo_parse("36 35 98:0 / /mnt rw no-separator\n", &e, &n), -EBADMSG);
	assert_int_equal(mountinfo_parse("a b c\n", &e, &n), -EBADMSG);
}

static void test_net_route(void **state)
{
	/* As 6.18 prints it: a default route, its subnet, then a second default elsewhere. */
	const char *route =
		"Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT   \n"
		"eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0      \n"
		"eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0      \n"
		"eth0\t00000000\t010200C0\t0003\t0\t0\t100\t00000000\t0\t0\t0    \n"
		"bond0\t00000000\t01020A0A\t0003\t0\t0\t200\t00000000\t0\t0\t0   \n"
		"down0\t00000000\t01020A0A\t0002\t0\t0\t300\t00000000\t0\t0\t0   \n";
	char names[4][NET_IFNAME_MAX];
	size_t n;

	(void)state;
	assert_int_equal(net_route_default_ifaces(route, names, 4, &n), 0);
	/* Each device once; a route that is not up carries nothing. */
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "eth0");
	assert_string_equal(names[1], "bond0");
	assert_int_equal(net_route_default_ifaces(route, names, 1, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(net_route_default_ifaces("", names, 4, &n), -EBADMSG);
	assert_int_equal(net_route_default_ifaces("Iface\tDestination\tGateway\n"
						  "eth0\tzz\n", names, 4, &n), -EBADMSG);
	assert_int_equal(net_route_default_ifaces("Iface\tDestination\tGateway\n"
						  "a-name-far-too-long-for-linux\t0\n",
						  names, 4, &n), -EBADMSG);
	/* A header alone: no route at all. */
	assert_int_equal(net_route_default_ifaces("Iface\tDestination\tGateway\n", names, 4, &n), 0);
	assert_int_equal(n, 0);
}

static void test_irq_net_names(void **state)
{
	int q;

	(void)state;
	assert_true(irq_net_queue("eth0-TxRx-3", &q) && q == 3);
	assert_true(irq_net_queue("i40e-ens1f0-TxRx-12", &q) && q == 12);
	assert_false(irq_net_queue("i40e-0000:3b:00.0:fdir-TxRx-0", &q));
	assert_true(irq_net_queue("ena-Tx-Rx-1", &q) && q == 1);
	assert_true(irq_net_queue("mlx5_comp7@pci:0000:3b:00.0", &q) && q == 7);
	assert_false(irq_net_queue("mlx5_async0@pci:0000:3b:00.0", &q));
	assert_true(irq_net_queue("mlx4-2@0000:04:00.0", &q) && q == 2);
	assert_true(irq_net_queue("virtio2-input.0", &q) && q == 0);
	assert_true(irq_net_queue("virtio2-output.5", &q) && q == 5);
	assert_false(irq_net_queue("virtio2-config", &q));
	assert_false(irq_net_queue("virtio4-input", &q));
	assert_true(irq_net_queue("enp1s0-rx-0", &q) && q == 0);
	assert_false(irq_net_queue("nvme0q3", &q));

	assert_true(irq_names_netdev("eth0-TxRx-3", "eth0", "0000:3b:00.0"));
	assert_true(irq_names_netdev("i40e-eth0-TxRx-3", "eth0", ""));
	assert_false(irq_names_netdev("eth10-TxRx-3", "eth1", ""));
	assert_true(irq_names_netdev("mlx5_comp3@pci:0000:3b:00.0", "ens1f0", "0000:3b:00.0"));
	assert_false(irq_names_netdev("mlx5_comp3@pci:0000:3b:00.1", "ens1f0", "0000:3b:00.0"));
	assert_true(irq_names_netdev("virtio2-input.0", "eth0", "virtio2"));
	assert_false(irq_names_netdev("virtio21-input.0", "eth0", "virtio2"));
	assert_false(irq_names_netdev("virtio1-req.0", "eth0", "virtio2"));
	assert_false(irq_names_netdev("ttyS0", "", ""));
}

static void test_irqbalance_banirq(void **state)
{
	static const char args[] = "/usr/sbin/irqbalance\0--foreground\0--banirq=60\0"
				   "--banirq\0" "61\0-i\0" "62\0-i63\0--banirq=x\0--banirq";
	unsigned int irqs[8];

	(void)state;
	assert_int_equal(irqbalance_banned_irqs(args, sizeof(args), irqs, 8), 4);
	assert_int_equal(irqs[0], 60);
	assert_int_equal(irqs[1], 61);
	assert_int_equal(irqs[2], 62);
	assert_int_equal(irqs[3], 63);
	/* More than fit: counted, not stored past max. */
	assert_int_equal(irqbalance_banned_irqs(args, sizeof(args), irqs, 2), 4);
	assert_int_equal(irqbalance_banned_irqs("", 0, irqs, 8), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_interrupts_capture),
		cmocka_unit_test(test_irq_classes),
		cmocka_unit_test(test_interrupts_garbage),
		cmocka_unit_test(test_mountinfo),
		cmocka_unit_test(test_mountinfo_escapes_and_garbage),
		cmocka_unit_test(test_net_route),
		cmocka_unit_test(test_irq_net_names),
		cmocka_unit_test(test_irqbalance_banirq),
	};

	return cmocka_run_group_tests_name("host_parsers", tests, NULL, NULL);
}
