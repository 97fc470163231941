#!/bin/bash
# End-to-end for the punt rule (checks/punt_chance.c): a share of punts over
# punt-tolerance (1%) fails only when more than chance gives it. The pathology
# mode async-every makes real punts at a rate this suite sets (IOSQE_ASYNC on
# every Nth O_DIRECT overwrite, which always punts), in one burst of a known
# count inside audit --watch, while a tracefs instance of its own records the
# same process (punt_truth.py). punt_rule_check.py compares the audit's
# request and punt counts with the truth's, computes the verdict the truth's
# counts imply, and checks iowq-punts and file-punts give it, on both sides
# of chance: 1 punt in 48 requests (2.1%, what a 1% rate gives 38% of the
# time: info) and 3% of 1600 requests (48 where 16 are expected: fail). Then
# a punt on an io-wq worker the burst starts, which file-punts must not pass.
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

# burst NAME EVERY REQUESTS: one burst of REQUESTS requests, IOSQE_ASYNC on every EVERY-th,
# inside a watch of 5 s inside a truth: $TMP/NAME.json, .truth and .truth.raw.
burst() {
	local name=$1 apid rc i
	rm -f "$TMP"/ready.async-every.*
	PATHOLOGY_PUNT_EVERY=$2 PATHOLOGY_REQUESTS=$3 start async-every || return 1
	python3 "$TRUTH" start --only "punt$pid" "$pid" 65536 || { bad "$name: ground truth starts"; stop "$pid"; return 1; }
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
	done_line=$(grep -h '^done' "$TMP"/ready.async-every.* 2>/dev/null)
	PUNT_TRUTH_RAW="$TMP/$name.truth.raw" python3 "$TRUTH" stop "punt$pid" "$pid" >"$TMP/$name.truth"
	wait "$apid"
	rc=$?
	stop "$pid"
	[ "$rc" -eq 0 ] || { bad "$name: audit --watch exits 0" "rc $rc: $(cat "$TMP/$name.err")"; return 1; }
}

# rule NAME EVERY REQUESTS WANT: a burst whose counts and verdict (info or fail) are checked.
rule() {
	local msg
	burst "$1" "$2" "$3" || return
	if msg=$(python3 "$CHECK" "$TMP/$1.json" "$TMP/$1.truth" "$TMP/$1.truth.raw" \
			"$(readlink -f "$TMP/data")/every.dat" "$4"); then
		ok "$1: $msg"
	else
		bad "$1: counts and verdict against the tracepoints" "$msg" "process: $done_line"
	fi
}

rule "1 punt in 48 requests, chance" 48 48 info
rule "3% of 1600 requests, more than chance" 33 1600 fail

# With no io-wq worker before the burst, its one punt starts the first: the watch attaches
# that worker within 10 ms, maybe after it took the file. Then the punt is tied to no file,
# and file-punts must say so, not pass: every punt the truth saw is either on every.dat
# or counted as tied to no file.
name="a punt on an io-wq worker started during the watch"
if PATHOLOGY_COLD=1 burst "$name" 48 48; then
	t=$(jq '.total.punts' "$TMP/$name.truth")
	if jq -e --argjson t "$t" '$t == 1 and
		([.findings[] | select(.id == "file-punts")] as $f |
		 ($f | map(select(.status == "pass")) | length) == 0 and
		 (($f | map(select(.evidence.path != null) | .evidence.punts) | add // 0) +
		  ($f | map(.evidence.unresolved_punts // 0) | add)) == $t)' "$TMP/$name.json" >/dev/null; then
		ok "$name: file-punts $(jq -r '[.findings[] | select(.id == "file-punts") | .status] | join(", ")' "$TMP/$name.json"), $(jq '.processes[0].watch.threads_attached_late' "$TMP/$name.json") thread attached late (truth: $t punt)"
	else
		bad "$name: file-punts does not pass" "truth $t punts; process: $done_line" \
			"$(jq -c '[.findings[] | select(.id == "file-punts" or .id == "iowq-punts") | [.status, .message[:200], .evidence.unresolved_punts]]' "$TMP/$name.json")" \
			"$(jq -c '.processes[0].watch | {threads_attached_late, punts_cut, punts_unattributed}' "$TMP/$name.json")"
	fi
fi

echo "punt_rule: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
