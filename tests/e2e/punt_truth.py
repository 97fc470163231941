#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Ground truth for audit --watch, taken without uringlint's code path.

  punt_truth.py start NAME PID   trace io_uring in a tracefs instance of its own
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


def start(name, pid):
    if not os.path.isdir(os.path.join(TRACEFS, "events")):
        os.system("mount -t tracefs nodev " + TRACEFS)
    d = inst(name)
    os.mkdir(d)
    put(os.path.join(d, "buffer_size_kb"), "16384")
    # No pid filter: io-wq workers are made by create_io_thread(), which
    # fires no sched_process_fork, so event-fork would miss them. Every
    # line carries its thread group instead, and is filtered by it.
    put(os.path.join(d, "options/record-tgid"), "1")
    for e in EVENTS:
        put(os.path.join(d, "events/io_uring", e, "enable"), "1")
    put(os.path.join(d, "tracing_on"), "1")


LINE = re.compile(r"\(\s*(\d+)\).*\s(io_uring_\w+): (.*)$")


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
    with open(os.path.join(d, "trace")) as f:
        lines = f.read().splitlines()
    for e in EVENTS:
        put(os.path.join(d, "events/io_uring", e, "enable"), "0")
    os.rmdir(d)
    reqs = {}
    files = {}
    total = {"requests": 0, "punts": 0, "lost": 0}
    for line in lines:
        if line.startswith("#"):
            if "entries-in-buffer" in line:
                m = re.search(r"entries-in-buffer/entries-written: (\d+)/(\d+)", line)
                if m:
                    total["lost"] = int(m.group(2)) - int(m.group(1))
            continue
        m = LINE.search(line)
        if not m or int(m.group(1)) != pid:
            continue
        ev, rest = m.group(2), m.group(3)
        req = re.search(r"(?:req|request) ([0-9a-f]+)", rest).group(1)
        if ev == "io_uring_submit_req":
            flags = int(re.search(r"flags 0x([0-9a-f]+)", rest).group(1), 16)
            op = re.search(r"opcode (\w+)", rest).group(1)
            reqs[req] = {"fd": None, "op": op, "async": bool(flags & 0x10),
                         "fixed": bool(flags & 1), "punted": False}
            total["requests"] += 1
        elif ev == "io_uring_file_get":
            fd = int(re.search(r"fd (-?\d+)", rest).group(1))
            r = reqs.get(req)
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
            if r is None:
                continue
            if r["fd"] is not None:
                files[r["fd"]]["punts"] += 1
            r["punted"] = True
    for fd, f in files.items():
        f["path"] = paths.get(fd)
    print(json.dumps({"total": total, "files": {str(k): v for k, v in files.items()}}))


if __name__ == "__main__":
    what, name, pid = sys.argv[1], sys.argv[2], int(sys.argv[3])
    (start if what == "start" else stop)(name, pid)
