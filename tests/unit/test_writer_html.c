// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format html: hostile names stay text, a finding is drawn where it
 * applies and links to its row, and 64 CPUs with a 1,000-thread process
 * fold into a drawing of bounded size.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "checks.h"
#include "testutil.h"
#include "output.h"
#include "writer.h"

static char *render(const struct report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(write_report(out, r, FORMAT_HTML, NULL), 0);
	assert_int_equal(fclose(out), 0);
	return buf;
}

static unsigned int count(const char *hay, const char *needle)
{
	unsigned int n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void test_hostile(void **state)
{
	struct report r;
	char *buf;

	(void)state;
	report_init(&r, "audit");
	snprintf(r.host.hostname, sizeof(r.host.hostname), "h<b>&\033[2J");
	r.host.cpus = 1;
	r.host.live = true;
	report_add(&r, &check_find("fd-o-direct")->info, STATUS_FAIL,
		   "pid 7 fd 5 /data/<script>x</script>\n'\"&\xff", "open without O_DIRECT");
	report_note(&r, "pid 7 (<i>\033[31m): a note\nwith a line");
	buf = render(&r);
	assert_true(utf8_valid(buf));
	for (const char *p = buf; *p; p++)
		assert_true((unsigned char)*p >= 0x20 || *p == '\n');
	assert_null(strstr(buf, "<script>"));
	assert_null(strstr(buf, "<b>"));
	assert_null(strstr(buf, "<i>"));
	assert_contains(buf, "h&lt;b&gt;&amp;\\e[2J");
	assert_contains(buf, "/data/&lt;script&gt;x&lt;/script&gt;\\n&apos;&quot;&amp;\\xff");
	assert_contains(buf, "pid 7 (&lt;i&gt;\\e[31m): a note\\nwith a line");
	/* Nothing fetched from outside the file. */
	assert_int_equal(count(buf, "http"), 2);	/* the XHTML and SVG namespaces alone */
	assert_null(strstr(buf, "<script"));
	assert_null(strstr(buf, "<link"));
	assert_null(strstr(buf, "src="));
	free(buf);
	report_free(&r);
}

/*
 * 64 CPUs, 8-15 isolated, an NVMe queue's interrupt on each; one process of
 * 1,000 threads: 900 plain ones over every CPU, 60 io-wq workers on CPU 3,
 * an SQPOLL thread on CPU 8, a submitter on CPU 1 and one in D state.
 */
static void big_report(struct report *r)
{
	struct json_object *cpu = json_object_new_object(), *irqs = json_object_new_array();
	FILE *p;
	int i;

	report_init(r, "audit");
	snprintf(r->host.hostname, sizeof(r->host.hostname), "big");
	r->host.cpus = 64;
	r->host.live = true;
	json_object_object_add(cpu, "online", json_object_new_string("0-63"));
	json_object_object_add(cpu, "isolated", json_object_new_string("8-15"));
	json_object_object_add(cpu, "nohz_full", json_object_new_string("8-15"));
	for (i = 0; i < 64; i++) {
		struct json_object *q = json_object_new_object();
		char name[32], cpus[8];

		snprintf(name, sizeof(name), "nvme0q%d", i + 1);
		snprintf(cpus, sizeof(cpus), "%d", i);
		json_object_object_add(q, "name", json_object_new_string(name));
		json_object_object_add(q, "class", json_object_new_string("storage"));
		json_object_object_add(q, "cpus", json_object_new_string(cpus));
		json_object_array_add(irqs, q);
	}
	json_object_object_add(cpu, "irqs", irqs);
	r->host.cpu = cpu;
	assert_int_equal(report_processes_begin(r), 0);
	p = r->processes_out;
	fprintf(p, "{\"pid\": 100, \"comm\": \"db\", \"unit\": \"db.service\", \"container\": null, "
		   "\"rings\": [{\"fd\": 5, \"sq_entries\": 64, \"cq_entries\": 128, "
		   "\"sqpoll\": {\"tid\": 200, \"cpu\": 8}}], \"threads\": {\"list\": [");
	for (i = 0; i < 1000; i++) {
		const char *kind = i < 60 ? "iou-wrk" : i == 60 ? "iou-sqp" : "thread";
		int on = i < 60 ? 3 : i == 60 ? 8 : i == 61 ? 1 : i % 64;

		fprintf(p, "%s{\"tid\": %d, \"comm\": \"%s\", \"kind\": \"%s\", \"state\": \"%s\", "
			   "\"cpu\": %d}", i ? "," : "", i == 60 ? 200 : 1000 + i,
			i == 60 ? "iou-sqp-100" : "db", kind, i == 62 ? "D" : "S", on);
	}
	fprintf(p, "]}, \"watch\": {\"rings\": [{\"matched_fd\": 5, \"requests\": 1000, "
		   "\"punts\": 400, \"setup\": {\"flags\": [\"SQPOLL\", \"SQ_AFF\"]}, "
		   "\"submitters\": [{\"tid\": 200, \"sq_thread\": true}, {\"tid\": 1061, "
		   "\"sq_thread\": false}]}], \"files\": [{\"fd\": 9, \"path\": \"/srv/db/t.ibd\", "
		   "\"requests\": 1000, \"punts\": 400}]}}");
	assert_int_equal(report_processes_end(r), 0);
	/* A process's findings carry its pid, as the checks set it. */
	report_add(r, &check_find("iowq-punts")->info, STATUS_FAIL, "pid 100 fd 5", "punted")->pid = 100;
	report_add(r, &check_find("file-punts")->info, STATUS_WARN, "pid 100 fd 9 /srv/db/t.ibd",
		   "punted")->pid = 100;
	report_add(r, &check_find("dstate-threads")->info, STATUS_FAIL, "pid 100 tid 1062",
		   "in D state")->pid = 100;
	report_add(r, &check_find("sqpoll-cpu-placement")->info, STATUS_WARN, "cpu 8", "shared");
	report_add(r, &check_find("kernel-version")->info, STATUS_PASS, "host", "fine");
}

static void test_big(void **state)
{
	struct report r;
	char *buf, *svg, *end;
	int i;

	(void)state;
	big_report(&r);
	buf = render(&r);
	svg = strstr(buf, "<svg");
	end = strstr(buf, "</svg>");
	assert_non_null(svg);
	assert_non_null(end);
	*end = '\0';
	/* Every CPU drawn, isolated ones marked, each with its interrupt. */
	for (i = 0; i < 64; i++) {
		char label[32];

		snprintf(label, sizeof(label), ">CPU %d<", i);
		assert_contains(svg, label);
	}
	assert_int_equal(count(svg, "class=\"cpu isolated"), 8);
	assert_contains(svg, "IRQ nvme0q64");
	/* Folded: 60 io-wq workers one chip, the plain threads one chip a CPU. */
	assert_contains(svg, "io-wq x60 (db 100)");
	assert_int_equal(count(svg, "class=\"iowq"), 1);
	assert_int_equal(count(svg, "class=\"other"), 64);
	/* The drawing's size is bounded by the CPUs, not the threads. */
	assert_true(count(svg, "<rect") < 64 * 4 + 10);
	/* The submitter and the SQPOLL thread, and lines to both from the ring. */
	assert_contains(svg, ">db 1061<");
	assert_contains(svg, ">iou-sqp-100 200<");
	assert_int_equal(count(svg, "<line class=\"link\""), 2);
	assert_contains(svg, "ring fd 5: SQ 64, CQ 128");
	assert_contains(svg, "setup: SQPOLL,SQ_AFF");
	assert_contains(svg, "1000 requests, 400 punted (40.0%)");
	/* Findings drawn where they apply, linked to their rows. */
	assert_contains(svg, "<a href=\"#f0\"><g class=\"ring lvl-fail\">");
	assert_contains(svg, "<a href=\"#f1\"><g class=\"file lvl-warn\">");
	assert_contains(svg, "<a href=\"#f2\"><g class=\"dstate lvl-fail\">");
	assert_contains(svg, "<a href=\"#f3\"><g class=\"cpu isolated lvl-warn\">");
	assert_contains(end + 1, "<tr id=\"f0\">");
	assert_contains(end + 1, "<tr id=\"f4\">");	/* the pass, below */
	free(buf);
	report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_big),
	};

	return cmocka_run_group_tests_name("writer_html", tests, NULL, NULL);
}
