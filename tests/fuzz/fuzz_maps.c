// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/PID/maps: the mapped shared objects that name an application. */
#include "fuzz.h"
#include "proc_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct proc_image im = { 0 };

	proc_image_parse_maps(text, &im);
	proc_image_free(&im);
	free(text);
	return 0;
}
