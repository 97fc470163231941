#!/usr/bin/env python3
"""A network server for tests/e2e/sockets.sh, on loopback only.

sockets_server.py TRUTH [PORT]: two SO_REUSEPORT TCP listeners on
127.0.0.1:PORT and two on [::1]:PORT (PORT 0: one the kernel picks), a
connection to the first (both ends in this process, the accepted one
accepted), UDP sockets on 127.0.0.1 and ::1, a unix listener at a path and
an abstract unix datagram socket. Writes its own view of each socket fd to
TRUTH as JSON (fd, inode from fstat, family, type, local and remote
address as the socket module gives them), prints "ready PID PORT" and
sleeps until killed.
"""
import json
import os
import socket
import sys
import tempfile
import time

truth, port = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0
keep = []


def listener(family, addr, port):
    s = socket.socket(family, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    s.bind((addr, port))
    s.listen(16)
    keep.append(s)
    return s.getsockname()[1]


port = listener(socket.AF_INET, "127.0.0.1", port)
listener(socket.AF_INET, "127.0.0.1", port)
has6 = socket.has_ipv6
try:
    listener(socket.AF_INET6, "::1", port)
    listener(socket.AF_INET6, "::1", port)
except OSError:
    has6 = False
# With another process's listeners in the group, the kernel may queue the
# connection there: connect again (another source port) until ours has one.
for s in keep[:2]:
    s.setblocking(False)
accepted = None
for _ in range(200):
    client = socket.create_connection(("127.0.0.1", port))
    for _ in range(20):
        for s in keep[:2]:
            try:
                accepted = s.accept()[0]
                break
            except BlockingIOError:
                pass
        if accepted:
            break
        time.sleep(0.01)
    if accepted:
        break
    client.close()
keep += [client, accepted]
for fam, addr in [(socket.AF_INET, "127.0.0.1")] + ([(socket.AF_INET6, "::1")] if has6 else []):
    u = socket.socket(fam, socket.SOCK_DGRAM)
    u.bind((addr, 0))
    keep.append(u)
path = os.path.join(tempfile.mkdtemp(prefix="uringlint-sockets."), "srv.sock")
x = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
x.bind(path)
x.listen(4)
keep.append(x)
a = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
a.bind("\0uringlint-e2e-%d" % os.getpid())
keep.append(a)


def addr(s, peer):
    try:
        v = s.getpeername() if peer else s.getsockname()
    except OSError:
        return None
    if s.family == socket.AF_UNIX:
        if isinstance(v, bytes):
            v = "@" + v[1:].decode()
        return v or None
    if s.family == socket.AF_INET6:
        return "[%s]:%d" % (v[0], v[1])
    return "%s:%d" % (v[0], v[1])


view = []
for s in keep:
    view.append({"fd": s.fileno(), "inode": os.fstat(s.fileno()).st_ino,
                 "family": {socket.AF_INET: "inet", socket.AF_INET6: "inet6",
                            socket.AF_UNIX: "unix"}[s.family],
                 "type": "stream" if s.type == socket.SOCK_STREAM else "dgram",
                 "listening": s.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 1,
                 "local": addr(s, False), "remote": addr(s, True)})
with open(truth, "w") as f:
    json.dump({"pid": os.getpid(), "port": port, "unix_path": path, "sockets": view}, f)
print("ready %d %d" % (os.getpid(), port), flush=True)
try:
    while True:
        time.sleep(60)
finally:
    os.unlink(path)
