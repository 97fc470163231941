// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/PID/net/netstat: the namespace's listen overflow and drop counters. */
#include "fuzz.h"
#include "procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct netstat_listen l;

	netstat_parse(text, &l);
	free(text);
	return 0;
}
