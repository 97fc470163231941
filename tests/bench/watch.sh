#!/bin/bash
# What audit --watch costs the process it watches: fio writing with every
# request forced to io-wq (force_async=1, so each write is a punt and every
# tracepoint fires) for a fixed number of writes, timed plain, under a
# watch over its whole run, and (when perf is installed) under `perf stat`
# counting the punt tracepoint alone, the least any exact count costs;
# alternating in one run. The file is on XFS on a loop device over memory,
# the highest punt rate this machine reaches (about 100k a second on the
# 2-core VM) and far less noisy than a disk. Prints each round and the
# ratios of the medians; the goal is 1.05 or less. Informs, never gates.
# Root (the tracepoints and the loop device).
#
#   bash tests/bench/watch.sh [WRITES] [ROUNDS]   (after make)
set -eu
cd "$(dirname "$0")/../.."
writes=${1:-300000}
rounds=${2:-15}
BIN=./uringlint
command -v fio >/dev/null || { echo "bench: fio is missing (apt-get install fio)" >&2; exit 2; }
. tests/bench/lib.sh
loopfs watch 512M
fio --name=layout --ioengine=psync --rw=write --bs=1M --size=64M --direct=1 \
	--filename="$TMP/mnt/fio.dat" >/dev/null

# run MODE: seconds fio takes for $writes punted writes under MODE (plain, watch, perf).
run() {
	local t0 t1 pid w
	t0=$(date +%s.%N)
	fio --name=punts --ioengine=io_uring --force_async=1 --rw=randwrite --bs=4k --iodepth=16 \
		--direct=1 --size=64M --io_size=$((writes * 4))k \
		--filename="$TMP/mnt/fio.dat" --output-format=terse >"$TMP/terse" &
	pid=$!
	case $1 in
	watch)
		w=$(ring_pid "$pid")
		"$BIN" audit "$w" --watch 60 --format json --fail-on never >"$TMP/watch.json" 2>/dev/null &
		;;
	perf)
		w=$(ring_pid "$pid")
		timeout 60 perf stat -o /dev/null -e io_uring:io_uring_queue_async_work -p "$w" \
			>/dev/null 2>&1 &
		;;
	esac
	wait "$pid"
	t1=$(date +%s.%N)
	[ "$1" = plain ] || wait || true
	# fio's own CPU (user + system, its io-wq workers included) in seconds, beside the time.
	awk -F';' -v s="$(echo "$t1 - $t0" | bc)" 'NR == 1 {print ($88 + $89) / 100 * s}' \
		"$TMP/terse" >>"$TMP/$1.cpu"
	echo "$t1 - $t0" | bc
}

modes="plain watch"
command -v perf >/dev/null && perf stat -o /dev/null true 2>/dev/null && modes="$modes perf"
printf '%-6s' ROUND
for m in $modes; do printf ' %9s' "$m"; done
printf '\n'
# A first run fills the new filesystem's metadata and the page allocator: not counted.
run plain >/dev/null
rm -f "$TMP/plain.cpu"
for r in $(seq "$rounds"); do
	printf '%-6s' "$r"
	for m in $modes; do
		t=$(run "$m")
		echo "$t" >>"$TMP/$m"
		printf ' %8.2fs' "$t"
	done
	printf '\n'
done
pm=$(median <"$TMP/plain")
wm=$(median <"$TMP/watch")
# Rounds run side by side: the median of each round's ratio cancels the VM's slow drifts.
paired() { paste "$TMP/plain${2:-}" "$TMP/$1${2:-}" | awk '{print $2 / $1}' | median; }
jq -r --arg w "$writes" '.processes[0].watch |
	"last watch: \(.punts) punts counted over \(.seconds_watched * 100 | floor / 100) s, " +
	"samples from \(.seconds_sampled * 100 | floor / 100) s of it " +
	"(\(.coverage * 1000 | floor / 10)% of the punts), \(.samples_lost) samples lost"' \
	"$TMP/watch.json"
printf 'watch: %s writes, all punted; median %.2fs plain, %.2fs watched: ratio %.3f, per round %.3f (goal <= 1.05)' \
	"$writes" "$pm" "$wm" "$(echo "$wm / $pm" | bc -l)" "$(paired watch)"
if [ -s "$TMP/perf" ]; then
	fm=$(median <"$TMP/perf")
	printf '; perf stat counting the punt tracepoint alone: %.2fs, ratio %.3f, per round %.3f' \
		"$fm" "$(echo "$fm / $pm" | bc -l)" "$(paired perf)"
fi
printf '\n'
# The wall time drifts with the VM's neighbours; the CPU fio itself spent says what the
# tracepoints cost its threads.
printf 'fio CPU per round, against plain: watched %.3f' "$(paired watch .cpu)"
[ -s "$TMP/perf.cpu" ] && printf ', perf stat %.3f' "$(paired perf .cpu)"
printf '\n'
