// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * registered-socket: a TCP listener on 127.0.0.1 (a port the kernel
 * picks), a client connected to it and the accepted side, and a ring
 * whose file table holds the listener (slot 0) and the accepted socket
 * (slot 1), whose fd is then closed: it lives on only in the ring, as a
 * socket accepted as a direct descriptor does. The client's fd stays
 * unregistered. Prints "ready PID PORT INODE", INODE the accepted
 * socket's, which no fd shows any more.
 *
 * reuseport-listeners: a ring, and two SO_REUSEPORT listeners on one port
 * of 127.0.0.1 (the kernel picks it for the first), as a thread-per-core
 * server gives each worker its own. Prints "ready PID PORT".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pathology.h"

void registered_socket(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	struct io_uring ring;
	int fds[2], cl, ret;
	struct stat st;

	fds[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (fds[0] < 0 || bind(fds[0], (struct sockaddr *)&a, sizeof(a)) || listen(fds[0], 8) ||
	    getsockname(fds[0], (struct sockaddr *)&a, &len))
		die("listener on 127.0.0.1", errno);
	cl = socket(AF_INET, SOCK_STREAM, 0);
	if (cl < 0 || connect(cl, (struct sockaddr *)&a, sizeof(a)))
		die("connect to 127.0.0.1", errno);
	fds[1] = accept(fds[0], NULL, NULL);
	if (fds[1] < 0 || fstat(fds[1], &st))
		die("accept", errno);
	ring_init(&ring, 8, 0, 0, -1);
	ret = io_uring_register_files(&ring, fds, 2);
	if (ret < 0)
		die("io_uring_register_files", ret);
	close(fds[1]);
	printf("ready %d %u %llu\n", getpid(), (unsigned int)ntohs(a.sin_port),
	       (unsigned long long)st.st_ino);
	fflush(stdout);
	while (!stop)
		sleep_ms(50);
	close(cl);
	close(fds[0]);
	io_uring_queue_exit(&ring);
}

void reuseport_listeners(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	struct io_uring ring;
	int l[2], one = 1, i;

	for (i = 0; i < 2; i++) {
		l[i] = socket(AF_INET, SOCK_STREAM, 0);
		if (l[i] < 0 || setsockopt(l[i], SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) ||
		    bind(l[i], (struct sockaddr *)&a, sizeof(a)) || listen(l[i], 8) ||
		    getsockname(l[i], (struct sockaddr *)&a, &len))
			die("SO_REUSEPORT listener on 127.0.0.1", errno);
	}
	ring_init(&ring, 8, 0, 0, -1);
	printf("ready %d %u\n", getpid(), (unsigned int)ntohs(a.sin_port));
	fflush(stdout);
	while (!stop)
		sleep_ms(50);
	close(l[0]);
	close(l[1]);
	io_uring_queue_exit(&ring);
}
