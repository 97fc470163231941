// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/PID/mountinfo */
#include "fuzz.h"
#include "procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct mount_entry *m = NULL;
	size_t n = 0;

	mountinfo_parse(text, &m, &n);
	free(m);
	free(text);
	return 0;
}
