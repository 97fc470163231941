// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The probes' Prometheus series from their results: every family, label
 * set and sample of a storage probe (some modes run, some not) and of a
 * network probe (one mode without tracepoints: its punts unknown, no
 * sample) against testdata/metrics/probes.prom, line for line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "probe_view.h"
#include "writer.h"
#include "testutil.h"

static void fill(struct probe_result *p, struct net_result *n)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	memset(n, 0, sizeof(*n));
	for (i = 0; i < PM__COUNT; i++) {
		p->modes[i].ran = i % 3 != 1;
		p->modes[i].iops = 1000.4 * (i + 1);
		p->modes[i].p50_us = 10.5 + i;
		p->modes[i].p99_us = 100.25 + i;
		p->modes[i].p999_us = 1000 + i;
		p->modes[i].punts = i * 7;
	}
	for (i = 0; i < NM__COUNT; i++) {
		n->modes[i].ran = i != 2;
		n->modes[i].tracepoints = i != 1;
		n->modes[i].msgs_per_sec = 5000.6 * (i + 1);
		n->modes[i].messages = 1000 * (i + 1);
		n->modes[i].enters = 1500 * (i + 1);
		n->modes[i].p50_us = 20 + i;
		n->modes[i].p99_us = 200 + i;
		n->modes[i].p999_us = 2000 + i;
		n->modes[i].punts = i * 3;
	}
}

static void test_probe_series(void **state)
{
	struct probe_result p;
	struct net_result n;
	struct report r;
	char *buf = NULL, *want;
	size_t len = 0;
	FILE *out;

	(void)state;
	fill(&p, &n);
	report_init(&r, "probe");
	assert_int_equal(probe_result_metrics(&r, &p, true), 0);
	assert_int_equal(probe_net_metrics(&r, &n, false), 0);
	out = open_memstream(&buf, &len);
	assert_non_null(out);
	assert_int_equal(write_report(out, &r, FORMAT_PROMETHEUS, &(struct writer_opts){ 0 }), 0);
	assert_int_equal(fclose(out), 0);
	/* The build's version and the run's time, written after the probes' series, vary. */
	*strstr(buf, "# HELP uringlint_build_info") = '\0';
	if (getenv("UPDATE")) {
		FILE *g = fopen(TESTDATA "/metrics/probes.prom", "we");

		assert_non_null(g);
		fputs(strstr(buf, "# HELP uringlint_probe_iops"), g);
		fclose(g);
	}
	want = slurp(TESTDATA "/metrics/probes.prom");
	assert_string_equal(strstr(buf, "# HELP uringlint_probe_iops"), want);
	free(want);
	free(buf);
	report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_series),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
