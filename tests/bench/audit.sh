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

one_ms() { # one_ms CMD...: wall milliseconds of one run
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1 || true
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000))
}
median() { sort -n | awk -v d="${1:-1}" '{v[NR] = $1} END {m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.*f\n", d, m / 1000}'; }

floor_in=$("$FLOOR" "$pid" "$runs")
# The three side by side, round after round, so a load that comes and goes
# weighs on each alike; the medians, and the median of each round's ratio.
: >"$TMP/f"; : >"$TMP/t"; : >"$TMP/j"; : >"$TMP/rt"; : >"$TMP/rj"
"$BIN" audit "$pid" -q >/dev/null 2>&1 || true	# warm-up
for _ in $(seq "$runs"); do
	f=$(one_ms "$FLOOR" "$pid" 1)
	t=$(one_ms "$BIN" audit "$pid" -q)
	j=$(one_ms "$BIN" audit "$pid" --format json)
	echo "$f" >>"$TMP/f"; echo "$t" >>"$TMP/t"; echo "$j" >>"$TMP/j"
	echo "$((t * 1000 / f))" >>"$TMP/rt"; echo "$((j * 1000 / f))" >>"$TMP/rj"
done
floor_proc_ms=$(median <"$TMP/f")
audit_ms=$(median <"$TMP/t")
json_ms=$(median <"$TMP/j")
round_text=$(median 2 <"$TMP/rt")
round_json=$(median 2 <"$TMP/rj")
peak_kb=$( { /usr/bin/time -f "%M" "$BIN" audit "$pid" -q >/dev/null; } 2>&1 | tail -n 1)
peak_json_kb=$( { /usr/bin/time -f "%M" "$BIN" audit "$pid" --format json >/dev/null; } 2>&1 | tail -n 1)

echo "audit of pid $pid: 10,000 files, 8 rings; $runs rounds, medians"
echo "floor, in-process (list, readlink, fdinfo):  $(echo "scale=1; $floor_in / 1000" | bc) ms"
echo "floor, as a process:                          $floor_proc_ms ms"
echo "uringlint audit (text):                       $audit_ms ms"
echo "uringlint audit (json):                       $json_ms ms"
echo "ratio audit / floor process (of medians):     text $(echo "scale=2; $audit_ms / $floor_proc_ms" | bc), json $(echo "scale=2; $json_ms / $floor_proc_ms" | bc)"
echo "ratio, median of each round's:                text $round_text, json $round_json"
echo "peak memory: text $((peak_kb / 1024)) MiB, json $((peak_json_kb / 1024)) MiB"

# 1,000 extra sleeping processes for --all, the 10,000-file process gone.
kill "$pid"
for _ in $(seq 1000); do sleep 600 & pids+=($!); done
all_ms=$(mean_ms "$BIN" audit --all -q)
echo "audit --all with 1,000 extra processes:       $all_ms ms"
