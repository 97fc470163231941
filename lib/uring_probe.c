// SPDX-License-Identifier: GPL-2.0-or-later
#include <liburing.h>
#include <string.h>

#include "uring_probe.h"

void uring_probe_setup(struct uring_setup_result *res)
{
	struct io_uring_params p;
	struct io_uring ring;
	int ret;

	memset(res, 0, sizeof(*res));
	memset(&p, 0, sizeof(p));
	ret = io_uring_queue_init_params(1, &ring, &p);
	if (ret < 0) {
		res->err = ret;
		return;
	}
	res->features = p.features;
	io_uring_queue_exit(&ring);
}
