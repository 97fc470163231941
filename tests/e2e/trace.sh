#!/bin/bash
# audit --trace FILE: what the watch sampled as a Chrome trace-event file.
# fio doing buffered writes with IOSQE_ASYNC (every one punted, and the worker
# that runs each takes its file, so the events name the worker) is audited with
# --watch 4 --trace while punt_truth.py records the same process inside the
# watch: the file must parse as the trace-event format (trace_check.py),
# every punt the truth saw must be a request in the trace, on the right
# file, run on an io-wq worker's track (an iou-wrk thread /proc listed
# during the watch), and no more requests than the watch counted. Then
# the file's bad input: no watch, --root, a planted symlink, -o's own name.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh

TRUTH=tests/e2e/punt_truth.py
CHECK=tests/e2e/trace_check.py

finish() {
	echo "trace: $passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
	exit
}

# Bad input first: these need no root.
"$BIN" audit 1 --trace "$TMP/t.json" >/dev/null 2>"$TMP/err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(grep -cv "^Try " "$TMP/err")" -eq 1 ] && grep -q "give --watch SECONDS or --exec" "$TMP/err" &&
	ok "--trace without a watch: exit 2, one line ($(cat "$TMP/err"))" ||
	bad "--trace without a watch" "rc $rc" "$(cat "$TMP/err")"
"$BIN" --root testdata/proc-6.18 audit 1 --watch 2 --trace "$TMP/t.json" >/dev/null 2>"$TMP/err"
rc=$?
[ "$rc" -eq 2 ] && [ ! -e "$TMP/t.json" ] && [ "$(grep -cv "^Try " "$TMP/err")" -eq 1 ] &&
	ok "--trace with --root: exit 2, nothing written ($(head -1 "$TMP/err"))" ||
	bad "--trace with --root" "rc $rc" "$(cat "$TMP/err")"
"$BIN" audit 1 --watch 1 --trace "$TMP/same" -o "$TMP/./same" >/dev/null 2>"$TMP/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "name one file" "$TMP/err" && ok "--trace and -o of one file, spelt two ways: exit 2" ||
	bad "--trace and -o of one name" "rc $rc" "$(cat "$TMP/err")"

if [ "$(id -u)" -ne 0 ] || ! command -v fio >/dev/null; then
	skip "audit --trace of fio" "needs root (the tracepoints) and fio"
	finish
fi

# A symbolic link planted at the name is refused, as for -o: the target stays as it was.
echo keep >"$TMP/target"
ln -s "$TMP/target" "$TMP/link.json"
sleep 30 &
sl=$!
"$BIN" audit "$sl" --watch 1 --trace "$TMP/link.json" --fail-on never >/dev/null 2>"$TMP/err"
rc=$?
kill "$sl" 2>/dev/null
wait "$sl" 2>/dev/null
[ "$rc" -eq 3 ] && [ "$(cat "$TMP/target")" = keep ] && [ -L "$TMP/link.json" ] &&
	ok "--trace at a planted symlink: refused, exit 3, its target untouched ($(tail -1 "$TMP/err"))" ||
	bad "--trace at a planted symlink" "rc $rc" "$(cat "$TMP/err")" "target: $(cat "$TMP/target")"

# fio_ring: the process of fio $fio_pid (it or a child) that holds a ring, in $pid once it does.
fio_ring() {
	pid=
	for _ in $(seq 100); do
		for c in $(pgrep -P "$fio_pid") "$fio_pid"; do
			ls -l "/proc/$c/fd" 2>/dev/null | grep -q 'io_uring' && pid=$c
		done
		[ -n "$pid" ] && return
		sleep 0.1
	done
}

mkdir -p "$TMP/data"
fio --name=trace --ioengine=io_uring --force_async=1 --rw=randwrite --bs=4k --iodepth=4 --direct=0 --size=32M \
	--rate_iops=1500 --time_based --runtime=20 --filename="$TMP/data/trace.dat" \
	--output="$TMP/fio.out" >/dev/null 2>&1 &
fio_pid=$!
fio_ring
if [ -z "$pid" ]; then
	bad "fio starts its ring" "$(cat "$TMP/fio.out")"
	kill "$fio_pid" 2>/dev/null
	finish
fi
sleep 1
# The truth around the whole watch, started before it and stopped after it; its account is
# kept to the watch's own sampling windows below. (Started 0.5 s into the watch and
# stopped 2.5 s later, a CI rerun's truth held none of the windows: 0 punts against
# 4575 traced.)
python3 "$TRUTH" start --only "trace$pid" "$pid" || bad "ground truth starts"
"$BIN" audit "$pid" --watch 4 --trace "$TMP/fio.trace.json" --format json --fail-on never \
	>"$TMP/fio.json" 2>"$TMP/fio.err" &
a=$!
# The io-wq workers /proc lists, every 100 ms until the watch ends (a slow host starts
# new ones late in it).
: >"$TMP/workers"
workers_now() {
	for t in /proc/"$pid"/task/*; do
		case $(cat "$t/comm" 2>/dev/null) in iou-wrk-*) echo "${t##*/}" >>"$TMP/workers" ;; esac
	done
}
while kill -0 "$a" 2>/dev/null; do workers_now; sleep 0.1; done
workers_now
PUNT_TRUTH_RAW="$TMP/fio.truth.raw" python3 "$TRUTH" stop "trace$pid" "$pid" >"$TMP/fio.truth"
wait "$a"
rc=$?
kill "$fio_pid" 2>/dev/null
wait "$fio_pid" 2>/dev/null

if [ "$rc" -ne 0 ]; then
	bad "audit --watch --trace of fio exits 0" "rc $rc: $(cat "$TMP/fio.err")"
elif ! sum=$(python3 "$CHECK" "$TMP/fio.trace.json"); then
	bad "the trace parses as trace events" "$sum"
else
	ok "the trace parses as trace events: $(jq -c '{requests, punted_by_file, other: .other.processes}' <<<"$sum")"
	# The truth over the watch's own sampling windows: on a loaded host the audit may begin
	# its watch after the truth began.
	truth=$(python3 - "$TMP/fio.truth.raw" "$TMP/fio.json" <<'PY'
import json, sys
sys.path.insert(0, "tests/e2e")
import punt_truth
raw = json.load(open(sys.argv[1]))
windows = json.load(open(sys.argv[2]))["processes"][0]["watch"]["windows"]
t = punt_truth.account(raw["lines"], raw["pid"], raw["paths"], windows)
print(sum(f["punts"] for f in t["files"].values() if (f["path"] or "").endswith("trace.dat")))
PY
)
	traced=$(jq '[.punted_by_file | to_entries[] | select(.key | test("trace.dat$")) | .value] | add // 0' <<<"$sum")
	counted=$(jq '[.findings[] | select(.id == "file-punts") | .evidence | select(.path? // "" | test("trace.dat$")) | .punts] | add // 0' "$TMP/fio.json")
	# Less 1% and 10 for the two tracers' clocks at the windows' edges, as watch_compare.py.
	if [ "${truth:-0}" -gt 100 ] && [ "$traced" -ge $((truth * 99 / 100 - 10)) ] && [ "$traced" -le "$counted" ]; then
		ok "every punt the truth saw in the watch's windows is in the trace: truth $truth <= traced $traced <= counted by the watch $counted, on trace.dat"
	else
		bad "every punt the truth saw is in the trace" "truth $truth, traced $traced, counted $counted"
	fi
	workers=$(jq -r '.punt_workers[]' <<<"$sum" | sort -u)
	not_workers=$(comm -23 <(echo "$workers") <(sort -u "$TMP/workers"))
	named=$(jq -r '.threads | to_entries[] | .value' <<<"$sum" | grep -c '^iou-wrk\|^io-wq worker')
	if [ -n "$workers" ] && [ -z "$not_workers" ] && [ "$named" -ge 1 ]; then
		ok "punted requests run on io-wq workers' tracks: tids $(echo $workers) (iou-wrk threads /proc listed: $(sort -u "$TMP/workers" | tr '\n' ' '))"
	else
		bad "punted requests run on the workers' tracks" "workers in the trace: $(echo $workers)" \
			"iou-wrk seen: $(sort -u "$TMP/workers" | tr '\n' ' ')" "thread names: $(jq -c .threads <<<"$sum")"
	fi
	[ "$(stat -c %a "$TMP/fio.trace.json")" != "" ] && [ "$(stat -c %U "$TMP/fio.trace.json")" = root ] &&
		ok "the trace file: $(stat -c '%s bytes, mode %a' "$TMP/fio.trace.json")" ||
		bad "the trace file's owner" "$(stat -c '%U %a' "$TMP/fio.trace.json")"
fi
# fio writing with an fsync after each write and no IOSQE_ASYNC (no --force_async): the
# submit tracepoint's flags have bit 4 (REQ_F_FORCE_ASYNC, IOSQE_ASYNC's bit) on every
# FSYNC, set by io_uring's own prep, and on no WRITE. The trace keeps that bit as
# force_async, and labels no request iosqe_async true: the FSYNCs null (the bit may be
# the kernel's), the WRITEs false, against the tracepoints punt_truth.py recorded.
fio --name=tsync --ioengine=io_uring --rw=randwrite --bs=4k --iodepth=4 --direct=0 --size=8M --fsync=1 \
	--rate_iops=500 --time_based --runtime=10 --filename="$TMP/data/sync.dat" \
	--output="$TMP/sync.out" >/dev/null 2>&1 &
fio_pid=$!
fio_ring
if [ -z "$pid" ]; then
	bad "fio --fsync=1 starts its ring" "$(cat "$TMP/sync.out")"
else
	sleep 0.5
	python3 "$TRUTH" start "tsync$pid" "$pid" || bad "ground truth of fio --fsync=1 starts"
	"$BIN" audit "$pid" --watch 2 --trace "$TMP/sync.trace.json" --format json --fail-on never \
		>"$TMP/sync.json" 2>"$TMP/sync.err"
	rc=$?
	PUNT_TRUTH_RAW="$TMP/sync.truth.raw" python3 "$TRUTH" stop "tsync$pid" "$pid" >/dev/null
	if msg=$(python3 - "$TMP/sync.truth.raw" "$TMP/sync.trace.json" "$rc" <<'PY'
import json, re, sys
raw = json.load(open(sys.argv[1]))
bits = {}
for line in raw["lines"]:
    if "io_uring_submit_req" not in line:
        continue
    f, o = re.search(r"flags 0x([0-9a-f]+)", line), re.search(r"opcode (\w+)", line)
    if f and o:
        bits.setdefault(o.group(1), set()).add(bool(int(f.group(1), 16) & 0x10))
labels = {}
for e in json.load(open(sys.argv[2]))["traceEvents"]:
    if e.get("ph") == "b":
        a = e["args"]
        labels.setdefault(e["name"], set()).add((a.get("force_async"), a.get("iosqe_async")))
ok = (sys.argv[3] == "0" and bits.get("FSYNC") == {True} and bits.get("WRITE") == {False} and
      labels.get("FSYNC") == {(True, None)} and labels.get("WRITE") == {(False, False)})
print("tracepoints: bit 4 on %s; trace (force_async, iosqe_async): %s" %
      ({k: sorted(v) for k, v in bits.items()}, {k: sorted(v, key=str) for k, v in labels.items()}))
sys.exit(0 if ok else 1)
PY
	); then
		ok "fio --fsync=1: no request labelled iosqe_async true, the FSYNCs' bit kept as force_async ($msg)"
	else
		bad "fio --fsync=1: iosqe_async only from the application's flag" "rc $rc: $msg" "$(head -3 "$TMP/sync.err")"
	fi
fi
kill "$fio_pid" 2>/dev/null
wait "$fio_pid" 2>/dev/null

# Plain buffered writes punted on a ring without DEFER_TASKRUN (the pathology's): the
# worker re-issues each without a file lookup of its own, and posts its CQE itself. Each
# completed punted request names as io_wq_worker the thread io_uring_complete fired in
# when that is not the submitter (an iou-wrk thread of the process, as /proc lists them
# during the watch), and null only when the CQE came from the submitter (task work, as
# fio's DEFER_TASKRUN rings do: the kernel names no worker then).
mkdir -p "$TMP/pw"
"$HELPERS/pathology" buffered "$TMP/pw" >"$TMP/pw/out" 2>&1 &
pw=$!
for _ in $(seq 100); do grep -q ready "$TMP/pw/out" && break; sleep 0.05; done
"$BIN" audit "$pw" --watch 1 --trace "$TMP/pw.trace.json" --format json --fail-on never >/dev/null 2>"$TMP/pw.err" &
au=$!
: >"$TMP/pw.workers"
while kill -0 "$au" 2>/dev/null; do
	for t in /proc/"$pw"/task/*; do
		case $(cat "$t/comm" 2>/dev/null) in iou-wrk-*) basename "$t" >>"$TMP/pw.workers" ;; esac
	done
	sleep 0.1
done
wait "$au"
kill "$pw" 2>/dev/null
wait "$pw" 2>/dev/null
if msg=$(python3 - "$TMP/pw.workers" "$TMP/pw.trace.json" <<'PY'
import json, re, sys
wrk = {int(l) for l in open(sys.argv[1]) if l.strip()}
named, null, wrong = 0, 0, []
for e in json.load(open(sys.argv[2]))["traceEvents"]:
    a = e.get("args", {})
    if e.get("ph") != "b" or not a.get("punted") or not a.get("completed"):
        continue
    w, by = a.get("io_wq_worker"), a.get("completed_by")
    if by != e["tid"] and (w != by or w not in wrk):
        wrong.append((e["name"], w, by))
    elif w is None and by == e["tid"]:
        null += 1
    else:
        named += 1
print("punted WRITEs completed: %d name their worker, %d from the submitter null; iou-wrk tids /proc listed: %s%s" %
      (named, null, sorted(wrk)[:6], "; wrong: %s" % wrong[:4] if wrong else ""))
sys.exit(0 if named and not wrong else 1)
PY
); then
	ok "buffered writes punted without IOSQE_ASYNC: $msg"
else
	bad "buffered writes punted: each names the io-wq worker the kernel posted its CQE from" "$msg" "$(head -3 "$TMP/pw.err")"
fi
finish
