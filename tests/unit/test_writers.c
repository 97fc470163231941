// SPDX-License-Identifier: GPL-2.0-or-later
/* The JSON contract's pinned keys, and the text report's shape. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "array.h"
#include "checks.h"
#include "problems.h"
#include "testutil.h"
#include "output.h"
#include "writer.h"

static void sample_report(struct report *r)
{
	struct finding *f;

	report_init(r, "preflight");
	snprintf(r->host.hostname, sizeof(r->host.hostname), "db1");
	snprintf(r->host.kernel, sizeof(r->host.kernel), "6.18.44");
	snprintf(r->host.kernel_release, sizeof(r->host.kernel_release), "6.18.44-fc-v657");
	r->host.cpus = 2;
	r->host.live = true;
	f = report_add(r, &check_find("kernel-version")->info, STATUS_PASS, "host", "Linux 6.18.44");
	finding_ev_str(f, "version", "6.18.44");
	f = report_add(r, &check_find("memlock-limit")->info, STATUS_WARN, "host", "RLIMIT_MEMLOCK is 8 MiB");
	finding_ev_int(f, "memlock_soft", 8 << 20);
	finding_set_fix(f, "raise it \"now\"");
	report_add(r, &check_find("io-uring-disabled-sysctl")->info, STATUS_SKIP, "host", "no sysctl");
}

/* Renders a report into a heap string, as the writer would to a file. */
static char *render(const struct report *r, enum output_format fmt, const struct writer_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(write_report(out, r, fmt, o), 0);
	assert_int_equal(fclose(out), 0);
	return buf;
}

static void test_json_contract(void **state)
{
	static const char *const finding_keys[] = {
		"id", "title", "category", "severity", "status", "subject", "pid",
		"message", "evidence", "fix", "reference",
	};
	struct json_object *doc, *v, *f, *arr;
	struct report r;
	size_t i;

	(void)state;
	sample_report(&r);
	doc = report_to_json(&r);
	assert_int_equal(json_object_get_int(json_object_object_get(doc, "schema_version")), 1);
	assert_true(json_object_object_get_ex(doc, "tool", &v));
	assert_string_equal(json_object_get_string(json_object_object_get(v, "name")), "uringlint");
	assert_non_null(json_object_object_get(v, "version"));
	assert_true(json_object_object_get_ex(doc, "host", &v));
	assert_string_equal(json_object_get_string(json_object_object_get(v, "hostname")), "db1");
	assert_string_equal(json_object_get_string(json_object_object_get(v, "kernel")), "6.18.44");
	/* The release exactly, for fleets that group by it. */
	assert_string_equal(json_object_get_string(json_object_object_get(v, "kernel_release")),
			    "6.18.44-fc-v657");
	assert_non_null(json_object_object_get(v, "liburing"));
	assert_int_equal(json_object_get_int(json_object_object_get(v, "cpus")), 2);
	assert_true(json_object_object_get_ex(doc, "summary", &v));
	assert_int_equal(json_object_get_int(json_object_object_get(v, "pass")), 1);
	assert_int_equal(json_object_get_int(json_object_object_get(v, "warn")), 1);
	assert_int_equal(json_object_get_int(json_object_object_get(v, "fail")), 0);
	assert_int_equal(json_object_get_int(json_object_object_get(v, "skip")), 1);
	assert_int_equal(json_object_get_int(json_object_object_get(v, "error")), 0);
	/* processes and probe appear only for audit/report and probe. */
	assert_false(json_object_object_get_ex(doc, "processes", NULL));
	assert_false(json_object_object_get_ex(doc, "probe", NULL));

	assert_true(json_object_object_get_ex(doc, "findings", &arr));
	assert_int_equal(json_object_array_length(arr), 3);
	for (i = 0; i < ARRAY_SIZE(finding_keys); i++)
		assert_true(json_object_object_get_ex(json_object_array_get_idx(arr, 0),
						      finding_keys[i], NULL));
	f = json_object_array_get_idx(arr, 1);
	assert_string_equal(json_object_get_string(json_object_object_get(f, "id")), "memlock-limit");
	assert_string_equal(json_object_get_string(json_object_object_get(f, "status")), "warn");
	assert_string_equal(json_object_get_string(json_object_object_get(f, "severity")), "high");
	assert_string_equal(json_object_get_string(json_object_object_get(f, "fix")), "raise it \"now\"");
	assert_null(json_object_object_get(f, "pid"));
	assert_int_equal(json_object_get_int(json_object_object_get(
				 json_object_object_get(f, "evidence"), "memlock_soft")), 8 << 20);
	/* A pass has nothing to fix. */
	assert_null(json_object_object_get(json_object_array_get_idx(arr, 0), "fix"));
	json_object_put(doc);
	report_free(&r);
}

/* The document written out parses back, quotes and all. */
static void test_json_roundtrip(void **state)
{
	struct json_object *doc;
	struct report r;
	char *buf;

	(void)state;
	sample_report(&r);
	buf = render(&r, FORMAT_JSON, &(struct writer_opts){ 0 });
	doc = json_tokener_parse(buf);
	assert_non_null(doc);
	json_object_put(doc);
	free(buf);
	report_free(&r);
}

static void test_text(void **state)
{
	struct writer_opts o = { .color = false, .verbosity = 0, .width = 60 };
	struct report r;
	char *buf;

	(void)state;
	sample_report(&r);
	buf = render(&r, FORMAT_TEXT, &o);
	assert_non_null(strstr(buf, "uringlint preflight: db1, Linux 6.18.44, 2 CPUs (live)\n"));
	assert_non_null(strstr(buf, "\nKernel and io_uring availability\n"));
	assert_non_null(strstr(buf, "  WARN   memlock-limit"));
	assert_non_null(strstr(buf, "fix: raise it \"now\""));
	assert_non_null(strstr(buf, "\n3 checks: 1 pass, 1 warn, 0 fail, 1 skip\n"));
	assert_null(strstr(buf, "\033["));
	free(buf);

	/* Quiet: only what needs action, and the summary. */
	o.verbosity = -1;
	o.color = true;
	buf = render(&r, FORMAT_TEXT, &o);
	assert_null(strstr(buf, "kernel-version"));
	assert_non_null(strstr(buf, "\033[33mWARN"));
	free(buf);
	report_free(&r);
}

/* Subjects come from paths a process chose: every format must escape them. */
static void test_escaping(void **state)
{
	struct report r;
	char *buf;

	(void)state;
	report_init(&r, "audit");
	snprintf(r.host.hostname, sizeof(r.host.hostname), "db<1>");
	report_add(&r, &check_find("fd-o-direct")->info, STATUS_FAIL, "pid 7 fd 5 /d/a\"b\\c\n<&>'x",
		   "bad & <worse>");
	buf = render(&r, FORMAT_PROMETHEUS, &(struct writer_opts){ 0 });
	/* Escaped as text shows it, then as the exposition format wants. */
	assert_non_null(strstr(buf, "subject=\"pid 7 fd 5 /d/a\\\"b\\\\\\\\c\\\\n<&>'x\""));
	assert_non_null(strstr(buf, "} 2\n"));
	free(buf);
	buf = render(&r, FORMAT_JUNIT, &(struct writer_opts){ 0 });
	assert_non_null(strstr(buf, "hostname=\"db&lt;1&gt;\""));
	assert_non_null(strstr(buf, "/d/a&quot;b\\\\c\\n&lt;&amp;&gt;&apos;x"));
	assert_non_null(strstr(buf, "<failure type=\"high\" message=\"bad &amp; &lt;worse&gt;\">"));
	free(buf);
	buf = render(&r, FORMAT_MARKDOWN, &(struct writer_opts){ 0 });
	assert_non_null(strstr(buf, "- [ ] **fd-o-direct** (fail, high)"));
	assert_null(strstr(buf, "a\"b\\c\n"));	/* the newline is shown, not kept */
	assert_non_null(strstr(buf, " `pid 7 fd 5 /d/a\"b\\\\c\\n<&>'x`: bad \\& \\<worse\\>\n"));
	free(buf);
	report_free(&r);
}

/* What the hostile pathology names: escapes, a forged line, markup, bytes not UTF-8. */
#define FORGED "evil\033]0;PWNED\a\033[2J\n  PASS   fd-o-direct           all good.dat"
#define HOSTILE_PATH "/data/" FORGED "`|*_[x](y)<b>&\xff\xfe"

static void assert_no_controls(const char *buf)
{
	for (const char *p = buf; *p; p++)
		assert_true((unsigned char)*p >= 0x20 || *p == '\n');
	assert_null(strchr(buf, 0x7f));
	assert_null(strstr(buf, "\n  PASS   fd-o-direct           all good"));
}

static void test_hostile_names(void **state)
{
	struct writer_opts o = { .verbosity = 1 };
	struct json_object *doc, *f, *v;
	struct finding *fi;
	struct report r;
	char *buf, *line;

	(void)state;
	report_init(&r, "audit");
	snprintf(r.host.hostname, sizeof(r.host.hostname), "h\033[2J");
	fi = report_add(&r, &check_find("fd-o-direct")->info, STATUS_FAIL, "pid 7 fd 5 " HOSTILE_PATH,
			"%s is open without O_DIRECT", HOSTILE_PATH);
	finding_set_fix(fi, "open %s with O_DIRECT", HOSTILE_PATH);
	finding_ev_str(fi, "path", HOSTILE_PATH);
	report_note(&r, "pid 7 (\033[31mx): the note's own\nsecond line");

	buf = render(&r, FORMAT_TEXT, &o);
	assert_no_controls(buf);
	assert_non_null(strstr(buf, "/data/evil\\e]0;PWNED\\a\\e[2J\\n  PASS   fd-o-direct"));
	assert_non_null(strstr(buf, "\\xff\\xfe is open"));
	assert_non_null(strstr(buf, "fix: open /data/evil\\e]0;"));
	/* A note is one line: its newline is shown, not obeyed. */
	assert_non_null(strstr(buf, "pid 7 (\\e[31mx): the note's own\\nsecond line\n"));
	free(buf);

	buf = render(&r, FORMAT_MARKDOWN, &o);
	assert_no_controls(buf);
	/* Raw only inside the subject's code span, where nothing renders. */
	line = strstr(buf, "\\xfe``: ");
	assert_non_null(line);
	assert_null(strstr(line, "[x](y)"));
	assert_null(strstr(line, "<b>"));
	assert_non_null(strstr(line, "\\`\\|\\*\\_\\[x\\](y)\\<b\\>\\&\\\\xff"));
	free(buf);

	buf = render(&r, FORMAT_JSON, &o);
	assert_true(utf8_valid(buf));
	doc = json_tokener_parse(buf);
	assert_non_null(doc);
	f = json_object_array_get_idx(json_object_object_get(doc, "findings"), 0);
	assert_true(json_object_object_get_ex(f, "subject_base64", &v));
	assert_true(json_object_object_get_ex(json_object_object_get(f, "evidence"), "path_base64",
					      &v));
	assert_non_null(strstr(json_object_get_string(json_object_object_get(f, "message")),
			       "\\xff\\xfe is open"));
	json_object_put(doc);
	free(buf);

	buf = render(&r, FORMAT_JUNIT, &o);
	assert_true(utf8_valid(buf));
	for (const char *p = buf; *p; p++)
		assert_true((unsigned char)*p >= 0x20 || *p == '\n');
	free(buf);

	buf = render(&r, FORMAT_PROMETHEUS, &o);
	assert_true(utf8_valid(buf));
	assert_no_controls(buf);
	free(buf);
	report_free(&r);
}

static void test_long_subjects(void **state)
{
	struct report r;
	char path[4096], *buf, *line;

	(void)state;
	memset(path, 'p', sizeof(path) - 1);
	path[0] = '/';
	path[4095] = '\0';
	report_init(&r, "audit");
	report_add(&r, &check_find("fd-o-direct")->info, STATUS_FAIL, path, "%s: a 4095-byte path", path);
	path[4000] = 'q';	/* differs only past the label bound */
	report_add(&r, &check_find("fd-o-direct")->info, STATUS_FAIL, path, "another");
	/* Text shows the whole path; nothing is cut silently. */
	buf = render(&r, FORMAT_TEXT, &(struct writer_opts){ 0 });
	path[4000] = 'p';
	assert_non_null(strstr(buf, path));
	free(buf);
	/* JSON carries it whole. */
	buf = render(&r, FORMAT_JSON, &(struct writer_opts){ 0 });
	assert_non_null(strstr(buf, path));
	free(buf);
	/* Prometheus bounds the label visibly, and the two series stay distinct. */
	buf = render(&r, FORMAT_PROMETHEUS, &(struct writer_opts){ 0 });
	line = strstr(buf, "subject=\"");
	assert_non_null(line);
	assert_int_equal(strcspn(line + 9, "\""), 512);
	assert_non_null(strstr(line, "...\",severity"));
	assert_non_null(strstr(line, "... #2\",severity"));
	free(buf);
	report_free(&r);
}

/* Thousands of files on one process stay a bounded number of series. */
static void test_many_files_fold(void **state)
{
	const struct check_info *c = &check_find("fd-o-direct")->info;
	struct report r;
	char subject[64], *buf, *p;
	int i, n = 0;

	(void)state;
	report_init(&r, "audit");
	for (i = 0; i < 5000; i++) {
		snprintf(subject, sizeof(subject), "pid 42 fd %d /d/%d.dat", i + 3, i);
		/* The one fail is past the fold: the folded series must carry it. */
		report_add(&r, c, i == 4000 ? STATUS_FAIL : STATUS_WARN, subject, "buffered")->pid = 42;
	}
	report_add(&r, c, STATUS_PASS, "pid 43", "all O_DIRECT")->pid = 43;
	buf = render(&r, FORMAT_PROMETHEUS, &(struct writer_opts){ 0 });
	for (p = buf; (p = strstr(p, "\nuringlint_check_status{id=\"fd-o-direct\"")); p++)
		n++;
	assert_int_equal(n, 10 + 1 + 1);
	assert_non_null(strstr(buf, "subject=\"pid 42 fd 12 /d/9.dat\""));
	assert_null(strstr(buf, "/d/10.dat"));
	assert_non_null(strstr(buf, "subject=\"pid 42 (others)\",severity=\"high\",command=\"audit\"} 2\n"));
	assert_non_null(strstr(buf, "subject=\"pid 43\",severity=\"high\",command=\"audit\"} 0\n"));
	free(buf);
	report_free(&r);
}

/*
 * A service's series carry its unit and lose the pid from the subject; a
 * container's keep it. Two processes of one service are told apart by a
 * pid label, the only processes that get one.
 */
static void test_prometheus_owners(void **state)
{
	const struct check_info *c = &check_find("fd-o-direct")->info;
	struct report r;
	char *buf;

	(void)state;
	report_init(&r, "audit");
	report_set_owner(&r, 42, "mysqld", "mariadb.service", "", true);
	report_set_owner(&r, 43, "mysqld", "mariadb.service", "", true);
	report_set_owner(&r, 44, "fio", "", "docker/0123456789ab", false);
	report_set_owner(&r, 45, "fio", "session-3.scope", "", false);
	report_set_owner(&r, 46, "nginx", "nginx.service", "", true);
	report_add(&r, c, STATUS_FAIL, "pid 42 fd 5 /d/x", "buffered")->pid = 42;
	report_add(&r, c, STATUS_FAIL, "pid 43 fd 5 /d/x", "buffered")->pid = 43;
	report_add(&r, c, STATUS_PASS, "pid 44", "all O_DIRECT")->pid = 44;
	report_add(&r, c, STATUS_PASS, "pid 45", "all O_DIRECT")->pid = 45;
	report_add(&r, c, STATUS_PASS, "pid 46", "all O_DIRECT")->pid = 46;
	buf = render(&r, FORMAT_PROMETHEUS, &(struct writer_opts){ 0 });
	assert_non_null(strstr(buf, "{id=\"fd-o-direct\",subject=\"fd 5 /d/x\",unit=\"mariadb.service\",pid=\"42\","
				    "severity=\"high\",command=\"audit\"} 2\n"));
	assert_non_null(strstr(buf, "{id=\"fd-o-direct\",subject=\"fd 5 /d/x\",unit=\"mariadb.service\",pid=\"43\","
				    "severity=\"high\",command=\"audit\"} 2\n"));
	assert_non_null(strstr(buf, "subject=\"pid 44\",container=\"docker/0123456789ab\",severity"));
	assert_non_null(strstr(buf, "subject=\"pid 45\",unit=\"session-3.scope\",severity"));
	assert_non_null(strstr(buf, "subject=\"process\",unit=\"nginx.service\",severity"));
	assert_null(strstr(buf, " #2"));
	free(buf);
	report_free(&r);
}

/* The number of lines of buf that appear again later in it. */
static int repeated_lines(const char *buf)
{
	const char *p, *q, *end;
	size_t len;
	int n = 0;

	for (p = buf; (end = strchr(p, '\n')); p = end + 1) {
		len = (size_t)(end - p + 1);
		for (q = end + 1; *q; q = strchr(q, '\n') + 1)
			n += !strncmp(q, p, len);
	}
	return n;
}

/*
 * A report as the service writes it: process by process, each process's
 * checks in turn, so one check's findings on two processes of a unit are
 * far apart. Each is a series of its own, and none is written twice.
 */
static void test_prometheus_unit_processes(void **state)
{
	const struct check_info *a = &check_find("fd-o-direct")->info, *b = &check_find("proc-memlock")->info;
	struct report r;
	char *buf;
	int pid;

	(void)state;
	report_init(&r, "report");
	report_set_owner(&r, 42, "worker", "app.service", "", true);
	report_set_owner(&r, 43, "worker", "app.service", "", true);
	report_set_owner(&r, 50, "fio", "", "", false);
	report_set_owner(&r, 51, "fio", "", "", false);
	for (pid = 42; pid <= 43; pid++) {
		report_add(&r, a, STATUS_FAIL, pid == 42 ? "pid 42 fd 3 /d/x" : "pid 43 fd 3 /d/x", "buffered")->pid = pid;
		report_add(&r, b, STATUS_WARN, pid == 42 ? "pid 42" : "pid 43", "8 MiB")->pid = pid;
	}
	/* Processes of no unit whose subjects name no pid: the guard numbers them. */
	for (pid = 50; pid <= 51; pid++) {
		report_add(&r, a, STATUS_FAIL, "fd 3 /d/y", "buffered")->pid = pid;
		report_add(&r, b, STATUS_WARN, "limit", "8 MiB")->pid = pid;
	}
	buf = render(&r, FORMAT_PROMETHEUS, &(struct writer_opts){ 0 });
	assert_int_equal(repeated_lines(buf), 0);
	assert_non_null(strstr(buf, "{id=\"proc-memlock\",subject=\"process\",unit=\"app.service\",pid=\"42\","));
	assert_non_null(strstr(buf, "{id=\"proc-memlock\",subject=\"process\",unit=\"app.service\",pid=\"43\","));
	assert_non_null(strstr(buf, "{id=\"fd-o-direct\",subject=\"fd 3 /d/x\",unit=\"app.service\",pid=\"43\","));
	assert_non_null(strstr(buf, "{id=\"proc-memlock\",subject=\"limit\",severity"));
	assert_non_null(strstr(buf, "{id=\"proc-memlock\",subject=\"limit #2\",severity"));
	assert_non_null(strstr(buf, "{id=\"fd-o-direct\",subject=\"fd 3 /d/y #2\",severity"));
	free(buf);
	report_free(&r);
}

/*
 * The report's measured numbers, written from the model: each family once
 * under its HELP and TYPE, its samples together even when added between
 * another family's, a declared family with no sample still described, and
 * an undeclared family refused.
 */
static void test_prometheus_metrics(void **state)
{
	struct report r;
	char *buf, *a, *b, *c;

	(void)state;
	report_init(&r, "probe");
	assert_int_equal(metrics_family(&r.metrics, "uringlint_probe_iops", METRIC_GAUGE, "IOPS."), 0);
	assert_int_equal(metrics_family(&r.metrics, "uringlint_probe_latency_seconds", METRIC_SUMMARY,
					"Latency."), 0);
	assert_int_equal(metrics_family(&r.metrics, "uringlint_probe_punts", METRIC_GAUGE, "Punts."), 0);
	assert_int_equal(metrics_sample(&r.metrics, "uringlint_probe_iops", 1234, "mode=\"%s\"",
					"default"), 0);
	assert_int_equal(metrics_sample(&r.metrics, "uringlint_probe_latency_seconds", 0.000125,
					"mode=\"%s\",quantile=\"%s\"", "default", "0.5"), 0);
	assert_int_equal(metrics_sample(&r.metrics, "uringlint_probe_iops", 99.5, "mode=\"%s\"",
					"sqpoll"), 0);
	assert_int_equal(metrics_sample(&r.metrics, "uringlint_nothing", 1, "%s", ""), -ENOENT);
	/* Declared again: still one family. */
	assert_int_equal(metrics_family(&r.metrics, "uringlint_probe_iops", METRIC_GAUGE, "IOPS."), 0);
	assert_int_equal(r.metrics.nfam, 3);
	buf = render(&r, FORMAT_PROMETHEUS, &(struct writer_opts){ 0 });
	a = strstr(buf, "# HELP uringlint_probe_iops IOPS.\n# TYPE uringlint_probe_iops gauge\n"
			"uringlint_probe_iops{mode=\"default\"} 1234\n"
			"uringlint_probe_iops{mode=\"sqpoll\"} 99.5\n");
	b = strstr(buf, "# TYPE uringlint_probe_latency_seconds summary\n"
			"uringlint_probe_latency_seconds{mode=\"default\",quantile=\"0.5\"} 0.000125\n");
	c = strstr(buf, "# HELP uringlint_probe_punts Punts.\n# TYPE uringlint_probe_punts gauge\n# HELP");
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_true(a < b && b < c);
	a = strstr(buf, "# TYPE uringlint_probe_iops ");
	assert_null(strstr(a + 1, "# TYPE uringlint_probe_iops "));
	free(buf);
	report_free(&r);
}

static size_t lines_of(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Many alike processes: one line per finding and a line of notes; -v and few processes list each. */
static void test_text_groups(void **state)
{
	const struct check_info *c = &check_find("fd-o-direct")->info,
				*m = &check_find("proc-memlock")->info;
	struct writer_opts o = { .width = 0 };
	struct report r;
	char subject[64], *buf;
	int pid, n;

	(void)state;
	for (n = 3; n <= 200; n += 197) {
		report_init(&r, "audit");
		for (pid = 100; pid < 100 + n; pid++) {
			report_note_proc(&r, pid, "pid %d (fio): 1 ring", pid);
			report_set_owner(&r, pid, "fio", pid % 2 ? "" : "fio.service", "", !(pid % 2));
			snprintf(subject, sizeof(subject), "pid %d fd 6 /data/p%d/buffered.dat", pid, pid);
			report_add(&r, c, STATUS_FAIL, subject, "data file written without O_DIRECT")->pid = pid;
			snprintf(subject, sizeof(subject), "pid %d", pid);
			report_add(&r, m, pid == 150 ? STATUS_WARN : STATUS_PASS, subject, "%d KiB locked",
				   pid)->pid = pid;
		}
		report_note(&r, "a note of the run");
		buf = render(&r, FORMAT_TEXT, &o);
		if (n == 3) {
			/* Too few to fold: as before. */
			assert_non_null(strstr(buf, "pid 100 (fio): 1 ring\n"));
			assert_null(strstr(buf, "alike in"));
		} else {
			assert_true(lines_of(buf) < 30);
			assert_null(strstr(buf, "pid 100 (fio): 1 ring"));
			assert_non_null(strstr(buf, "a note of the run\n"));
			assert_non_null(strstr(buf, "200 processes audited (-v lists each):\n"));
			assert_non_null(strstr(buf, "  fio: 100 processes, pids 101, 103, 105, 107 and 96 "
						    "more\n"));
			assert_non_null(strstr(buf, "  fio.service: 100 processes, pids 100, 102, 104, 106 and "
						    "96 more\n"));
			assert_non_null(strstr(buf, "FAIL   fd-o-direct   alike in 200 processes (fio 100, "
						    "fio.service 100), as pid 100 fd 6 /data/p100/buffered.dat"));
			assert_non_null(strstr(buf, "the others: pids 101, 102, 103, 104, 105, 106, 107, 108 "
						    "and 191 more (-v lists each)\n"));
			/* A warn among passes is its own line: a status is never folded into another. */
			assert_non_null(strstr(buf, "WARN   proc-memlock  pid 150: 150 KiB locked\n"));
			assert_non_null(strstr(buf, "PASS   proc-memlock  alike in 199 processes"));
			assert_non_null(strstr(buf, "400 checks: 199 pass, 1 warn, 200 fail\n"));
			free(buf);
			o.verbosity = 1;
			buf = render(&r, FORMAT_TEXT, &o);
			assert_null(strstr(buf, "alike in"));
			assert_non_null(strstr(buf, "pid 299 (fio): 1 ring\n"));
			o.verbosity = 0;
		}
		free(buf);
		report_free(&r);
	}
}

static void test_formats(void **state)
{
	enum output_format fmt;

	(void)state;
	assert_int_equal(output_format_parse("json", &fmt), 0);
	assert_int_equal(fmt, FORMAT_JSON);
	assert_int_equal(output_format_parse("yaml", &fmt), -EINVAL);
	assert_true(output_format_supported(FORMAT_TEXT));
	assert_int_equal(output_format_parse("junit", &fmt), 0);
	assert_true(output_format_supported(fmt));
}


/* A count of needle in hay. */
static size_t count_of(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

/*
 * The problems: two processes' punting files are one problem, their
 * fd-o-direct and iowq-punts join it as "also", and it ranks before a fail
 * of the same severity that measured nothing and a host warn; each fix is
 * said once in text and Markdown, the details pointing to it.
 */
static void test_problems(void **state)
{
	const struct check_info *fp = &check_find("file-punts")->info,
				*od = &check_find("fd-o-direct")->info,
				*ip = &check_find("iowq-punts")->info,
				*cq = &check_find("cq-overflow")->info,
				*ml = &check_find("memlock-limit")->info;
	struct writer_opts o = { .width = 0 };
	struct problems p;
	struct report r;
	struct finding *f;
	char *buf, subject[64];
	int pid;

	(void)state;
	report_init(&r, "audit");
	report_add(&r, ml, STATUS_WARN, "host", "RLIMIT_MEMLOCK is 8 MiB");
	f = report_add(&r, cq, STATUS_FAIL, "pid 12 ring fd 3", "16 completions overflowed");
	f->pid = 12;
	for (pid = 10; pid <= 11; pid++) {
		report_set_owner(&r, pid, "fio", "", "", false);
		snprintf(subject, sizeof(subject), "pid %d fd 3 /d/f%d", pid, pid);
		f = report_add(&r, od, STATUS_FAIL, subject, "opened without O_DIRECT");
		f->pid = pid;
		finding_ev_str(f, "path", subject + strlen("pid 10 fd 3 "));
		finding_set_fix(f, "open %s with O_DIRECT", subject + strlen("pid 10 fd 3 "));
		snprintf(subject, sizeof(subject), "pid %d", pid);
		f = report_add(&r, ip, STATUS_FAIL, subject, "100 requests punted");
		f->pid = pid;
		finding_ev_int(f, "punts", 100);
		finding_ev_int(f, "submitted", 100);
		finding_ev_int(f, "seconds_watched", 2);
		snprintf(subject, sizeof(subject), "pid %d fd 3 /d/f%d", pid, pid);
		f = report_add(&r, fp, STATUS_FAIL, subject, "100 of 100 punted");
		f->pid = pid;
		finding_ev_str(f, "path", subject + strlen("pid 10 fd 3 "));
		finding_ev_int(f, "punts", 100);
		finding_ev_int(f, "requests", 100);
		finding_set_fix(f, "open the file with O_DIRECT");
	}
	report_set_owner(&r, 12, "db", "db.service", "", true);
	problems_build(&p, &r);
	assert_int_equal(p.n, 3);
	assert_string_equal(r.findings[p.v[0].lead].check->id, "file-punts");
	assert_int_equal(p.v[0].nmembers, 2);
	assert_int_equal(p.v[0].nalso, 4);
	assert_int_equal(p.v[0].npids, 2);
	assert_int_equal(p.v[0].punts, 200);
	assert_true(p.v[0].rate > 99.9 && p.v[0].rate < 100.1);
	assert_string_equal(r.findings[p.v[1].lead].check->id, "cq-overflow");
	assert_string_equal(r.findings[p.v[2].lead].check->id, "memlock-limit");
	buf = problem_who(&r, &p.v[0]);
	assert_string_equal(buf, "2 processes: fio (pids 10, 11)");
	free(buf);
	buf = problem_measured(&r, &p.v[0]);
	assert_string_equal(buf, "200 of 200 requests punted (100%), 100/s");
	free(buf);
	problems_free(&p);

	buf = render(&r, FORMAT_TEXT, &o);
	assert_true(strstr(buf, "Problems, worst first: 3") < strstr(buf, "Data files"));
	assert_non_null(strstr(buf, "  1. FAIL  file-punts (high) in 2 processes: fio (pids 10, 11); "
				    "also fd-o-direct, iowq-punts there\n"));
	assert_int_equal(count_of(buf, "open the file with O_DIRECT"), 1);
	/* Both file-punts, and fd-o-direct and iowq-punts of each process, point to it. */
	assert_int_equal(count_of(buf, "fix: see problem 1 above"), 6);
	assert_int_equal(count_of(buf, "open /d/f11 with O_DIRECT"), 0);
	free(buf);
	buf = render(&r, FORMAT_MARKDOWN, &o);
	assert_true(strstr(buf, "## Problems, worst first (3)") < strstr(buf, "## Details"));
	assert_int_equal(count_of(buf, "open the file with O"), 1);
	free(buf);
	report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_contract),
		cmocka_unit_test(test_json_roundtrip),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_hostile_names),
		cmocka_unit_test(test_long_subjects),
		cmocka_unit_test(test_many_files_fold),
		cmocka_unit_test(test_prometheus_owners),
		cmocka_unit_test(test_prometheus_unit_processes),
		cmocka_unit_test(test_prometheus_metrics),
		cmocka_unit_test(test_text_groups),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_problems),
	};

	return cmocka_run_group_tests_name("writers", tests, NULL, NULL);
}
