// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/PID/task/TID/stat: comm may hold spaces and parentheses. */
#include "fuzz.h"
#include "proc_tasks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct proc_thread t;
	unsigned long flags;

	memset(&t, 0, sizeof(t));
	proc_stat_parse(text, &t, &flags);
	free(text);
	return 0;
}
