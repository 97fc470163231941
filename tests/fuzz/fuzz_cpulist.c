// SPDX-License-Identifier: GPL-2.0-or-later
/* cpulists (online, isolated, smp_affinity_list) and hex masks (smp_affinity). */
#include "fuzz.h"
#include "cpulist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), out[256];
	struct cpuset set;

	if (!cpulist_parse(text, &set))
		cpuset_format(&set, out, sizeof(out));
	if (!cpumask_parse_hex(text, &set))
		cpuset_format(&set, out, sizeof(out));
	free(text);
	return 0;
}
