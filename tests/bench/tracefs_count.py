#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The other design for an exact count of a process's punts, for the bench
to weigh against the watch's perf events: a tracefs instance of its own
that records io_uring_queue_async_work for the process's threads only
(set_event_pid). io-wq workers come from create_io_thread(), which fires no
sched_process_fork, so event-fork would not follow them: the process's
threads are added every 10 ms. The count is the buffer's entries plus its
overruns, the records are never read.

  tracefs_count.py NAME PID   until PID exits; prints the count, removes the instance
"""
import os
import sys
import time

TRACEFS = "/sys/kernel/tracing"


def put(path, text, append=False):
    # os.open: Python's append mode seeks to the end, which tracefs refuses.
    fd = os.open(path, os.O_WRONLY | (os.O_APPEND if append else os.O_TRUNC))
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def count(d):
    n = 0
    for cpu in os.listdir(os.path.join(d, "per_cpu")):
        with open(os.path.join(d, "per_cpu", cpu, "stats")) as f:
            for line in f:
                key, _, val = line.partition(":")
                if key in ("entries", "overrun"):
                    n += int(val)
    return n


def main():
    name, pid = sys.argv[1], int(sys.argv[2])
    d = os.path.join(TRACEFS, "instances", name)
    os.mkdir(d)
    try:
        put(os.path.join(d, "buffer_size_kb"), "1024")
        seen = set()
        event = os.path.join(d, "events/io_uring/io_uring_queue_async_work/enable")
        while True:
            try:
                tids = set(os.listdir("/proc/%d/task" % pid))
            except FileNotFoundError:
                break
            new = tids - seen
            if new:
                put(os.path.join(d, "set_event_pid"), " ".join(sorted(new)), True)
                seen |= new
                if len(seen) == len(new):
                    put(event, "1")
            time.sleep(0.01)
        put(event, "0")
        print(count(d))
    finally:
        os.rmdir(d)


main()
