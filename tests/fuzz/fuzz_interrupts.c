// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/interrupts, and the queue classification of each line's name. */
#include "fuzz.h"
#include "procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), dev[64];
	struct irq_line *lines = NULL;
	size_t n = 0, i;

	if (!interrupts_parse(text, &lines, &n))
		for (i = 0; i < n; i++)
			irq_classify(lines[i].name, dev, sizeof(dev));
	free(lines);
	free(text);
	return 0;
}
