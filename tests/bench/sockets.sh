#!/bin/bash
# The socket inventory at scale: python3 processes holding unix socketpairs
# and TCP connections over 127.0.0.1 (both ends, and their listener), each
# as many as RLIMIT_NOFILE lets one process hold, PROCS of them (6: some
# 120,000 sockets in this network namespace's tables). Audited round after
# round next to the floor (sockets_floor: the fd links and the five
# /proc/PID/net tables read once, nothing parsed), in text and in JSON:
#  - one process, whose namespace's tables hold every holder's sockets;
#  - all of them in one run (the tables read once for all).
# Medians, their ratios, and whether an audit stays under one second.
# No pass/fail: a benchmark informs, it does not gate.
#
#   bash tests/bench/sockets.sh [RUNS]     (from the repository root, after make bench)
set -eu
cd "$(dirname "$0")/../.."
runs=${1:-7}
procs=${PROCS:-6}
conns=${CONNS:-250}
BIN=./uringlint
FLOOR=build/tests/sockets_floor
TMP=$(mktemp -d)
hpids=()
cleanup() {
	[ ${#hpids[@]} -gt 0 ] && kill "${hpids[@]}" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

# As many sockets as the hard limit lets one process hold, with room for its other fds.
ulimit -n "$(ulimit -Hn)"
nofile=$(ulimit -n)
pairs=$(((nofile - 100 - 2 * conns) / 2))
for i in $(seq "$procs"); do
	python3 tests/bench/sockets_holder.py "$pairs" "$conns" >"$TMP/ready.$i" &
	hpids+=($!)
done
pids=() total=0
for i in $(seq "$procs"); do
	for _ in $(seq 600); do grep -q ready "$TMP/ready.$i" 2>/dev/null && break; sleep 0.1; done
	read -r _ p n <"$TMP/ready.$i" || { echo "bench: socket holder $i did not start" >&2; exit 2; }
	pids+=("$p")
	total=$((total + n))
done
one=${pids[0]}
per=$(awk '{print $3}' "$TMP/ready.1")

one_us() { # one_us CMD...: wall microseconds of one run
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1 || true
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000))
}
median() { sort -n | awk -v d="${1:-1}" '{v[NR] = $1} END {m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.*f\n", d, m / 1000}'; }
under() { [ "$(echo "$1 < 1000" | bc)" = 1 ] && echo "under one second" || echo "NOT under one second"; }

# bench NAME PID...: floor, text and JSON side by side, $runs rounds.
bench() {
	local name=$1 f t j
	shift
	: >"$TMP/f"; : >"$TMP/t"; : >"$TMP/j"; : >"$TMP/rt"; : >"$TMP/rj"
	"$FLOOR" "$@" >/dev/null	# warm-up
	for _ in $(seq "$runs"); do
		f=$(one_us "$FLOOR" "$@")
		t=$(one_us "$BIN" audit "$@" --watch 0 -q --fail-on never)
		j=$(one_us "$BIN" audit "$@" --watch 0 --format json --fail-on never)
		echo "$f" >>"$TMP/f"; echo "$t" >>"$TMP/t"; echo "$j" >>"$TMP/j"
		echo "$((t * 1000 / f))" >>"$TMP/rt"; echo "$((j * 1000 / f))" >>"$TMP/rj"
	done
	f=$(median <"$TMP/f"); t=$(median <"$TMP/t"); j=$(median <"$TMP/j")
	echo "$name"
	echo "  floor (fd links, five net tables):  $f ms"
	echo "  uringlint audit (text):             $t ms, $(under "$t")"
	echo "  uringlint audit (json):             $j ms, $(under "$j")"
	echo "  ratio audit / floor (of medians):   text $(echo "scale=2; $t / $f" | bc), json $(echo "scale=2; $j / $f" | bc)"
	echo "  ratio, median of each round's:      text $(median 2 <"$TMP/rt"), json $(median 2 <"$TMP/rj")"
}

# The inventory is whole: every socket found, none "other".
"$BIN" audit "${pids[@]}" --watch 0 --format json --fail-on never >"$TMP/inv.json"
listed=$(jq '[.processes[].sockets.list | length] | add' "$TMP/inv.json")
other=$(jq '[.processes[].sockets.list[] | select(.proto == "other")] | length' "$TMP/inv.json")
echo "$procs processes of $per sockets each ($pairs socketpairs, $conns TCP connections; RLIMIT_NOFILE $nofile), $total in all; $runs rounds, medians"
echo "listed by audit of all: $listed ($other not identified)"
bench "audit of one process ($per sockets; its namespace's tables hold $total and more)" "$one"
bench "audit of all $procs in one run ($total sockets)" "${pids[@]}"
peak_kb=$( { /usr/bin/time -f "%M" "$BIN" audit "${pids[@]}" --watch 0 --format json --fail-on never >/dev/null; } 2>&1 | tail -n 1)
echo "peak memory of the audit of all (json): $((peak_kb / 1024)) MiB"
