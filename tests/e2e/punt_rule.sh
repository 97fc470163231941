#!/bin/bash
# End-to-end for the punt rule (checks/punt_rule.c): a share of punts over
# punt-tolerance (1%) fails only when more than chance gives it. The pathology
# mode async-every makes real punts at a rate this suite sets (IOSQE_ASYNC on
# every Nth O_DIRECT overwrite, which always punts), in one burst of a known
# count inside audit --watch, while a tracefs instance of its own records the
# same process (punt_truth.py). punt_rule_check.py compares the audit's
# request and punt counts with the truth's, computes the verdict the truth's
# counts imply, and checks iowq-punts and file-punts give it, on both sides
# of chance: 1 punt in 48 requests (2.1%, what a 1% rate gives 38% of the
# time: info) and 3% of 1600 requests (48 where 16 are expected: fail).
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh
. tests/e2e/live.sh

mkdir -p "$TMP/data"
TRUTH=tests/e2e/punt_truth.py
CHECK=tests/e2e/punt_rule_check.py

if [ "$(id -u)" -ne 0 ]; then
	skip "punt rule" "the io_uring tracepoints need root"
	echo "punt_rule: $passed passed, $failed failed, $skipped skipped"
	exit 0
fi

# burst NAME EVERY REQUESTS WANT: one burst of REQUESTS requests, IOSQE_ASYNC on every
# EVERY-th, inside a watch of 5 s inside a truth; the verdict WANT (info or fail).
burst() {
	local name=$1 want=$4 apid rc i
	rm -f "$TMP"/ready.async-every.*
	PATHOLOGY_PUNT_EVERY=$2 PATHOLOGY_REQUESTS=$3 start async-every || return
	python3 "$TRUTH" start "punt$pid" "$pid" 65536 || { bad "$name: ground truth starts"; stop "$pid"; return; }
	"$BIN" audit "$pid" --watch 5 --format json --fail-on never >"$TMP/$name.json" 2>"$TMP/$name.err" &
	apid=$!
	# The burst starts once the watch has its perf events open (a poll of its fds), and
	# the truth stops at the burst's end: the less it records of other processes' io_uring
	# events, the less its buffer can lose of this one's.
	for i in $(seq 100); do
		ls -l "/proc/$apid/fd" 2>/dev/null | grep -q 'perf_event' && break
		sleep 0.05
	done
	sleep 0.3
	kill -USR1 "$pid"
	for i in $(seq 200); do
		grep -q '^done' "$TMP"/ready.async-every.* 2>/dev/null && break
		sleep 0.05
	done
	PUNT_TRUTH_RAW="$TMP/$name.truth.raw" python3 "$TRUTH" stop "punt$pid" "$pid" >"$TMP/$name.truth"
	wait "$apid"
	rc=$?
	stop "$pid"
	if [ "$rc" -ne 0 ]; then
		bad "$name: audit --watch exits 0" "rc $rc: $(cat "$TMP/$name.err")"
	elif msg=$(python3 "$CHECK" "$TMP/$name.json" "$TMP/$name.truth" "$TMP/$name.truth.raw" \
			"$(readlink -f "$TMP/data")/every.dat" "$want"); then
		ok "$name: $msg"
	else
		bad "$name: counts and verdict against the tracepoints" "$msg" \
			"process: $(grep -h '^done' "$TMP"/ready.async-every.* 2>/dev/null)"
	fi
}

burst "1 punt in 48 requests, chance" 48 48 info
burst "3% of 1600 requests, more than chance" 33 1600 fail

echo "punt_rule: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
