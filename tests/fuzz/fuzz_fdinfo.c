// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/PID/fdinfo/N: the generic part, then the io_uring part (every kernel format). */
#include "fuzz.h"
#include "fdinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct fdinfo_generic g;
	struct uring_fdinfo u;

	fdinfo_parse_generic(text, &g);
	memset(&u, 0, sizeof(u));
	uring_fdinfo_parse(text, &u);
	uring_fdinfo_free(&u);
	free(text);
	return 0;
}
