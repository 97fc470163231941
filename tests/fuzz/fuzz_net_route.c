// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/net/route's default routes, and irqbalance's --banirq arguments. */
#include "fuzz.h"
#include "procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), names[8][NET_IFNAME_MAX];
	char *args = malloc(size + 1);
	unsigned int irqs[8];
	size_t n;

	if (!args)
		abort();
	net_route_default_ifaces(text, names, 8, &n);
	/* A command line is NUL-separated: the whole input, as sysroot_read_bytes ends it. */
	memcpy(args, data, size);
	args[size] = '\0';
	irqbalance_banned_irqs(args, size, irqs, 8);
	free(args);
	free(text);
	return 0;
}
