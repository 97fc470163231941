// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>

#include "output.h"

const char *format_bytes(uint64_t v, char buf[BYTES_STR_MAX])
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned int i = 0;
	uint64_t whole = v, rem = 0;

	if (v == UINT64_MAX) {
		snprintf(buf, BYTES_STR_MAX, "unlimited");
		return buf;
	}
	while (whole >= 1024 && i < 6) {
		rem = whole % 1024;
		whole /= 1024;
		i++;
	}
	/* One decimal only when it is not zero: "8 MiB", "1.5 GiB". */
	if (rem * 10 / 1024)
		snprintf(buf, BYTES_STR_MAX, "%llu.%llu %s", (unsigned long long)whole,
			 (unsigned long long)(rem * 10 / 1024), unit[i]);
	else
		snprintf(buf, BYTES_STR_MAX, "%llu %s", (unsigned long long)whole, unit[i]);
	return buf;
}
