// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net-listeners on a hand-built socket inventory: a SO_REUSEPORT group and
 * a single listener, with net.ipv4.tcp_migrate_req on, off, unreadable and
 * in another namespace. net-accept-backlog on the same listeners with their
 * backlog and the namespace's listen counters, and net-busy-poll on rings
 * with and without NAPI registered, and the devices' interrupt deferral.
 */
#include "proc_fixture.h"

static struct proc_socket socks[3];
static struct proc_listener listeners[2];
static int fds_a[1] = { 10 }, fds_b[1] = { 11 };

/*
 * pid 42 in namespace 4026531840: fd 10 listens on 0.0.0.0:8080 with 3
 * others of the namespace (a reuseport group of 4), 5 connections waiting;
 * fd 11 on 127.0.0.1:9090 alone; fd 12 an established connection.
 */
static void sockets_two_listeners(void)
{
	memset(socks, 0, sizeof(socks));
	socks[0] = (struct proc_socket){ .fd = 10, .inode = 1000, .proto = NET_TCP, .ring_fd = -1 };
	socks[0].in = (struct inet_sock){ .inode = 1000, .lport = 8080, .state = 10, .rx_queue = 5 };
	socks[1] = (struct proc_socket){ .fd = 11, .inode = 1001, .proto = NET_TCP, .ring_fd = -1 };
	socks[1].in = (struct inet_sock){ .inode = 1001, .local = { 127, 0, 0, 1 }, .lport = 9090,
					  .state = 10 };
	socks[2] = (struct proc_socket){ .fd = 12, .inode = 1002, .proto = NET_TCP, .ring_fd = -1 };
	socks[2].in = (struct inet_sock){ .inode = 1002, .local = { 127, 0, 0, 1 }, .lport = 9090,
					  .remote = { 127, 0, 0, 1 }, .rport = 40000, .state = 1 };
	listeners[0] = (struct proc_listener){ .proto = NET_TCP, .first = 0, .fds = fds_a, .nfds = 1,
					       .ours = 1, .in_netns = 4 };
	listeners[1] = (struct proc_listener){ .proto = NET_TCP, .first = 1, .fds = fds_b, .nfds = 1,
					       .ours = 1, .in_netns = 1 };
	pf.sockets.v = socks;
	pf.sockets.n = 3;
	pf.sockets.listeners = listeners;
	pf.sockets.nlisteners = 2;
	pf.sockets.netns = hf.netns = 4026531840ULL;
	hf.tcp_migrate_req.value = 0;
}

static void test_listeners(void **state)
{
	setup(state);
	expect_says("net-listeners", STATUS_SKIP, "no TCP listener");
	sockets_two_listeners();
	expect_says("net-listeners", STATUS_WARN, "0.0.0.0:8080 is a SO_REUSEPORT group of 4 "
		    "listeners (1 of them this process's), and net.ipv4.tcp_migrate_req is 0");
	hf.tcp_migrate_req.value = 1;
	expect_says("net-listeners", STATUS_PASS, "1 SO_REUSEPORT group (net.ipv4.tcp_migrate_req "
		    "on: a closing listener's queue moves) and 1 listener of its own, shared by "
		    "whichever threads accept on it: tcp 0.0.0.0:8080 reuseport (accept queue 5), "
		    "tcp 127.0.0.1:9090 (accept queue 0); 5 connections waiting");
	/* Another namespace's sysctl is its own: not judged. */
	hf.tcp_migrate_req.value = 0;
	pf.sockets.netns = 4026532000ULL;
	expect_says("net-listeners", STATUS_SKIP, "the process runs in another network namespace");
	/* Before 5.14 there is no such sysctl. */
	pf.sockets.netns = hf.netns;
	fact_fail(&hf.tcp_migrate_req.e, -ENOENT, "no such file");
	expect_says("net-listeners", STATUS_SKIP, "net.ipv4.tcp_migrate_req could not be read");
	/* A lone listener needs none of it. */
	pf.sockets.listeners = &listeners[1];
	pf.sockets.nlisteners = 1;
	expect_says("net-listeners", STATUS_PASS, "0 SO_REUSEPORT groups and 1 listener");
}

/* The listen counters read at the audit and around a watch of 2 s: +growth over it. */
static void netstat_watch(uint64_t growth, bool watched)
{
	struct proc_netstat *n = &pf.sockets.netstat;

	memset(n, 0, sizeof(*n));
	n->at.c = (struct netstat_listen){ .has_overflows = true, .has_drops = true,
					   .overflows = 385, .drops = 390 };
	if (!watched)
		return;
	n->watched = true;
	n->begin = n->at;
	n->begin.t_ns = 1000000000;
	n->end = n->begin;
	n->end.t_ns = 3000000000;
	n->end.c.overflows += growth;
	n->end.c.drops += growth;
}

static void test_accept_backlog(void **state)
{
	setup(state);
	expect_says("net-accept-backlog", STATUS_SKIP, "no TCP listener");
	sockets_two_listeners();
	hf.somaxconn.value = 4096;
	hf.tcp_max_syn_backlog.value = 2048;
	socks[0].has_backlog = socks[1].has_backlog = true;
	socks[0].backlog = 4096;
	socks[1].backlog = 4;
	pf.sockets.ns_tcp_listeners_known = true;
	pf.sockets.ns_tcp_listeners = 5;
	netstat_watch(0, false);
	/* Not full, no watch: a pass that leaves the lifetime counter unjudged. */
	expect_says("net-accept-backlog", STATUS_PASS, "tcp 0.0.0.0:8080 accept queue 5 of backlog "
		    "4096, tcp 127.0.0.1:9090 accept queue 0 of backlog 4; net.core.somaxconn 4096, "
		    "net.ipv4.tcp_max_syn_backlog 2048. Overflows are judged only from their growth "
		    "over --watch: the namespace's lifetime TcpExt ListenOverflows total was 385, "
		    "which may be from long ago, and it is not judged");
	/* Full now: 5 waiting on a backlog of 4. */
	socks[1].in.rx_queue = 5;
	expect_says("net-accept-backlog", STATUS_WARN, "1 listener's accept queue full as read "
		    "(more waiting than the backlog): tcp 0.0.0.0:8080 accept queue 5 of backlog "
		    "4096, tcp 127.0.0.1:9090 accept queue 5 of backlog 4 (full)");
	expect_says("net-accept-backlog", STATUS_WARN, "overflows are judged only from their "
		    "growth over --watch: the namespace's lifetime TcpExt ListenOverflows total was "
		    "385, which may be from long ago, and it is not judged");
	/* Overflows over the watch, with other listeners in the namespace: namespace-wide. */
	netstat_watch(320, true);
	expect_says("net-accept-backlog", STATUS_FAIL, "TcpExt ListenOverflows grew by 320 "
		    "(ListenDrops by 320) in the 2.0 s of --watch");
	expect_says("net-accept-backlog", STATUS_FAIL, "namespace-wide, over its 5 TCP listeners, "
		    "2 of them this process's");
	/* None full, the growth namespace-wide with others' listeners: not attributed. */
	socks[1].in.rx_queue = 0;
	expect_says("net-accept-backlog", STATUS_WARN, "namespace-wide, over its 5 TCP listeners");
	/* Its listeners the namespace's only ones: its own overflows. */
	pf.sockets.ns_tcp_listeners = 2;
	expect_says("net-accept-backlog", STATUS_FAIL, "its 2 TCP listeners are all this "
		    "process's, so they are its own");
	netstat_watch(0, true);
	expect_says("net-accept-backlog", STATUS_PASS, "TcpExt ListenOverflows did not grow in the "
		    "2.0 s of --watch");
	/* The second reading failed (the process exited, or garbage): never a pass. */
	fact_fail(&pf.sockets.netstat.end.e, -ESRCH, "cannot read 'proc/42/net/netstat': gone");
	expect_says("net-accept-backlog", STATUS_SKIP, "could not be compared over the watch");
	fact_fail(&pf.sockets.netstat.end.e, -EBADMSG, "cannot parse 'proc/42/net/netstat'");
	expect_says("net-accept-backlog", STATUS_ERROR, "cannot parse 'proc/42/net/netstat'");
	/* A counter that went backwards (another namespace behind the pid): not compared. */
	netstat_watch(0, true);
	pf.sockets.netstat.end.c.overflows = 1;
	expect_says("net-accept-backlog", STATUS_SKIP, "a counter went backwards");
	/* Without the backlog (another namespace): a waiting queue cannot be called full or not. */
	netstat_watch(0, false);
	socks[0].has_backlog = socks[1].has_backlog = false;
	fact_fail(&pf.sockets.backlog_e, -EXDEV, "the process runs in another network namespace");
	pf.sockets.netns = 4026532000ULL;
	expect_says("net-accept-backlog", STATUS_SKIP, "tcp 0.0.0.0:8080 accept queue 5, tcp "
		    "127.0.0.1:9090 accept queue 0; the backlog limit is not visible (the process "
		    "runs in another network namespace): with connections waiting, whether a queue "
		    "is full is not known");
	/* Absent from an older capture: the instant still judged; unreadable: not passed. */
	socks[0].in.rx_queue = 0;
	fact_fail(&pf.sockets.netstat.at.e, -ENOENT, "cannot read 'proc/42/net/netstat': No such file");
	expect_says("net-accept-backlog", STATUS_PASS, "the lifetime ListenOverflows could not be read");
	fact_fail(&pf.sockets.netstat.at.e, -EINVAL, "cannot read 'proc/42/net/netstat': not a "
		  "regular file");
	expect_says("net-accept-backlog", STATUS_SKIP, "not a regular file");
	/* Garbage in the lifetime counters: one clear error. */
	socks[0].in.rx_queue = 0;
	fact_fail(&pf.sockets.netstat.at.e, -EBADMSG, "cannot parse 'proc/42/net/netstat'");
	expect_says("net-accept-backlog", STATUS_ERROR, "cannot parse 'proc/42/net/netstat'");
}

static struct net_dev_napi devs[3];

/* A ring fd 3 with NAPI registered: 50 us (or dt_ns), prefer_busy_poll as given. */
static void napi_on(uint64_t dt_ns, bool prefer)
{
	rings[0].u.has_napi = rings[0].u.napi_on = true;
	snprintf(rings[0].u.napi, sizeof(rings[0].u.napi), "enabled");
	rings[0].u.has_napi_dt = rings[0].u.has_napi_prefer = true;
	rings[0].u.napi_busy_poll_dt_ns = dt_ns;
	rings[0].u.napi_prefer_busy_poll = prefer;
	snprintf(rings[0].u.napi_tracking, sizeof(rings[0].u.napi_tracking), "dynamic");
}

static void test_busy_poll(void **state)
{
	setup(state);
	memset(devs, 0, sizeof(devs));
	snprintf(devs[0].name, sizeof(devs[0].name), "eth0");
	snprintf(devs[1].name, sizeof(devs[1].name), "lo");
	devs[1].loopback = true;
	hf.netdevs.v = devs;
	hf.netdevs.n = 2;
	/* 6.1 prints no NAPI line: not visible, never a pass. */
	kernel_version_parse("6.1.0-50-cloud-amd64", &hf.kernel.v);
	expect_says("net-busy-poll", STATUS_SKIP, "kernels before 6.12 print no NAPI lines");
	kernel_version_parse("6.18.44", &hf.kernel.v);
	expect_says("net-busy-poll", STATUS_SKIP, "CONFIG_NET_RX_BUSY_POLL");
	rings[0].u.has_napi = true;
	snprintf(rings[0].u.napi, sizeof(rings[0].u.napi), "disabled");
	expect_says("net-busy-poll", STATUS_SKIP, "no ring of the process registered NAPI busy "
		    "polling (fdinfo says NAPI: disabled on 1 ring): nothing to judge; "
		    "net.core.busy_read 0 and busy_poll 0");
	napi_on(0, false);
	expect_says("net-busy-poll", STATUS_FAIL, "busy-poll time 0 ns, prefer_busy_poll off: a "
		    "busy-poll time of 0 polls nothing");
	/* prefer_busy_poll with no deferral on any device: the IRQs compete. */
	napi_on(50000, true);
	expect_says("net-busy-poll", STATUS_WARN, "napi_defer_hard_irqs and gro_flush_timeout 0 "
		    "on every device (which one carries its traffic cannot be told here: eth0 "
		    "napi_defer_hard_irqs 0 gro_flush_timeout 0), prefer_busy_poll does nothing");
	devs[0].defer_hard_irqs = 2;
	devs[0].gro_flush_timeout = 200000;
	expect_says("net-busy-poll", STATUS_PASS, "eth0 napi_defer_hard_irqs 2 gro_flush_timeout "
		    "200000 (interrupts deferred on at least one");
	/* Without prefer, deferral is not needed. */
	devs[0].defer_hard_irqs = devs[0].gro_flush_timeout = 0;
	napi_on(50000, false);
	expect_says("net-busy-poll", STATUS_PASS, "without prefer_busy_poll the interrupts stay on");
	/* Every socket on loopback: no NAPI id to poll. */
	sockets_two_listeners();
	socks[0].in.local[0] = 127;
	expect_says("net-busy-poll", STATUS_WARN, "every socket of the process is on loopback");
	/* Devices unknown (a captured tree without sys/class/net): not judged. */
	socks[0].in.local[0] = 10;
	fact_fail(&hf.netdevs.e, -ENOENT, "cannot read 'sys/class/net': No such file or directory");
	expect_says("net-busy-poll", STATUS_SKIP, "the devices could not be listed");
	/* A ring whose lock was busy: not known whether it polls. */
	rings[0].busy = true;
	rings[0].u.has_napi = false;
	expect_says("net-busy-poll", STATUS_SKIP, "0 rings without NAPI registered, and the fdinfo "
		    "of 1 could not be read");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listeners),
		cmocka_unit_test(test_accept_backlog),
		cmocka_unit_test(test_busy_poll),
	};

	return cmocka_run_group_tests_name("checks_net", tests, NULL, NULL);
}
