#!/bin/bash
# What audit --watch costs the process it watches: fio writing with every
# request forced to io-wq (force_async=1, so each write is a punt and
# every tracepoint fires) for a fixed number of writes, timed with and
# without a watch over its whole run, alternating in one run. Prints each
# pair and the ratio of the medians; the goal is 1.05 or less. Informs,
# never gates. Root (the tracepoints).
#
#   bash tests/bench/watch.sh [DIR] [WRITES] [ROUNDS]   (after make)
set -eu
cd "$(dirname "$0")/../.."
dir=${1:-.}
writes=${2:-300000}
rounds=${3:-3}
BIN=./uringlint
command -v fio >/dev/null || { echo "bench: fio is missing (apt-get install fio)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "bench: audit --watch needs root" >&2; exit 2; }
TMP=$(mktemp -d "$dir/.uringlint-bench-XXXXXX")
trap 'rm -rf "$TMP"' EXIT

fio --name=layout --ioengine=psync --rw=write --bs=1M --size=64M --direct=1 \
	--filename="$TMP/fio.dat" >/dev/null
# run WATCH: seconds fio takes for $writes punted writes; with WATCH=1 watched throughout.
run() {
	local t0 t1 pid
	t0=$(date +%s.%N)
	fio --name=punts --ioengine=io_uring --force_async=1 --rw=randwrite --bs=4k --iodepth=16 \
		--direct=1 --size=64M --io_size=$((writes * 4))k \
		--filename="$TMP/fio.dat" --output-format=json >"$TMP/fio.json" &
	pid=$!
	if [ "$1" = 1 ]; then
		# The job is a child of fio's main process; watch the one with the ring.
		pid_w=
		for _ in $(seq 100); do
			for c in $(pgrep -P "$pid") "$pid"; do
				ls -l /proc/"$c"/fd 2>/dev/null | grep -q io_uring && pid_w=$c
			done
			[ -n "$pid_w" ] && break
			sleep 0.02
		done
		"$BIN" audit "${pid_w:-$pid}" --watch 60 --format json --fail-on never \
			>"$TMP/watch.json" 2>/dev/null &
	fi
	wait "$pid"
	t1=$(date +%s.%N)
	[ "$1" = 1 ] && wait
	echo "$t1 - $t0" | bc
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }

printf '%-6s %10s %10s\n' ROUND plain watched
: >"$TMP/plain"
: >"$TMP/watched"
for r in $(seq "$rounds"); do
	p=$(run 0)
	w=$(run 1)
	echo "$p" >>"$TMP/plain"
	echo "$w" >>"$TMP/watched"
	printf '%-6s %9.2fs %9.2fs\n' "$r" "$p" "$w"
done
pm=$(median <"$TMP/plain")
wm=$(median <"$TMP/watched")
punts=$(jq '.processes[0].watch.punts // 0' "$TMP/watch.json")
lost=$(jq '.processes[0].watch.samples_lost // 0' "$TMP/watch.json")
printf 'watch: %s writes, all punted; median %.2fs plain, %.2fs watched: ratio %.3f (goal <= 1.05); last watch counted %s punts, %s samples lost\n' \
	"$writes" "$pm" "$wm" "$(echo "$wm / $pm" | bc -l)" "$punts" "$lost"
