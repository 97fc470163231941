// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/PID/net/{tcp,udp,raw,udplite}[6]: both address widths, and each socket's text. */
#include "fuzz.h"
#include "procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), buf[INET_ADDR_MAX];
	struct inet_table t = { 0 };
	size_t i;
	int v6;

	for (v6 = 0; v6 < 2; v6++) {
		if (!inet_table_parse(text, v6, &t))
			for (i = 0; i < t.n; i++) {
				inet_endpoint_text(t.v[i].local, t.v[i].lport, v6, buf, sizeof(buf));
				inet_endpoint_text(t.v[i].remote, t.v[i].rport, v6, buf, sizeof(buf));
				inet_state_name(t.v[i].state);
			}
		inet_table_free(&t);
	}
	free(text);
	return 0;
}
