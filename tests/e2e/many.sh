#!/bin/bash
# End-to-end for many processes in one window: `audit --all` and
# `audit PID...` with no flags, as root, watch every process that needs it at
# once. Punting processes (buffered writes on a normal fd) run beside idle
# ring holders; a tracefs instance of its own records each punting process
# (punt_truth.py). Each one's files, shares and cause are compared with its
# truth (watch_compare.py), and the watches are shown to share one window:
# each began before any other ended. The time to a verdict is measured in
# tests/bench/watch.sh, not asserted here.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh
. tests/e2e/live.sh

TRUTH=tests/e2e/punt_truth.py
COMPARE=tests/e2e/watch_compare.py
NPUNT=${MANY_PUNTING:-4}
NIDLE=${MANY_IDLE:-4}

if [ "$(id -u)" -ne 0 ]; then
	skip "many processes in one watch" "the io_uring tracepoints need root"
	echo "many: $passed passed, $failed failed, $skipped skipped"
	exit 0
fi

# start_in MODE: a pathology process in a directory of its own (its files named apart).
start_in() {
	local dir
	dir=$(mktemp -d "$TMP/p.XXXX")
	start "$1" "$dir"
}

# one_process JSON PID: the report cut down to one process, as an audit of it alone reads.
one_process() {
	jq --argjson p "$2" '.processes |= map(select(.pid == $p)) |
		.findings |= map(select(.pid == $p))' "$1"
}

# one_window JSON PID...: whether the watches of these processes overlap, each
# one's first window beginning before every other's last ended.
one_window() {
	local json=$1
	shift
	jq -e --argjson pids "$(printf '%s\n' "$@" | jq -s -c .)" '
		[.processes[] | select(.pid as $p | $pids | index($p)) | .watch] as $w |
		($w | length) == ($pids | length) and all($w[]; . != null and (.windows | length) > 0) and
		([$w[] | .windows[0][0]] | max) < ([$w[] | .windows[-1][1]] | min)' "$json" >/dev/null
}

# compare_each JSON LABEL PID...: each process's verdict against its truth.
compare_each() {
	local json=$1 label=$2 p msg
	shift 2
	for p in "$@"; do
		one_process "$json" "$p" >"$TMP/one.$p.json"
		if msg=$(python3 "$COMPARE" "$TMP/one.$p.json" "$TMP/truth.$p" buffered); then
			ok "$label: pid $p: $msg"
		else
			bad "$label: pid $p: file, share and cause against its tracepoints" "$msg"
		fi
	done
}

punting=() idle=()
for _ in $(seq "$NPUNT"); do start_in buffered-fd && punting+=("$pid"); done
for _ in $(seq "$NIDLE"); do start_in idle-worker && idle+=("$pid"); done
[ "${#punting[@]}" -eq "$NPUNT" ] && [ "${#idle[@]}" -eq "$NIDLE" ] || {
	echo "many: $passed passed, $failed failed, $skipped skipped"
	exit 1
}
sleep 0.5

# truth_around NAME CMD...: CMD with every punting process recorded around it.
truth_around() {
	local name=$1 p rc
	shift
	for p in "${punting[@]}"; do
		# Each process's own events (perf record -p), never the host's: another
		# process's load filled a host-wide instance until it held none of this one's.
		python3 "$TRUTH" start --only "many$p" "$p" || { bad "ground truth for pid $p starts"; return 1; }
	done
	"$@" >"$TMP/$name.json" 2>"$TMP/$name.err"
	rc=$?
	for p in "${punting[@]}"; do
		PUNT_TRUTH_RAW="$TMP/truth.$p.raw" python3 "$TRUTH" stop "many$p" "$p" >"$TMP/truth.$p"
	done
	return "$rc"
}

# --- audit --all, no flags ------------------------------------------------------
run_all() { "$BIN" audit --all --format json --fail-on never; }
if truth_around all run_all; then
	compare_each "$TMP/all.json" "--all" "${punting[@]}"
	if one_window "$TMP/all.json" "${punting[@]}"; then
		ok "--all: the ${#punting[@]} punting processes were watched in one window"
	else
		bad "--all: one window" "$(jq -c '[.processes[] | {pid, w: .watch.windows}]' "$TMP/all.json")"
	fi
	# The idle holders took no request: nothing of theirs is a punt.
	bad_idle=$(jq -r --argjson ids "$(printf '%s\n' "${idle[@]}" | jq -s -c .)" '
		[.findings[] | select((.pid as $p | $ids | index($p)) and
			(.id == "iowq-punts" or .id == "file-punts") and
			(.status == "fail" or .status == "warn")) | "\(.pid) \(.id) \(.status)"] | join(", ")' "$TMP/all.json")
	[ -z "$bad_idle" ] && ok "--all: the ${#idle[@]} idle ring holders: no punt blamed" ||
		bad "--all: the idle ring holders: no punt blamed" "$bad_idle"
else
	bad "audit --all exits 0 with --fail-on never" "$(head -c 400 "$TMP/all.err")"
fi

# --- audit PID PID..., no flags -------------------------------------------------
run_named() { "$BIN" audit "${punting[@]}" --format json --fail-on never; }
if truth_around named run_named; then
	compare_each "$TMP/named.json" "named" "${punting[@]}"
	one_window "$TMP/named.json" "${punting[@]}" &&
		ok "named: the ${#punting[@]} processes were watched in one window" ||
		bad "named: one window" "$(jq -c '[.processes[] | {pid, w: .watch.windows}]' "$TMP/named.json")"
else
	bad "audit PID... exits 0 with --fail-on never" "$(head -c 400 "$TMP/named.err")"
fi

# --- --watch 0: nobody is watched, nothing passes from a watch ----------------
"$BIN" audit "${punting[@]}" --watch 0 --format json --fail-on never >"$TMP/off.json" 2>"$TMP/off.err"
jq -e '([.processes[] | select(.watch != null)] | length == 0) and
	([.findings[] | select(.id == "iowq-punts" and .status == "pass")] | length == 0)' \
	"$TMP/off.json" >/dev/null && ok "--watch 0: no process watched, no punt check passed" ||
	bad "--watch 0: no process watched" "$(jq -c '[.findings[] | select(.id == "iowq-punts") | [.pid, .status]]' "$TMP/off.json")"

for p in "${punting[@]}" "${idle[@]}"; do stop "$p"; done
echo "many: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
