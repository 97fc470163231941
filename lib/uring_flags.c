// SPDX-License-Identifier: GPL-2.0-or-later
/* Names of io_uring's setup flags (see uring_flags.h). */
#include <stdio.h>

#include "array.h"
#include "uring_flags.h"

static const char *const setup_flags[] = {
	"IOPOLL", "SQPOLL", "SQ_AFF", "CQSIZE", "CLAMP", "ATTACH_WQ", "R_DISABLED",
	"SUBMIT_ALL", "COOP_TASKRUN", "TASKRUN_FLAG", "SQE128", "CQE32", "SINGLE_ISSUER",
	"DEFER_TASKRUN", "NO_MMAP", "REGISTERED_FD_ONLY", "NO_SQARRAY", "HYBRID_IOPOLL",
};

const char *uring_setup_flag_name(unsigned int b)
{
	return b < ARRAY_SIZE(setup_flags) ? setup_flags[b] : NULL;
}

void uring_setup_flags_format(uint32_t flags, char *buf, size_t n)
{
	size_t used = 0;
	unsigned int b;

	if (!n)
		return;
	buf[0] = '\0';
	for (b = 0; b < 32; b++) {
		const char *name = uring_setup_flag_name(b);
		int w;

		if (!(flags & (1u << b)))
			continue;
		w = name ? snprintf(buf + used, n - used, "%s%s", used ? "|" : "", name)
			 : snprintf(buf + used, n - used, "%sbit %u", used ? "|" : "", b);
		if (w < 0 || (size_t)w >= n - used)
			return;
		used += (size_t)w;
	}
	if (!used)
		snprintf(buf, n, "no setup flags");
}
