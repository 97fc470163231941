// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * smb.conf: written by the administrator, but read from the path a
 * process's command line names, so any text at all.
 */
#include "fuzz.h"
#include "apps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct smb_conf c;

	if (!smb_conf_parse(text, &c))
		smb_conf_free(&c);
	free(text);
	return 0;
}
