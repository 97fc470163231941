// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Runs a harness once on each file named: the regression inputs under
 * tests/fuzz/regressions/ replay in `make check` without clang.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replay(const char *path)
{
	struct stat st;
	uint8_t *buf;
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f || fstat(fileno(f), &st)) {
		fprintf(stderr, "replay: cannot read '%s': %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		abort();
	n = fread(buf, 1, (size_t)st.st_size, f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int i, failed = 0;

	for (i = 1; i < argc; i++)
		failed |= replay(argv[i]);
	return failed ? 1 : 0;
}
