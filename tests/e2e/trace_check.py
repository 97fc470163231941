#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""trace_check.py TRACE.json

Checks an audit --trace file against the Trace Event Format (the JSON
Object Format that Perfetto's importer and chrome://tracing read): a
traceEvents array whose events each have ph, name, pid and tid, ts (a
number, in microseconds) on all but metadata, an id on async events, s on
instants; every async begin ("b") ended ("e") once, by cat, name and id,
no earlier than it began; every thread named once by a thread_name
metadata event. Prints what it holds as one JSON line: requests, punted
requests by file, the io-wq workers seen running punted requests, the
thread names; exits 1 with the first defect found.
"""
import json
import sys


def fail(msg):
    print("trace_check: " + msg)
    sys.exit(1)


def main():
    try:
        with open(sys.argv[1]) as f:
            t = json.load(f)
    except (OSError, ValueError) as e:
        fail("not JSON: %s" % e)
    if not isinstance(t, dict) or not isinstance(t.get("traceEvents"), list):
        fail("no traceEvents array")
    open_ = {}
    ended = 0
    named = {}
    requests = 0
    punted_by_file = {}
    punt_done_tids = set()
    submit_tids = set()
    completes = {}
    unseen = 0
    for i, e in enumerate(t["traceEvents"]):
        if not isinstance(e, dict):
            fail("event %d is not an object" % i)
        for k, ty in (("ph", str), ("name", str), ("pid", int), ("tid", int)):
            if not isinstance(e.get(k), ty):
                fail("event %d: %s missing or not %s: %s" % (i, k, ty.__name__, e))
        ph = e["ph"]
        if ph not in ("M", "b", "e", "i"):
            fail("event %d: unexpected ph %r" % (i, ph))
        if ph != "M" and not isinstance(e.get("ts"), (int, float)):
            fail("event %d: ts missing: %s" % (i, e))
        if ph == "M":
            if e["name"] == "thread_name":
                key = (e["pid"], e["tid"])
                if key in named:
                    fail("thread %s named twice" % (key,))
                named[key] = e["args"]["name"]
        elif ph == "b":
            key = (e.get("cat"), e["name"], e.get("id"))
            if e.get("id") is None or key in open_:
                fail("event %d: async begin without id, or its id open twice: %s" % (i, e))
            open_[key] = e
            requests += 1
            a = e.get("args", {})
            submit_tids.add((e["pid"], e["tid"]))
            if a.get("punted"):
                f = a.get("file") or ("fd %s" % a.get("fd"))
                punted_by_file[f] = punted_by_file.get(f, 0) + 1
                punt_done_tids.add(a.get("io_wq_worker"))
        elif ph == "e":
            key = (e.get("cat"), e["name"], e.get("id"))
            b = open_.pop(key, None)
            if b is None:
                fail("event %d: async end with no begin: %s" % (i, e))
            if e["ts"] < b["ts"]:
                fail("event %d: ends before it began" % i)
            ended += 1
        elif ph == "i":
            if e.get("s") not in ("t", "p", "g"):
                fail("event %d: instant without scope s" % i)
            a = e.get("args", {})
            # A request whose CQE was not seen: an instant with the request's args.
            if a.get("completed") is False:
                requests += 1
                unseen += 1
                submit_tids.add((e["pid"], e["tid"]))
                if a.get("punted"):
                    f = a.get("file") or ("fd %s" % a.get("fd"))
                    punted_by_file[f] = punted_by_file.get(f, 0) + 1
            if e["name"] == "completed":
                completes[e["args"]["id"]] = e["tid"]
    if open_:
        fail("%d async slices never ended" % len(open_))
    for pid, tid in submit_tids:
        if (pid, tid) not in named:
            fail("submitting thread %d of %d has no name" % (tid, pid))
    print(json.dumps({
        "requests": requests,
        "punted_by_file": punted_by_file,
        "punt_workers": sorted(x for x in punt_done_tids if x is not None),
        "punted": sum(punted_by_file.values()),
        "completion_unseen": unseen,
        "threads": {"%d/%d" % k: v for k, v in sorted(named.items())},
        "other": t.get("otherData"),
    }, sort_keys=True))


if __name__ == "__main__":
    main()
