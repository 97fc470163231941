#!/bin/bash
# The probe next to Debian's fio with the same settings, alternating in one
# run: same directory, file size, block size, depth, O_DIRECT, random
# reads and writes, SQPOLL, fixed buffers and registered files. Prints the
# IOPS ratio per mode; the probe should reach 0.9 of fio's or better, as it
# must not be the bottleneck of what it measures. Informs, never gates.
#
#   bash tests/bench/probe_vs_fio.sh [DIR] [SECONDS] [ROUNDS]   (after make)
set -eu
cd "$(dirname "$0")/../.."
dir=${1:-.}
secs=${2:-3}
rounds=${3:-2}
BIN=./uringlint
command -v fio >/dev/null || { echo "bench: fio is missing (apt-get install fio)" >&2; exit 2; }
TMP=$(mktemp -d "$dir/.uringlint-bench-XXXXXX")
trap 'rm -rf "$TMP"' EXIT

common=(--ioengine=io_uring --rw=randrw --bs=4k --iodepth=32 --direct=1 --size=256M
	--time_based --runtime="$secs" --filename="$TMP/fio.dat" --output-format=json)
declare -A fio_args=(
	[default]=""
	[sqpoll]="--sqthread_poll=1"
	[sqpoll-fixed]="--sqthread_poll=1 --fixedbufs=1 --registerfiles=1"
)
# Lay fio's file out once, as the probe writes its own once.
fio --name=layout --ioengine=psync --rw=write --bs=1M --size=256M --direct=1 \
	--filename="$TMP/fio.dat" >/dev/null

printf '%-14s %12s %12s %8s\n' MODE "fio IOPS" "probe IOPS" ratio
for mode in default sqpoll sqpoll-fixed; do
	f_sum=0 p_sum=0
	for _ in $(seq "$rounds"); do
		# shellcheck disable=SC2086 # the mode's fio flags are words
		f=$(fio --name="$mode" "${common[@]}" ${fio_args[$mode]} | jq '.jobs[0].read.iops + .jobs[0].write.iops')
		p=$("$BIN" probe --dir "$TMP" --mode "$mode" --duration "$secs" --size 256M --format json --fail-on never |
			jq --arg m "$mode" '.probe.modes[] | select(.mode == $m) | .iops')
		f_sum=$(echo "$f_sum + $f" | bc)
		p_sum=$(echo "$p_sum + $p" | bc)
	done
	printf '%-14s %12.0f %12.0f %8.2f\n' "$mode" "$(echo "$f_sum / $rounds" | bc -l)" \
		"$(echo "$p_sum / $rounds" | bc -l)" "$(echo "$p_sum / $f_sum" | bc -l)"
done
