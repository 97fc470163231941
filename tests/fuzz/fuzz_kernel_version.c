// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel release strings, refined by /proc/version and version_signature:
 * the input's first line is the release, the rest is both other texts.
 */
#include "fuzz.h"
#include "procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *rest = strchr(text, '\n');
	struct kernel_version kv;

	if (rest)
		*rest++ = '\0';
	if (!kernel_version_parse(text, &kv))
		kernel_version_refine(&kv, rest, rest);
	free(text);
	return 0;
}
