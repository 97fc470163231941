// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net-listeners on a hand-built socket inventory: a SO_REUSEPORT group and
 * a single listener, with net.ipv4.tcp_migrate_req on, off, unreadable and
 * in another namespace.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listeners),
	};

	return cmocka_run_group_tests_name("checks_net", tests, NULL, NULL);
}
