#!/usr/bin/env python3
"""A synthetic uringlint JSON report of a large host, for report diff and merge.

    report_gen.py FINDINGS old|new [--host NAME] [--pad BYTES] >report.json

The old and new reports of one FINDINGS hold the same findings but for what
a deploy changes: new has other process IDs (a restart), about 1 in 20
findings gone and as many new ones, 1 in 7 with another status, 1 in 11
with other measured values, and 1 in 13 keys held by two processes. --pad
adds BYTES of evidence to each finding (a report of some hundred MB).
"""
import argparse
import json
import sys

PROCESS_CHECKS = ["fd-o-direct", "iowq-punts", "file-extents", "file-punts", "cq-overflow",
                  "iowq-workers", "dstate-threads", "proc-memlock", "ring-submitters"]
STATUSES = ["pass", "info", "warn", "fail"]


def finding(i, side, pad):
    check = PROCESS_CHECKS[i % len(PROCESS_CHECKS)]
    pid = 1000 + i // 50 + (7 if side == "new" else 0)
    status = STATUSES[(i // 3) % 4]
    if side == "new" and i % 7 == 0:
        status = STATUSES[(i // 3 + 1 + i % 3) % 4]
    punts = i * 3 + (100 if side == "new" and i % 11 == 0 else 0)
    ev = {"punts": punts, "extents": i % 97, "punt_share": round((i % 100) / 100, 2)}
    if pad:
        ev["detail"] = "x" * pad
    return {
        "id": check, "title": "t", "category": "process", "severity": "medium",
        "status": status, "subject": "pid %d fd %d /srv/data/file-%07d" % (pid, 3 + i % 500, i),
        "pid": pid, "message": "file-%07d: %d punts to io-wq of %d requests" % (i, punts, i * 7),
        "evidence": ev, "fix": "open it with O_DIRECT" if status in ("warn", "fail") else None,
        "reference": None,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("findings", type=int)
    ap.add_argument("side", choices=["old", "new"])
    ap.add_argument("--host", default="big-host")
    ap.add_argument("--pad", type=int, default=0)
    a = ap.parse_args()
    out = sys.stdout
    kernel = "6.1.0-18-amd64" if a.side == "old" else "6.1.0-21-amd64"
    out.write('{"schema_version": 1, "tool": {"name": "uringlint", "version": "0.1.0"}, '
              '"command": "report", "host": %s, "findings": [\n'
              % json.dumps({"hostname": a.host, "kernel": "6.1.0", "kernel_release": kernel,
                            "live": False}))
    first = True
    n = a.findings
    for i in range(n + n // 20):
        # Old has findings 0..n-1, new n/20..n+n/20-1: a twentieth gone, a twentieth new.
        if (a.side == "old" and i >= n) or (a.side == "new" and i < n // 20):
            continue
        f = finding(i, a.side, a.pad)
        rows = [f]
        if i % 13 == 0:
            twin = dict(f)
            twin["subject"] = f["subject"].replace("pid %d" % f["pid"], "pid %d" % (f["pid"] + 90000))
            twin["status"] = STATUSES[(STATUSES.index(f["status"]) + 1) % 4]
            rows.append(twin)
        for r in rows:
            out.write(("" if first else ",\n") + json.dumps(r))
            first = False
    out.write('\n], "notes": []}\n')


main()
