// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/PID/net/unix, and each socket's type and state names. */
#include "fuzz.h"
#include "procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct unix_table t = { 0 };
	size_t i;

	if (!unix_table_parse(text, &t))
		for (i = 0; i < t.n; i++) {
			unix_type_name(t.v[i].type);
			unix_state_name(&t.v[i]);
		}
	unix_table_free(&t);
	free(text);
	return 0;
}
