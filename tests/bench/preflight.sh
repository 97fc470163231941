#!/bin/bash
# Preflight's cost next to the floor: the same /proc and /sys files read by a
# program that only reads them. Both run here, now, in one go; the ratio is
# what to watch. No pass/fail: a benchmark informs, it does not gate.
#
#   bash tests/bench/preflight.sh [PASSES]     (from the repository root, after make)
set -eu
cd "$(dirname "$0")/../.."
passes=${1:-30}
BIN=./uringlint
FLOOR=build/tests/read_floor
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

command -v strace >/dev/null || { echo "bench: strace is missing (apt-get install strace)" >&2; exit 2; }
[ -x "$BIN" ] && [ -x "$FLOOR" ] || { echo "bench: run make bench" >&2; exit 2; }

mean_ms() { # mean_ms CMD...: mean wall milliseconds of CMD over $passes runs
	local t0 t1
	t0=$(date +%s%N)
	for _ in $(seq "$passes"); do "$@" >/dev/null 2>&1 || true; done
	t1=$(date +%s%N)
	echo "scale=2; ($t1 - $t0) / $passes / 1000000" | bc
}

# The files preflight really opens, as strace sees them (relative to the root fd).
no_probes="--skip io-uring-features,io-uring-available,fs-o-direct"
# shellcheck disable=SC2086
strace -f -qq -e trace=openat,openat2 -o "$TMP/trace" "$BIN" preflight $no_probes >/dev/null 2>&1 || true
grep -oE 'openat2?\(3, "[^"]+"' "$TMP/trace" | sed -E 's/^openat2?\(3, "//; s/"$//' | sort -u >"$TMP/files"
nfiles=$(wc -l <"$TMP/files")

floor_us=$("$FLOOR" "$TMP/files" "$passes")
floor_ms=$(echo "scale=2; $floor_us / 1000" | bc)
floor_proc_ms=$(mean_ms "$FLOOR" "$TMP/files" 1)
# shellcheck disable=SC2086
lint_ms=$(mean_ms "$BIN" preflight $no_probes)
full_ms=$(mean_ms "$BIN" preflight)
ratio=$(echo "scale=1; $lint_ms / $floor_proc_ms" | bc)

echo "files read by preflight: $nfiles; $passes runs each"
echo "floor, reads only (in-process):              $floor_ms ms"
echo "floor, as a process (exec + reads):          $floor_proc_ms ms"
echo "preflight without the io_uring and O_DIRECT tries: $lint_ms ms"
echo "preflight with everything:                   $full_ms ms"
echo "ratio: preflight without tries / floor process = $ratio"
