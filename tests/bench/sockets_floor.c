// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sockets_floor PID...: what a socket inventory cannot avoid reading: list
 * /proc/PID/fd of each and readlink every fd, then read the first PID's
 * /proc/PID/net/{tcp,tcp6,udp,udp6,unix} to the end (the processes share
 * one network namespace). Prints the socket links it saw.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static const char *const tables[] = { "tcp", "tcp6", "udp", "udp6", "unix" };
	char path[384], target[4096], buf[1 << 16];
	unsigned long sockets = 0;
	struct dirent *de;
	size_t i;
	ssize_t n;
	int pid = 0, fd, a;
	DIR *d;

	for (a = 1; a < argc; a++) {
		if ((pid = atoi(argv[a])) <= 0) {
			fprintf(stderr, "usage: sockets_floor PID...\n");
			return 2;
		}
		snprintf(path, sizeof(path), "/proc/%d/fd", pid);
		d = opendir(path);
		if (!d) {
			perror(path);
			return 1;
		}
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%d/fd/%s", pid, de->d_name);
			n = readlink(path, target, sizeof(target) - 1);
			if (n > 0 && !strncmp(target, "socket:[", 8))
				sockets++;
		}
		closedir(d);
	}
	if (argc < 2) {
		fprintf(stderr, "usage: sockets_floor PID...\n");
		return 2;
	}
	pid = atoi(argv[1]);
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		snprintf(path, sizeof(path), "/proc/%d/net/%s", pid, tables[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			;
		close(fd);
	}
	printf("%lu\n", sockets);
	return 0;
}
