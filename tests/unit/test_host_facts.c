// SPDX-License-Identifier: GPL-2.0-or-later
/* The host collector on captured trees, healthy and hostile. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>

#include "host_facts.h"
#include "testutil.h"

static void collect_dirs(const char *root, const char *const *dirs, size_t ndirs,
			 struct host_facts *hf)
{
	struct sysroot sr;

	struct collect_opts o = {
		.dirs = dirs, .ndirs = ndirs, .try_features = true, .try_odirect = true,
		.read_irqbalance = true, .ring_entries = 64,
	};

	assert_int_equal(sysroot_open(&sr, root), 0);
	host_facts_collect(&sr, &o, hf);
	sysroot_close(&sr);
}

static void collect(const char *root, struct host_facts *hf)
{
	collect_dirs(root, NULL, 0, hf);
}

static void test_uring_disabled_tree(void **state)
{
	struct host_facts hf;

	(void)state;
	collect(TESTDATA "/uring-disabled-2", &hf);
	assert_false(hf.live);
	assert_int_equal(hf.kernel.e.err, 0);
	assert_int_equal(hf.kernel.v.major, 6);
	assert_int_equal(hf.uring_disabled.e.err, 0);
	assert_int_equal(hf.uring_disabled.value, 2);
	assert_int_equal(hf.uring_group.value, -1);
	assert_int_equal(hf.self_status.e.err, 0);
	assert_int_equal(hf.self_limits.e.err, 0);
	assert_int_equal(hf.cpus, 2);
	/* Nothing is tried live under --root, and the reason says so. */
	assert_int_equal(hf.uring_setup.e.err, -EOPNOTSUPP);
	assert_non_null(strstr(hf.uring_setup.e.why, "--root"));
	assert_int_equal(hf.features.e.err, -EOPNOTSUPP);
	host_facts_free(&hf);
}

static void test_old_kernel_tree(void **state)
{
	struct host_facts hf;

	(void)state;
	collect(TESTDATA "/old-5.10-memlock-64k", &hf);
	assert_int_equal(hf.kernel.v.minor, 10);
	assert_int_equal(hf.kernel.v.patch, 179);
	assert_string_equal(hf.hostname, "bullseye-db");
	assert_int_equal(hf.uring_disabled.e.err, -ENOENT);
	assert_string_equal(hf.uring_disabled.e.why,
			    "cannot read 'proc/sys/kernel/io_uring_disabled': No such file or directory");
	assert_int_equal(hf.self_limits.lim.memlock.soft, 65536);
	host_facts_free(&hf);
}

static void test_live(void **state)
{
	struct host_facts hf;

	(void)state;
	collect(NULL, &hf);
	assert_true(hf.live);
	assert_int_equal(hf.kernel.e.err, 0);
	assert_int_equal(hf.self_status.e.err, 0);
	assert_int_equal(hf.self_status.st.tgid, getpid());
	assert_int_equal(hf.uring_setup.e.err, 0);
	/* The planned ring is tried too (a 64-entry one fits Debian's 8 MiB default). */
	assert_int_equal(hf.uring_setup.r.planned_entries, 64);
	assert_int_equal(hf.uring_setup.r.planned_err, 0);
	assert_true(hf.cpus >= 1);
	assert_int_equal(hf.features.e.err, 0);
	assert_true(hf.features.n > 20);
	assert_int_equal(hf.ndirs, 0);
	host_facts_free(&hf);
}

/* Garbage gets -EBADMSG with the path; an empty tree gets -ENOENT; nothing crashes. */
static void test_hostile_tree(void **state)
{
	char *dir = make_tmpdir();
	struct host_facts hf;

	(void)state;
	write_file(dir, "proc/sys/kernel/osrelease", "banana\n");
	write_file(dir, "proc/sys/kernel/io_uring_disabled", "zero\n");
	write_file(dir, "proc/sys/kernel/io_uring_group", "99999999999999999999\n");
	write_file(dir, "proc/self/status", "Name:\tx\nTgid:\t1\n");
	write_file(dir, "proc/self/limits", "Max locked memory");
	write_file(dir, "sys/devices/system/cpu/online", "0-zz\n");
	collect(dir, &hf);
	assert_int_equal(hf.kernel.e.err, -EBADMSG);
	assert_non_null(strstr(hf.kernel.e.why, "'banana' is not a kernel release"));
	assert_int_equal(hf.uring_disabled.e.err, -EBADMSG);
	assert_int_equal(hf.uring_group.e.err, -EBADMSG);
	assert_int_equal(hf.self_status.e.err, -EBADMSG);
	assert_int_equal(hf.self_limits.e.err, -EBADMSG);
	assert_int_equal(hf.cpus, 0);
	assert_string_equal(hf.hostname, "unknown");
	host_facts_free(&hf);
	rm_rf(dir);

	dir = make_tmpdir();
	write_file(dir, "proc/.keep", "");
	collect(dir, &hf);
	assert_int_equal(hf.kernel.e.err, -ENOENT);
	assert_int_equal(hf.self_status.e.err, -ENOENT);
	/* No process directories: irqbalance cannot be said to be absent. */
	assert_int_equal(hf.cpu.irqbalance_e.err, -ENOENT);
	host_facts_free(&hf);
	rm_rf(dir);
}

/*
 * Processes named irqbalance that are not the daemon: one run by a user
 * (its IDs), one by root from a program of another name. Neither is taken
 * for the daemon, both are named; the real one after them still is.
 */
static void test_irqbalance_impostors(void **state)
{
	static const char status[] = "Name:\tirqbalance\nTgid:\t%s\nUid:\t%s\t%s\t%s\t%s\n"
				     "Gid:\t0\t0\t0\t0\nGroups:\t\nCapEff:\t0000000000000000\n"
				     "Threads:\t1\n";
	char *dir = make_tmpdir(), text[256], rel[64], link[PATH_MAX];
	struct host_facts hf;

	(void)state;
	write_file(dir, "proc/1/comm", "init\n");
	/* 100: a user's copy of a shell, with a saved set-user-ID of root's */
	write_file(dir, "proc/100/comm", "irqbalance\n");
	snprintf(text, sizeof(text), status, "100", "1000", "0", "0", "0");
	write_file(dir, "proc/100/status", text);
	/* 200: root's, but its program is a shell */
	write_file(dir, "proc/200/comm", "irqbalance\n");
	snprintf(text, sizeof(text), status, "200", "0", "0", "0", "0");
	write_file(dir, "proc/200/status", text);
	snprintf(link, sizeof(link), "%s/proc/200/exe", dir);
	assert_int_equal(symlink("/usr/bin/dash", link), 0);
	collect(dir, &hf);
	assert_int_equal(hf.cpu.irqbalance_e.err, 0);
	assert_false(hf.cpu.irqbalance_running);
	assert_int_equal(hf.cpu.nimpostors, 2);
	host_facts_free(&hf);

	/* 300: the packaged daemon, root's in every ID: it counts, whatever the order they are listed in. */
	write_file(dir, "proc/300/comm", "irqbalance\n");
	snprintf(text, sizeof(text), status, "300", "0", "0", "0", "0");
	write_file(dir, "proc/300/status", text);
	snprintf(rel, sizeof(rel), "%s/proc/300/exe", dir);
	assert_int_equal(symlink("/usr/sbin/irqbalance", rel), 0);
	collect(dir, &hf);
	assert_true(hf.cpu.irqbalance_running);
	assert_int_equal(hf.cpu.irqbalance_pid, 300);
	assert_false(hf.cpu.irqbalance_exe_checked);	/* a tree holds the link only */
	assert_true(hf.cpu.nimpostors <= 2);
	host_facts_free(&hf);
	rm_rf(dir);
}

/* CPU isolation, IRQs and irqbalance from a derived tree. */
static void test_cpu_facts(void **state)
{
	struct host_facts hf;
	size_t i, nvme = 0;

	(void)state;
	collect(TESTDATA "/isolated-nvme-irq", &hf);
	assert_int_equal(hf.cpu.cmdline_e.err, 0);
	assert_true(hf.cpu.has_isolcpus);
	assert_true(cpuset_has(&hf.cpu.isolcpus.cpus, 1));
	assert_false(hf.cpu.isolcpus.managed_irq);
	assert_true(cpuset_has(&hf.cpu.isolated, 1));
	assert_true(cpuset_has(&hf.cpu.nohz_full, 1));
	assert_true(cpuset_has(&hf.cpu.rcu_nocbs, 1));
	for (i = 0; i < hf.cpu.nirqs; i++) {
		const struct irq_info *ii = &hf.cpu.irqs[i];

		if (strncmp(ii->line.name, "nvme0q", 6))
			continue;
		nvme++;
		assert_int_equal(ii->cls, IRQ_STORAGE);
		assert_string_equal(ii->device, "nvme0");
		assert_true(ii->effective);
		if (ii->line.irq == 52)
			assert_true(cpuset_has(&ii->affinity, 1));
	}
	assert_int_equal(nvme, 3);
	assert_true(hf.cpu.irqbalance_running);
	assert_int_equal(hf.cpu.irqbalance_pid, 4242);
	assert_true(hf.cpu.banned_known);
	assert_int_equal(cpuset_count(&hf.cpu.banned), 0);
	assert_int_equal(hf.cpu.ngovernors, 2);
	assert_string_equal(hf.cpu.governors[1].governor, "powersave");
	assert_int_equal(hf.cpu.nnodes, 1);
	host_facts_free(&hf);

	collect(TESTDATA "/numa-remote", &hf);
	assert_int_equal(hf.cpu.nnodes, 2);
	assert_int_equal(cpu_facts_node_of(&hf.cpu, 1), 1);
	assert_false(hf.cpu.irqbalance_running);
	assert_int_equal(hf.cpu.irqbalance_e.err, 0);
	host_facts_free(&hf);

	/* Not asked for (an audit): irqbalance not read, and said so, never "not running". */
	{
		struct collect_opts o = { 0 };
		struct sysroot sr;

		assert_int_equal(sysroot_open(&sr, TESTDATA "/isolated-nvme-irq"), 0);
		host_facts_collect(&sr, &o, &hf);
		sysroot_close(&sr);
		assert_int_equal(hf.cpu.irqbalance_e.err, -ECANCELED);
		assert_false(hf.cpu.irqbalance_running);
		assert_int_equal(hf.cpu.nirqs > 0, 1);
		host_facts_free(&hf);
	}
}

/* --dir under --root: the mount by path, sysfs from partition to disk. */
static void test_dir_facts_captured(void **state)
{
	static const char *const dirs[] = { "/srv/db/tables", "/data", "/dev/shm", "/mnt/xfs" };
	const struct dir_facts *df;
	struct host_facts hf;

	(void)state;
	collect_dirs(TESTDATA "/nvme-no-poll", dirs, 1, &hf);
	df = &hf.dirs[0];
	assert_int_equal(df->mount.e.err, 0);
	assert_string_equal(df->mount.m.mount_point, "/srv/db");
	assert_string_equal(df->mount.m.fstype, "xfs");
	assert_int_equal(df->blk.e.err, 0);
	assert_true(df->blk.partition);
	assert_string_equal(df->blk.name, "nvme0n1p1");
	assert_string_equal(df->blk.disk, "nvme0n1");
	assert_int_equal(df->blk.logical_block_size, 4096);
	assert_int_equal(df->blk.nr_requests, 1023);
	assert_int_equal(df->blk.io_poll, 0);
	assert_int_equal(df->blk.poll_queues, 0);
	assert_string_equal(df->blk.poll_driver, "nvme");
	assert_int_equal(df->blk.numa_node, 0);
	assert_string_equal(df->blk.scheduler, "none");
	assert_int_equal(df->odirect.e.err, -EOPNOTSUPP);
	host_facts_free(&hf);

	collect_dirs(TESTDATA "/md-stacked", dirs + 1, 1, &hf);
	df = &hf.dirs[0];
	assert_string_equal(df->blk.disk, "md0");
	assert_string_equal(df->blk.slaves, "sda,sdb");
	assert_string_equal(df->blk.scheduler, "none");
	assert_int_equal(df->blk.nr_requests, 0);
	host_facts_free(&hf);

	collect_dirs(TESTDATA "/host-6.18", dirs + 2, 2, &hf);
	assert_string_equal(hf.dirs[0].mount.m.fstype, "tmpfs");
	assert_int_equal(hf.dirs[0].blk.e.err, -ENODEV);
	assert_string_equal(hf.dirs[1].mount.m.fstype, "xfs");
	assert_string_equal(hf.dirs[1].blk.disk, "loop0");
	assert_non_null(strstr(hf.dirs[1].blk.backing_file, "xfs.img"));
	host_facts_free(&hf);
}

/* Live: the O_DIRECT try in a real directory leaves nothing behind. */
static void test_dir_facts_live(void **state)
{
	char *dir = make_tmpdir();
	const char *dirs[] = { dir };
	struct host_facts hf;
	DIR *d;
	struct dirent *de;
	int n = 0;

	(void)state;
	collect_dirs(NULL, dirs, 1, &hf);
	assert_int_equal(hf.dirs[0].e.err, 0);
	assert_int_equal(hf.dirs[0].mount.e.err, 0);
	assert_int_equal(hf.dirs[0].statfs.e.err, 0);
	assert_int_equal(hf.dirs[0].odirect.e.err, 0);
	host_facts_free(&hf);
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	assert_int_equal(n, 0);
	rm_rf(dir);
}

static void collect_net(const char *root, const char *dev, struct host_facts *hf)
{
	const char *const devs[] = { dev };
	struct collect_opts o = { .net_devs = devs, .nnet_devs = dev ? 1 : 0,
				  .read_irqbalance = true };
	struct sysroot sr;

	assert_int_equal(sysroot_open(&sr, root), 0);
	host_facts_collect(&sr, &o, hf);
	sysroot_close(&sr);
}

static void test_net_facts(void **state)
{
	struct host_facts hf;
	const struct net_dev *d;
	char list[64];

	(void)state;
	/* The captured VM: the default route's virtio-net NIC, one queue each way. */
	collect_net(TESTDATA "/vm-6.18-virtio-net", NULL, &hf);
	assert_int_equal(hf.net.e.err, 0);
	assert_non_null(strstr(hf.net.chosen_by, "default route"));
	assert_int_equal(hf.net.ndevs, 1);
	d = &hf.net.devs[0];
	assert_string_equal(d->name, "eth0");
	assert_true(d->has_device && d->is_virtual);
	assert_string_equal(d->busdev, "virtio2");
	assert_string_equal(d->driver, "virtio_net");
	assert_int_equal(d->nrx, 1);
	assert_int_equal(d->ntx, 1);
	assert_int_equal(cpuset_count(&d->rx[0].rps), 0);
	/* A single-queue device has no xps_cpus to read. */
	assert_int_equal(d->tx[0].xps_e.err, -ENOENT);
	/* virtio2-config is no queue: only input.0 and output.0. */
	assert_int_equal(d->nirqs, 2);
	assert_int_equal(d->irqs[0].irq, 38);
	assert_true(d->irqs[0].has_effective && d->irqs[0].has_configured);
	assert_int_equal(hf.net.rps_sock_flow_entries.value, 0);
	assert_int_equal(hf.tcp_max_syn_backlog.value, 2048);
	host_facts_free(&hf);

	/* The derived mlx5 NIC: vectors by msi_irqs, the async one left out. */
	collect_net(TESTDATA "/nic-8q-tuned", "eth0", &hf);
	assert_string_equal(hf.net.chosen_by, "--net-dev");
	d = &hf.net.devs[0];
	assert_false(d->is_virtual);
	assert_string_equal(d->driver, "mlx5_core");
	assert_int_equal(d->nrx, 8);
	assert_int_equal(d->nirqs, 8);
	assert_int_equal(d->irqs[0].irq, 61);
	assert_int_equal(d->irqs[7].queue, 7);
	cpuset_format(&d->irqs[7].effective, list, sizeof(list));
	assert_string_equal(list, "9");
	cpuset_format(&d->rx[5].rps, list, sizeof(list));
	assert_string_equal(list, "2-9");
	assert_int_equal(d->rx[5].flow_cnt, 4096);
	cpuset_format(&d->tx[3].xps, list, sizeof(list));
	assert_string_equal(list, "5");
	assert_true(hf.net.banirq_known);
	assert_int_equal(hf.net.nbanirq, 8);
	assert_true(net_facts_banned(&hf.net, 68));
	assert_false(net_facts_banned(&hf.net, 60));
	host_facts_free(&hf);

	/* A name the tree lacks, and a host with no route table. */
	collect_net(TESTDATA "/nic-8q-tuned", "eth9", &hf);
	assert_int_equal(hf.net.devs[0].e.err, -ENOENT);
	host_facts_free(&hf);
	collect_net(TESTDATA "/host-6.18", NULL, &hf);
	assert_int_equal(hf.net.e.err, -ENOENT);
	assert_non_null(strstr(hf.net.e.why, "proc/net/route"));
	host_facts_free(&hf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uring_disabled_tree),
		cmocka_unit_test(test_old_kernel_tree),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_hostile_tree),
		cmocka_unit_test(test_cpu_facts),
		cmocka_unit_test(test_irqbalance_impostors),
		cmocka_unit_test(test_net_facts),
		cmocka_unit_test(test_dir_facts_captured),
		cmocka_unit_test(test_dir_facts_live),
	};

	return cmocka_run_group_tests_name("host_facts", tests, NULL, NULL);
}
