// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/cmdline, then the values of isolcpus=, nohz_full= and rcu_nocbs= in it. */
#include "fuzz.h"
#include "procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), value[4096];
	struct isolcpus iso;
	struct cpuset possible, set;

	if (cpulist_parse("0-63", &possible))
		abort();
	if (!cmdline_get(text, "isolcpus", value, sizeof(value)))
		cmdline_parse_isolcpus(value, &iso);
	if (!cmdline_get(text, "nohz_full", value, sizeof(value)))
		cmdline_parse_cpulist(value, &possible, &set);
	if (!cmdline_get(text, "rcu_nocbs", value, sizeof(value)))
		cmdline_parse_cpulist(value, &possible, &set);
	free(text);
	return 0;
}
