// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The scene's gauges against its JSON, from one recorded scene: each gauge
 * is the JSON number in the gauge's unit; a part not measured has no
 * sample, and a scene not measured declares no family at all; and its
 * line in the text reports.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scene_json.h"

static struct scene_cpu cpus[1];

/* Buffered random writes collapsing a loop device (numbers as measured). */
static void scene_recorded(struct scene *s)
{
	struct scene_dev *d = &s->devs[0];

	memset(s, 0, sizeof(*s));
	s->windowed = true;
	s->seconds = 2.0;
	s->load[0] = 3.87;
	s->load[1] = 8.34;
	s->load[2] = 7.62;
	s->dirty_kb = 180620;
	s->writeback_kb = 4096;
	s->dirty_thresh_kb = 4748700;
	snprintf(d->name, sizeof(d->name), "loop2");
	d->in_flight = 32;
	d->has_delta = true;
	d->d = (struct scene_disk_delta){ .rd_ios = 10, .rd_sectors = 80, .rd_ticks = 7,
					  .wr_ios = 201421, .wr_sectors = 1611368,
					  .wr_ticks = 39766, .io_ticks = 1810, .rq_ticks = 39767 };
	scene_iostat(&d->d, s->seconds, &d->io);
	s->ndevs = 1;
	cpus[0] = (struct scene_cpu){ .id = 1, .us = 4.57, .sy = 65.48, .wa = 10.15, .si = 7.61,
				      .id_pct = 12.19 };
	s->cpus = cpus;
	s->ncpus = 1;
	s->iowq_cpu = 0.15;
	s->iowq_workers = 4;
}

/* The value of the one sample of family F with labels L; NAN when there is none. */
static double gauge(const struct metrics *m, const char *f, const char *l)
{
	size_t i;

	for (i = 0; i < m->ns; i++)
		if (!strcmp(m->fam[m->s[i].family].name, f) && !strcmp(m->s[i].labels, l))
			return m->s[i].value;
	return NAN;
}

static double jnum(struct json_object *o, const char *path)
{
	char buf[128], *save = NULL, *k;
	struct json_object *v = o;

	snprintf(buf, sizeof(buf), "%s", path);
	for (k = strtok_r(buf, ".", &save); k && v; k = strtok_r(NULL, ".", &save)) {
		if (*k >= '0' && *k <= '9')
			v = json_object_array_get_idx(v, (size_t)(*k - '0'));
		else if (!json_object_object_get_ex(v, k, &v))
			v = NULL;
	}
	assert_non_null(v);
	return json_object_get_double(v);
}

/* a (a gauge) is b (a JSON number rounded to 2 decimals) times scale. */
static void same(double a, double b, double scale)
{
	if (fabs(a - b * scale) > 0.005 * scale + 1e-12)
		fail_msg("gauge %.17g, JSON %.17g x %g", a, b, scale);
}

#define WHO "pid=\"42\",comm=\"fio \\\"x\\\"\""

static void test_gauges_are_the_json(void **state)
{
	struct metrics m = { 0 };
	struct scene s;
	struct json_object *j;

	(void)state;
	scene_recorded(&s);
	j = scene_json(&s);
	assert_int_equal(scene_metrics(&m, &s, 42, "fio \"x\""), 0);
	same(gauge(&m, "uringlint_scene_window_seconds", WHO), jnum(j, "seconds"), 1);
	same(gauge(&m, "uringlint_scene_load1", WHO), jnum(j, "load.0"), 1);
	same(gauge(&m, "uringlint_scene_load15", WHO), jnum(j, "load.2"), 1);
	same(gauge(&m, "uringlint_scene_dirty_bytes", WHO), jnum(j, "memory.dirty_kb"), 1024);
	same(gauge(&m, "uringlint_scene_writeback_bytes", WHO), jnum(j, "memory.writeback_kb"), 1024);
	same(gauge(&m, "uringlint_scene_dirty_threshold_bytes", WHO),
	     jnum(j, "memory.dirty_threshold_kb"), 1024);
	same(gauge(&m, "uringlint_scene_device_in_flight", WHO ",device=\"loop2\""),
	     jnum(j, "devices.0.in_flight"), 1);
	same(gauge(&m, "uringlint_scene_device_util_ratio", WHO ",device=\"loop2\""),
	     jnum(j, "devices.0.util_pct"), 0.01);
	same(gauge(&m, "uringlint_scene_device_await_seconds", WHO ",device=\"loop2\",op=\"write\""),
	     jnum(j, "devices.0.w_await_ms"), 0.001);
	same(gauge(&m, "uringlint_scene_device_await_seconds", WHO ",device=\"loop2\",op=\"read\""),
	     jnum(j, "devices.0.r_await_ms"), 0.001);
	same(gauge(&m, "uringlint_scene_device_queue_size", WHO ",device=\"loop2\""),
	     jnum(j, "devices.0.aqu_sz"), 1);
	same(gauge(&m, "uringlint_scene_device_iops", WHO ",device=\"loop2\",op=\"write\""),
	     jnum(j, "devices.0.w_s"), 1);
	same(gauge(&m, "uringlint_scene_device_bytes_per_second", WHO ",device=\"loop2\",op=\"write\""),
	     jnum(j, "devices.0.wkb_s"), 1024);
	same(gauge(&m, "uringlint_scene_cpu_ratio", WHO ",cpu=\"1\",mode=\"system\""),
	     jnum(j, "cpus.list.0.sy"), 0.01);
	same(gauge(&m, "uringlint_scene_cpu_ratio", WHO ",cpu=\"1\",mode=\"iowait\""),
	     jnum(j, "cpus.list.0.wa"), 0.01);
	same(gauge(&m, "uringlint_scene_cpu_ratio", WHO ",cpu=\"1\",mode=\"softirq\""),
	     jnum(j, "cpus.list.0.si"), 0.01);
	same(gauge(&m, "uringlint_scene_iowq_cpu_ratio", WHO), jnum(j, "iowq.cpu"), 1);
	json_object_put(j);
	metrics_free(&m);
}

static void test_not_measured_no_sample(void **state)
{
	struct metrics m = { 0 };
	struct scene s;

	(void)state;
	/* No window: what one reading gives, and no rate, never a 0. */
	scene_recorded(&s);
	s.windowed = false;
	s.devs[0].has_delta = false;
	fact_fail(&s.cpus_e, -ENODATA, "no window");
	fact_fail(&s.iowq_e, -ENODATA, "no window");
	assert_int_equal(scene_metrics(&m, &s, 42, "fio"), 0);
	assert_false(isnan(gauge(&m, "uringlint_scene_device_in_flight",
				 "pid=\"42\",comm=\"fio\",device=\"loop2\"")));
	assert_true(isnan(gauge(&m, "uringlint_scene_device_util_ratio",
				"pid=\"42\",comm=\"fio\",device=\"loop2\"")));
	assert_true(isnan(gauge(&m, "uringlint_scene_iowq_cpu_ratio", "pid=\"42\",comm=\"fio\"")));
	assert_true(isnan(gauge(&m, "uringlint_scene_window_seconds", "pid=\"42\",comm=\"fio\"")));
	metrics_free(&m);
	/* A device gone in the window: none of its samples. */
	memset(&m, 0, sizeof(m));
	scene_recorded(&s);
	fact_fail(&s.devs[0].e, -ENODEV, "loop2 (7:2) was gone at the end of the window");
	assert_int_equal(scene_metrics(&m, &s, 42, "fio"), 0);
	assert_true(isnan(gauge(&m, "uringlint_scene_device_iops",
				"pid=\"42\",comm=\"fio\",device=\"loop2\",op=\"write\"")));
	assert_true(isnan(gauge(&m, "uringlint_scene_device_in_flight",
				"pid=\"42\",comm=\"fio\",device=\"loop2\"")));
	metrics_free(&m);
	/* A captured tree: no family at all. */
	memset(&m, 0, sizeof(m));
	scene_recorded(&s);
	fact_fail(&s.e, -EOPNOTSUPP, "not measured: a captured tree has no window");
	assert_int_equal(scene_metrics(&m, &s, 42, "fio"), 0);
	assert_int_equal(m.nfam, 0);
	assert_int_equal(m.ns, 0);
	metrics_free(&m);
}

static void test_summary(void **state)
{
	char buf[1024];
	struct scene s;

	(void)state;
	scene_recorded(&s);
	assert_true(scene_summary(&s, buf, sizeof(buf)));
	assert_string_equal(buf, "  scene over 2.0 s: loop2 90% util, aqu-sz 19.9, r 5/s 0.0 MB/s, "
			    "r_await 0.7 ms, w 100.7k/s 393.4 MB/s, w_await 0.2 ms; CPU 1 us 5% "
			    "sy 65% wa 10% hi+si 8% st 0%; Dirty 176.3 MiB of 4.5 GiB threshold; "
			    "io-wq 0.15 CPU (4 workers); load 3.87");
	/* One reading: what needs no window. */
	s.windowed = false;
	fact_fail(&s.cpus_e, -ENODATA, "no window");
	assert_true(scene_summary(&s, buf, sizeof(buf)));
	assert_string_equal(buf, "  scene now (no window): loop2 32 in flight; Dirty 176.3 MiB of "
			    "4.5 GiB threshold; load 3.87");
	/* A device gone in the window is counted, not shown with numbers. */
	scene_recorded(&s);
	fact_fail(&s.devs[0].e, -ENODEV, "loop2 (7:2) was gone at the end of the window");
	assert_true(scene_summary(&s, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "scene over 2.0 s: 1 device not measured; CPU 1 "));
	/* A captured tree: no line. */
	fact_fail(&s.e, -EOPNOTSUPP, "not measured: a captured tree has no window");
	assert_false(scene_summary(&s, buf, sizeof(buf)));
	assert_string_equal(buf, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gauges_are_the_json),
		cmocka_unit_test(test_not_measured_no_sample),
		cmocka_unit_test(test_summary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
