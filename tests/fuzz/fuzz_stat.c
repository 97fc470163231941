// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/PID/stat and task/TID/stat: the comm may hold spaces, parentheses
 * and newlines. A parsed comm is what lies between the first '(' and the
 * last ')' (cut to the buffer), nothing else.
 */
#include "fuzz.h"
#include "proc_tasks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct proc_thread t;
	unsigned long flags;

	memset(&t, 0, sizeof(t));
	if (!proc_stat_parse(text, &t, &flags)) {
		const char *open = strchr(text, '('), *close = strrchr(text, ')');
		size_t n = (size_t)(close - open - 1);

		if (n >= sizeof(t.comm))
			n = sizeof(t.comm) - 1;
		if (strlen(t.comm) != n || memcmp(t.comm, open + 1, n))
			abort();
	}
	free(text);
	return 0;
}
