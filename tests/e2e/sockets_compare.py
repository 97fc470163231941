#!/usr/bin/env python3
"""sockets_compare.py TRUTH REPORT GROUP: uringlint's inventory against the
server's own view (tests/e2e/sockets_server.py). Each socket fd the server
has must be listed with its inode, protocol, addresses and state; its TCP
listeners must form two groups (127.0.0.1 and ::1 on its port) of its two
fds each, with GROUP LISTEN sockets in the namespace. Prints what differs;
exit 1 when anything does."""
import json
import sys

truth = json.load(open(sys.argv[1]))
report = json.load(open(sys.argv[2]))
group = int(sys.argv[3])
procs = [p for p in report["processes"] if p["pid"] == truth["pid"]]
if len(procs) != 1:
    sys.exit("pid %d is not in the report once" % truth["pid"])
inv = procs[0]["sockets"]
errs = []
if inv["error"] is not None:
    errs.append("error: %s" % inv["error"])
by_fd = {s["fd"]: s for s in inv["list"]}
for t in truth["sockets"]:
    s = by_fd.get(t["fd"])
    if s is None:
        errs.append("fd %d is not listed" % t["fd"])
        continue
    proto = {"unix": "unix"}.get(t["family"]) or \
        ("tcp" if t["type"] == "stream" else "udp") + ("6" if t["family"] == "inet6" else "")
    if t["listening"]:
        state = "LISTEN"
    elif t["family"] == "unix":
        state = "UNCONNECTED" if t["type"] == "dgram" else "ESTABLISHED"
    else:
        state = "ESTABLISHED" if t["remote"] else "CLOSE"
    want = {"inode": t["inode"], "proto": proto, "local": t["local"], "state": state,
            "registered": False}
    if t["remote"]:
        want["remote"] = t["remote"]
    for k, v in want.items():
        if s.get(k) != v:
            errs.append("fd %d %s: %r, the server says %r" % (t["fd"], k, s.get(k), v))
for fam, addr in (("tcp", "127.0.0.1"), ("tcp6", "::1")):
    fds = sorted(t["fd"] for t in truth["sockets"] if t["listening"] and t["family"] != "unix"
                 and t["local"].startswith("[" if fam == "tcp6" else addr))
    if not fds:
        continue
    g = [l for l in inv["listeners"] if l["proto"] == fam and l["address"] == addr
         and l["port"] == truth["port"]]
    if len(g) != 1:
        errs.append("%s %s:%d: %d listener groups" % (fam, addr, truth["port"], len(g)))
    elif sorted(g[0]["fds"]) != fds or g[0]["reuseport_group"] != group:
        errs.append("%s %s: fds %s, group %d; wanted %s, group %d" % (
            fam, addr, g[0]["fds"], g[0]["reuseport_group"], fds, group))
u = [l for l in inv["listeners"] if l["proto"] == "unix"]
if [l["address"] for l in u] != [truth["unix_path"]]:
    errs.append("unix listeners %s, wanted %s" % ([l["address"] for l in u], truth["unix_path"]))
print("\n".join(errs))
sys.exit(1 if errs else 0)
