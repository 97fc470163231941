// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format html: one self-contained page (no script, no network, no font
 * or stylesheet outside it) that is also well-formed XML: the run's
 * host, the problems worst first with their fixes (problems.h), the
 * drawing (html_drawing.c), the notes and every finding below it, each
 * with an anchor the drawing and the problems link to. Names from the host are
 * escaped as in text output and then as XML (xml_put.h), so no name can
 * add markup.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "html_drawing.h"
#include "problems.h"
#include "version.h"
#include "writer.h"
#include "xml_put.h"

static const char style[] =
	"body{font:14px/1.45 system-ui,sans-serif;margin:20px;color:#1f2328;background:#fff}\n"
	"h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:22px 0 6px}\n"
	".sum span{display:inline-block;padding:1px 8px;margin-right:6px;border-radius:9px;"
	"font-weight:600}\n"
	".s-fail,.s-error{background:#ffd7d5;color:#82071e}.s-warn{background:#fff1c2;color:#7a4d00}"
	".s-info{background:#dbeafe;color:#1e3a8a}.s-pass{background:#dafbe1;color:#116329}"
	".s-skip{background:#eaeef2;color:#424a53}\n"
	".notes{color:#424a53;font-size:13px}.drawing{overflow-x:auto;border:1px solid #d0d7de;"
	"border-radius:6px;padding:6px;margin-top:10px}\n"
	"table{border-collapse:collapse;width:100%;font-size:13px}"
	"td,th{border-top:1px solid #d0d7de;padding:4px 6px;vertical-align:top;text-align:left}\n"
	"tr:target{outline:3px solid #0969da}.fix{color:#424a53}.id{font-family:monospace}\n"
	".legend span{display:inline-block;margin-right:14px;font-size:12px}"
	".legend i{display:inline-block;width:12px;height:12px;margin-right:4px;"
	"vertical-align:-2px;border:1px solid #888;border-radius:2px}\n"
	"svg text{font:11.5px ui-monospace,monospace;fill:#1f2328}"
	"svg .title{font:600 13px system-ui,sans-serif}svg .head{font-weight:700}"
	"svg .badge{fill:#6e7781}svg .irq{fill:#8250df}svg .more{fill:#6e7781;font-style:italic}\n"
	"svg .cpu rect{fill:#f6f8fa;stroke:#afb8c1}svg .cpu.isolated rect{fill:#eef6ee}\n"
	"svg .submit rect{fill:#dbeafe;stroke:#6b9bd8}svg .sqpoll rect{fill:#ede9fe;stroke:#9d7fe0}"
	"svg .iowq rect{fill:#ffedd5;stroke:#e0a060}svg .dstate rect{fill:#ffd7d5;"
	"stroke:#cf222e;stroke-dasharray:3 2}svg .other rect{fill:#f3f4f6;stroke:#d0d7de}\n"
	"svg .device rect{fill:#f0f7ff;stroke:#8cb4e0}svg .scene{fill:#0a4a8a}\n"
	"svg .ring rect{fill:#fff;stroke:#57606a}svg .file rect{fill:#fff;stroke:#d0d7de}"
	"svg .link{stroke:#6b9bd8;stroke-width:1.2;opacity:.55}\n"
	"svg .lvl-info rect{stroke:#3b82f6;stroke-width:2.5}svg .lvl-warn rect{stroke:#d4a72c;"
	"stroke-width:3}svg .lvl-fail rect,svg .lvl-error rect{stroke:#cf222e;stroke-width:3}"
	"svg .lvl-fail text.head,svg .proc.lvl-fail text{fill:#cf222e}"
	"svg .proc.lvl-warn text{fill:#9a6700}"
	"svg .lvl-unmeasured rect{stroke:#d4a72c;stroke-width:2;stroke-dasharray:5 3}\n"
	"figure.series{margin:.4em 0}figure.series figcaption{font:12px system-ui,sans-serif;"
	"color:#57606a}svg .reqs{fill:#afb8c1}svg .punts{fill:#cf222e}"
	"svg .unsampled{fill:#f6f8fa;stroke:none;opacity:.9}\n"
	"ol.problems{padding-left:26px;margin:6px 0}ol.problems li{margin:0 0 10px;padding:6px 8px;"
	"border-left:4px solid #d0d7de;background:#f6f8fa}ol.problems li.p-fail,"
	"ol.problems li.p-error{border-color:#cf222e}ol.problems li.p-warn{border-color:#d4a72c}\n"
	".problems .what{margin:2px 0}.problems .more{color:#424a53;font-size:13px}"
	".problems .pfix{margin-top:3px;font-weight:600}.problems .pfix span{font-weight:400}"
	".ok{color:#116329;font-weight:600}\n";

static const char legend[] =
	"<p class=\"legend\"><span><i style=\"background:#dbeafe\"></i>ring submitter</span>"
	"<span><i style=\"background:#ede9fe\"></i>SQPOLL thread</span>"
	"<span><i style=\"background:#ffedd5\"></i>io-wq worker</span>"
	"<span><i style=\"background:#ffd7d5\"></i>thread in D state</span>"
	"<span><i style=\"background:#f3f4f6\"></i>other threads</span>"
	"<span><i style=\"border:3px solid #cf222e\"></i>fail</span>"
	"<span><i style=\"border:3px solid #d4a72c\"></i>warn</span>"
	"<span><i style=\"border:2px dashed #d4a72c\"></i>judged from its flags, no request measured</span>"
	"<span><i style=\"border:3px solid #3b82f6\"></i>info</span>"
	"<span>hover an element for its findings; click it to go to them</span></p>\n";

static void finding_row(FILE *out, const struct finding *f, size_t i, size_t problem)
{
	const char *fix = finding_fix(f);

	fprintf(out, "<tr id=\"f%zu\"><td><span class=\"s-%s\">%s</span></td><td class=\"id\">",
		i, status_name(f->status), status_name(f->status));
	xml_put(out, f->check->id, 0, 0);
	fputs("</td><td>", out);
	xml_put(out, f->subject, 0, 0);
	fputs("</td><td>", out);
	xml_put(out, f->message, 0, 0);
	if (problem) {
		/* Its fix is said once, in the problem. */
		fprintf(out, "<div class=\"fix\">Fix: <a href=\"#p%zu\">see problem %zu</a></div>",
			problem, problem);
	} else if (fix && f->status != STATUS_PASS && f->status != STATUS_SKIP) {
		fputs("<div class=\"fix\">Fix: ", out);
		xml_put(out, fix, 0, 0);
		fputs("</div>", out);
	}
	fputs("</td></tr>\n", out);
}

static void findings_table(FILE *out, const struct report *r, const struct problems *p,
			   bool problems)
{
	size_t i;

	fputs("<table><tr><th>level</th><th>check</th><th>subject</th><th>finding</th></tr>\n", out);
	for (i = 0; i < r->nfindings; i++) {
		const struct finding *f = &r->findings[i];
		bool problem = f->status != STATUS_PASS && f->status != STATUS_SKIP;

		if (problem == problems)
			finding_row(out, f, i, problems_fix_ref(p, r, i));
	}
	fputs("</table>\n", out);
}

/* <div class="CLS">LABEL: words</div> for words that may be NULL (then nothing); words freed. */
static void put_div(FILE *out, const char *cls, const char *label, char *words)
{
	if (!words)
		return;
	fprintf(out, "<div class=\"%s\">%s", cls, label);
	xml_put(out, words, 0, 0);
	fputs("</div>", out);
	free(words);
}

/* The problems, worst first, each once with its fix: the page's first screen. */
static void problems_list(FILE *out, const struct report *r, const struct problems *p)
{
	size_t i;

	if (!p->n) {
		fputs("<section id=\"problems\"><h2>Problems</h2>\n<p class=\"ok\">None: nothing to "
		      "warn of or fail.</p></section>\n", out);
		return;
	}
	fprintf(out, "<section id=\"problems\"><h2>Problems, worst first (%zu)</h2>\n"
		     "<ol class=\"problems\">\n", p->n);
	for (i = 0; i < p->n; i++) {
		const struct problem *pb = &p->v[i];
		const struct finding *f = &r->findings[pb->lead];
		const char *fix = finding_fix(f);
		char *who = problem_who(r, pb);

		fprintf(out, "<li id=\"p%zu\" class=\"p-%s\"><span class=\"s-%s\">%s</span> "
			     "<b class=\"id\">", i + 1, status_name(pb->status), status_name(pb->status),
			status_name(pb->status));
		xml_put(out, f->check->id, 0, 0);
		fprintf(out, "</b> (%s)", severity_name(f->check->severity));
		if (who) {
			fputs(" in ", out);
			xml_put(out, who, 0, 0);
			free(who);
		}
		put_div(out, "what", "", problem_what(r, pb));
		put_div(out, "more where", "On: ", problem_where(r, pb, 5));
		put_div(out, "more measured", "Measured: ", problem_measured(r, pb));
		put_div(out, "more also", "Also there: ", problem_also(r, pb));
		if (fix) {
			fputs("<div class=\"pfix\">Fix: <span>", out);
			xml_put(out, fix, 0, 0);
			fputs("</span></div>", out);
		}
		fprintf(out, "<a class=\"more\" href=\"#f%zu\">the finding</a></li>\n", pb->lead);
	}
	fputs("</ol></section>\n", out);
}

int write_report_html(FILE *out, const struct report *r)
{
	struct json_object *doc = report_to_json(r), *host = NULL, *procs = report_processes_json(r);
	unsigned int n[STATUS__COUNT];
	struct problems p;
	static const enum check_status order[] = { STATUS_FAIL, STATUS_ERROR, STATUS_WARN,
						   STATUS_INFO, STATUS_PASS, STATUS_SKIP };
	size_t i;
	int err;

	if (!doc || !procs) {
		json_object_put(doc);
		json_object_put(procs);
		return -ENOMEM;
	}
	json_object_object_get_ex(doc, "host", &host);
	report_count(r, n);
	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\"/>\n<title>uringlint ", out);
	xml_put(out, r->command, 0, 0);
	fputs(": ", out);
	xml_put(out, r->host.hostname, 0, 0);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>uringlint ", style);
	xml_put(out, r->command, 0, 0);
	fputs(": ", out);
	xml_put(out, r->host.hostname, 0, 0);
	fputs("</h1>\n<p>Linux ", out);
	xml_put(out, r->host.kernel_release[0] ? r->host.kernel_release : r->host.kernel, 0, 0);
	fprintf(out, ", %u CPUs, ", r->host.cpus);
	if (r->host.live) {
		fputs("read live", out);
	} else {
		fputs("read from ", out);
		xml_put(out, r->host.root, 0, 0);
	}
	fputs("</p>\n<p class=\"sum\">", out);
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (n[order[i]] || order[i] == STATUS_FAIL || order[i] == STATUS_WARN)
			fprintf(out, "<span class=\"s-%s\">%u %s</span>", status_name(order[i]),
				n[order[i]], status_name(order[i]));
	fputs("</p>\n", out);
	problems_build(&p, r);
	problems_list(out, r, &p);
	fputs("<h2>The drawing</h2>\n", out);
	fputs(legend, out);
	fputs("<div class=\"drawing\">\n", out);
	err = html_drawing_write(out, r, host, procs);
	fputs("</div>\n", out);
	html_scene_write(out, procs);
	html_series_write(out, procs);
	if (r->nnotes) {
		fputs("<ul class=\"notes\">\n", out);
		for (i = 0; i < r->nnotes; i++) {
			fputs("<li>", out);
			xml_put(out, r->notes[i], 0, 0);
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
	}
	fputs("<h2>Findings to act on</h2>\n", out);
	findings_table(out, r, &p, true);
	fprintf(out, "<h2>Passed and skipped (%u)</h2>\n<details><summary>show them</summary>\n",
		n[STATUS_PASS] + n[STATUS_SKIP]);
	findings_table(out, r, &p, false);
	problems_free(&p);
	fputs("</details>\n<p class=\"notes\">uringlint ", out);
	xml_put(out, uringlint_version, 0, 0);
	fputs(", JSON schema 1: --format json holds everything drawn here.</p>\n</body>\n</html>\n",
	      out);
	json_object_put(doc);
	json_object_put(procs);
	return err;
}
