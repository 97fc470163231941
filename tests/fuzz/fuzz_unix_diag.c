// SPDX-License-Identifier: GPL-2.0-or-later
/* NETLINK_SOCK_DIAG answers for unix sockets: names with their lengths, from bytes the kernel sent. */
#include "fuzz.h"
#include "netlink.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct unix_table t = { 0 };
	void *buf = malloc(size ? size : 1);	/* aligned, as a recv buffer is */

	if (!buf)
		abort();
	memcpy(buf, data, size);
	unix_diag_parse(buf, size, &t);
	unix_table_free(&t);
	free(buf);
	return 0;
}
