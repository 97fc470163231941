// SPDX-License-Identifier: GPL-2.0-or-later
/* NETLINK_SOCK_DIAG answers: the listeners' backlog, from bytes the kernel sent. */
#include "fuzz.h"
#include "netlink.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t want[] = { 1, 2, 1000, 4294967295u };
	struct diag_listeners t = { 0 };
	void *buf = malloc(size ? size : 1);	/* aligned, as a recv buffer is */

	if (!buf)
		abort();
	memcpy(buf, data, size);
	sock_diag_parse(buf, size, NULL, 0, &t);
	diag_listeners_free(&t);
	sock_diag_parse(buf, size, want, 4, &t);
	diag_listeners_free(&t);
	free(buf);
	return 0;
}
