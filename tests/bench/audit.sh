#!/bin/bash
# audit's cost next to its floor, side by side in one run:
#  - the pathology many-files process (10,000 open files, 8 rings): uringlint audit,
#    in text and in JSON, against a program that only lists the fds, readlinks each
#    and reads its fdinfo (by path, and by name from the open directories);
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
floor_in_name=$("$FLOOR" "$pid" "$runs" by-name)
# Side by side, round after round, so a load that comes and goes weighs on
# each alike, in an order that turns each round: in a fixed order the one
# after the floor was measured here up to 5% slower. Two floors: by path
# (/proc/PID/fd/N, the floor as first defined) and by name from the open
# directories (the cheapest there is, and how uringlint reads a live host).
# The medians, and the median of each round's ratio.
for x in f n t j rt rj rtn rjn; do : >"$TMP/$x"; done
"$BIN" audit "$pid" --watch 0 -q >/dev/null 2>&1 || true	# warm-up
measure() { # measure f|n|t|j: one run of it, its microseconds in $f, $n, $t or $j
	case $1 in
	f) f=$(one_ms "$FLOOR" "$pid" 1) ;;
	n) n=$(one_ms "$FLOOR" "$pid" 1 by-name) ;;
	t) t=$(one_ms "$BIN" audit "$pid" --watch 0 -q) ;;
	j) j=$(one_ms "$BIN" audit "$pid" --watch 0 --format json) ;;
	esac
}
orders=("f n t j" "n t j f" "t j f n" "j f n t")
for r in $(seq "$runs"); do
	for x in ${orders[$((r % 4))]}; do measure "$x"; done
	echo "$f" >>"$TMP/f"; echo "$n" >>"$TMP/n"; echo "$t" >>"$TMP/t"; echo "$j" >>"$TMP/j"
	echo "$((t * 1000 / f))" >>"$TMP/rt"; echo "$((j * 1000 / f))" >>"$TMP/rj"
	echo "$((t * 1000 / n))" >>"$TMP/rtn"; echo "$((j * 1000 / n))" >>"$TMP/rjn"
done
floor_proc_ms=$(median <"$TMP/f")
floor_name_ms=$(median <"$TMP/n")
audit_ms=$(median <"$TMP/t")
json_ms=$(median <"$TMP/j")
peak_kb=$( { /usr/bin/time -f "%M" "$BIN" audit "$pid" --watch 0 -q >/dev/null; } 2>&1 | tail -n 1)
peak_json_kb=$( { /usr/bin/time -f "%M" "$BIN" audit "$pid" --watch 0 --format json >/dev/null; } 2>&1 | tail -n 1)
# Minor page faults of one run each: on a VM each costs microseconds.
faults() { /usr/bin/time -f "%R" -o "$TMP/faults" "$@" >/dev/null 2>&1; tail -n 1 "$TMP/faults"; }

echo "audit of pid $pid: 10,000 files, 8 rings; $runs rounds, medians"
echo "floor, in-process (list, readlink, fdinfo):  by path $(echo "scale=1; $floor_in / 1000" | bc) ms, by name $(echo "scale=1; $floor_in_name / 1000" | bc) ms"
echo "floor, as a process:                          by path $floor_proc_ms ms, by name $floor_name_ms ms"
echo "uringlint audit (text):                       $audit_ms ms"
echo "uringlint audit (json):                       $json_ms ms"
echo "ratio to the floor by path (of medians):      text $(echo "scale=2; $audit_ms / $floor_proc_ms" | bc), json $(echo "scale=2; $json_ms / $floor_proc_ms" | bc)"
echo "  median of each round's:                     text $(median 2 <"$TMP/rt"), json $(median 2 <"$TMP/rj")"
echo "ratio to the floor by name (of medians):      text $(echo "scale=2; $audit_ms / $floor_name_ms" | bc), json $(echo "scale=2; $json_ms / $floor_name_ms" | bc)"
echo "  median of each round's:                     text $(median 2 <"$TMP/rtn"), json $(median 2 <"$TMP/rjn")"
echo "peak memory: text $((peak_kb / 1024)) MiB, json $((peak_json_kb / 1024)) MiB"
echo "minor page faults: floor $(faults "$FLOOR" "$pid" 1), text $(faults "$BIN" audit "$pid" --watch 0 -q), json $(faults "$BIN" audit "$pid" --watch 0 --format json)"

# The answer without flags on a process whose rings sit idle: a plain audit decides no
# watch is needed (no io-wq worker ran, no ring moved, no thread in D) and answers at once.
plain_idle_ms=$(mean_ms "$BIN" audit "$pid" -q)
plain_watched=$("$BIN" audit "$pid" -q 2>/dev/null | grep -c "watched for" || true)
echo "plain audit of the idle 10,000-file process:  $plain_idle_ms ms (watched: $plain_watched)"

# 1,000 extra sleeping processes for --all, the 10,000-file process gone.
kill "$pid"
for _ in $(seq 1000); do sleep 600 & pids+=($!); done
all_ms=$(mean_ms "$BIN" audit --all --watch 0 -q)
echo "audit --all with 1,000 extra processes:       $all_ms ms"
