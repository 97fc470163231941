#!/usr/bin/env python3
"""sockets_holder.py PAIRS CONNS: holds PAIRS unix socketpairs and CONNS TCP
connections over 127.0.0.1 (both ends, and the listener), prints "ready
PID SOCKETS" and sleeps until killed. RLIMIT_NOFILE must allow them."""
import os
import socket
import sys
import time

pairs, conns = int(sys.argv[1]), int(sys.argv[2])
keep = [socket.socketpair() for _ in range(pairs)]
lst = socket.socket()
lst.bind(("127.0.0.1", 0))
lst.listen(1024)
for _ in range(conns):
    c = socket.create_connection(lst.getsockname())
    keep.append((c, lst.accept()[0]))
print("ready %d %d" % (os.getpid(), 2 * pairs + 2 * conns + 1), flush=True)
while True:
    time.sleep(60)
