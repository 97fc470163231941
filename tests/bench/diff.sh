#!/bin/bash
# report diff and report merge on large reports: 20,000 and 40,000 findings a
# side and a report of about 200 MB (the size of a host with a few hundred
# thousand open files), old and new as a deploy changes them
# (tests/bench/report_gen.py). Each run has a time limit, printed with it:
# past it the run is killed and counted so. Prints wall and CPU seconds and
# the peak memory. Informs, never gates.
#
#   bash tests/bench/diff.sh [LIMIT_SECONDS]   (from the repository root, after make)
set -eu
cd "$(dirname "$0")/../.."
limit=${1:-120}
BIN=${BIN:-./uringlint}
command -v python3 >/dev/null || { echo "bench: python3 is missing (apt-get install python3)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
[ -x "$BIN" ] || { echo "bench: run make bench" >&2; exit 2; }
TMP=$(mktemp -d /tmp/uringlint-bench-diff-XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# timed CMD...: "wall cpu peak-MB" of CMD under the limit, or "killed" past it.
timed() {
	local rc
	timeout "$limit" /usr/bin/time -f '%e %U %S %M' -o "$TMP/time" "$@" >/dev/null 2>"$TMP/err" && rc=0 || rc=$?
	if [ "$rc" -eq 124 ]; then
		echo "killed - -"
	elif [ "$rc" -gt 1 ]; then
		echo "exit-$rc - -"
	else
		# The last line: time writes "Command exited with non-zero status 1" first.
		tail -n 1 "$TMP/time" | awk '{printf "%.2f %.2f %d\n", $1, $2 + $3, $4 / 1024}'
	fi
}

echo "report diff and report merge, time limit ${limit} s a run"
printf '%-10s %9s %8s %9s %8s %9s %8s %9s %8s\n' REPORT FINDINGS MB \
	DIFF_WALL DIFF_CPU DIFF_MB MERGE_WALL MERGE_CPU MERGE_MB
for spec in 20k:20000:0 40k:40000:0 200MB:250000:430; do
	IFS=: read -r name n pad <<<"$spec"
	python3 tests/bench/report_gen.py "$n" old --pad "$pad" >"$TMP/old.json"
	python3 tests/bench/report_gen.py "$n" new --pad "$pad" >"$TMP/new.json"
	findings=$(grep -c '"id"' "$TMP/new.json")
	mb=$(( $(stat -c %s "$TMP/new.json") / 1000000 ))
	read -r dw dc dm <<<"$(timed "$BIN" --format json report diff "$TMP/old.json" "$TMP/new.json")"
	read -r mw mc mm <<<"$(timed "$BIN" --format json report merge "$TMP/old.json" "$TMP/new.json")"
	printf '%-10s %9s %8s %9s %8s %9s %8s %9s %8s\n' "$name" "$findings" "$mb" \
		"$dw" "$dc" "$dm" "$mw" "$mc" "$mm"
	rm -f "$TMP/old.json" "$TMP/new.json"
done
