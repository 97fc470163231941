/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The check tests' runner; cmocka and checks.h must be included before this. */
#ifndef URINGLINT_CHECK_RUN_H
#define URINGLINT_CHECK_RUN_H

/*
 * Runs check id over the facts of ctx, into r (begun as command's report),
 * and returns its only finding.
 */
static inline const struct finding *run_check(const char *id, struct check_ctx ctx,
					      const char *command, struct report *r)
{
	const struct check *c = check_find(id);

	assert_non_null(c);
	report_init(r, command);
	ctx.report = r;
	c->run(c, &ctx);
	assert_int_equal(r->nfindings, 1);
	return &r->findings[0];
}

#endif
