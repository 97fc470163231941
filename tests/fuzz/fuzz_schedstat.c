// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/PID/task/TID/schedstat: run and wait times of the audit's window. */
#include "fuzz.h"
#include "proc_window.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	uint64_t run, wait, slices;

	schedstat_parse(text, &run, &wait, &slices);
	free(text);
	return 0;
}
