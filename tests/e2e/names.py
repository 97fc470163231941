#!/usr/bin/env python3
"""Checks of the reports on processes with hostile names (names.sh, hostile.sh).

names.py human FILE           UTF-8, no raw control character (C0 but newline, DEL, C1,
                              bidi marks), no forged report line
names.py json FILE DATADIR    strict UTF-8 JSON; every file of the process under DATADIR
                              has its exact name back (path, or path_base64 when the path
                              is not UTF-8), is registered, and no finding is an error
names.py tree DIR             writes the hostile names into the process 31435 of a copy
                              of testdata/proc-6.18 at DIR, as the kernel frames them
Prints the first problem and exits 1, or exits 0.
"""
import base64
import json
import os
import re
import sys

COMM = b"\x1b[31mx\x1b[0m\n"
THREAD = b"t\x1b[2J\n)(\xff|*_"
FILES = [
    b"evil\x1b]0;PWNED\x07\x1b[2J\n  PASS   fd-o-direct           all good.dat",
    b"md`|*_[x](javascript:x)<b>&amp;\"'#.dat",
    b"bad\xff\xfe\x1b[2J\n- [x] **forged** item.dat",
    b"s\x1b[2J\n  PASS   short.dat",
]
FORGED = re.compile(r"^\s*(PASS\s+(fd-o-direct\s+all good|short\.dat)|- \[x\] \*\*forged\*\*)")
HIDDEN = {0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
          0x2066, 0x2067, 0x2068, 0x2069, 0xFFFE, 0xFFFF}


def fail(msg):
    print(msg)
    sys.exit(1)


def human(path):
    raw = open(path, "rb").read()
    try:
        text = raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError as e:
        fail("not UTF-8: %s" % e)
    for i, ch in enumerate(text):
        o = ord(ch)
        if (o < 0x20 and ch != "\n") or 0x7F <= o <= 0x9F or o in HIDDEN:
            fail("raw U+%04X at %d: %r" % (o, i, text[max(0, i - 40):i + 40]))
    for line in text.split("\n"):
        if FORGED.match(line):
            fail("a forged line: %r" % line)


def as_bytes(obj, key):
    if key + "_base64" in obj:
        return base64.b64decode(obj[key + "_base64"], validate=True)
    return obj[key].encode("utf-8")


def check_json(path, datadir):
    with open(path, encoding="utf-8", errors="strict") as f:
        doc = json.load(f)
    errors = [(x["id"], x["message"]) for x in doc["findings"] if x["status"] == "error"]
    if errors:
        fail("error findings: %r" % errors)
    prefix = os.fsencode(datadir).rstrip(b"/") + b"/"
    want = set(FILES)
    for proc in doc["processes"]:
        if proc.get("comm") is None or proc["comm"].encode("utf-8") != COMM:
            fail("comm %r is not the process's" % proc.get("comm"))
        for f in proc["files"]:
            exact = as_bytes(f, "path")
            if not exact.startswith(prefix):
                continue
            name = exact[len(prefix):]
            if name not in FILES:
                if re.match(rb"(evil|md|bad|s\x1b)", name):
                    fail("a file name not recovered: %r" % exact)
                continue	# the tree's own files
            if name not in want:
                fail("a file listed twice: %r" % exact)
            if not f["registered"]:
                fail("not seen as registered: %r" % exact)
            want.discard(name)
    if want:
        fail("files missing from the inventory: %r" % sorted(want))
    for x in doc["findings"]:
        if "subject_base64" in x and b"\xff\xfe" not in as_bytes(x, "subject"):
            fail("subject_base64 does not decode to the name: %r" % x["subject"])


def submitters(obj):
    if isinstance(obj, dict):
        for s in obj.get("submitters", []) if isinstance(obj.get("submitters"), list) else []:
            yield s
        for v in obj.values():
            yield from submitters(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from submitters(v)


def check_ringmap(path):
    """The named thread is a submitter in the ring map, its name given back byte for byte."""
    with open(path, encoding="utf-8", errors="strict") as f:
        doc = json.load(f)
    names = [as_bytes(s, "comm") for s in submitters(doc) if s.get("comm") is not None]
    if THREAD not in names:
        fail("the thread %r is not a submitter by its exact name: %r" % (THREAD, names))


def mangle(b):
    """seq_file_path(m, f, " \\t\\n\\\\"): those bytes as octal escapes (6.14+ UserFiles)."""
    return b"".join(b"\\%03o" % c if c in b" \t\n\\" else bytes([c]) for c in b)


def tree(root):
    p = os.path.join(root, "proc", "31435")
    path = lambda *a: os.path.join(p, *a)
    stat = open(path("stat"), "rb").read()
    open(path("stat"), "wb").write(stat.replace(b"(cap)", b"(" + COMM + b")", 1))
    status = open(path("status"), "rb").read()
    name = COMM.replace(b"\\", b"\\\\").replace(b"\n", b"\\n")	# proc_task_name()
    open(path("status"), "wb").write(status.replace(b"Name:\tcap\n", b"Name:\t" + name + b"\n", 1))
    tstat = path("task", "31437", "stat")
    t = open(tstat, "rb").read()
    open(tstat, "wb").write(re.sub(rb"\(.*\)", lambda m: b"(" + THREAD + b")", t, count=1, flags=re.S))
    # Buffered (no O_DIRECT), so fd-o-direct fails on each and quotes every name.
    fdinfo = re.sub(rb"flags:\t0\d+", b"flags:\t0100002", open(path("fdinfo", "5"), "rb").read())
    ring = open(path("fdinfo", "3"), "rb").read()
    slots = b""
    for i, name in enumerate(FILES):
        fd = str(20 + i)
        target = b"/srv/data/" + name
        os.symlink(target, os.path.join(os.fsencode(path("fd")), fd.encode()))
        open(path("fdinfo", fd), "wb").write(fdinfo)
        slots += b"%5d: " % (3 + i) + mangle(target) + b"\n"
    ring = ring.replace(b"UserFiles:\t3\n", b"UserFiles:\t%d\n" % (3 + len(FILES)), 1)
    ring = ring.replace(b"UserBufs:", slots + b"UserBufs:", 1)
    open(path("fdinfo", "3"), "wb").write(ring)


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "human" and len(sys.argv) == 3:
        human(sys.argv[2])
    elif cmd == "json" and len(sys.argv) == 4:
        check_json(sys.argv[2], sys.argv[3])
    elif cmd == "ringmap" and len(sys.argv) == 3:
        check_ringmap(sys.argv[2])
    elif cmd == "tree" and len(sys.argv) == 3:
        tree(sys.argv[2])
    else:
        fail(__doc__)
