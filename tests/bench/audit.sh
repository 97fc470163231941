#!/bin/bash
# audit's cost next to its floor, side by side in one run:
#  - the pathology many-files process (10,000 open files, 8 rings): uringlint audit,
#    in text and in JSON, against a program that only lists the fds, readlinks each
#    and reads its fdinfo;
#  - audit --all with 1,000 extra sleeping processes;
#  - peak memory of the 10,000-file audit.
# No pass/fail: a benchmark informs, it does not gate.
#
#   bash tests/bench/audit.sh [RUNS]     (from the repository root, after make bench)
set -eu
cd "$(dirname "$0")/../.."
runs=${1:-10}
BIN=./uringlint
FLOOR=build/tests/audit_floor
PATHO=build/tests/pathology
TMP=$(mktemp -d)
pids=()
cleanup() {
	[ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

mean_ms() { # mean_ms CMD...: mean wall milliseconds over $runs runs
	local t0 t1
	t0=$(date +%s%N)
	for _ in $(seq "$runs"); do "$@" >/dev/null 2>&1 || true; done
	t1=$(date +%s%N)
	echo "scale=1; ($t1 - $t0) / $runs / 1000000" | bc
}

ulimit -n 20000 2>/dev/null || true
"$PATHO" many-files "$TMP" >"$TMP/ready" &
pids+=($!)
for _ in $(seq 100); do grep -q ready "$TMP/ready" 2>/dev/null && break; sleep 0.1; done
pid=$(awk '{print $2}' "$TMP/ready")
[ -n "$pid" ] || { echo "bench: pathology many-files did not start" >&2; exit 2; }

floor_in=$("$FLOOR" "$pid" "$runs")
floor_proc_ms=$(mean_ms "$FLOOR" "$pid" 1)
audit_ms=$(mean_ms "$BIN" audit "$pid" -q)
json_ms=$(mean_ms "$BIN" audit "$pid" --format json)
peak_kb=$( { /usr/bin/time -f "%M" "$BIN" audit "$pid" -q >/dev/null; } 2>&1 | tail -n 1)
peak_json_kb=$( { /usr/bin/time -f "%M" "$BIN" audit "$pid" --format json >/dev/null; } 2>&1 | tail -n 1)

echo "audit of pid $pid: 10,000 files, 8 rings; $runs runs each"
echo "floor, in-process (list, readlink, fdinfo):  $(echo "scale=1; $floor_in / 1000" | bc) ms"
echo "floor, as a process:                          $floor_proc_ms ms"
echo "uringlint audit (text):                       $audit_ms ms"
echo "uringlint audit (json):                       $json_ms ms"
echo "ratio audit / floor process:                  text $(echo "scale=2; $audit_ms / $floor_proc_ms" | bc), json $(echo "scale=2; $json_ms / $floor_proc_ms" | bc)"
echo "peak memory: text $((peak_kb / 1024)) MiB, json $((peak_json_kb / 1024)) MiB"

# 1,000 extra sleeping processes for --all, the 10,000-file process gone.
kill "$pid"
for _ in $(seq 1000); do sleep 600 & pids+=($!); done
all_ms=$(mean_ms "$BIN" audit --all -q)
echo "audit --all with 1,000 extra processes:       $all_ms ms"
