#!/bin/bash
# End-to-end for audit --watch: one pathology mode per cause of punts, each
# audited for 2 s while a tracefs instance of its own records the same
# threads (punt_truth.py). The files blamed, their shares and their causes
# are compared with that ground truth (watch_compare.py). Then a process that
# exits mid-watch, the honest answer without --watch, and fio at the highest
# punt rate, where the watch samples in windows.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh
. tests/e2e/live.sh

mkdir -p "$TMP/data"
TRUTH=tests/e2e/punt_truth.py
COMPARE=tests/e2e/watch_compare.py

if [ "$(id -u)" -ne 0 ]; then
	skip "audit --watch" "the io_uring tracepoints need root"
	echo "watch: $passed passed, $failed failed, $skipped skipped"
	exit 0
fi

# watched MODE: starts MODE, audits it with --watch 2 inside a truth recording.
watched() {
	start "$1" || return 1
	sleep 0.5
	python3 "$TRUTH" start --only "watch$pid" "$pid" || { bad "$1: ground truth starts"; return 1; }
	"$BIN" audit "$pid" --watch 2 --format json --fail-on never >"$TMP/$1.json" 2>"$TMP/$1.err"
	local rc=$?
	PUNT_TRUTH_RAW="$TMP/$1.truth.raw" python3 "$TRUTH" stop "watch$pid" "$pid" >"$TMP/$1.truth"
	stop "$pid"
	[ "$rc" -eq 0 ] || { bad "$1: audit --watch exits 0" "rc $rc: $(cat "$TMP/$1.err")"; return 1; }
}

for c in "buffered-fd buffered" "small-buffered buffered" "sparse holes" "cached page-cache" \
	 "dirty-read dirty-page-cache" "extending extending" "async iosqe-async"; do
	set -- $c
	watched "$1" || continue
	if msg=$(python3 "$COMPARE" "$TMP/$1.json" "$TMP/$1.truth" "$2"); then
		ok "$1: $msg"
	else
		bad "$1: file, share and cause against the tracepoints" "$msg"
	fi
done

# The log written with plain write(2) and the small files nobody writes through io_uring.
for m in buffered-fd small-buffered; do
	[ -s "$TMP/$m.json" ] || { bad "$m: only data.dat is blamed" "no report of its watch (failed above)"; continue; }
	blamed=$(jq -r '[.findings[] | select(.status == "fail" or .status == "warn") |
		select(.id == "fd-o-direct" or .id == "fd-append" or .id == "file-punts" or
		       .id == "file-extents") | .subject] | join("\n")' "$TMP/$m.json")
	if grep -q 'data\.dat' <<<"$blamed" && ! grep -qE 'app\.log|small-' <<<"$blamed"; then
		ok "$m: only data.dat is blamed, not the log or the files io_uring never wrote"
	else
		bad "$m: only data.dat is blamed" "$blamed"
	fi
done

# The plain-call count goes on past the ring's first request (each call's own tracepoint,
# open while sampling): buffered-fd does its file I/O on the ring only, so it counts none, over
# the seconds sampled, and uring-fallback passes.
if ! [ -s "$TMP/buffered-fd.json" ]; then
	bad "buffered-fd: the plain-call counter covers the watch" "no report of its watch (failed above)"
else
	if jq -e '.processes[0].watch | .plain_io == 0 and .plain_io_error == null and
		.plain_io_seconds > 0 and (.rings | map(.requests) | add) > 0' "$TMP/buffered-fd.json" >/dev/null &&
		jq -e '[.findings[] | select(.id == "uring-fallback")][0].status == "pass"' \
			"$TMP/buffered-fd.json" >/dev/null; then
		ok "buffered-fd: the plain-call counter covers the watch past the first request ($(jq '.processes[0].watch.plain_io_seconds * 100 | floor / 100' "$TMP/buffered-fd.json") s, 0 plain calls), uring-fallback passes"
	else
		bad "buffered-fd: the plain-call counter covers the watch" \
			"$(jq -c '.processes[0].watch | {plain_io, plain_io_error, plain_io_seconds, requests}' "$TMP/buffered-fd.json")"
	fi
fi

# IOSQE_ASYNC is read from the request: every punt of the async mode carries it.
if ! [ -s "$TMP/async.json" ]; then
	bad "async: every punt had IOSQE_ASYNC" "no report of its watch (failed above)"
else
	jq -e '[.findings[] | select(.id == "file-punts") | .evidence |
		select(.iosqe_async_punts == .punts and .punts > 0)] | length == 1' \
		"$TMP/async.json" >/dev/null && ok "async: every punt had IOSQE_ASYNC" ||
		bad "async: every punt had IOSQE_ASYNC" "$(jq -c '.findings[] | select(.id == "file-punts") | .evidence' "$TMP/async.json")"
fi

# Without --watch nothing is claimed about files io_uring may or may not write.
if start small-buffered; then
	"$BIN" audit "$pid" --watch 0 --format json --fail-on never >"$TMP/nowatch.json" 2>/dev/null
	stop "$pid"
	jq -e '[.findings[] | select(.id == "fd-o-direct")] as $f |
		($f | map(select(.status == "pass" or .status == "fail")) | length == 0) and
		($f | map(select(.status == "skip" and (.message | contains("run audit --watch")))) | length == 1)' \
		"$TMP/nowatch.json" >/dev/null && ok "small-buffered without --watch: not judged, never passed" ||
		bad "small-buffered without --watch: not judged" "$(jq -c '.findings[] | select(.id == "fd-o-direct") | [.status,.message]' "$TMP/nowatch.json")"
fi

# A process that exits mid-watch: exit 3, the time really watched, and why it ended.
if start buffered-fd; then
	victim=$pid
	( sleep 1.5; kill "$victim" ) &
	t0=$(date +%s.%N)
	"$BIN" audit "$victim" --watch 5 --format json >"$TMP/exit.json" 2>"$TMP/exit.err"
	rc=$?
	t1=$(date +%s.%N)
	wait
	took=$(echo "$t1 - $t0" | bc)
	if [ "$rc" -eq 3 ] && [ "$(wc -l <"$TMP/exit.err")" -eq 1 ] && grep -q "exited" "$TMP/exit.err" &&
	   jq -e '.processes[0].watch | .ended == "process exited" and .seconds_watched < 2 and .seconds_watched > 0.2' "$TMP/exit.json" >/dev/null &&
	   jq -e '[.findings[] | select(.id == "iowq-punts") | .evidence | select((.per_second | length) <= 2 and .ended == "process exited")] | length == 1' "$TMP/exit.json" >/dev/null &&
	   [ "$(echo "$took < 3.5" | bc)" -eq 1 ]; then
		ok "exit mid-watch: exit 3 after $(printf %.1f "$took") s, $(jq '.processes[0].watch.seconds_watched' "$TMP/exit.json") s watched, one line on stderr"
	else
		bad "exit mid-watch: exit 3" "rc $rc in $took s" "$(cat "$TMP/exit.err")" "$(jq -c '.processes[0].watch | del(.files, .rings)' "$TMP/exit.json")"
	fi
fi

# The highest rate: fio with every write forced to io-wq on a loop XFS (about 80k punts a
# second here). The watch samples in windows; the total stays exact, and the file, its
# share and its cause still match the tracepoints' own count.
if ! command -v fio >/dev/null; then
	skip "high rate" "fio is missing"
elif ! command -v mkfs.xfs >/dev/null; then
	skip "high rate" "mkfs.xfs is missing (xfsprogs)"
elif ! xfs_mount; then
	# Root (this suite runs only as root) with mkfs.xfs has all a loop mount needs.
	bad "high rate: a loop XFS mounts" "$(cat "$TMP/mount.err")"
else
	fio --name=layout --ioengine=psync --rw=write --bs=1M --size=64M --direct=1 \
		--filename="$TMP/xfs/fio.dat" >/dev/null 2>&1
	fio --name=fast --ioengine=io_uring --force_async=1 --rw=randwrite --bs=4k --iodepth=16 \
		--direct=1 --size=64M --time_based --runtime=30 --filename="$TMP/xfs/fio.dat" \
		--output-format=terse >/dev/null 2>&1 &
	kids+=($!)
	fio_pid=$!
	pid=
	for _ in $(seq 200); do
		for c in $(pgrep -P "$fio_pid") "$fio_pid"; do
			ring_fd "$c" >/dev/null && pid=$c
		done
		[ -n "$pid" ] && break
		sleep 0.02
	done
	sleep 0.5
	if [ -z "$pid" ]; then
		bad "high rate: fio starts its ring"
	elif python3 "$TRUTH" start "watchfio$pid" "$pid" 65536; then
		"$BIN" audit "$pid" --watch 2 --format json --fail-on never >"$TMP/fast.json" 2>"$TMP/fast.err"
		PUNT_TRUTH_RAW="$TMP/fast.truth.raw" python3 "$TRUTH" stop "watchfio$pid" "$pid" >"$TMP/fast.truth"
		if msg=$(python3 "$COMPARE" "$TMP/fast.json" "$TMP/fast.truth" iosqe-async); then
			ok "high rate: $msg"
		else
			bad "high rate: file, share and cause against the tracepoints" "$msg"
		fi
		# Windows engaged; the exact total within the truth's (longer) trace, and within 5% of the
		# punts the trace saw over the time watched, from the first window's start (unless the
		# truth itself lost events); the windows' edges tie no punt to no file.
		span=$(python3 - "$TMP/fast.truth.raw" "$TMP/fast.json" <<'PY'
import json, sys
sys.path.insert(0, "tests/e2e")
from punt_truth import LINE
raw = json.load(open(sys.argv[1]))
w = json.load(open(sys.argv[2]))["processes"][0]["watch"]
a = w["windows"][0][0]
b = a + w["seconds_watched"]
n = 0
for l in raw["lines"]:
    m = LINE.search(l)
    if m and m.group(3) == "io_uring_queue_async_work" and a <= float(m.group(2)) <= b:
        n += 1
print(n)
PY
)
		if jq -e --slurpfile t "$TMP/fast.truth" --argjson span "${span:-0}" '(.processes[0].watch |
			.seconds_sampled < .seconds_watched / 2 and .requests == null and
			.sampled_all == false and .punts_unattributed == 0 and
			($t[0].total.lost > 0 or (.punts <= $t[0].total.punts and $span > 0 and .punts >= 0.95 * $span and .punts <= 1.05 * $span))) and
			# Samples lost (the drain fell behind, as under ASan) and an io-wq worker started during
			# the watch (its first file lookups precede its attachment) are said in that warning:
			# allowed then, and only then.
			# A timed watch: one count for each second asked for, the exact total among them.
			([.findings[] | select(.id == "iowq-punts")][0].evidence as $e |
			 ($e.per_second | length) == $e.seconds and ($e.per_second | add) == .processes[0].watch.punts) and
			(.processes[0].watch.samples_lost > 0 or .processes[0].watch.threads_attached_late > 0 or
			 ([.findings[] | select(.id == "file-punts" and (.message | contains("could not be tied")))] | length == 0))' \
			"$TMP/fast.json" >/dev/null; then
			ok "high rate: sampled $(jq '.processes[0].watch.seconds_sampled * 100 | floor / 100' "$TMP/fast.json") s of 2 s, $(jq '.processes[0].watch.punts' "$TMP/fast.json") punts counted exactly (truth $span in the seconds watched from the first window's start, $(jq '.total.punts' "$TMP/fast.truth") in its whole trace, lost $(jq '.total.lost' "$TMP/fast.truth")); $(jq '.processes[0].watch.punts_cut' "$TMP/fast.json") cut by the windows' edges, none tied to no file"
		else
			bad "high rate: windows and an exact total" "$(jq -c '.processes[0].watch | del(.files, .rings, .per_second)' "$TMP/fast.json")" "$(jq -c .total "$TMP/fast.truth"), in the windows' span: ${span:-?}" \
				"$(jq -c '[.findings[] | select(.id == "file-punts" or .id == "iowq-punts") | .message, .evidence.per_second?]' "$TMP/fast.json")"
		fi
	else
		bad "high rate: ground truth starts"
	fi
	kill "$fio_pid" 2>/dev/null
	wait "$fio_pid" 2>/dev/null
fi

# --exec of a set-group-ID program: the kernel removes the events of a task at such an
# exec, so the watch stops it at its exec (ptrace) and attaches there. Its punts against
# ftrace's, which no exec drops: every one is counted (1% for the clocks at the edges).
SG=$TMP/setgid
mkdir -p "$SG" && cp "$PATHO" "$SG/pathology" && chgrp "$(getent group disk >/dev/null && echo disk || echo 6)" "$SG/pathology" &&
	chmod 2755 "$SG/pathology"
if [ ! -g "$SG/pathology" ] || findmnt -no OPTIONS -T "$SG" | grep -qw nosuid; then
	skip "--exec of a set-group-ID program" "no set-group-ID file can be made in $SG (nosuid)"
elif python3 "$TRUTH" start "watchsg$$" 1; then
	PATHOLOGY_SECONDS=2 "$BIN" audit --exec --format json --fail-on never -o "$TMP/setgid.json" -- \
		"$SG/pathology" buffered "$TMP/data" >"$TMP/setgid.out" 2>"$TMP/setgid.err"
	sgpid=$(jq '.processes[0].pid' "$TMP/setgid.json" 2>/dev/null)
	python3 "$TRUTH" stop "watchsg$$" "${sgpid:-1}" >"$TMP/setgid.truth"
	truth=$(jq '.total.punts' "$TMP/setgid.truth")
	# ftrace's buffer takes every process's events: one that overflowed (lost > 0)
	# makes its count a floor, no longer a ceiling.
	lost=$(jq '.total.lost' "$TMP/setgid.truth")
	if jq -e --argjson t "${truth:-0}" --argjson lost "${lost:-0}" '.processes[0].watch as $w | $t > 100 and $w.punts > 0 and
		($w.punts <= $t or $lost > 0) and $w.punts >= 0.99 * $t and $w.stopped_at_exec == true and $w.blind == null and
		([.findings[] | select(.id == "iowq-punts")][0].status == "fail")' "$TMP/setgid.json" >/dev/null; then
		ok "--exec of a set-group-ID program: stopped at its exec and watched from there ($(jq '.processes[0].watch.attached_after_exec_ms * 100 | floor / 100' "$TMP/setgid.json") ms after its start), $(jq '.processes[0].watch.punts' "$TMP/setgid.json") punts of ftrace's $truth, iowq-punts fails"
	else
		bad "--exec of a set-group-ID program: not blind" "truth $truth punts ($lost lost)" \
			"$(jq -c '.processes[0].watch | {punts, attached_after_exec_ms, stopped_at_exec, blind, coverage}' "$TMP/setgid.json")" \
			"$(jq -c '[.findings[] | select(.id == "iowq-punts")][0] | [.status, .message]' "$TMP/setgid.json")" "$(head -3 "$TMP/setgid.err")"
	fi
else
	bad "--exec of a set-group-ID program: ground truth starts"
fi
# The same where uringlint may not trace (ptrace refused by a seccomp filter): the watch
# attaches by its threads once the exec is seen, missing only its first instant.
if [ ! -g "$SG/pathology" ] || findmnt -no OPTIONS -T "$SG" | grep -qw nosuid; then
	skip "--exec of a set-group-ID program, no ptrace" "no set-group-ID file can be made in $SG (nosuid)"
elif [ ! -x "$HELPERS/seccomp-deny" ]; then
	bad "--exec of a set-group-ID program, no ptrace: $HELPERS/seccomp-deny is built"
elif ! python3 "$TRUTH" start "watchsgp$$" 1; then
	bad "--exec of a set-group-ID program, no ptrace: ground truth starts"
else
	PATHOLOGY_SECONDS=2 "$HELPERS/seccomp-deny" --ptrace 1 "$BIN" audit --exec --format json \
		--fail-on never -o "$TMP/setgid-np.json" -- "$SG/pathology" buffered "$TMP/data" \
		>"$TMP/setgid-np.out" 2>"$TMP/setgid-np.err"
	sgpid=$(jq '.processes[0].pid' "$TMP/setgid-np.json" 2>/dev/null)
	python3 "$TRUTH" stop "watchsgp$$" "${sgpid:-1}" >"$TMP/setgid-np.truth"
	truth=$(jq '.total.punts' "$TMP/setgid-np.truth")
	# As above: a host-wide buffer that overflowed makes the count a floor.
	lost=$(jq '.total.lost' "$TMP/setgid-np.truth")
	if jq -e --argjson t "${truth:-0}" --argjson lost "${lost:-0}" '.processes[0].watch as $w | $t > 100 and
		($w.punts <= $t or $lost > 0) and $w.punts >= 0.95 * $t and $w.stopped_at_exec == false and
		$w.attached_after_exec_ms != null and $w.blind == null and
		([.findings[] | select(.id == "iowq-punts")][0].status == "fail")' "$TMP/setgid-np.json" >/dev/null; then
		ok "--exec of a set-group-ID program, no ptrace: watched by its threads from $(jq '.processes[0].watch.attached_after_exec_ms * 100 | floor / 100' "$TMP/setgid-np.json") ms after its start, $(jq '.processes[0].watch.punts' "$TMP/setgid-np.json") punts of ftrace's $truth"
	else
		bad "--exec of a set-group-ID program, no ptrace: watched after its exec" "truth $truth punts ($lost lost)" \
			"$(jq -c '.processes[0].watch | {punts, attached_after_exec_ms, stopped_at_exec, blind, coverage}' "$TMP/setgid-np.json")" \
			"$(head -3 "$TMP/setgid-np.err")"
	fi
fi

# A forking program: fio's I/O runs in a child it forks, which owns the ring. Under --exec
# the child is audited in its place, with the watch; a plain audit of the parent names it.
if ! command -v fio >/dev/null; then
	skip "a forking program" "fio is not installed"
elif ! python3 "$TRUTH" start "watchfk$$" 1; then
	bad "a forking program: ground truth starts"
else
	FIO_ARGS=(--name=fk --ioengine=io_uring --rw=randwrite --bs=4k --size=32m --filename="$TMP/data/fork.dat"
		--runtime=3 --time_based --iodepth=8 --output=/dev/null)
	"$BIN" audit --exec --format json --fail-on never -o "$TMP/fork.json" -- fio "${FIO_ARGS[@]}" \
		>/dev/null 2>"$TMP/fork.err"
	kid=$(jq '.processes[0].pid' "$TMP/fork.json" 2>/dev/null)
	python3 "$TRUTH" stop "watchfk$$" "${kid:-1}" >"$TMP/fork.truth"
	# The job process is gone when the truth is read: its punts in all (it writes one file).
	tp=$(jq '.total.punts' "$TMP/fork.truth")
	if jq -e --argjson tp "$tp" '(.processes | length) == 1 and (.processes[0].rings | length) == 1 and
		$tp > 0 and ([.findings[] | select(.id == "file-punts" and .status == "fail" and
		(.evidence.path // "" | endswith("fork.dat")))] | length) == 1' "$TMP/fork.json" >/dev/null; then
		ok "--exec of fio: its job process (pid $kid, the ring's owner) audited in its place, file-punts fails on fork.dat (ftrace: $tp punts by that process)"
	else
		bad "--exec of fio: the child that owns the ring is audited" "ftrace punts of the process: $tp" \
			"$(jq -c '[.processes[] | {pid, comm, rings: (.rings | length)}]' "$TMP/fork.json")" \
			"$(jq -c '[.findings[] | select(.id == "file-punts" or .id == "uring-fallback") | [.status, .subject]]' "$TMP/fork.json")"
	fi
	fio "${FIO_ARGS[@]}" --runtime=4 &
	fpid=$!
	kids+=("$fpid")
	for _ in $(seq 60); do
		child=$(pgrep -P "$fpid" -x fio | head -1)
		[ -n "$child" ] && ls -l "/proc/$child/fd" 2>/dev/null | grep -q 'anon_inode:\[io_uring\]' && break
		sleep 0.05
	done
	"$BIN" audit "$fpid" --format json --fail-on never >"$TMP/fork-parent.json" 2>/dev/null
	wait "$fpid"
	jq -e --argjson c "${child:-0}" '[.findings[] | select(.id == "uring-fallback")][0] |
		.status == "info" and (.evidence.ring_children | index($c) != null) and
		(.message | contains("pid \($c)"))' "$TMP/fork-parent.json" >/dev/null &&
		ok "audit of fio's parent: no ring of its own, its child pid $child named in an info finding (its fd table holds the ring)" ||
		bad "audit of fio's parent names the child" "child $child" "$(jq -c '[.findings[] | select(.id == "uring-fallback")][0]' "$TMP/fork-parent.json")"
fi

# The answer without flags: a plain `audit PID` as root watches when what it read needs it.
# fio writing buffered (every write punted on ext4, most on XFS) is watched, its file named
# with cause and share, exit 1; fio on O_DIRECT over a written file exits 0.
# fio_job FPID: fio's job process (a child of fio's main process FPID), once it has a
# ring that took 100 SQEs, in $job; none within 10 s is a failure of the case.
fio_job() {
	local i
	for i in $(seq 200); do
		for job in $(pgrep -P "$1" -x fio); do
			[ "$(awk '$1 == "SqTail:" {print $2}' /proc/"$job"/fdinfo/* 2>/dev/null | sort -n | tail -1)" -gt 100 ] 2>/dev/null &&
				return 0
		done
		sleep 0.05
	done
	job=
	return 1
}
if ! command -v fio >/dev/null; then
	skip "plain audit of fio" "fio is not installed"
else
	fio --name=pl --ioengine=io_uring --rw=randwrite --bs=4k --size=32m --filename="$TMP/data/plain.dat" \
		--runtime=6 --time_based --iodepth=8 --output=/dev/null &
	fpid=$!
	kids+=("$fpid")
	if ! fio_job "$fpid"; then
		bad "plain audit of fio writing buffered: fio's job process starts its ring" "$(pgrep -a -P "$fpid")"
	elif ! python3 "$TRUTH" start "watchpl$$" "$job"; then
		bad "plain audit of fio writing buffered: ground truth starts"
	else
		"$BIN" audit "$job" --format json >"$TMP/plain.json" 2>"$TMP/plain.err"
		rc=$?
		python3 "$TRUTH" stop "watchpl$$" "$job" >"$TMP/plain.truth"
		tp=$(jq '.total.punts' "$TMP/plain.truth")
		if [ "$rc" -eq 1 ] && jq -e --argjson j "$job" --argjson tp "$tp" '.processes[0].pid == $j and $tp > 0 and
			.processes[0].watch != null and
			([.findings[] | select(.id == "file-punts" and .status == "fail" and
			  (.evidence.path // "" | endswith("plain.dat")) and (.evidence.causes | any(.cause == "buffered")))] | length) == 1' \
			"$TMP/plain.json" >/dev/null; then
			ok "plain audit of fio writing buffered: watched without a flag, plain.dat named with its cause, exit 1 (ftrace: $tp punts meanwhile)"
		else
			bad "plain audit of fio writing buffered" "exit $rc, ftrace $tp punts" "$(head -3 "$TMP/plain.err")" \
				"$(jq -c '[.findings[] | select(.id == "file-punts" or .id == "iowq-punts") | [.status, .subject]]' "$TMP/plain.json")"
		fi
	fi
	kill "$fpid" 2>/dev/null
	wait "$fpid" 2>/dev/null
	dd if=/dev/zero of="$TMP/data/direct.dat" bs=1M count=32 oflag=direct status=none
	fio --name=pd --ioengine=io_uring --rw=randwrite --bs=4k --size=32m --filename="$TMP/data/direct.dat" \
		--direct=1 --runtime=12 --time_based --iodepth=8 --output=/dev/null &
	fpid=$!
	kids+=("$fpid")
	# The job's writes go straight to the device. Plainly audited, it is watched or not as
	# its ring happened to move while read: either way fd-o-direct passes, nothing warns,
	# fails or errs, and it exits 0. Watched for 2 s, every punt check passes as well.
	if ! fio_job "$fpid"; then
		bad "plain audit of fio on O_DIRECT: fio's job process starts its ring" "$(pgrep -a -P "$fpid")"
	else
		for how in plain watched; do
			flags=()
			[ "$how" = watched ] && flags=(--watch 2)
			"$BIN" audit "$job" "${flags[@]}" --format json \
				>"$TMP/direct-$how.json" 2>"$TMP/direct.err"
			rc=$?
			if [ "$rc" -eq 0 ] && jq -e --argjson j "$job" --arg how "$how" '.processes[0].pid == $j and
				([.findings[] | select(.status == "warn" or .status == "fail" or .status == "error")] | length) == 0 and
				([.findings[] | select(.id == "fd-o-direct" and .status == "pass")] | length) == 1 and
				($how == "plain" or (.processes[0].watch != null and
				 ([.findings[] | select((.id == "iowq-punts" or .id == "file-punts") and .status == "pass")] | length) == 2))' \
				"$TMP/direct-$how.json" >/dev/null; then
				if [ "$how" = plain ]; then
					ok "plain audit of fio on O_DIRECT: its job (pid $job) passes fd-o-direct, nothing warns, exit 0"
				else
					ok "fio on O_DIRECT watched 2 s: its job (pid $job) passes fd-o-direct, iowq-punts and file-punts, exit 0"
				fi
			else
				bad "$how audit of fio on O_DIRECT: fd-o-direct passes (watched: the punt checks too), nothing warns, exit 0" \
					"exit $rc, pid $job" "$(head -3 "$TMP/direct.err")" \
					"$(jq -c '[.findings[] | select(.status != "skip" and .status != "info" and (.status != "pass" or .id == "fd-o-direct" or .id == "iowq-punts" or .id == "file-punts")) | [.id, .status, .message[0:160]]]' "$TMP/direct-$how.json")"
			fi
		done
		cp "$TMP/direct-watched.json" "$TMP/direct.json"
	fi
	kill "$fpid" 2>/dev/null
	wait "$fpid" 2>/dev/null
fi

# report diff on the two real reports above, both ways, as a deploy gate would: from
# O_DIRECT to buffered the punt checks fail anew (exit 1); back, they are fixed (exit 0).
if ! command -v fio >/dev/null; then
	skip "report diff of the two fio reports" "fio is not installed"
elif ! [ -s "$TMP/direct.json" ] || ! [ -s "$TMP/plain.json" ]; then
	bad "report diff of the two fio reports: both reports were made"
else
	"$BIN" --format json report diff "$TMP/direct.json" "$TMP/plain.json" >"$TMP/diff1.json" 2>"$TMP/diff1.err"
	rc1=$?
	"$BIN" --format json report diff "$TMP/plain.json" "$TMP/direct.json" >"$TMP/diff2.json" 2>"$TMP/diff2.err"
	rc2=$?
	if [ "$rc1" -eq 1 ] && [ "$rc2" -eq 0 ] &&
		jq -e '[.findings[] | select(.id == "iowq-punts" and .status == "fail" and
			(.evidence.change == "worse" or .evidence.change == "new"))] | length == 1' "$TMP/diff1.json" >/dev/null &&
		jq -e '[.findings[] | select(.id == "iowq-punts" and (.evidence.change == "fixed" or .evidence.change == "better"))] |
			length == 1' "$TMP/diff2.json" >/dev/null; then
		ok "report diff: O_DIRECT to buffered fails iowq-punts anew (exit 1), and back fixes it (exit 0)"
	else
		bad "report diff of the two fio reports" "exit $rc1 and $rc2" "$(cat "$TMP/diff1.err" "$TMP/diff2.err")" \
			"$(jq -c '[.findings[] | [.id, .status, .evidence.change]]' "$TMP/diff1.json" "$TMP/diff2.json")"
	fi
	jq '.host.hostname = "another-host"' "$TMP/plain.json" >"$TMP/other-host.json"
	jq '.schema_version = 2' "$TMP/plain.json" >"$TMP/other-schema.json"
	printf '{"schema_version": 1, "findings": [{"id": 7}]' >"$TMP/garbage.json"
	for h in other-host:"host 'another-host'" other-schema:"schema_version 2" garbage:"garbage.json"; do
		run "report diff with $h" 2 "$BIN" report diff "$TMP/plain.json" "$TMP/${h%%:*}.json" &&
			one_error_line "report diff with ${h%%:*}: message" "${h#*:}"
	done
fi

# report diff across a restart: the same command line (a job file that changes,
# direct=0 then direct=1), a new pid. The process is matched by its identity, and its
# punt share before -> after is the two reports' own numbers and follows the truth:
# the O_DIRECT bit of the file's fdinfo flags, read here in each run's job process.
# The fix diffs to exit 0; the other way, the punts are a new problem: exit 1.
# restart_run N DIRECT: fio on the job file, audited as $TMP/restart.N.json; the
# file's fdinfo flags (octal) in $TMP/restart.N.flags; the job's pid in $job.
restart_run() {
	local fpid fd
	sed -i "s/^direct=.*/direct=$2/" "$TMP/restart.fio"
	# The buffered run's pages written back first, so fio's invalidate (on by default)
	# drops them: an O_DIRECT write over cached pages may punt to invalidate them (a CI
	# run saw one such punt after the fix), which is the file's state, not the diff's.
	[ -e "$TMP/data/restart.dat" ] && sync "$TMP/data/restart.dat"
	fio --output=/dev/null "$TMP/restart.fio" &
	fpid=$!
	kids+=("$fpid")
	if ! fio_job "$fpid"; then
		kill "$fpid" 2>/dev/null
		wait "$fpid" 2>/dev/null
		return 1
	fi
	for fd in /proc/"$job"/fd/*; do
		[ "$(readlink "$fd")" = "$TMP/data/restart.dat" ] &&
			awk '$1 == "flags:" {print $2}' /proc/"$job"/fdinfo/"${fd##*/}" >"$TMP/restart.$1.flags"
	done
	"$BIN" audit "$job" --watch 2 --format json --fail-on never >"$TMP/restart.$1.json" 2>"$TMP/restart.$1.err"
	echo "$job" >"$TMP/restart.$1.pid"
	kill "$fpid" 2>/dev/null
	wait "$fpid" 2>/dev/null
	[ -s "$TMP/restart.$1.flags" ] && [ -s "$TMP/restart.$1.json" ]
}
# odirect FILE: 1 when the octal fdinfo flags in FILE have O_DIRECT (040000 on x86 and arm64)
odirect() { echo $(( (8#$(cat "$1") & 8#40000) != 0 )); }
# share JSON: the report's own share of the requests punted, iowq-punts' punt_share (0
# when nothing punted), and file-punts' punts over requests on restart.dat (0 when none
# was punted on any file)
share() {
	jq -c '[([.findings[] | select(.id == "iowq-punts") |
		.evidence.punt_share // (if .evidence.punts == 0 then 0 else null end)][0]),
		([.findings[] | select(.id == "file-punts" and .status != "skip" and
			((.evidence.path // "" | endswith("/restart.dat")) or .evidence.punts == 0)) |
		  .evidence.punts / .evidence.requests][0])]' "$1"
}
if ! command -v fio >/dev/null; then
	skip "report diff across a restart" "fio is not installed"
else
	printf '[restart]\nioengine=io_uring\nrw=randwrite\nbs=4k\nsize=32m\nfilename=%s\niodepth=8\nruntime=8\ntime_based\ndirect=0\n' \
		"$TMP/data/restart.dat" >"$TMP/restart.fio"
	if ! restart_run 1 0 || ! restart_run 2 1; then
		bad "report diff across a restart: both runs audited" "$(cat "$TMP"/restart.*.err 2>/dev/null | head -3)"
	else
		p1=$(cat "$TMP/restart.1.pid") p2=$(cat "$TMP/restart.2.pid")
		d1=$(odirect "$TMP/restart.1.flags") d2=$(odirect "$TMP/restart.2.flags")
		s1=$(share "$TMP/restart.1.json") s2=$(share "$TMP/restart.2.json")
		"$BIN" --format json report diff "$TMP/restart.1.json" "$TMP/restart.2.json" >"$TMP/restart.diff.json" 2>"$TMP/restart.diff.err"
		rc1=$?
		"$BIN" report diff "$TMP/restart.1.json" "$TMP/restart.2.json" >"$TMP/restart.diff.txt" 2>>"$TMP/restart.diff.err"
		"$BIN" --format json report diff "$TMP/restart.2.json" "$TMP/restart.1.json" >"$TMP/restart.back.json" 2>>"$TMP/restart.diff.err"
		rc2=$?
		if [ "$p1" != "$p2" ] && [ "$d1" = 0 ] && [ "$d2" = 1 ] && [ "$rc1" -eq 0 ] && [ "$rc2" -eq 1 ] &&
			jq -e -n --argjson s1 "$s1" --argjson s2 "$s2" '$s1[0] > 0.5 and $s1[1] >= 0.99 and $s2 == [0, 0]' >/dev/null &&
			jq -e --argjson p1 "$p1" --argjson p2 "$p2" --argjson s1 "$s1" --argjson s2 "$s2" '
				[.diff.processes[] | select(.change == "matched" and .identity == "command fio" and
					.old_pid == $p1 and .new_pid == $p2 and
					.["iowq-punts"].punt_share == [$s1[0], $s2[0]] and
					.["iowq-punts"].status == ["fail", "pass"] and
					.["file-punts"].punt_share == [$s1[1], $s2[1]] and
					.["file-punts"].status == ["fail", "pass"])] | length == 1' \
				"$TMP/restart.diff.json" >/dev/null &&
			jq -e --argjson p1 "$p1" --argjson p2 "$p2" '[.findings[] | select(.id == "iowq-punts" and
				.evidence.change == "fixed" and .evidence.old_pid == $p1 and .evidence.new_pid == $p2)] | length == 1' \
				"$TMP/restart.diff.json" >/dev/null &&
			grep -q "^matched process: command fio, pid $p1 -> $p2; iowq-punts fail -> pass, punts [0-9.]*% -> 0% of requests, [0-9]*/s -> 0/s; file-punts fail -> pass, punts 100% -> 0% of requests$" "$TMP/restart.diff.txt" &&
			jq -e '[.findings[] | select(.id == "iowq-punts" and .evidence.change == "worse")] | length == 1' \
				"$TMP/restart.back.json" >/dev/null; then
			ok "report diff across a restart: fio pid $p1 -> $p2 matched, punt shares (iowq-punts, restart.dat) $s1 -> $s2 (O_DIRECT $d1 -> $d2 in fdinfo), exit 0; the other way exit 1"
		else
			bad "report diff across a restart: matched, share 1 -> 0, exit 0 and back 1" \
				"pids $p1 $p2, O_DIRECT $d1 $d2, shares $s1 $s2, exit $rc1 and $rc2" \
				"$(jq -c '.diff.processes' "$TMP/restart.diff.json" 2>&1 | head -c 800)" \
				"$(grep -m3 'process:' "$TMP/restart.diff.txt")" "$(head -3 "$TMP/restart.diff.err")"
		fi
	fi
fi

# Every thread, or no pass: 300 threads (some 10 perf fds each), the last one punting
# every write, audited under two open-file limits that each make one outcome certain.
# The usual soft 1024 under a hard 16384: the watch raises its soft limit to the hard
# one, where all of them fit, so each thread is watched and the punting one's file named.
# 256 hard: fewer fds than threads, so some cannot be watched, and the checks that would
# pass say what they missed instead.
threads300() { # LIMIT: the audit of a fresh 300-thread process in $TMP/many.json
	PATHOLOGY_THREADS=300 start many-threads || return 1
	writer=$(awk '$1 == "thread" {print $2}' "$(ls -t "$TMP"/ready.many-threads.* | grep -v '\.err$' | head -1)")
	sleep 0.5
	# The tasks before the watch: every one must be watched (an io-wq worker that starts
	# after the watch ended, counted after it, was not there to watch).
	ntask=$(ls "/proc/$pid/task" | wc -l)
	prlimit --nofile="$1" "$BIN" audit "$pid" --watch 2 --format json --fail-on never >"$TMP/many.json" 2>"$TMP/many.err"
	# Its own exit status is no verdict (an ASan build's leak report makes it non-zero):
	# the case is judged on the audit, and a start that failed is a failure already.
	stop "$pid" || true
}
if threads300 1024:16384; then
	if jq -e --argjson n "$ntask" '.processes[0].watch as $w |
		$w.threads_not_attached == 0 and $w.threads_watched >= $n and
		([.findings[] | select(.id == "file-punts" and .status == "fail" and
		  (.evidence.path // "" | endswith("many-threads.dat")))] | length) == 1' \
		"$TMP/many.json" >/dev/null; then
		ok "300 threads at a soft limit of 1024 fds, hard 16384: all $(jq '.processes[0].watch.threads_watched' "$TMP/many.json") watched; the writer's (tid $writer) file named"
	else
		bad "300 threads at a soft limit of 1024 fds, hard 16384: every thread watched, the file named" "$ntask tasks" \
			"$(jq -c '.processes[0].watch | {threads_watched, threads_not_attached, coverage}' "$TMP/many.json")" \
			"$(jq -c '[.findings[] | select(.id == "iowq-punts" or .id == "file-punts") | [.status, .subject]]' "$TMP/many.json")"
	fi
fi
if threads300 256:256; then
	if jq -e --argjson n "$ntask" '.processes[0].watch as $w |
		$w.threads_not_attached > 0 and $w.threads_watched < $n and $w.coverage < 1 and
		([.findings[] | select(.id == "iowq-punts" or .id == "file-punts") | select(.status == "pass")] | length) == 0' \
		"$TMP/many.json" >/dev/null; then
		ok "300 threads under a hard limit of 256 fds: $(jq '.processes[0].watch.threads_watched' "$TMP/many.json") watched, $(jq '.processes[0].watch.threads_not_attached' "$TMP/many.json") not, and no pass from them"
	else
		bad "300 threads under a hard limit of 256 fds: the threads not watched said, no pass" "$ntask tasks" \
			"$(jq -c '.processes[0].watch | {threads_watched, threads_not_attached, coverage}' "$TMP/many.json")" \
			"$(jq -c '[.findings[] | select(.id == "iowq-punts" or .id == "file-punts") | [.status, .subject]]' "$TMP/many.json")"
	fi
fi

# no_punt_pass JSON: neither punt check passed in that report (a watch that failed).
no_punt_pass() {
	[ "$(jq '[.findings[] | select(.id == "iowq-punts" or .id == "file-punts") |
		select(.status == "pass")] | length' "$1")" = 0 ]
}

# Moves $pid into a cgroup of its own under $CG2, as a service's is, removed on exit.
cg_enter() {
	cg=$CG2/uringlint-e2e-$1-$$
	trap 'cleanup_live; rmdir "$cg" 2>/dev/null' EXIT
	mkdir "$cg" && echo "$pid" >"$cg/cgroup.procs"
}

# Moves $pid back to the root cgroup, stops it and removes its cgroup.
cg_leave() {
	echo "$pid" >"$CG2/cgroup.procs"
	stop "$pid"
	rmdir "$cg" 2>/dev/null
}

# A process of a few threads alone in its cgroup, as a systemd service is: watched through
# the cgroup (one set of events per CPU, cheaper at a high rate of context switches than
# each thread's own), and its punts, file and cause match a tracefs instance of its own.
CG2=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/mounts)
if [ -z "$CG2" ] || ! [ -w "$CG2/cgroup.procs" ]; then
	skip "a few threads alone in a cgroup" "no writable cgroup v2 hierarchy"
elif PATHOLOGY_THREADS=4 start many-threads; then
	cg_enter few
	sleep 0.3
	python3 "$TRUTH" start --only "few$pid" "$pid" 65536 || bad "a few threads: ground truth starts"
	"$BIN" audit "$pid" --watch 2 --format json --fail-on never >"$TMP/few.json" 2>"$TMP/few.err"
	PUNT_TRUTH_RAW="$TMP/few.truth.raw" python3 "$TRUTH" stop "few$pid" "$pid" >"$TMP/few.truth"
	if jq -e '.processes[0].watch | .attached_by == "cgroup" and .cgroup_not_used == null and
		.threads_not_attached == 0' "$TMP/few.json" >/dev/null &&
		msg=$(python3 "$COMPARE" "$TMP/few.json" "$TMP/few.truth" buffered); then
		ok "a few threads alone in a cgroup: watched through it; $msg"
	else
		bad "a few threads alone in a cgroup: watched through it, the file named" \
			"$(jq -c '.processes[0].watch | {attached_by, cgroup, cgroup_not_used, threads_watched, coverage}' "$TMP/few.json")" \
			"${msg:-}" "$(head -3 "$TMP/few.err")"
	fi
	cg_leave
fi

# The same process starting a short child every 150 ms (a fork that writes through a ring of
# its own and exits, mostly between two looks at the cgroup): the child's punts would be in
# the cgroup's exact counts, so the watch fails with that reason and nothing passes from it.
if [ -z "$CG2" ] || ! [ -w "$CG2/cgroup.procs" ]; then
	skip "a process alone in a cgroup that forks during the watch" "no writable cgroup v2 hierarchy"
elif PATHOLOGY_THREADS=4 PATHOLOGY_FORK_MS=150 start many-threads; then
	cg_enter forks
	sleep 0.3
	# A child alive at the very start (a loaded machine keeps them longer) makes the watch
	# go thread by thread, rightly, and this case is about a fork during the watch: such a
	# start is tried again, up to 3 times.
	for try in 1 2 3; do
		"$BIN" audit "$pid" --watch 2 --format json --fail-on never >"$TMP/forks.json" 2>"$TMP/forks.err"
		jq -e '.processes[0].watch.cgroup_not_used == "other processes share its cgroup"' \
			"$TMP/forks.json" >/dev/null || break
		echo "note forks: try $try: a child was alive as the watch began; again"
	done
	forked=$(grep -c '^forked ' "$(ls -t "$TMP"/ready.many-threads.* | grep -v '\.err$' | head -1)")
	if jq -e '.processes[0].watch.error // "" | test("process(es were| was) started in cgroup")' \
		"$TMP/forks.json" >/dev/null &&
		no_punt_pass "$TMP/forks.json"; then
		ok "a process alone in a cgroup that forks during the watch ($forked children so far): the watch fails with that reason, no pass"
	else
		bad "a process alone in a cgroup that forks during the watch: the watch fails" \
			"$(jq -c '.processes[0].watch | {attached_by, cgroup_not_used, error}' "$TMP/forks.json")" \
			"$(head -3 "$TMP/forks.err")"
	fi
	cg_leave
fi

# A user who owns a delegated cgroup subtree (every login user under user@UID.service does)
# runs a process alone in one of its cgroups, so the watch goes through that cgroup; every
# 500 ms the process moves itself to a sibling, punts 256 IOSQE_ASYNC writes there and moves
# back, all within a few ms, between two looks at the cgroup. The ground truth (a tracefs
# instance of its own, whatever the cgroup) sees the punts; the watch must fail, saying the
# process moved, and nothing may pass from it. Twice: a look can fall on a hop by chance.
if [ -z "$CG2" ] || ! [ -w "$CG2/cgroup.procs" ]; then
	skip "a process slipping out of its cgroup" "no writable cgroup v2 hierarchy"
else
	hopcg=$CG2/uringlint-e2e-hop-$$
	mkdir -p "$hopcg/home" "$hopcg/away" "$TMP/hop" && chown -R 65534:65534 "$hopcg" &&
		chmod 0755 "$TMP" && chmod 0777 "$TMP/hop"
	printf '#!/bin/sh\necho $$ >"$PATHOLOGY_HOP_HOME/cgroup.procs" &&\n\texec setpriv --reuid=65534 --regid=65534 --clear-groups %s "$@"\n' \
		"$PWD/$PATHO" >"$TMP/hop-as-nobody" && chmod 0755 "$TMP/hop-as-nobody"
	if PATHO=$TMP/hop-as-nobody PATHOLOGY_HOP_HOME=$hopcg/home PATHOLOGY_HOP_AWAY=$hopcg/away \
		start hop "$TMP/hop"; then
		for round in 1 2; do
			python3 "$TRUTH" start "hop$pid" "$pid" 16384 || bad "cgroup hopper: ground truth starts"
			"$BIN" audit "$pid" --watch 3 --format json --fail-on never >"$TMP/hop.json" 2>"$TMP/hop.err"
			python3 "$TRUTH" stop "hop$pid" "$pid" >"$TMP/hop.truth"
			truth=$(jq '.total.punts' "$TMP/hop.truth")
			if [ "${truth:-0}" -ge 256 ] &&
				jq -e '.processes[0].watch | .attached_by == "cgroup" and
					(.error // "" | test("moved between cgroups [0-9]+ times during the watch"))' \
					"$TMP/hop.json" >/dev/null && no_punt_pass "$TMP/hop.json"; then
				ok "a process hopping out of its cgroup and back (round $round, $truth punts in the truth): the watch fails saying so, no pass"
			else
				bad "a process hopping out of its cgroup and back (round $round): the watch fails, no pass" \
					"truth: $truth punts" \
					"$(jq -c '.processes[0].watch | {attached_by, cgroup, error}' "$TMP/hop.json")" \
					"$(jq -c '[.findings[] | select(.id == "iowq-punts" or .id == "file-punts") | [.status, .message[0:120]]]' "$TMP/hop.json")"
			fi
		done
		stop "$pid"
	fi
	rmdir "$hopcg/home" "$hopcg/away" "$hopcg" 2>/dev/null
fi

# 10,000 threads, as a database's or a JVM's pools make: a perf buffer each would not fit
# the watch's 64 MiB, nor their events the open-file limit. Alone in a cgroup the process is
# watched through it, one buffer per CPU, every thread by construction, with no flags; its
# punts are compared with a tracefs instance of its own. Beside other processes (moved back
# to the root cgroup) the threads not attached are counted and nothing passes.
if [ -z "$CG2" ] || ! [ -w "$CG2/cgroup.procs" ]; then
	skip "10,000 threads" "no writable cgroup v2 hierarchy"
elif PATHOLOGY_THREADS=10000 start many-threads; then
	cg_enter 10k
	sleep 0.5
	ntask=$(ls "/proc/$pid/task" | wc -l)
	python3 "$TRUTH" start "watch$pid" "$pid" 65536 || bad "10,000 threads: ground truth starts"
	prlimit --nofile=1024: /usr/bin/time -f "%M" -o "$TMP/10k.rss" \
		"$BIN" audit "$pid" --format json --fail-on never >"$TMP/10k.json" 2>"$TMP/10k.err"
	PUNT_TRUTH_RAW="$TMP/10k.truth.raw" python3 "$TRUTH" stop "watch$pid" "$pid" >"$TMP/10k.truth"
	if jq -e --argjson n "$ntask" '.processes[0].watch | .attached_by == "cgroup" and
		.threads_watched >= $n and .threads_not_attached == 0' "$TMP/10k.json" >/dev/null &&
		msg=$(python3 "$COMPARE" "$TMP/10k.json" "$TMP/10k.truth" buffered); then
		ok "10,000 threads alone in a cgroup, no flags: $(jq '.processes[0].watch.threads_watched' "$TMP/10k.json") watched through it, $(($(cat "$TMP/10k.rss") / 1024)) MiB peak; $msg"
	else
		bad "10,000 threads alone in a cgroup: every thread watched, the file named" \
			"$ntask tasks; $(jq -c '.processes[0].watch | {attached_by, cgroup, cgroup_not_used, threads_watched, threads_not_attached, coverage}' "$TMP/10k.json")" \
			"${msg:-}" "$(head -3 "$TMP/10k.err")"
	fi
	# Another process joins the cgroup during the watch: its events would be counted as the
	# process's, so the watch fails with that reason and nothing passes from it.
	sleep 30 &
	intruder=$!
	kids+=($intruder)
	# Reading 10,000 threads takes 3 to 6 s here before the watch starts: joined well inside it.
	(sleep 9; echo "$intruder" >"$cg/cgroup.procs") &
	"$BIN" audit "$pid" --watch 10 --format json --fail-on never >"$TMP/10k-joined.json" 2>"$TMP/10k.err"
	if jq -e '.processes[0].watch.error // "" | startswith("another process was in cgroup")' \
		"$TMP/10k-joined.json" >/dev/null &&
		no_punt_pass "$TMP/10k-joined.json"; then
		ok "10,000 threads, another process joining their cgroup mid-watch: the watch fails with that reason, no pass"
	else
		bad "10,000 threads, another process joining their cgroup mid-watch" \
			"$(jq -c '.processes[0].watch | {attached_by, error}' "$TMP/10k-joined.json")"
	fi
	kill "$intruder" 2>/dev/null
	echo "$pid" >"$CG2/cgroup.procs"
	# A hard limit of 4096 fds, fewer than the threads (each watched one takes a perf fd or
	# more): some are certainly not attached, and that must be said, with no pass.
	prlimit --nofile=1024:4096 "$BIN" audit "$pid" --format json --fail-on never >"$TMP/10k-shared.json" 2>"$TMP/10k.err"
	if jq -e '.processes[0].watch as $w | $w.attached_by == "threads" and
		$w.cgroup_not_used == "other processes share its cgroup" and
		$w.threads_not_attached > 0 and $w.coverage < 1 and
		([.findings[] | select(.id == "iowq-punts" or .id == "file-punts") |
		  select(.status == "pass")] | length) == 0' \
		"$TMP/10k-shared.json" >/dev/null; then
		ok "10,000 threads sharing a cgroup, 4096 fds: $(jq '.processes[0].watch.threads_watched' "$TMP/10k-shared.json") watched one by one, $(jq '.processes[0].watch.threads_not_attached' "$TMP/10k-shared.json") not, and no pass from them"
	else
		bad "10,000 threads sharing a cgroup: what was not attached is said, no pass" \
			"$(jq -c '.processes[0].watch | {attached_by, cgroup_not_used, threads_watched, threads_not_attached, coverage}' "$TMP/10k-shared.json")" \
			"$(jq -c '[.findings[] | select(.id == "iowq-punts" or .id == "file-punts") | [.status, .message[0:160]]]' "$TMP/10k-shared.json")"
	fi
	stop "$pid"
	rmdir "$cg" 2>/dev/null
fi

# Causes observed, not inferred: what each punted write's io-wq worker did. A written
# (preallocated) file on a loop XFS, overwritten with O_DIRECT one write at a time (about
# 180 a second): each write in a new clock tick must update the file's times, which the
# nonblocking try refuses; the worker then stores them (xfs:xfs_update_time). The process
# is stopped while the watch and the ground truth, perf stat on its threads, start, runs
# 3 s, and is stopped again before either ends: both see the same writes. The watch's
# observed timestamp punts must be within 2 + 2% of the events perf counted on the iou-wrk
# threads, cover 90% of the file's punts, and at that rate warn, not fail. Then writes into
# the holes of a sparse file: allocation (xfs:xfs_iomap_alloc in the worker) observed for
# most punts, never more than perf counted.
# cause_run MODE NAME: audit and perf stat -e EVENT around 3 s of pathology MODE on $TMP/xfs;
# $TMP/NAME.json and $TMP/NAME.perf (perf's per-thread lines).
cause_run() {
	rm -f "$TMP/xfs/"*.dat
	start "$1" "$TMP/xfs" || return 1
	sleep 1
	cause_window "$2"
	# The process's own exit status (killed) is no failure of the run: it was measured.
	stop "$pid"
	return 0
}
# cause_window NAME: the same around $pid, stopped while both start so they see the
# same writes; left running.
cause_window() {
	local name=$1 apid ppid_ i
	kill -STOP "$pid"
	"$BIN" audit "$pid" --watch 5 --format json --fail-on never >"$TMP/$name.json" 2>"$TMP/$name.err" &
	apid=$!
	perf stat --per-thread -x, -e xfs:xfs_update_time -e xfs:xfs_iomap_alloc -p "$pid" \
		-o "$TMP/$name.perf" -- sleep 4.5 &
	ppid_=$!
	for i in $(seq 100); do
		ls -l "/proc/$apid/fd" 2>/dev/null | grep -q 'perf_event' && break
		sleep 0.05
	done
	sleep 0.5
	kill -CONT "$pid"
	sleep 3
	kill -STOP "$pid"
	wait "$apid" "$ppid_"
	kill -CONT "$pid"
}
# perf_workers NAME EVENT: the events perf counted on the io-wq workers.
perf_workers() {
	awk -F, -v ev="$2" '$1 ~ /^iou-wrk-/ && $4 == ev { n += $2 } END { print n + 0 }' "$TMP/$1.perf"
}
if ! command -v perf >/dev/null; then
	bad "observed causes: perf is installed (linux-perf)"
elif ! command -v mkfs.xfs >/dev/null; then
	skip "observed causes" "mkfs.xfs is missing (xfsprogs)"
elif ! mountpoint -q "$TMP/xfs" && ! xfs_mount; then
	bad "observed causes: a loop XFS mounts" "$(cat "$TMP/mount.err")"
else
	if cause_run timestamp stamp; then
		truth=$(perf_workers stamp xfs:xfs_update_time)
		if jq -e --argjson t "$truth" '.processes[0].watch.files[] | select(.path | endswith("stamp.dat")) |
			.observed_causes.timestamp as $o | $t >= 100 and
			($o - $t | fabs) <= 2 + 0.02 * $t and $o >= 0.9 * .write_punts' "$TMP/stamp.json" >/dev/null &&
		   jq -e '[.findings[] | select(.id == "file-punts" and (.evidence.path // "" | endswith("stamp.dat")))] |
			length == 1 and .[0].status == "warn" and
			(.[0].message | test("observed: timestamp update \\(xfs:xfs_update_time in the worker\\) [0-9]+ of [0-9]+")) and
			(.[0].evidence.causes[0] | .cause == "timestamp" and .observed == true and .punts > 0 and .per_second > 0)' "$TMP/stamp.json" >/dev/null; then
			ok "observed causes: timestamp update in $(jq '.processes[0].watch.files[] | select(.path | endswith("stamp.dat")) | "\(.observed_causes.timestamp) of \(.write_punts)"' "$TMP/stamp.json") punts, perf counted $truth xfs_update_time on the workers; warn"
		else
			bad "observed causes: timestamp punts against perf's count on the workers" "perf: $truth; $(cat "$TMP/stamp.perf" | tr '\n' ' ')" \
				"$(jq -c '.processes[0].watch | {cause_events, cause_events_unclaimed, files: [.files[] | {path, write_punts, observed_causes}]}' "$TMP/stamp.json")" \
				"$(jq -c '[.findings[] | select(.id == "file-punts") | [.status, .message[:400], .evidence.causes]]' "$TMP/stamp.json")"
		fi
	else
		bad "observed causes: the timestamp pathology runs" "$(cat "$TMP"/ready.timestamp.*.err 2>/dev/null | head -3)"
	fi
	if cause_run sparse sparse; then
		truth=$(perf_workers sparse xfs:xfs_iomap_alloc)
		if jq -e --argjson t "$truth" '.processes[0].watch.files[] | select(.path | endswith("sparse.dat")) |
			.observed_causes.allocation as $o | $o >= 0.6 * .write_punts and $o <= $t' "$TMP/sparse.json" >/dev/null &&
		   jq -e '[.findings[] | select(.id == "file-punts" and (.evidence.path // "" | endswith("sparse.dat")))] |
			length == 1 and .[0].status == "fail" and
			([.[0].evidence.causes[] | select(.observed)] | max_by(.punts) | .cause == "allocation") and
			# Each entry is writes of its own but an alternative for the same writes
			# (holes, unwritten: the rule-inferred rest), which says so.
			([.[0].evidence.causes[] | select(has("alternative_to") | not) | .punts] | add) ==
				.[0].evidence.write_punts' "$TMP/sparse.json" >/dev/null; then
			ok "observed causes: allocation in $(jq '.processes[0].watch.files[] | select(.path | endswith("sparse.dat")) | "\(.observed_causes.allocation) of \(.write_punts)"' "$TMP/sparse.json") punts of a sparse file (perf: $truth xfs_iomap_alloc on the workers); causes add up to the punts"
		else
			bad "observed causes: allocation on a sparse file" "perf: $truth" \
				"$(jq -c '.processes[0].watch | {cause_events, cause_events_unclaimed, files: [.files[] | {path, write_punts, observed_causes}]}' "$TMP/sparse.json")" \
				"$(jq -c '[.findings[] | select(.id == "file-punts") | [.status, .message[:400], .evidence.causes]]' "$TMP/sparse.json")"
		fi
	else
		bad "observed causes: the sparse pathology runs" "$(cat "$TMP"/ready.sparse.*.err 2>/dev/null | head -3)"
	fi
	# fio at depth 8 and 2000 writes a second into a fully written file, as a VM's disk
	# writes: several writes meet each stale tick, one worker stores the times and the
	# others find nothing to store. Observed against perf's count on the workers; those
	# others said apart as same-tick, inferred from the update; the causes add up to the
	# punts; a warn, not a fail.
	rm -f "$TMP/xfs/"*.dat
	fio --name=layout --ioengine=psync --rw=write --bs=1M --size=32M --direct=1 \
		--filename="$TMP/xfs/vm.dat" >/dev/null 2>&1
	fio --name=vm --filename="$TMP/xfs/vm.dat" --size=32M --bs=4k --rw=randwrite --direct=1 \
		--ioengine=io_uring --iodepth=8 --rate_iops=2000 --time_based --runtime=30 >/dev/null 2>&1 &
	kids+=($!)
	fio_pid=$! pid=
	for _ in $(seq 100); do
		for c in $(pgrep -P "$fio_pid"); do ring_fd "$c" >/dev/null && pid=$c; done
		[ -n "$pid" ] && break
		sleep 0.1
	done
	if [ -z "$pid" ]; then
		bad "observed causes at depth 8: fio starts its ring"
	else
		sleep 1
		cause_window depth8
		kill "$pid" "$fio_pid" 2>/dev/null
		truth=$(perf_workers depth8 xfs:xfs_update_time)
		# Sampled in windows at this rate, the watch sees part of what perf counts: never more.
		if jq -e --argjson t "$truth" '.processes[0].watch | .sampled_all as $all | .files[] |
			select(.path | endswith("vm.dat")) | .observed_causes.timestamp as $o |
			$t >= 100 and $o > 0 and
			(if $all then ($o - $t | fabs) <= 2 + 0.02 * $t else $o <= $t + 2 + 0.02 * $t end) and
			$o + .timestamp_same_tick <= .write_punts' "$TMP/depth8.json" >/dev/null &&
		   jq -e '[.findings[] | select(.id == "file-punts" and (.evidence.path // "" | endswith("vm.dat")))] |
			length == 1 and .[0].status == "warn" and
			([.[0].evidence.causes[] | .punts] | add) == .[0].evidence.write_punts and
			([.[0].evidence.causes[] | select(.cause == "unknown") | .punts] | add // 0) <=
				0.1 * .[0].evidence.write_punts' "$TMP/depth8.json" >/dev/null; then
			ok "observed causes at depth 8: $(jq -r '.processes[0].watch.files[] | select(.path | endswith("vm.dat")) | "\(.observed_causes.timestamp) observed, \(.timestamp_same_tick) same-tick of \(.write_punts)"' "$TMP/depth8.json") punted writes, perf counted $truth xfs_update_time on the workers; warn"
		else
			bad "observed causes at depth 8: timestamp punts against perf's count" "perf: $truth" \
				"$(jq -c '.processes[0].watch | {sampled_all, files: [.files[] | {path, write_punts, observed_causes, timestamp_same_tick}]}' "$TMP/depth8.json")" \
				"$(jq -c '[.findings[] | select(.id == "file-punts") | [.status, .message[:600], .evidence.causes]]' "$TMP/depth8.json")"
		fi
	fi
fi

# The watch over time: fio held to 500 requests a second (--rate_iops, its own pacing,
# the ground truth) for 3 s, watched from its start: 50 requests in each whole 100 ms
# bucket of watch.series (fio paces in bursts: within 40% in 4 of 5 buckets), and the
# buckets add up to the requests sampled.
if ! command -v fio >/dev/null; then
	skip "the watch over time" "fio is not installed"
else
	"$BIN" audit --exec --format json --fail-on never -o "$TMP/series.json" -- fio --name=rate \
		--ioengine=io_uring --rw=randwrite --bs=4k --size=8m --direct=1 --rate_iops=500 \
		--runtime=3 --time_based --filename="$TMP/data/series.dat" >"$TMP/series.fio" 2>&1
	if python3 - "$TMP/series.json" <<'EOP'
import json, sys
w = json.load(open(sys.argv[1]))["processes"][0]["watch"]
s = w["series"]
full = [r for r, x in zip(s["requests"], s["sampled"]) if x == 1][5:-5]   # paced, not ramping
near = [r for r in full if 30 <= r <= 70]
if s["bucket_ms"] != 100 or len(full) < 15 or len(near) < 0.8 * len(full):
    sys.exit("buckets %s" % s["requests"])
if w["sampled_all"] and sum(s["requests"]) != sum(r["requests"] for r in w["rings"]):
    sys.exit("series %d, rings %d" % (sum(s["requests"]), sum(r["requests"] for r in w["rings"])))
EOP
	then
		ok "the watch over time: fio at 500 IOPS gives about 50 requests in each 100 ms bucket of watch.series, and the buckets add up to the rings' requests"
	else
		bad "the watch over time: fio's pacing in watch.series" "$(tail -2 "$TMP/series.fio")"
	fi
fi

echo "watch: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
