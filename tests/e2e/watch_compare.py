#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""watch_compare.py [--inner] AUDIT.json TRUTH.json CAUSE [TOLERANCE [MIN_FRACTION]]

Compares audit --watch's per-file verdict with the ground truth of
punt_truth.py: the files with punts are the same files, each blamed file's
share (punted / requests) is within TOLERANCE (0.15) of the truth's, its
counts are no more than the truth's (whose window holds the audit's) and
at least MIN_FRACTION (a third) of them (bursty writers: 0), times the share of the time
the watch sampled when it sampled in windows (a high rate), and CAUSE is among the causes
file-punts gives; a file the truth has no path for (closed before it stopped) is
matched by its fd. When the truth kept its raw lines in TRUTH.raw (PUNT_TRUTH_RAW), a
windowed watch is compared with the truth over the same windows instead.
With --inner the truth was recorded inside the audit's watch (bursty
writers, whose bursts must fall in both): every file with 5 punts or more in
the truth must be blamed (a thread a pool starts is watched from its first
10 ms, so a file with a lone request may be missed), with no fewer requests than the truth counted
(3% fewer when threads came late: their first 10 ms are not seen)
(over the same windows, less 1% and 10 for the clocks at their edges); files blamed
beyond them punted outside the truth's window. A truth that lost events (lost > 0: its
buffer was full) raises the upper bound by as many, never lifts it.
Prints one line; exits 1 on a mismatch, and on a comparison left with no file
(a truth with no punts, or with --inner none with 5 punts or more).
"""
import json
import os
import sys


def explain_mismatch(audit, watch, truth_files):
    """What a mismatch needs to be understood from CI's log alone."""
    print("     watch: %s" % json.dumps({k: watch.get(k) for k in (
        "punts", "punts_always_async", "punts_cut", "punts_outside_samples",
        "punts_unattributed", "samples_lost", "samples_missed", "seconds_watched",
        "seconds_sampled", "windows", "threads_watched", "threads_attached_late",
        "threads_not_attached")}))
    print("     truth: %s" % json.dumps({p: {"punts": f["punts"], "requests": f["requests"]}
                                          for p, f in truth_files.items()}))
    for f in audit["findings"]:
        if f["id"] in ("file-punts", "iowq-punts"):
            print("     %s %s: %s" % (f["status"], f["id"], f["message"][:400]))


def main():
    inner = "--inner" in sys.argv
    if inner:
        sys.argv.remove("--inner")
    audit = json.load(open(sys.argv[1]))
    truth = json.load(open(sys.argv[2]))
    cause = sys.argv[3]
    tol = float(sys.argv[4]) if len(sys.argv) > 4 else 0.15
    least = float(sys.argv[5]) if len(sys.argv) > 5 else 1 / 3
    # At a high rate the watch samples in windows: its counts cover that share of the time.
    watch = (audit.get("processes") or [{}])[0].get("watch") or {}
    frac = 1.0
    if watch.get("seconds_watched") and watch.get("requests") is None and \
            watch.get("seconds_sampled") is not None:
        frac = min(1.0, watch["seconds_sampled"] / watch["seconds_watched"])
    # The truth's raw lines kept (PUNT_TRUTH_RAW=TRUTH.raw): account them over the same windows.
    raw_path = sys.argv[2] + ".raw"
    if frac < 1.0 and os.path.exists(raw_path) and watch.get("windows"):
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import punt_truth
        raw = json.load(open(raw_path))
        truth = punt_truth.account(raw["lines"], raw["pid"], raw["paths"], watch["windows"])
        frac = 1.0
    # One path opened again under another fd (a file server's put after put) is one file
    # on both sides: its findings, and the truth's fds, are summed by path.
    blamed, by_fd = {}, {}
    for f in audit["findings"]:
        # The warning about punts tied to no file names no path: not a blamed file.
        if f["id"] == "file-punts" and f["status"] in ("fail", "warn") and \
                f["evidence"].get("path"):
            ev = f["evidence"]
            if ev.get("fd") is not None:
                by_fd[ev["fd"]] = ev["path"]
            if ev["path"] in blamed:
                b = blamed[ev["path"]]
                b = dict(b, requests=b["requests"] + ev["requests"],
                         punts=b["punts"] + ev["punts"], causes=b["causes"] + ev["causes"])
                blamed[ev["path"]] = b
            else:
                blamed[ev["path"]] = ev
    # A file closed before the truth stopped has no path in it (it reads /proc/PID/fd at the
    # end): its fd, from the events, names it, as the fd the audit blamed with its path.
    truth_files = {}
    for fd, f in truth["files"].items():
        if f["punts"] <= 0:
            continue
        path = f["path"] or by_fd.get(int(fd), "fd %s (closed)" % fd)
        if path in truth_files:
            t = truth_files[path]
            f = dict(t, requests=t["requests"] + f["requests"], punts=t["punts"] + f["punts"])
        truth_files[path] = f
    if not truth_files:
        print("the ground truth saw no punts: nothing was diagnosed or compared")
        return 1
    if inner:
        truth_files = {p: f for p, f in truth_files.items() if f["punts"] >= 5}
        # Nothing left to compare is no agreement: every file blamed would pass unchecked.
        if not truth_files:
            print("the ground truth saw no file with 5 punts or more inside the watch: "
                  "nothing was compared")
            return 1
    if (not set(truth_files) <= set(blamed)) if inner else set(blamed) != set(truth_files):
        print("files blamed %s, truth %s" % (sorted(blamed), sorted(truth_files)))
        explain_mismatch(audit, watch, truth_files)
        return 1
    for path, ev in blamed.items():
        if path not in truth_files:
            continue
        t = truth_files[path]
        share, tshare = ev["punts"] / ev["requests"], t["punts"] / t["requests"]
        if abs(share - tshare) > tol:
            print("%s: share %.3f, truth %.3f" % (path, share, tshare))
            return 1
        lo, hi = (t["requests"], float("inf")) if inner else (t["requests"] * least, t["requests"])
        # A thread a pool starts during the watch is attached within 10 ms: a request it
        # makes before then is missed, as threads_attached_late says. Up to 3% short then.
        if inner and watch.get("threads_attached_late"):
            lo = t["requests"] * 0.97
        if frac < 1.0:
            lo = t["requests"] * least * frac
        if truth.get("windowed"):
            # The two tracers read the clock apart: a request at a window's edge may fall
            # on either side of it. With --inner the truth began inside the watch, maybe
            # inside its first window: it bounds the audit's count from below only.
            if inner:
                lo = t["requests"] * 0.99 - 10
            else:
                hi = t["requests"] * 1.01 + 10
        # A truth that lost events (its buffer full) counted fewer requests than were
        # made: the audit's count may pass the truth's by as many as it lost, no more.
        lost = (truth.get("total") or {}).get("lost", 0)
        hi += lost
        if not lo <= ev["requests"] <= hi:
            print("%s: %d requests, truth %d%s" % (path, ev["requests"], t["requests"],
                  " (the truth lost %d events)" % lost if lost else ""))
            explain_mismatch(audit, watch, truth_files)
            return 1
        causes = [c["cause"] for c in ev["causes"]]
        # CAUSE may name alternatives, "buffered|timestamp": what the kernel did for the
        # punts (observed) or what the rule infers for those it did not show.
        if not set(cause.split("|")) & set(causes):
            print("%s: causes %s, wanted %s" % (path, causes, cause))
            return 1
        print("%s: %d of %d punted (%.1f%%; truth %d of %d, %.1f%%)%s, cause %s" %
              (path, ev["punts"], ev["requests"], 100 * share, t["punts"], t["requests"],
               100 * tshare, ", truth over the same %d sampling windows" %
               len(watch["windows"]) if truth.get("windowed") else
               "" if frac >= 1.0 else ", sampled %.0f%% of the time" % (100 * frac),
               ", ".join(causes)))
    return 0


sys.exit(main())
