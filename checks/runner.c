// SPDX-License-Identifier: GPL-2.0-or-later
/* Runs the table: policy, live-only and root-only gates, then each check. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "xalloc.h"

const struct check *check_find(const char *id)
{
	size_t i;

	for (i = 0; i < check_table_len; i++)
		if (!strcmp(check_table[i].info.id, id))
			return &check_table[i];
	return NULL;
}

const char *check_scope_name(enum check_scope scope)
{
	switch (scope) {
	case SCOPE_HOST:
		return "host";
	case SCOPE_PROCESS:
		return "process";
	case SCOPE_PROBE:
		return "probe";
	}
	return "?";
}

/*
 * The next id of a comma-separated list ("a,b" or "a, b" as people write in
 * the policy file): *id and *len, blanks around it dropped; false at the end.
 */
static bool list_next(const char **p, const char **id, size_t *len)
{
	while (*p && **p) {
		const char *end = strchr(*p, ',');
		const char *s = *p, *e = end ? end : *p + strlen(*p);

		*p = end ? end + 1 : NULL;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if (e > s) {
			*id = s;
			*len = (size_t)(e - s);
			return true;
		}
	}
	return false;
}

static bool list_has(const char *list, const char *id)
{
	size_t n = strlen(id), len;
	const char *p = list, *item;

	while (list_next(&p, &item, &len))
		if (len == n && !strncmp(item, id, n))
			return true;
	return false;
}

static int list_validate(const char *list, char **bad)
{
	const char *p = list, *item;
	size_t len;

	if (list && !list_next(&p, &item, &len))
		return -ENODATA;
	p = list;
	while (list_next(&p, &item, &len)) {
		char *id = xasprintf("%.*s", (int)len, item);

		if (!check_find(id)) {
			*bad = id;
			return -EINVAL;
		}
		free(id);
	}
	return 0;
}

int check_policy_validate(const struct check_policy *pol, char **bad)
{
	int err;

	*bad = NULL;
	err = list_validate(pol->only, bad);
	return err ? err : list_validate(pol->skip, bad);
}

bool check_policy_selects(const struct check_policy *pol, const char *id)
{
	return (!pol->only || list_has(pol->only, id)) && !(pol->skip && list_has(pol->skip, id));
}

unsigned int check_policy_tries(const struct check_policy *pol)
{
	unsigned int tries = 0;
	size_t i;

	for (i = 0; i < check_table_len; i++)
		if (check_policy_selects(pol, check_table[i].info.id))
			tries |= check_table[i].tries;
	return tries;
}

enum check_status fact_status(const struct fact_err *e)
{
	/* Asked about a fact that holds a value: a caller's bug, shown, not skipped. */
	if (!e->err)
		return STATUS_ERROR;
	/*
	 * Read, and garbage: a malformed file (EBADMSG), a NUL byte in text
	 * (EILSEQ), a file or line past any real one (EFBIG, EOVERFLOW).
	 */
	if (e->err == -EBADMSG || e->err == -EILSEQ || e->err == -EFBIG || e->err == -EOVERFLOW)
		return STATUS_ERROR;
	/*
	 * Everything else is "could not be read here", unknown errnos too:
	 * unknown is a skip, never a pass. -ENOMEM included: io_uring_setup()
	 * returns it for RLIMIT_MEMLOCK, a property of the host, and the
	 * feature facts carry its errno.
	 */
	return STATUS_SKIP;
}

struct finding *check_fact_missing(const struct check *c, struct check_ctx *ctx,
				   const char *subject, const struct fact_err *e)
{
	return report_add(ctx->report, &c->info, fact_status(e), subject, "%s", e->why);
}

void checks_run_scope(enum check_scope scope, struct check_ctx *ctx,
		      const struct check_policy *pol)
{
	const struct check *c;
	char subject[32] = "host";
	size_t i;

	if (ctx->proc)
		snprintf(subject, sizeof(subject), "pid %d", (int)ctx->proc->pid);
	for (i = 0; i < check_table_len; i++) {
		c = &check_table[i];
		if (c->scope != scope)
			continue;
		/* A probe run judges the probe that ran: storage, or --net. */
		if (scope == SCOPE_PROBE &&
		    ((c->flags & CHECK_PROBE_NET) ? !ctx->probe_net : !ctx->probe))
			continue;
		if (pol->only && !list_has(pol->only, c->info.id))
			continue;
		if (pol->skip && list_has(pol->skip, c->info.id)) {
			report_add(ctx->report, &c->info, STATUS_SKIP, subject, "suppressed by policy (--skip or the policy file)");
			continue;
		}
		if ((c->flags & CHECK_LIVE_ONLY) && !ctx->host->live) {
			report_add(ctx->report, &c->info, STATUS_SKIP, subject,
				   "needs the live system; --root replays a captured tree");
			continue;
		}
		if ((c->flags & CHECK_NEEDS_ROOT) && !ctx->host->tool_is_root) {
			report_add(ctx->report, &c->info, STATUS_SKIP, subject, "needs root");
			continue;
		}
		c->run(c, ctx);
	}
}
