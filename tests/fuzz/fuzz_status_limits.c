// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/PID/status and /proc/PID/limits: both are "Key: value" text a
 * process's owner can make odd (Name: holds any bytes); each parser also
 * meets the other's file, as a swapped or corrupt capture would give it.
 */
#include "fuzz.h"
#include "procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct proc_status st;
	struct proc_limits lim;

	proc_status_parse(text, &st);
	proc_limits_parse(text, &lim);
	free(text);
	return 0;
}
