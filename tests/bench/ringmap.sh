#!/bin/bash
# What the ring map costs the process it maps: fio reading at this VM's
# highest IOPS (4k random O_DIRECT reads, depth 32, on XFS on a loop device
# over memory: nothing punted, every request submitted and completed
# through the ring), a fixed number of reads, timed plain, under
# `audit --watch` over its whole run, and run under `audit --exec`, in
# turns in one run. fio's own runtime of the reads is compared (terse
# output), so uringlint's start and its report are not counted. Prints each
# round, the ratio of the medians and the median of each round's ratio; the
# goal is 1.03 or less. Informs, never gates. Root.
#
#   bash tests/bench/ringmap.sh [READS] [ROUNDS]   (after make)
set -eu
cd "$(dirname "$0")/../.."
reads=${1:-400000}
rounds=${2:-11}
BIN=${BIN:-./uringlint}
command -v fio >/dev/null || { echo "bench: fio is missing (apt-get install fio)" >&2; exit 2; }
. tests/bench/lib.sh
loopfs ringmap 512M
fio --name=layout --ioengine=psync --rw=write --bs=1M --size=128M --direct=1 \
	--filename="$TMP/mnt/fio.dat" >/dev/null

job=(--name=reads --ioengine=io_uring --rw=randread --bs=4k --iodepth=32 --direct=1 --size=128M
	--io_size=$((reads * 4))k --filename="$TMP/mnt/fio.dat" --output-format=terse)
# fio's read runtime in seconds, from its terse line (field 9, ms).
runtime() { awk -F';' '$3 == "reads" {printf "%.3f\n", $9 / 1000}' "$1"; }
run() { # MODE: plain, watch or exec
	local pid w
	case $1 in
	plain)
		fio "${job[@]}" >"$TMP/out"
		;;
	watch)
		fio "${job[@]}" >"$TMP/out" &
		pid=$!
		w=$(ring_pid "$pid")
		"$BIN" audit "$w" --watch 60 --format json --fail-on never >"$TMP/watch.json" 2>/dev/null &
		wait "$pid"
		wait || true
		;;
	exec)
		"$BIN" audit --format json -o "$TMP/exec.json" --exec -- fio "${job[@]}" >"$TMP/out" 2>/dev/null || true
		;;
	esac
	runtime "$TMP/out"
}
paired() { paste "$TMP/plain" "$TMP/$1" | awk '{print $2 / $1}' | median; }

modes="plain watch exec"
printf '%-6s' ROUND
for m in $modes; do printf ' %9s' "$m"; done
printf '\n'
run plain >/dev/null	# the first run fills the new filesystem's metadata: not counted
for r in $(seq "$rounds"); do
	printf '%-6s' "$r"
	for m in $modes; do
		t=$(run "$m")
		echo "$t" >>"$TMP/$m"
		printf ' %8.3fs' "$t"
	done
	printf '\n'
done
pm=$(median <"$TMP/plain")
jq -r '.processes[0].watch | "last watch: \(.rings | length) rings, requests sampled in " +
	"\(.seconds_sampled * 100 | floor / 100) of \(.seconds_watched * 100 | floor / 100) s, " +
	"\(.samples_lost) samples lost"' "$TMP/watch.json"
jq -r '.processes[0].watch | "last exec: setup flags \([.rings[] | .setup.flags] | unique)"' \
	"$TMP/exec.json" 2>/dev/null || true
for m in watch exec; do
	mm=$(median <"$TMP/$m")
	printf 'ringmap %s: %s reads; median %.3fs plain, %.3fs %s: ratio %.3f, per round %.3f (goal <= 1.03)\n' \
		"$m" "$reads" "$pm" "$mm" "$m" "$(echo "$mm / $pm" | bc -l)" "$(paired "$m")"
done
