// SPDX-License-Identifier: GPL-2.0-or-later
/* The network probe's modes and defaults: names, lists, ratios. */
#include <errno.h>
#include <string.h>

#include "net.h"

static const char *const mode_names[NM__COUNT] = {
	[NM_EPOLL] = "epoll",
	[NM_URING] = "uring",
	[NM_MULTISHOT] = "multishot",
	[NM_SEND_ZC] = "send-zc",
	[NM_NAPI] = "napi",
};

const char *net_mode_name(enum net_mode m)
{
	return m < NM__COUNT ? mode_names[m] : "?";
}

bool net_mode_uring(enum net_mode m)
{
	return m != NM_EPOLL && m < NM__COUNT;
}

void net_opts_default(struct net_opts *o, unsigned int allowed_cpus)
{
	*o = (struct net_opts){
		.workers = allowed_cpus < 1 ? 1 : allowed_cpus > 4 ? 4 : allowed_cpus,
		.connections = 16,
		.duration_ms = 2000,
		.msg_size = 64,
		.modes = (1u << NM__COUNT) - 1,
	};
}

int net_modes_parse(const char *list, unsigned int *modes, const char **bad)
{
	const char *p = list;
	unsigned int m = 0;

	*bad = list;
	while (*p) {
		size_t len = strcspn(p, ",");
		unsigned int i;

		*bad = p;
		if (len == 3 && !strncmp(p, "all", 3)) {
			m = (1u << NM__COUNT) - 1;
		} else {
			for (i = 0; i < NM__COUNT; i++)
				if (strlen(mode_names[i]) == len && !strncmp(p, mode_names[i], len))
					break;
			if (i == NM__COUNT)
				return -EINVAL;
			m |= 1u << i;
		}
		p += len;
		if (*p == ',' && !*++p)
			return -EINVAL;	/* a trailing comma names nothing */
	}
	if (!m)
		return -EINVAL;
	*modes = m;
	return 0;
}

double net_per_msg(const struct net_mode_result *m, uint64_t count)
{
	return m->echoes ? (double)count / (double)m->echoes : 0;
}
