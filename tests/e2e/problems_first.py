#!/usr/bin/env python3
"""Problems first, in every format: shared by the host-wide cases (operator.sh, hostwide.sh).

    problems_first.py JSON TEXT MARKDOWN HTML NEED-IDS

JSON, TEXT, MARKDOWN and HTML are one host's report in each format (each may be its own
run: each is judged on the problems it lists); NEED-IDS, comma-separated, the problem ids
every format must list. Checks: each format opens with the problems, ranked 1..N, worst
first, each once with its fix said once; in the text, every problem's fix within the
first 40 lines; in the HTML, the problems' section before the drawing; in the JSON, every
NEED-ID listed, no failing problem after a warning, each warn or fail finding in exactly
one problem, and no problem said twice.
Prints a one-line summary; exits 1 with the reasons on stderr.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/1999/xhtml}"


def judge(errs, need, fmt, listed, whole, before):
    """listed: [(rank, id, fix)] in the order shown; whole: the document's text"""
    if not before:
        errs.append("%s: the problems do not come before the details" % fmt)
    if [r for r, _, _ in listed] != list(range(1, len(listed) + 1)):
        errs.append("%s: ranks %s" % (fmt, [r for r, _, _ in listed]))
    if not need <= {i for _, i, _ in listed}:
        errs.append("%s: problems %s, not all of %s" % (fmt, sorted({i for _, i, _ in listed}), sorted(need)))
    if len({(i, f) for _, i, f in listed}) != len(listed):
        errs.append("%s: a problem listed twice: %s" % (fmt, [(i, f[:40]) for _, i, f in listed]))
    for _, i, f in listed:
        if not f or whole.count(f) != 1:
            errs.append("%s: the fix of %s said %d times: %r" % (fmt, i, whole.count(f) if f else 0, f[:80]))


def text_problems(errs, need, lines):
    whole = "\n".join(lines)
    first = next((n for n, l in enumerate(lines) if l.startswith("Problems, worst first")), None)
    details = next((n for n, l in enumerate(lines) if l in ("Rings and SQPOLL threads", "Data files")), None)
    listed, cur = [], None
    for n, l in enumerate(lines):
        m = re.match(r"^\s*(\d+)\. (FAIL|WARN|ERROR)\s+(\S+) \(", l)
        if m and (details is None or n < details):
            cur = [int(m.group(1)), m.group(3), ""]
            listed.append(cur)
        elif cur and l.startswith("     fix: ") and not cur[2]:
            cur[2] = l[len("     fix: "):]
            if n >= 40:
                errs.append("text: problem %s's fix on line %d, past the first 40" % (cur[1], n + 1))
    judge(errs, need, "text", [tuple(x) for x in listed], whole,
          first is not None and details is not None and first < details)


def markdown_problems(errs, need, md):
    plain = md.replace("\\", "")
    mp, md_d = plain.find("\n## Problems, worst first"), plain.find("\n## Details")
    listed, cur = [], None
    for l in plain[mp:md_d].splitlines():
        m = re.match(r"^(\d+)\. \*\*(\S+)\*\* \(", l)
        if m:
            cur = [int(m.group(1)), m.group(2), ""]
            listed.append(cur)
        elif cur and l.startswith("   - **Fix:** "):
            cur[2] = l[len("   - **Fix:** "):]
    judge(errs, need, "markdown", [tuple(x) for x in listed], plain, 0 <= mp < md_d)


def html_problems(errs, need, page):
    root = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", page))
    alltext = "".join(root.itertext())
    listed = []
    for li in root.iter(NS + "li"):
        if not (li.get("id") or "").startswith("p"):
            continue
        pid = li.find(NS + "b").text
        fix = next(("".join(d.itertext())[len("Fix: "):] for d in li.iter(NS + "div")
                    if d.get("class") == "pfix"), "")
        listed.append((int(li.get("id")[1:]), pid, fix))
    ps, svg = page.find('<section id="problems">'), page.find("<svg")
    judge(errs, need, "html", listed, alltext, 0 <= ps < svg)


SEVERITY = {"error": 0, "fail": 1, "warn": 2, "info": 3}


def json_problems(errs, need, doc):
    probs = doc.get("problems") or []
    if not need <= {p["id"] for p in probs}:
        errs.append("json: problems %s, not all of %s" % (sorted({p["id"] for p in probs}), sorted(need)))
    # worst first: no failing problem after a warning
    ranks = [SEVERITY.get(p["status"], 9) for p in probs]
    if ranks != sorted(ranks):
        errs.append("json: not worst first: %s" % [(p["id"], p["status"]) for p in probs])
    owned = {}
    for p in probs:
        for i in p["findings"] + p["also"]:
            owned[i] = owned.get(i, 0) + 1
    for i, f in enumerate(doc["findings"]):
        if f["status"] in ("warn", "fail") and owned.get(i) != 1:
            errs.append("finding %d %s %s in %s problems" % (i, f["id"], f["subject"], owned.get(i)))
    if len({(p["id"], p["fix"]) for p in probs}) != len(probs):
        errs.append("a problem said twice: %s" % [(p["id"], p["status"], p["pids"], p["fix"][:60]) for p in probs])
    return probs


def main():
    doc = json.load(open(sys.argv[1]))
    need = {i for i in sys.argv[5].split(",") if i}
    errs = []
    probs = json_problems(errs, need, doc)
    text_problems(errs, need, open(sys.argv[2]).read().splitlines())
    markdown_problems(errs, need, open(sys.argv[3]).read())
    html_problems(errs, need, open(sys.argv[4]).read())
    print("%d problems: %s" % (len(probs), ", ".join("%s(%s)" % (p["id"], len(p["pids"])) for p in probs)))
    if errs:
        print("\n".join(errs[:12]), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
