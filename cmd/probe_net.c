// SPDX-License-Identifier: GPL-2.0-or-later
/* uringlint probe --net: the network probe's run; its table and JSON are views/probe_view.c's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "net.h"
#include "probe_view.h"
#include "xalloc.h"

int cmd_probe_net_into_report(const struct net_opts *no, struct check_ctx *ctx,
			      const struct check_policy *pol, bool progress)
{
	struct net_opts o = *no;
	struct report *rp = ctx->report;
	struct net_result *r = xcalloc(1, sizeof(*r));
	struct json_object *probe;
	bool fast_path = false;
	size_t i;
	int ret;

	o.progress = isatty(STDERR_FILENO) && progress;
	ret = net_run(&o, r);
	if (ret) {
		error_msg("%s", r->e.why);
		free(r);
		return EXIT_CANNOT;
	}
	probe_net_notes(rp, r);
	ctx->probe_net = r;
	checks_run_scope(SCOPE_PROBE, ctx, pol);
	ctx->probe_net = NULL;
	for (i = 0; i < rp->nfindings; i++)
		if (!strcmp(rp->findings[i].check->id, "probe-net-punts"))
			fast_path = rp->findings[i].status == STATUS_PASS;
	probe = rp->probe ? rp->probe : json_object_new_object();
	json_object_object_add(probe, "net", probe_net_json(r, fast_path));
	rp->probe = probe;
	ret = probe_net_metrics(rp, r, fast_path);
	free(r);
	if (ret) {
		error_msg("out of memory");
		return EXIT_CANNOT;
	}
	return 0;
}
