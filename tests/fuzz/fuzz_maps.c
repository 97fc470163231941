// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/PID/maps: rings, AIO contexts, and the libraries that name an application. */
#include "fuzz.h"
#include "procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct proc_maps m;

	proc_maps_parse(text, &m);
	proc_maps_free(&m);
	free(text);
	return 0;
}
