// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * read_floor LIST N: opens and reads to the end, N times over, every file
 * named in LIST (one path a line, relative to /). The floor a collector
 * cannot go below: the same files, no parsing, no judgment. Prints the mean
 * microseconds per pass.
 */
#include <fcntl.h>
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
	char **paths = NULL, line[4096], buf[65536];
	size_t n = 0, i;
	int passes, p, root;
	double t0;
	FILE *f;

	if (argc != 3 || (passes = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: read_floor LIST N\n");
		return 2;
	}
	f = fopen(argv[1], "re");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		paths = realloc(paths, (n + 1) * sizeof(*paths));
		paths[n++] = strdup(line);
	}
	fclose(f);
	root = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	t0 = now_us();
	for (p = 0; p < passes; p++) {
		for (i = 0; i < n; i++) {
			int fd = openat(root, paths[i], O_RDONLY | O_CLOEXEC | O_NONBLOCK);

			if (fd < 0)
				continue;
			while (read(fd, buf, sizeof(buf)) > 0)
				;
			close(fd);
		}
	}
	printf("%.0f\n", (now_us() - t0) / passes);
	return 0;
}
