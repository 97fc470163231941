#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""punt_rule_check.py AUDIT.json TRUTH.json TRUTH.raw PATH WANT

Compares audit --watch's punt counts and verdicts with punt_truth.py's, for
a process that made one burst of requests inside the watch (the pathology
mode async-every). The truth is accounted over the audit's sampling windows;
the whole burst must lie inside them. Sampled all the time with no sample
lost, the audit's requests and punts, of the process (iowq-punts) and of the
file PATH (file-punts), must equal the truth's; sampled in windows, within
1% and 10 of them (the two tracers read the clock apart at a window's edge).
The verdict is then computed here from the truth's counts, by the rule of
docs/commands.md: over the tolerance of 1%, fail when a Poisson count at
1% of the requests reaches that many punts less than 5% of the time, else
info; pass without punts. Both checks must give it, and it must be WANT
(pass, info or fail): the case was made to show it. An info must say the
share is "over the punt tolerance ... by no more than chance".
Prints one line; exits 1 on a mismatch.
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import punt_truth  # noqa: E402

TOLERANCE = 0.01
LEVEL = 0.05


def tail(lam, k):
    """P(X >= k) for X ~ Poisson(lam): one minus the terms below k, summed in logs."""
    below = sum(math.exp(i * math.log(lam) - lam - math.lgamma(i + 1)) for i in range(k))
    return max(0.0, 1.0 - below)


def implied(punts, reqs):
    if not punts:
        return "pass", 1.0
    if not reqs:
        return "fail", 0.0
    lam = TOLERANCE * reqs
    if punts <= lam:
        return "info", 1.0
    p = tail(lam, punts)
    return ("fail" if p < LEVEL else "info"), p


def main():
    audit = json.load(open(sys.argv[1]))
    whole = json.load(open(sys.argv[2]))
    raw = json.load(open(sys.argv[3]))
    path, want = sys.argv[4], sys.argv[5]
    watch = audit["processes"][0]["watch"]
    # The watch's span, first window's start to last window's end, must hold the whole burst.
    span = [[watch["windows"][0][0], watch["windows"][-1][1]]]
    inside = punt_truth.account(raw["lines"], raw["pid"], raw["paths"], span)
    truth = punt_truth.account(raw["lines"], raw["pid"], raw["paths"], watch["windows"])
    lost = whole["total"]["lost"]
    tf = [f for f in truth["files"].values() if f["path"] == path]
    sf = [f for f in inside["files"].values() if f["path"] == path]
    wf = [f for f in whole["files"].values() if f["path"] == path]
    if not tf or not sf or not wf:
        print("the truth saw no request on %s in the watch: %s" % (path, json.dumps(whole)))
        return 1
    if (sf[0]["requests"], sf[0]["punts"]) != (wf[0]["requests"], wf[0]["punts"]):
        print("the burst was not inside the watch: %d requests and %d punts from %.3f to %.3f, "
              "%d and %d in the truth's whole trace" % (sf[0]["requests"], sf[0]["punts"],
              span[0][0], span[0][1], wf[0]["requests"], wf[0]["punts"]))
        return 1
    # Requests, and the shares judged, are of the sampling windows; the punts are counted
    # over the whole watch (iowq-punts), and for a file of its samples (file-punts).
    t_reqs, t_punts, t_all = tf[0]["requests"], tf[0]["punts"], wf[0]["punts"]
    iowq = [f for f in audit["findings"] if f["id"] == "iowq-punts"]
    filep = [f for f in audit["findings"] if f["id"] == "file-punts" and
             f["evidence"].get("path") == path]
    if len(iowq) != 1 or len(filep) != 1:
        print("wanted one iowq-punts and one file-punts on %s: %s" % (path, json.dumps(
            [[f["id"], f["status"], f["message"][:200]] for f in audit["findings"]
             if f["id"] in ("iowq-punts", "file-punts")])))
        return 1
    iowq, filep = iowq[0], filep[0]
    got = {"process": (iowq["evidence"].get("submitted"), iowq["evidence"].get("punts"), t_all),
           "file": (filep["evidence"]["requests"], filep["evidence"]["punts"], t_punts)}
    exact = watch["sampled_all"] and not watch["samples_lost"]
    for what, (reqs, punts, want_punts) in got.items():
        if reqs is None or punts is None:
            print("%s: no count in %s" % (what, json.dumps(iowq["evidence"])))
            return 1
        for name, a, t in (("requests", reqs, t_reqs), ("punts", punts, want_punts)):
            # A truth whose buffer overflowed lost its oldest events: a lower bound only.
            if lost:
                ok = a >= t
            elif exact:
                ok = a == t
            else:
                ok = abs(a - t) <= 0.01 * t + 10
            if not ok:
                print("%s %s: audit %d, truth %d (%s, truth lost %d)" % (
                    what, name, a, t, "sampled all the time" if exact else
                    "sampled in %d windows" % len(watch["windows"]), lost))
                return 1
    verdict, p = implied(t_punts, t_reqs)
    if verdict != want:
        print("the truth's %d punts of %d requests imply %s (chance %.3g), the case wants %s"
              % (t_punts, t_reqs, verdict, p, want))
        return 1
    for f in (iowq, filep):
        if f["status"] != verdict:
            print("%s is %s, the truth's %d of %d imply %s (chance %.3g): %s" % (
                f["id"], f["status"], t_punts, t_reqs, verdict, p, f["message"][:300]))
            return 1
        if verdict == "info" and p < 1 and "by no more than chance" not in f["message"]:
            print("%s: info without 'by no more than chance': %s" % (f["id"], f["message"][:300]))
            return 1
    print("%d punts of %d requests (%.2f%%; truth %d of %d%s, %s), chance %.3g at 1%%: "
          "iowq-punts and file-punts %s" % (
              got["process"][1], got["process"][0], 100.0 * got["process"][1] / max(1, got["process"][0]),
              t_punts, t_reqs, ", lost %d" % lost if lost else "",
              "sampled all the time" if exact else "sampled in %d windows" % len(watch["windows"]),
              p, verdict))
    return 0


sys.exit(main())
