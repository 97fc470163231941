// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/PID/fdinfo/N: the generic part, then the io_uring part (every kernel format). */
#include "fuzz.h"
#include "procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *slow;
	struct fdinfo_generic g, h;
	struct uring_fdinfo u;
	size_t n = strlen(text);
	int rg, rh;

	/*
	 * The kernel's layout has a path of its own: behind a line that defeats
	 * it, the general pass must say the same of the text.
	 */
	memset(&g, 0, sizeof(g));
	memset(&h, 0, sizeof(h));
	rg = fdinfo_parse_generic(text, &g);
	slow = malloc(n + 4);
	if (!slow)
		abort();
	memcpy(slow, "x:\n", 3);
	memcpy(slow + 3, text, n + 1);
	rh = fdinfo_parse_generic(slow, &h);
	if (rg != rh || (!rg && memcmp(&g, &h, sizeof(g))))
		abort();
	free(slow);
	memset(&u, 0, sizeof(u));
	uring_fdinfo_parse(text, &u);
	uring_fdinfo_free(&u);
	free(text);
	return 0;
}
