// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * audit_floor PID N [by-name]: the work an audit cannot avoid, N times
 * over: list /proc/PID/fd, readlink every fd, read its fdinfo to the end.
 * Prints the mean microseconds per pass. By path (/proc/PID/fd/N, as the
 * floor was first defined), or by-name: each name looked up from the open
 * fd and fdinfo directories, the cheapest way there is, and the way
 * uringlint reads them on a live host.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
	char dir[64], path[384], target[4096], buf[65536];
	struct dirent *de;
	int pid, passes, p, infos = -1;
	bool by_name;
	double t0;
	DIR *d;

	if (argc < 3 || argc > 4 || (pid = atoi(argv[1])) <= 0 || (passes = atoi(argv[2])) <= 0 ||
	    (argc == 4 && strcmp(argv[3], "by-name"))) {
		fprintf(stderr, "usage: audit_floor PID N [by-name]\n");
		return 2;
	}
	by_name = argc == 4;
	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	t0 = now_us();
	for (p = 0; p < passes; p++) {
		d = opendir(dir);
		if (!d) {
			perror(dir);
			return 1;
		}
		if (by_name) {
			snprintf(path, sizeof(path), "/proc/%d/fdinfo", pid);
			infos = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (infos < 0) {
				perror(path);
				return 1;
			}
		}
		while ((de = readdir(d))) {
			int fd;

			if (de->d_name[0] == '.')
				continue;
			if (by_name) {
				if (readlinkat(dirfd(d), de->d_name, target, sizeof(target)) < 0)
					continue;
				fd = openat(infos, de->d_name, O_RDONLY | O_CLOEXEC);
			} else {
				snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
				if (readlink(path, target, sizeof(target)) < 0)
					continue;
				snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", pid, de->d_name);
				fd = open(path, O_RDONLY | O_CLOEXEC);
			}
			if (fd < 0)
				continue;
			while (read(fd, buf, sizeof(buf)) > 0)
				;
			close(fd);
		}
		closedir(d);
		if (by_name)
			close(infos);
	}
	printf("%.0f\n", (now_us() - t0) / passes);
	return 0;
}
