#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Ground truth for audit --watch, taken without uringlint's code path.

  punt_truth.py start NAME PID [KB]   trace io_uring in a tracefs instance of its own,
                                     KB of buffer a CPU (16384; at 80k punts a second
                                     2.5 s take about 30 MiB a CPU)
  punt_truth.py start --only NAME PID [KB]
                                     record only PID's threads, filtered in the kernel
                                     (perf record -p, below)
  punt_truth.py stop NAME PID    stop, print per-fd requests and punts as JSON, remove it

ftrace's text output, not perf samples: requests are joined by the hashed
request pointer it prints, per fd, the same way the kernel's own events
relate (submit, then file_get, then queue_async_work; with IOSQE_ASYNC the
worker's file_get comes after the punt).

Without --only the instance records every process on the host, and the
lines are kept by their thread group afterwards: another process's load
fills the same buffer and can make it drop the oldest events (entries
written beyond those in the buffer: "lost"). ftrace filters no thread
group: set_event_pid holds TIDs, event-fork adds the children that
sched_process_fork reports, and an io-wq worker is made by
create_io_thread(), which goes through copy_process() but not
kernel_clone(), the only caller of trace_sched_process_fork(): on Linux
6.18, with the tgid in set_event_pid and event-fork on, fio's iou-wrk
threads' io_uring_file_get events were all missing (90256 in an
unfiltered instance, 0 in the filtered one). A filter on common_pid is a
TID too, and one on the events' ctx needs the ring's address before the
first event.

--only records with perf record -p PID instead: perf opens its events on
every thread the process has (io-wq and SQPOLL threads included), and
perf_event_init_task(), called by copy_process() for every new task, io
threads too, carries them into the threads made later (perf stat -- fio
counted 122985 io_uring_file_get of the iou-wrk threads, as many as an
unfiltered tracefs instance saw). Another process's events never reach its
buffers. perf script's lines are rewritten as ftrace's, so the account
below reads either. What perf could not write is in its LOST_SAMPLES
counts, given as lost. Not for the pid of a process not yet started (1,
kept at stop: the first form) nor for thousands of threads (perf opens 3
events per thread and CPU).
"""
import json
import os
import re
import select
import signal
import subprocess
import sys
import time

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


def only_dir(name):
    return os.path.join(os.environ.get("PUNT_TRUTH_DIR", "/run/punt-truth"), name)


def start_only(name, pid, kb=16384):
    d = only_dir(name)
    os.makedirs(d)
    ctl, ack = os.path.join(d, "ctl"), os.path.join(d, "ack")
    os.mkfifo(ctl)
    os.mkfifo(ack)
    cfd = os.open(ctl, os.O_RDWR)
    afd = os.open(ack, os.O_RDONLY | os.O_NONBLOCK)
    cmd = ["perf", "record", "-q", "-D", "-1", "--control=fifo:%s,%s" % (ctl, ack),
           # CLOCK_MONOTONIC, the clock of the audit's samples and of its windows.
           "-k", "mono", "-m", "%dK" % kb, "-p", str(pid), "-o", os.path.join(d, "perf.data")]
    for e in EVENTS:
        cmd += ["-e", "io_uring:" + e]
    with open(os.path.join(d, "perf.log"), "w") as log:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                             start_new_session=True)
    put(os.path.join(d, "perf.pid"), "%d\n" % p.pid)
    # Started disabled (-D -1): enabled once every thread's events are open, and acked.
    os.write(cfd, b"enable\n")
    deadline, got = time.monotonic() + 20, b""
    while b"ack" not in got and time.monotonic() < deadline and p.poll() is None:
        if select.select([afd], [], [], 0.1)[0]:
            got += os.read(afd, 64)
    os.close(cfd)
    os.close(afd)
    if b"ack" not in got:
        p.kill()
        sys.exit("punt_truth: perf record did not start: " +
                 open(os.path.join(d, "perf.log")).read().strip()[-300:])


PERF_LINE = re.compile(r"^\s*(.*?)\s+(\d+)/(\d+)\s+\[(\d+)\]\s+(\d+\.\d+):\s+"
                       r"io_uring:(io_uring_\w+):\s?(.*)$")


def stop_only(name, pid):
    """perf's samples as ftrace lines, with an entries-in-buffer line that counts the lost."""
    d = only_dir(name)
    ppid = int(open(os.path.join(d, "perf.pid")).read())
    os.kill(ppid, signal.SIGINT)
    for _ in range(600):
        try:
            os.kill(ppid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    paths = links(pid)
    data = os.path.join(d, "perf.data")
    out = subprocess.run(["perf", "script", "-i", data, "--ns",
                          "-F", "comm,tid,pid,cpu,time,event,trace"],
                         capture_output=True, text=True, errors="replace").stdout
    lines, seen, dups = [], set(), 0
    for l in out.splitlines():
        m = PERF_LINE.match(l)
        if m:
            comm, tgid, tid, cpu, ts, ev, rest = m.groups()
            # A thread made while perf opened its events may hold two of each: one
            # inherited, one perf opened from its list. One event of the kernel, once.
            if (tid, ts, ev, rest) in seen:
                dups += 1
                continue
            seen.add((tid, ts, ev, rest))
            # ftrace prints the pointers it hashes without 0x: the account's form.
            rest = re.sub(r"\b(ring|req|request|work) 0x", r"\1 ", rest)
            lines.append("%s-%s (%7s) [%03d] ..... %s: %s: %s" %
                         (comm, tid, tgid, int(cpu), ts, ev, rest))
    stats = subprocess.run(["perf", "report", "-i", data, "--stats"],
                           capture_output=True, text=True, errors="replace").stdout
    # Per event, after its "io_uring:EVENT stats:" header: the samples the kernel dropped.
    lost = sum(int(n) for n in re.findall(r"^\s*LOST_SAMPLES events:\s+(\d+)\s*$", stats, re.M))
    lines.insert(0, "# entries-in-buffer/entries-written: %d/%d" % (len(lines), len(lines) + lost))
    if dups:
        print("punt_truth: %d events recorded twice, counted once" % dups, file=sys.stderr)
    for f in os.listdir(d):
        os.unlink(os.path.join(d, f))
    os.rmdir(d)
    return lines, paths


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
    if os.path.isdir(only_dir(name)):
        lines, paths = stop_only(name, pid)
        return keep(lines, pid, paths)
    d = inst(name)
    put(os.path.join(d, "tracing_on"), "0")
    paths = links(pid)
    # Any process may be traced, and a comm may hold bytes that are not UTF-8.
    with open(os.path.join(d, "trace"), encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    for e in EVENTS:
        put(os.path.join(d, "events/io_uring", e, "enable"), "0")
    os.rmdir(d)
    keep(lines, pid, paths)


def keep(lines, pid, paths):
    kept = [l for l in lines if "entries-in-buffer" in l or
            ((m := LINE.search(l)) and int(m.group(1)) == pid)]
    raw = os.environ.get("PUNT_TRUTH_RAW")
    if raw:
        # For watch_compare.py: the same account over the audit's sampling windows.
        with open(raw, "w") as f:
            json.dump({"pid": pid, "paths": {str(k): v for k, v in paths.items()},
                       "lines": kept}, f)
    print(json.dumps(account(kept, pid, paths)))


# Reads and writes (READV, WRITE_FIXED...): the punts a fault makes. FSYNC and the
# like io_uring always runs in io-wq, punted in a healthy process too.
RW = re.compile(r"(READ|WRITE)(V|_FIXED)?$")


def account(lines, pid, paths, windows=None):
    """Per-fd requests and punts (punts_rw: of reads and writes); with windows ([start, end] in CLOCK_MONOTONIC
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
            f = files.setdefault(fd, {"requests": 0, "punts": 0, "punts_rw": 0, "async": 0})
            f["requests"] += 1
            if r and r["fd"] is None:
                r["fd"] = fd
                f["async"] += r["async"]
                if r["punted"]:
                    f["punts"] += 1
                    f["punts_rw"] += RW.match(r["op"]) is not None
        else:
            total["punts"] += 1
            r = reqs.get(req)
            if r is None or (windows is not None and not r["in"]):
                continue
            if r["fd"] is not None:
                files[r["fd"]]["punts"] += 1
                files[r["fd"]]["punts_rw"] += RW.match(r["op"]) is not None
            r["punted"] = True
    for fd, f in files.items():
        f["path"] = paths.get(fd, paths.get(str(fd)))
    return {"total": total, "files": {str(k): v for k, v in files.items()},
            "windowed": windows is not None}


if __name__ == "__main__":
    args = sys.argv[1:]
    only = "--only" in args
    if only:
        args.remove("--only")
    what, name, pid = args[0], args[1], int(args[2])
    if what == "start":
        (start_only if only else start)(name, pid, int(args[3]) if len(args) > 3 else 16384)
    else:
        stop(name, pid)
