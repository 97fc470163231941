#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Ground truth for audit --watch, taken without uringlint's code path.

  punt_truth.py start NAME PID [KB]   trace io_uring in a tracefs instance of its own,
                                     KB of buffer a CPU (16384; at 80k punts a second
                                     2.5 s take about 30 MiB a CPU)
  punt_truth.py stop NAME PID    stop, print per-fd requests and punts as JSON, remove it

ftrace's text output, not perf samples: requests are joined by the hashed
request pointer it prints, per fd, the same way the kernel's own events
relate (submit, then file_get, then queue_async_work; with IOSQE_ASYNC the
worker's file_get comes after the punt).
"""
import json
import os
import re
import sys

TRACEFS = "/sys/kernel/tracing"
EVENTS = ("io_uring_submit_req", "io_uring_file_get", "io_uring_queue_async_work")


def inst(name):
    return os.path.join(TRACEFS, "instances", name)


def put(path, text):
    with open(path, "w") as f:
        f.write(text)


def start(name, pid, kb=16384):
    if not os.path.isdir(os.path.join(TRACEFS, "events")):
        os.system("mount -t tracefs nodev " + TRACEFS)
    d = inst(name)
    os.mkdir(d)
    put(os.path.join(d, "buffer_size_kb"), str(kb))
    # No pid filter: io-wq workers are made by create_io_thread(), which
    # fires no sched_process_fork, so event-fork would miss them. Every
    # line carries its thread group instead, and is filtered by it.
    put(os.path.join(d, "options/record-tgid"), "1")
    # CLOCK_MONOTONIC, the clock of the audit's samples and of its windows.
    put(os.path.join(d, "trace_clock"), "mono")
    for e in EVENTS:
        put(os.path.join(d, "events/io_uring", e, "enable"), "1")
    put(os.path.join(d, "tracing_on"), "1")


LINE = re.compile(r"\(\s*(\d+)\)\s+\[\d+\]\s+\S+\s+(\d+\.\d+): (io_uring_\w+): (.*)$")


def links(pid):
    """The process's fds and their paths now, before the parse takes its time."""
    out = {}
    try:
        for fd in os.listdir("/proc/%d/fd" % pid):
            try:
                out[int(fd)] = os.readlink("/proc/%d/fd/%s" % (pid, fd))
            except OSError:
                pass
    except OSError:
        pass
    return out


def stop(name, pid):
    d = inst(name)
    put(os.path.join(d, "tracing_on"), "0")
    paths = links(pid)
    # Any process may be traced, and a comm may hold bytes that are not UTF-8.
    with open(os.path.join(d, "trace"), encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    for e in EVENTS:
        put(os.path.join(d, "events/io_uring", e, "enable"), "0")
    os.rmdir(d)
    kept = [l for l in lines if "entries-in-buffer" in l or
            ((m := LINE.search(l)) and int(m.group(1)) == pid)]
    raw = os.environ.get("PUNT_TRUTH_RAW")
    if raw:
        # For watch_compare.py: the same account over the audit's sampling windows.
        with open(raw, "w") as f:
            json.dump({"pid": pid, "paths": {str(k): v for k, v in paths.items()},
                       "lines": kept}, f)
    print(json.dumps(account(kept, pid, paths)))


def account(lines, pid, paths, windows=None):
    """Per-fd requests and punts; with windows ([start, end] in CLOCK_MONOTONIC
    seconds), only of requests submitted inside one. The totals stay whole."""
    reqs = {}
    files = {}
    total = {"requests": 0, "punts": 0, "lost": 0}
    for line in lines:
        if "entries-in-buffer" in line:
            m = re.search(r"entries-in-buffer/entries-written: (\d+)/(\d+)", line)
            if m:
                total["lost"] = int(m.group(2)) - int(m.group(1))
            continue
        m = LINE.search(line)
        if not m or int(m.group(1)) != pid:
            continue
        ts, ev, rest = float(m.group(2)), m.group(3), m.group(4)
        req = re.search(r"(?:req|request) ([0-9a-f]+)", rest).group(1)
        if ev == "io_uring_submit_req":
            flags = int(re.search(r"flags 0x([0-9a-f]+)", rest).group(1), 16)
            op = re.search(r"opcode (\w+)", rest).group(1)
            inside = windows is None or any(a <= ts <= b for a, b in windows)
            reqs[req] = {"fd": None, "op": op, "async": bool(flags & 0x10),
                         "fixed": bool(flags & 1), "punted": False, "in": inside}
            total["requests"] += 1
        elif ev == "io_uring_file_get":
            fd = int(re.search(r"fd (-?\d+)", rest).group(1))
            r = reqs.get(req)
            if windows is not None and not (r and r["in"]):
                continue
            f = files.setdefault(fd, {"requests": 0, "punts": 0, "async": 0})
            f["requests"] += 1
            if r and r["fd"] is None:
                r["fd"] = fd
                f["async"] += r["async"]
                if r["punted"]:
                    f["punts"] += 1
        else:
            total["punts"] += 1
            r = reqs.get(req)
            if r is None or (windows is not None and not r["in"]):
                continue
            if r["fd"] is not None:
                files[r["fd"]]["punts"] += 1
            r["punted"] = True
    for fd, f in files.items():
        f["path"] = paths.get(fd, paths.get(str(fd)))
    return {"total": total, "files": {str(k): v for k, v in files.items()},
            "windowed": windows is not None}


if __name__ == "__main__":
    what, name, pid = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if what == "start":
        start(name, pid, int(sys.argv[4]) if len(sys.argv) > 4 else 16384)
    else:
        stop(name, pid)
