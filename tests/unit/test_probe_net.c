// SPDX-License-Identifier: GPL-2.0-or-later
/* The network probe's pure parts: mode lists, ratios, percentiles, and its verdicts on hand-built runs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "checks.h"
#include "testutil.h"
#include "check_run.h"

static struct host_facts hf;
static struct net_result nr;

static void test_modes_parse(void **state)
{
	unsigned int m = 0;
	const char *bad;

	(void)state;
	assert_int_equal(net_modes_parse("all", &m, &bad), 0);
	assert_int_equal(m, (1u << NM__COUNT) - 1);
	assert_int_equal(net_modes_parse("epoll,multishot", &m, &bad), 0);
	assert_int_equal(m, 1u << NM_EPOLL | 1u << NM_MULTISHOT);
	assert_int_equal(net_modes_parse("send-zc", &m, &bad), 0);
	assert_int_equal(m, 1u << NM_SEND_ZC);
	assert_int_equal(net_modes_parse("uring,bogus", &m, &bad), -EINVAL);
	assert_string_equal(bad, "bogus");
	assert_int_equal(m, 1u << NM_SEND_ZC);	/* untouched on error */
	assert_int_equal(net_modes_parse("", &m, &bad), -EINVAL);
	assert_int_equal(net_modes_parse("uring,", &m, &bad), -EINVAL);
	assert_int_equal(net_modes_parse("uringx", &m, &bad), -EINVAL);
	assert_int_equal(net_modes_parse("napi,epoll", &m, &bad), 0);
	assert_int_equal(m, 1u << NM_NAPI | 1u << NM_EPOLL);
	assert_string_equal(net_mode_name(NM_SEND_ZC), "send-zc");
	assert_false(net_mode_uring(NM_EPOLL));
	assert_true(net_mode_uring(NM_NAPI));
}

static void test_defaults_and_ratios(void **state)
{
	struct net_opts o;
	struct net_mode_result m = { .echoes = 200 };

	(void)state;
	net_opts_default(&o, 2);
	assert_int_equal(o.workers, 2);
	net_opts_default(&o, 64);
	assert_int_equal(o.workers, 4);
	net_opts_default(&o, 0);
	assert_int_equal(o.workers, 1);
	assert_int_equal(o.connections, 16);
	assert_int_equal(o.msg_size, 64);
	assert_true(net_per_msg(&m, 50) == 0.25);
	m.echoes = 0;
	assert_true(net_per_msg(&m, 50) == 0);	/* nothing echoed: no ratio, no division by zero */
}

static void test_latency(void **state)
{
	uint32_t ns[1000];
	uint64_t hist[PROBE_HIST_BUCKETS] = { 0 };
	double p50 = 0, p99 = 0, p999 = 0;
	unsigned int i;

	(void)state;
	for (i = 0; i < 1000; i++)
		ns[i] = (1000 - i) * 1000;	/* 1000 us down to 1 us */
	latency_summarize(ns, 1000, hist, &p50, &p99, &p999);
	assert_true(p50 == 501.0 && p99 == 991.0 && p999 == 1000.0);
	assert_int_equal(hist[1], 1);		/* 1 us */
	assert_int_equal(hist[10], 1000 - 511);	/* 512-999 us ... and 1000 us */
	latency_summarize(ns, 0, hist, &p50, &p99, &p999);	/* no samples: untouched */
	assert_true(p50 == 501.0);
}

/* A clean run: every mode ran, nothing punted, tracepoints counted. */
static void setup(void)
{
	unsigned int i;

	memset(&hf, 0, sizeof(hf));
	memset(&nr, 0, sizeof(nr));
	nr.workers = 2;
	nr.connections = 16;
	nr.msg_size = 64;
	for (i = 0; i < NM__COUNT; i++) {
		nr.modes[i].ran = true;
		nr.modes[i].messages = nr.modes[i].echoes = 100000;
		nr.modes[i].tracepoints = true;
		nr.modes[i].poll_arms = i == NM_URING ? 80000 : 20;
	}
}

static const struct finding *run(const char *id, struct report *r)
{
	assert_true(check_find(id) && (check_find(id)->flags & CHECK_PROBE_NET));
	return run_check(id, (struct check_ctx){ .host = &hf, .probe_net = &nr }, "probe", r);
}

#define expect(id, st)                                   \
	do {                                             \
		struct report r_;                        \
		assert_int_equal(run(id, &r_)->status, st); \
		report_free(&r_);                        \
	} while (0)

static void test_punts(void **state)
{
	(void)state;
	setup();
	expect_says("probe-net-punts", STATUS_PASS, "uring 0.80 poll arms a message");
	nr.modes[NM_EPOLL].punts = 5;	/* no ring: never judged */
	expect("probe-net-punts", STATUS_PASS);
	nr.modes[NM_MULTISHOT].punts = 3;
	expect_says("probe-net-punts", STATUS_FAIL, "multishot 3 punts for 100000 messages");
	/* Without the tracepoint an io-wq worker proves a punt, not a count. */
	for (unsigned int i = 0; i < NM__COUNT; i++)
		nr.modes[i].tracepoints = false;
	nr.modes[NM_MULTISHOT].iou_wrk = 1;
	expect("probe-net-punts", STATUS_WARN);
	nr.modes[NM_MULTISHOT].iou_wrk = 0;
	expect_says("probe-net-punts", STATUS_PASS, "needs the tracepoint");
	for (unsigned int i = NM_URING; i < NM__COUNT; i++)
		nr.modes[i].ran = false;
	expect("probe-net-punts", STATUS_SKIP);
}

static void test_features(void **state)
{
	(void)state;
	setup();
	expect("probe-net-features", STATUS_PASS);
	nr.modes[NM_NAPI].ran = false;
	nr.modes[NM_NAPI].needs = "6.9";
	fact_fail(&nr.modes[NM_NAPI].e, -EINVAL, "IORING_REGISTER_NAPI needs Linux 6.9: this "
		  "kernel refused it (EINVAL)");
	expect_says("probe-net-features", STATUS_WARN, "needs Linux 6.9");
	expect_says("probe-net-napi", STATUS_SKIP, "6.9");
	nr.modes[NM_SEND_ZC].ran = false;
	fact_fail(&nr.modes[NM_SEND_ZC].e, -ENOMEM, "io_uring_setup() failed: Cannot allocate memory");
	expect_says("probe-net-features", STATUS_FAIL, "send-zc");
	/* Modes not selected are not judged. */
	for (unsigned int i = NM_URING; i < NM__COUNT; i++) {
		nr.modes[i].ran = false;
		fact_fail(&nr.modes[i].e, -ECANCELED, "not selected by --mode");
	}
	expect("probe-net-features", STATUS_SKIP);
	expect("probe-net-napi", STATUS_SKIP);
}

static void test_echo_enobufs_napi(void **state)
{
	(void)state;
	setup();
	expect("probe-net-echo", STATUS_PASS);
	nr.modes[NM_URING].errors = 2;
	nr.modes[NM_URING].first_error = -EBADMSG;
	expect_says("probe-net-echo", STATUS_FAIL, "uring 2 errors");
	expect("probe-net-enobufs", STATUS_PASS);
	nr.modes[NM_MULTISHOT].enobufs = 7;
	expect_says("probe-net-enobufs", STATUS_WARN, "7 multishot recvs");
	nr.modes[NM_NAPI].napi_fdinfo = true;
	expect_says("probe-net-napi", STATUS_PASS, "no busy polling took place");
	/* A probe that could not start says why in every check. */
	fact_fail(&nr.e, -ESRCH, "no CPU is allowed to this process");
	expect("probe-net-punts", STATUS_SKIP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modes_parse),
		cmocka_unit_test(test_defaults_and_ratios),
		cmocka_unit_test(test_latency),
		cmocka_unit_test(test_punts),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_echo_enobufs_napi),
	};

	return cmocka_run_group_tests_name("probe_net", tests, NULL, NULL);
}
