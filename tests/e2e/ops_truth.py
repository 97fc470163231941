#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Ground truth for the socket-request checks, taken with ftrace, not perf.

  ops_truth.py start NAME       trace io_uring's submits, poll arms, punts and
                                completions in a tracefs instance of its own
  ops_truth.py stop NAME PID    stop, print per-opcode counts of PID's requests
                                as JSON, remove the instance

Per opcode: requests submitted, those with IOSQE_ASYNC, and of them, each
once, those armed on poll and those punted (joined by the request pointer
ftrace prints). Completions: per user_data, runs of CQEs with
IORING_CQE_F_MORE ended by one without it, and how each ended.
"""
import json
import os
import re
import sys

TRACEFS = "/sys/kernel/tracing"
EVENTS = ("io_uring_submit_req", "io_uring_poll_arm", "io_uring_queue_async_work",
          "io_uring_complete")
LINE = re.compile(r"\(\s*(\d+)\)\s+\[\d+\]\s+\S+\s+(\d+\.\d+): (io_uring_\w+): (.*)$")


def inst(name):
    return os.path.join(TRACEFS, "instances", name)


def put(path, text):
    with open(path, "w") as f:
        f.write(text)


def start(name):
    if not os.path.isdir(os.path.join(TRACEFS, "events")):
        os.system("mount -t tracefs nodev " + TRACEFS)
    d = inst(name)
    os.mkdir(d)
    put(os.path.join(d, "buffer_size_kb"), "16384")
    put(os.path.join(d, "options/record-tgid"), "1")
    for e in EVENTS:
        put(os.path.join(d, "events/io_uring", e, "enable"), "1")
    put(os.path.join(d, "tracing_on"), "1")


def field(rest, name, conv=str):
    m = re.search(name + r" (\S+?),?(?:\s|$)", rest)
    return conv(m.group(1)) if m else None


def account(lines, pid):
    reqs, ops, open_runs = {}, {}, {}
    runs = {"ended": 0, "enobufs": 0, "eof": 0, "cqes": 0}
    lost = 0
    for line in lines:
        if "entries-in-buffer" in line:
            m = re.search(r"entries-in-buffer/entries-written: (\d+)/(\d+)", line)
            if m:
                lost = int(m.group(2)) - int(m.group(1))
            continue
        m = LINE.search(line)
        if not m or int(m.group(1)) != pid:
            continue
        ev, rest = m.group(3), m.group(4)
        req = field(rest, "(?:req|request)")
        if ev == "io_uring_submit_req":
            op = field(rest, "opcode")
            flags = int(field(rest, "flags"), 16)
            o = ops.setdefault(op, {"requests": 0, "iosqe_async": 0, "poll_armed": 0,
                                    "punted": 0})
            o["requests"] += 1
            o["iosqe_async"] += bool(flags & 0x10)
            reqs[req] = {"op": op, "armed": False, "punted": False}
        elif ev in ("io_uring_poll_arm", "io_uring_queue_async_work"):
            r = reqs.get(req)
            key = "armed" if ev == "io_uring_poll_arm" else "punted"
            if r and not r[key]:
                r[key] = True
                ops[r["op"]]["poll_armed" if key == "armed" else "punted"] += 1
        else:
            ud = field(rest, "user_data")
            res = int(field(rest, "result"))
            cflags = int(field(rest, "cflags"), 16)
            if cflags & 2:
                open_runs[ud] = open_runs.get(ud, 0) + 1
            elif open_runs.get(ud):
                runs["ended"] += 1
                runs["enobufs"] += res == -105
                runs["eof"] += res == 0
                runs["cqes"] += open_runs.pop(ud) + 1
    return {"ops": ops, "multishot": runs, "lost": lost}


def stop(name, pid):
    d = inst(name)
    put(os.path.join(d, "tracing_on"), "0")
    with open(os.path.join(d, "trace")) as f:
        lines = f.read().splitlines()
    for e in EVENTS:
        put(os.path.join(d, "events/io_uring", e, "enable"), "0")
    os.rmdir(d)
    print(json.dumps(account(lines, pid)))


if __name__ == "__main__":
    if sys.argv[1] == "start":
        start(sys.argv[2])
    else:
        stop(sys.argv[2], int(sys.argv[3]))
