#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""watch_compare.py AUDIT.json TRUTH.json CAUSE [TOLERANCE]

Compares audit --watch's per-file verdict with the ground truth of
punt_truth.py: the files with punts are the same files, each blamed file's
share (punted / requests) is within TOLERANCE (0.15) of the truth's, its
counts are no more than the truth's (whose window holds the audit's) and
at least a third of them, and CAUSE is among the causes file-punts gives.
Prints one line; exits 1 on a mismatch.
"""
import json
import sys


def main():
    audit = json.load(open(sys.argv[1]))
    truth = json.load(open(sys.argv[2]))
    cause = sys.argv[3]
    tol = float(sys.argv[4]) if len(sys.argv) > 4 else 0.15
    blamed = {}
    for f in audit["findings"]:
        if f["id"] == "file-punts" and f["status"] in ("fail", "warn"):
            ev = f["evidence"]
            blamed[ev["path"]] = ev
    truth_files = {f["path"]: f for f in truth["files"].values() if f["punts"] > 0}
    if set(blamed) != set(truth_files):
        print("files blamed %s, truth %s" % (sorted(blamed), sorted(truth_files)))
        return 1
    for path, ev in blamed.items():
        t = truth_files[path]
        share, tshare = ev["punts"] / ev["requests"], t["punts"] / t["requests"]
        if abs(share - tshare) > tol:
            print("%s: share %.3f, truth %.3f" % (path, share, tshare))
            return 1
        if not (t["requests"] / 3 <= ev["requests"] <= t["requests"]):
            print("%s: %d requests, truth %d" % (path, ev["requests"], t["requests"]))
            return 1
        causes = [c["cause"] for c in ev["causes"]]
        if cause not in causes:
            print("%s: causes %s, wanted %s" % (path, causes, cause))
            return 1
        print("%s: %d of %d punted (%.1f%%; truth %d of %d, %.1f%%), cause %s" %
              (path, ev["punts"], ev["requests"], 100 * share, t["punts"], t["requests"],
               100 * tshare, ", ".join(causes)))
    return 0


sys.exit(main())
