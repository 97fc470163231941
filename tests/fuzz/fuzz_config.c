// SPDX-License-Identifier: GPL-2.0-or-later
/* The policy file (--config, /etc/uringlint.conf). */
#include <stdio.h>

#include "fuzz.h"
#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config cfg;
	FILE *f;

	if (!size)
		return 0;	/* fmemopen refuses an empty buffer */
	f = fmemopen((void *)data, size, "r");
	if (!f)
		abort();
	memset(&cfg, 0, sizeof(cfg));
	plan_defaults(&cfg.plan);
	thresholds_defaults(&cfg.th);
	config_read(f, "fuzz.conf", &cfg);
	fclose(f);
	config_free(&cfg);
	return 0;
}
