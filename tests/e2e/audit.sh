#!/bin/bash
# End-to-end for audit: captured processes against expected outputs, bad
# input, and live processes of every pathology mode and of fio, audited as
# they run. UPDATE=1 rewrites the expected outputs.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh
. tests/e2e/live.sh

chmod 0755 "$TMP"
install -m 0755 "$BIN" "$TMP/uringlint"

# has ID STATUS [SUBJECT-SUBSTRING]: a finding in $TMP/out (JSON) matches;
# with $ONLY_COMM set, only findings about processes of that comm count
# (audit --all also finds whatever else runs io_uring on the host).
has() {
	jq -e --arg id "$1" --arg st "$2" --arg sub "${3:-}" --arg comm "${ONLY_COMM:-}" \
		'[.processes[]? | select($comm == "" or .comm == $comm) | .pid] as $pids |
		[.findings[] | select(.id == $id and .status == $st and (.subject | contains($sub)) and
			($comm == "" or (.pid as $p | $pids | index($p) != null)))] | length > 0' \
		"$TMP/out" >/dev/null
}
mkdir -p "$TMP/data"

# --- captured processes: text and JSON against expected outputs ----------------
for c in "proc-6.18 31435" "proc-6.1 100" "debian12-6.1-qemu --all" "proc-6.18-no-ring 13045"; do
	set -- $c
	"$BIN" --root "testdata/$1" audit "$2" --no-color >"$TMP/$1.txt" 2>"$TMP/$1.err"
	echo "exit $?" >>"$TMP/$1.txt"
	compare "audit $1 text" "$TMP/$1.txt" "$EXP/audit-$1.txt"
	"$BIN" --root "testdata/$1" audit "$2" --format json >"$TMP/$1.json" 2>>"$TMP/$1.err"
	json_norm "$TMP/$1.json" >"$TMP/$1.norm.json" && compare "audit $1 json" "$TMP/$1.norm.json" "$EXP/audit-$1.json"
done
run "audit --all under --root" 1 "$BIN" --root testdata/proc-6.18 audit --all --format json &&
	[ "$(jq -c '[.processes[].pid]' "$TMP/out")" = "[31435]" ] && ok "audit --all finds the ring process" ||
	bad "audit --all finds the ring process"
jq -e '.processes[0] | (.files | length) > 0 and (.rings | length) == 2 and .threads.iou_sqp == 1 and
	(.rings[] | select(.fd == 3) | .sqpoll.tid == 31436 and .registered_buffers == 2)' "$TMP/$1.json" >/dev/null 2>&1 ||
	jq -e '.processes[0] | (.rings | length) == 2' "$TMP/out" >/dev/null && ok "processes inventory" || bad "processes inventory"

# --- bad input ------------------------------------------------------------------
run "audit abc" 2 "$BIN" audit abc && one_error_line "audit abc message" "'abc'"
run "audit -5" 2 "$BIN" audit -5 && one_error_line "audit -5 message" "-5"
run "audit 0" 2 "$BIN" audit 0 && one_error_line "audit 0 message" "'0'"
run "audit nothing" 2 "$BIN" audit && one_error_line "audit nothing message" "--all"
run "audit pid and --all" 2 "$BIN" audit 1 --all && one_error_line "audit pid and --all message" "not both"
run "--watch past its bound" 2 "$BIN" audit 1 --watch 601 && one_error_line "--watch 601 message" "--watch" "0 (never)"
run "--watch with --root" 2 "$BIN" --root testdata/proc-6.18 audit 31435 --watch 1 &&
	one_error_line "--watch --root message" "live"
# --watch 0 asks for no watch, which a replay takes; the last --watch given counts.
run "--watch 0 with --root" 0 "$BIN" --root testdata/proc-6.18 audit 31435 --watch 0 --fail-on never &&
	ok "--watch 0 with --root: replayed"
run "--watch 1 then 0 with --root" 0 "$BIN" --root testdata/proc-6.18 audit 31435 --watch 1 --watch 0 \
	--fail-on never && ok "--watch 1 --watch 0 with --root: the last one counts"
run "--watch 0 then 1 with --root" 2 "$BIN" --root testdata/proc-6.18 audit 31435 --watch 0 --watch 1 &&
	one_error_line "--watch 0 then 1 --root message" "live"
gone=4194000
while kill -0 "$gone" 2>/dev/null; do gone=$((gone + 1)); done
run "no such process" 3 "$BIN" audit "$gone" --format json && one_error_line "no such process message" "no such process" &&
	jq -e '.schema_version == 1' "$TMP/out" >/dev/null && ok "no such process: stdout stays JSON" || bad "no such process: stdout stays JSON"

# A kernel thread and a zombie are said to be what they are.
run "kernel thread" 0 "$BIN" audit 2 --format json &&
	jq -e '[.findings[] | select(.status != "skip")] | length == 0' "$TMP/out" >/dev/null &&
	jq -e '.findings[0].message | contains("kernel thread")' "$TMP/out" >/dev/null && ok "kernel thread said" || bad "kernel thread said"
# perl (Debian's essential perl-base) forks a child and never reaps it.
perl -e '$|=1; my $p = fork; exit 0 unless $p; open(my $f, ">", $ARGV[0]); print $f "$p\n"; close $f; sleep 30' \
	"$TMP/zombie" &
kids+=($!)
for _ in $(seq 50); do [ -s "$TMP/zombie" ] && grep -q '^State:.*Z' "/proc/$(cat "$TMP/zombie")/status" 2>/dev/null && break; sleep 0.05; done
run "zombie" 0 "$BIN" audit "$(cat "$TMP/zombie")" --format json &&
	jq -e '.findings[0].message | contains("zombie")' "$TMP/out" >/dev/null && ok "zombie said" || bad "zombie said"

# --- live pathology processes -----------------------------------------------------
# busy_expect BEFORE AFTER: the sqpoll-busy-ratio verdict the test's own fdinfo
# readings ("SqTotalTime SqWorkTime CachedSqHead CachedCqTail") taken around the
# audit call for, decided by the readings alone, never by the tool's numbers: a
# thread that took SQEs all the span and worked under 90% of it passes; one that
# took none and worked under 5% of 20 ms or more is spinning on an empty ring
# (warn); under 20 ms seen, nothing can be said (skip). Anything between is no
# certain outcome and prints "unsure".
busy_expect() {
	set -- $1 $2
	local total=$(($5 - $1)) work=$(($6 - $2)) sqes=$(($7 - $3))
	if [ "$total" -lt 20000 ]; then echo skip
	elif [ "$sqes" -gt 1000 ] && [ $((work * 10)) -lt $((total * 9)) ]; then echo pass
	elif [ "$sqes" -eq 0 ] && [ $((work * 20)) -lt "$total" ]; then echo warn
	else echo unsure
	fi
}
# busy_truth BEFORE AFTER: the sqpoll-busy-ratio finding in $TMP/out has the status
# busy_expect reads from the test's readings, and uringlint's window lies inside them.
busy_truth() {
	local want
	want=$(busy_expect "$1" "$2")
	[ "$want" != unsure ] || return 1
	jq -e --arg b "$1" --arg a "$2" --arg want "$want" '
		($b | split(" ") | map(tonumber)) as $b | ($a | split(" ") | map(tonumber)) as $a |
		[.findings[] | select(.id == "sqpoll-busy-ratio")][0] as $f | $f.evidence as $e |
		$f.status == $want and
		($want == "skip" or ($e.window_ms >= 300 and
			$e.window_total_us <= $a[0] - $b[0] and $e.window_work_us <= $a[1] - $b[1] and
			$e.sqes_taken <= $a[2] - $b[2] and $e.cqes_posted <= $a[3] - $b[3]))' "$TMP/out" >/dev/null
}
truth_delta() { # BEFORE AFTER: "CPU-us taken-SQEs" of the test's own readings
	set -- $1 $2
	echo "$(($5 - $1)) $(($7 - $3))"
}
ncpu=$(nproc)
# plain_run PID: "TID RUN-NS" of each thread that is neither the SQPOLL thread nor
# an io-wq worker, from its schedstat (what the kernel counts it ran).
plain_run() {
	local t
	for t in /proc/"$1"/task/*; do
		case $(cat "$t/comm" 2>/dev/null) in iou-sqp-* | iou-wrk-* | '') continue ;; esac
		echo "${t##*/} $(awk '{print $1}' "$t/schedstat" 2>/dev/null)"
	done
}
# ran_most BEFORE AFTER: the most nanoseconds any thread read at both ends ran between.
ran_most() {
	awk 'NR == FNR { b[$1] = $2; next } ($1 in b) && $2 - b[$1] > m { m = $2 - b[$1] } END { print m + 0 }' \
		<(echo "$1") <(echo "$2")
}
# SqTotalTime and SqWorkTime came with 6.9.
sq_times=$(uname -r | awk -F. '{print ($1 * 100 + $2 >= 609)}')

# sqpoll-cpu-placement judges the host's CPUs, not the process: left out of "clean".
# Clean by construction: the SQPOLL thread and the submitter are pinned apart
# (pathology clean), so whatever else runs, neither waits for the other.
if start clean; then
	before= after=
	# One CPU cannot keep the SQPOLL thread and its submitter apart.
	clean_skip=sqpoll-cpu-placement
	[ "$ncpu" -lt 2 ] && clean_skip=$clean_skip,sqpoll-submitter-cpu
	# A window in which the device held every request (none taken or completed, some
	# pending: the check says so and skips) shows nothing of the ring's work; a
	# loaded disk does that now and then. Such a window is audited again, up to 3 times.
	for try in 1 2 3; do
		[ "$sq_times" = 1 ] && rfd=$(ring_fd "$pid") && before=$(ring_counters "$pid" "$rfd")
		plain0=$(plain_run "$pid")
		run "clean" 0 "$BIN" audit "$pid" --skip "$clean_skip" --format json || break
		plain1=$(plain_run "$pid")
		[ "$sq_times" = 1 ] && after=$(ring_counters "$pid" "$rfd")
		jq -e '.findings[] | select(.id == "sqpoll-busy-ratio" and .status == "skip") |
			.evidence.sqes_taken == 0 and .evidence.cqes_posted == 0 and .evidence.pending > 0' \
			"$TMP/out" >/dev/null || break
		echo "note clean: try $try: the device held every request through the window; again"
	done
	if jq -e '[.findings[] | select(.status == "warn" or .status == "fail" or .status == "error")] | length == 0' "$TMP/out" >/dev/null; then
		ok "clean: no warn or fail"
	else
		bad "clean: no warn or fail" "$(jq -c '.findings[] | select(.status != "pass") | [.id, .status, .message]' "$TMP/out")"
	fi
	has fd-o-direct pass && has sqpoll-shared pass && has fixed-buf-alignment pass && ok "clean: SQPOLL, O_DIRECT, aligned buffers seen" ||
		bad "clean: SQPOLL, O_DIRECT, aligned buffers seen"
	if [ "$sq_times" != 1 ]; then
		skip "clean: busy ratio against fdinfo" "no SqTotalTime before 6.9"
	elif [ -z "$before" ] || [ -z "$after" ]; then
		bad "clean: fdinfo read as ground truth" "before '$before' after '$after'"
	else
		set -- $(truth_delta "$before" "$after")
		# The workload submits all the time: a window that read nothing is wrong too.
		if [ "$(busy_expect "$before" "$after")" = pass ] && busy_truth "$before" "$after" &&
			jq -e '.findings[] | select(.id == "sqpoll-busy-ratio") | .evidence.sqes_taken > 0' \
				"$TMP/out" >/dev/null; then
			ok "clean: the busy ratio follows fdinfo ($1 us, $2 SQEs)"
		else
			bad "clean: the busy ratio follows fdinfo ($1 us, $2 SQEs)" "$before / $after" \
				"$(jq -c '.findings[] | select(.id == "sqpoll-busy-ratio") | [.status, .message, .evidence]' "$TMP/out")"
		fi
	fi
	if [ "$ncpu" -ge 2 ]; then
		sqp=$(jq -r '.processes[0].rings[0].sqpoll.tid' "$TMP/out")
		# The test's own reading of the submitter's run time (schedstat) over a span that
		# holds the audit's window decides the outcome, never the tool's evidence: 1 ms or
		# more and the check must pass; less, and it cannot have seen it run, so it skips.
		ran=$(ran_most "$plain0" "$plain1")
		if [ -n "$(comm -12 <(cpulist_expand "$(allowed "$pid" "$sqp")") <(cpulist_expand "$(allowed "$pid" "$pid")"))" ]; then
			bad "clean: the SQPOLL thread and the submitter are pinned apart"
		elif [ "$ran" -ge 1000000 ]; then
			has sqpoll-submitter-cpu pass "sqpoll tid $sqp" &&
				ok "clean: sqpoll-submitter-cpu passes: the submitter ran $((ran / 1000)) us around the audit (its schedstat)" ||
				bad "clean: sqpoll-submitter-cpu passes (the submitter ran $((ran / 1000)) us around the audit)" \
					"$(jq -c '.findings[] | select(.id == "sqpoll-submitter-cpu")' "$TMP/out")"
		else
			jq -e '.findings[] | select(.id == "sqpoll-submitter-cpu" and .status == "skip" and
				.evidence.active_threads == 0 and (.message | contains("the submitting threads are not known")))' \
				"$TMP/out" >/dev/null &&
				ok "clean: sqpoll-submitter-cpu skips: the submitter ran $((ran / 1000)) us around the audit, under 1 ms (its schedstat)" ||
				bad "clean: sqpoll-submitter-cpu skips (the submitter ran $((ran / 1000)) us around the audit)" \
					"$(jq -c '.findings[] | select(.id == "sqpoll-submitter-cpu")' "$TMP/out")"
		fi
	fi
	stop "$pid"
fi

# The SQPOLL thread and its submitter pinned to one CPU: they take turns.
if [ "$ncpu" -lt 2 ]; then
	skip "shared-cpu" "one CPU: every thread shares it"
elif start shared-cpu; then
	m0=$(cat "/proc/$pid/task/$pid/schedstat")
	"$BIN" audit "$pid" --format json >"$TMP/out" 2>"$TMP/err"
	m1=$(cat "/proc/$pid/task/$pid/schedstat")
	sqp=$(jq -r '.processes[0].rings[0].sqpoll.tid' "$TMP/out")
	a_sqp=$(allowed "$pid" "$sqp") a_main=$(allowed "$pid" "$pid")
	ran=$(( ${m1%% *} - ${m0%% *} ))
	if [ "$a_sqp" = "$a_main" ] && [ "$(cpulist_expand "$a_sqp" | wc -l)" = 1 ]; then
		# A submitter that ran 1 ms or more while the audit looked shares the CPU.
		if [ "$ran" -ge 1000000 ]; then
			has sqpoll-submitter-cpu warn "sqpoll tid $sqp" &&
				jq -e --argjson p "$pid" '.findings[] | select(.id == "sqpoll-submitter-cpu") | .evidence.shares_cpu_with_tid == $p' "$TMP/out" >/dev/null
		else
			has sqpoll-submitter-cpu skip "sqpoll tid $sqp"
		fi && ok "shared-cpu: sqpoll-submitter-cpu follows the threads' CPUs and run time" ||
			bad "shared-cpu: sqpoll-submitter-cpu follows the threads' CPUs and run time" \
				"allowed $a_sqp, main ran $ran ns" "$(jq -c '.findings[] | select(.id == "sqpoll-submitter-cpu")' "$TMP/out")"
	else
		bad "shared-cpu: both threads pinned to one CPU" "sqpoll $a_sqp, main $a_main"
	fi
	stop "$pid"
fi

# An SQPOLL thread spinning on an empty ring: fdinfo shows no SQE taken during the
# audit, and the verdict follows the window's numbers (a warn when the thread ran).
if start idle-sqpoll; then
	before= after=
	[ "$sq_times" = 1 ] && rfd=$(ring_fd "$pid") && before=$(ring_counters "$pid" "$rfd")
	"$BIN" audit "$pid" --format json >"$TMP/out" 2>"$TMP/err"
	[ "$sq_times" = 1 ] && after=$(ring_counters "$pid" "$rfd")
	if [ "$sq_times" != 1 ]; then
		has sqpoll-busy-ratio skip && ok "idle-sqpoll: sqpoll-busy-ratio skips before 6.9" || bad "idle-sqpoll: skip before 6.9"
	elif [ -n "$before" ] && [ -n "$after" ]; then
		set -- $(truth_delta "$before" "$after")
		[ "$2" -eq 0 ] && busy_truth "$before" "$after" &&
			ok "idle-sqpoll: sqpoll-busy-ratio follows fdinfo ($1 us, $2 SQEs)" ||
			bad "idle-sqpoll: sqpoll-busy-ratio follows fdinfo ($1 us, $2 SQEs)" \
				"$(jq -c '.findings[] | select(.id == "sqpoll-busy-ratio") | [.status, .message, .evidence]' "$TMP/out")"
	else
		bad "idle-sqpoll: fdinfo read as ground truth" "before '$before' after '$after'"
	fi
	stop "$pid"
fi

# A thread's id names its process: audited as that process, once, and said. The
# truth is the thread's own Tgid line.
if start idle-sqpoll; then
	tid=$(ls "/proc/$pid/task" | grep -vx "$pid" | head -n 1)
	tgid=$(awk '/^Tgid:/ {print $2}' "/proc/$pid/task/$tid/status" 2>/dev/null)
	if [ -z "$tid" ] || [ "$tgid" != "$pid" ]; then
		bad "a thread's id: the process has a thread of its own (tid '$tid', Tgid '$tgid')"
	else
		"$BIN" audit "$tid" "$pid" --format json --fail-on never >"$TMP/out" 2>"$TMP/err"
		"$BIN" audit "$tid" --fail-on never >"$TMP/text" 2>>"$TMP/err"
		jq -e --argjson p "$pid" '[.processes[].pid] == [$p] and
			([.findings[] | select(.pid != null) | .pid] | length > 0 and all(. == $p))' "$TMP/out" >/dev/null &&
			grep -q "^$tid is a thread of pid $pid: pid $pid is audited" "$TMP/text" && [ ! -s "$TMP/err" ] &&
			ok "thread id $tid: audited as pid $pid (its Tgid), once with the pid named too, and said" ||
			bad "thread id $tid audited as pid $pid" "$(jq -c '[.processes[].pid]' "$TMP/out")" "$(head -n 5 "$TMP/text")" "$(cat "$TMP/err")"
	fi
	stop "$pid"
fi

# One punt, then nothing: the pool keeps its last worker asleep for good. The
# worker's own schedstat, read around the audit, is the ground truth: asleep
# (at most the one wake-up of its 5 s idle timeout) gives a pass that says so.
if start idle-worker; then
	wrk=$(for t in /proc/"$pid"/task/*; do [ "$(cat "$t/comm")" = "iou-wrk-$pid" ] && echo "${t##*/}"; done | head -n 1)
	if [ -z "$wrk" ]; then
		bad "idle-worker: an iou-wrk thread after an IOSQE_ASYNC request"
	else
		before=$(cat "/proc/$pid/task/$wrk/schedstat")
		"$BIN" audit "$pid" --format json >"$TMP/out" 2>"$TMP/err"
		after=$(cat "/proc/$pid/task/$wrk/schedstat")
		set -- $before $after
		name="idle-worker: iowq-workers follows the worker's schedstat ($(($4 - $1)) ns, $(($6 - $3)) wake-ups)"
		if [ $(($4 - $1)) -lt 1000000 ] && [ $(($6 - $3)) -le 1 ]; then
			# Asleep: a pass that says so, and nothing else warns about a process at rest.
			has iowq-workers pass && jq -e '.findings[] | select(.id == "iowq-workers") |
				.evidence.workers_idle == 1 and .evidence.workers_ran == 0' "$TMP/out" >/dev/null &&
				jq -e '[.findings[] | select(.status == "warn" or .status == "fail" or .status == "error")] | length == 0' "$TMP/out" >/dev/null
		else
			has iowq-workers warn
		fi && ok "$name" || bad "$name" "$(jq -c '.findings[] | select(.status != "pass" and .status != "skip") | [.id, .status, .message]' "$TMP/out")"
		[ "$(cat "/proc/$pid/task/$wrk/wchan")" = io_wq_worker ] && ok "idle-worker: the worker sleeps in io_wq_worker" ||
			bad "idle-worker: the worker sleeps in io_wq_worker" "$(cat "/proc/$pid/task/$wrk/wchan")"
	fi
	stop "$pid"
fi

if start buffered; then
	sleep 0.5
	run "buffered" 1 "$BIN" audit "$pid" --format json
	fs=$(stat -f -c %T "$TMP/data")
	if [ "$fs" = ext2/ext3 ]; then
		has fd-o-direct fail "buffered.dat" && ok "buffered on ext4: fd-o-direct fails on the file" ||
			bad "buffered on ext4: fd-o-direct fails on the file" "$(jq -c '.findings[] | select(.id == "fd-o-direct")' "$TMP/out")"
		{ has iowq-workers warn || has iowq-workers fail; } && ok "buffered: io-wq workers seen" || bad "buffered: io-wq workers seen"
	else
		skip "buffered on ext4" "the data directory is $fs"
	fi
	if [ "$(id -u)" -eq 0 ]; then
		run "--watch" 1 "$BIN" audit "$pid" --watch 2 --only iowq-punts --format json &&
			jq -e '.findings[0] | .status == "fail" and .evidence.punts_source == "tracepoint" and
				.evidence.punts > 0 and (.evidence.per_opcode | has("WRITE"))' "$TMP/out" >/dev/null &&
			ok "--watch counts WRITE punts with the tracepoint" || bad "--watch counts WRITE punts" "$(cat "$TMP/out" | head -30)"
		! grep -q tracefs /proc/self/mountinfo && ok "--watch left no tracefs mount" || skip "--watch mount check" "tracefs was mounted before"
		# Another user's process, not root: every check that needs its fds skips.
		run "audit as nobody" 0 setpriv --reuid=65534 --regid=65534 --clear-groups "$TMP/uringlint" audit "$pid" --format json &&
			jq -e '[.findings[] | select(.id == "fd-o-direct" or .id == "fd-append" or .id == "proc-rings" or .id == "cq-overflow")
				| .status == "skip" and (.message | contains("Permission denied"))] | all' "$TMP/out" >/dev/null &&
			ok "nobody: fd checks skip with permission denied" || bad "nobody: fd checks skip" "$(jq -c '.findings[] | [.id,.status,.message]' "$TMP/out")"
		run "watch as nobody" 0 setpriv --reuid=65534 --regid=65534 --clear-groups "$TMP/uringlint" audit "$pid" --watch 1 --only iowq-punts --format json &&
			jq -e '.findings[0] | .evidence.punts_source == "threads" and (.evidence.fallback_why | contains("root"))' "$TMP/out" >/dev/null &&
			ok "--watch without root says why and samples threads" || bad "--watch without root" "$(cat "$TMP/out")"
		setpriv --reuid=65534 --regid=65534 --clear-groups "$TMP/uringlint" audit --all >"$TMP/all.txt" 2>&1
		grep -q "could not be read" "$TMP/all.txt" && ok "--all as nobody counts unreadable processes" || bad "--all as nobody" "$(head -5 "$TMP/all.txt")"
	else
		skip "--watch and nobody" "needs root"
	fi
	stop "$pid"
fi

# --- report: preflight, the processes and the probe in one checklist -------------------
if start buffered; then
	sleep 0.3
	run "report --pid" 1 "$BIN" report --dir "$TMP/data" --pid "$pid" --format json &&
		jq -e --argjson p "$pid" '([.findings[] | select(.id == "fs-type")] | length == 1) and
			([.findings[] | select(.id == "fd-o-direct" and .pid == $p)] | length >= 1) and
			(.processes | length == 1 and .[0].pid == $p) and .command == "report"' "$TMP/out" >/dev/null &&
		ok "report: host, directory and process findings, and the inventory" ||
		bad "report: host, directory and process findings" "$(jq -c '[.findings[] | [.id, .status]]' "$TMP/out" | head -c 600)"
	"$BIN" report --dir "$TMP/data" --format json --fail-on never >"$TMP/out" 2>"$TMP/err"
	jq -e --argjson p "$pid" '[.processes[].pid] | index($p) != null' "$TMP/out" >/dev/null &&
		ok "report without --pid audits every io_uring process" || bad "report without --pid finds the process"
	stop "$pid"
fi
run "report --probe" 0 "$BIN" report --dir "$TMP/data" --probe --format json --fail-on never &&
	jq -e '.probe.modes | length >= 3' "$TMP/out" >/dev/null &&
	jq -e '[.findings[] | select(.id == "probe-fast-path")] | length == 1' "$TMP/out" >/dev/null &&
	ok "report --probe adds the probe and its verdicts" || bad "report --probe" "$(jq -c '.probe' "$TMP/out" | head -c 400)"
run "report --pid abc" 2 "$BIN" report --pid abc && one_error_line "report --pid abc message" "'abc'"
run "report --probe --root" 2 "$BIN" --root testdata/host-6.18 report --probe && one_error_line "report --probe --root message" "live"
run "report on a captured tree" 0 "$BIN" --root testdata/proc-6.18 report --format json --fail-on never &&
	jq -e '.processes[0].pid == 31435' "$TMP/out" >/dev/null && ok "report --root audits the captured processes" ||
	bad "report --root audits the captured processes"

# --- capture: what uringlint reads, replayed with --root ------------------------------
# Processes whose state holds still (no worker churn, no threads flapping in and out
# of D state), captured, then reported live and replayed from the tree: every check
# the table does not mark live-only or live-facts gives the same status, subject and
# message; a live-facts check may say less in the replay, but never passes what the
# live report failed or warned.
cap_pids=()
# Nine modes; under valgrind (CAPTURE_MODES) fewer: each report reads them all.
cap_modes=${CAPTURE_MODES:-clean attached many-sqpoll unaligned-buffers cq-overflow idle-worker fragmented hostile-names no-ring}
for mode in $cap_modes; do
	start "$mode" && cap_pids+=("$pid")
done
if [ ${#cap_pids[@]} -eq "$(wc -w <<<"$cap_modes")" ]; then
	pid_args=$(printf -- '--pid %s ' "${cap_pids[@]}")
	run "capture" 0 "$BIN" capture $pid_args --dir "$TMP/data" -o "$TMP/cap" &&
		[ -f "$TMP/cap/proc/${cap_pids[1]}/fdinfo/3" ] && [ -L "$TMP/cap/proc/${cap_pids[1]}/fd/3" ] &&
		grep -q "^captured [0-9]* files, [0-9]* links and [0-9]* directories into $TMP/cap\$" "$TMP/out" &&
		ok "capture: the processes' fds and fdinfo, and what it wrote" ||
		bad "capture: the processes' fds and fdinfo" "$(cat "$TMP/out" "$TMP/err")"
	# A capture reads what a plain audit reads, not a watch: the live report does not watch.
	"$BIN" report $pid_args --dir "$TMP/data" --watch 0 --format json --fail-on never >"$TMP/live.json" 2>"$TMP/live.err"
	"$BIN" --root "$TMP/cap" report $pid_args --dir "$TMP/data" --format json --fail-on never \
		>"$TMP/replay.json" 2>"$TMP/replay.err"
	"$BIN" checks --format json | jq '[.[] | select(.live_only or .live_facts) | .id]' >"$TMP/live_ids.json"
	findings() { # the findings of checks a replay must match, one sorted line each
		jq -r --slurpfile l "$TMP/live_ids.json" '.findings[] | select(.id as $i | $l[0] | index($i) | not) |
			[.id, .subject, .status, .message] | @tsv' "$1" | sort
	}
	diff <(findings "$TMP/live.json") <(findings "$TMP/replay.json") >"$TMP/capdiff" &&
		[ "$(findings "$TMP/live.json" | wc -l)" -gt $((7 * ${#cap_pids[@]})) ] && [ ! -s "$TMP/replay.err" ] &&
		ok "capture replays: every check but the live ones, the same status, subject and message ($(findings "$TMP/live.json" | wc -l) findings)" ||
		bad "capture replays every check the same" "$(head -c 1500 "$TMP/capdiff")" "$(cat "$TMP/replay.err")"
	# The same processes and threads, live and replayed (one road: proc/ through the sysroot):
	# each thread by its tid, name and kind (its state and CPU move between the reads).
	threads() {
		jq -c '[.processes[] | {pid, comm, threads: ([.threads.list[]? | {tid, comm, kind}] | sort_by(.tid))}] |
			sort_by(.pid)' "$1"
	}
	if [ "$(threads "$TMP/live.json")" = "$(threads "$TMP/replay.json")" ] &&
		[ "$(jq '[.processes[].threads.list[]?] | length' "$TMP/live.json")" -ge "${#cap_pids[@]}" ]; then
		ok "capture replays: the same $(jq '.processes | length' "$TMP/live.json") processes and $(jq '[.processes[].threads.list[]?] | length' "$TMP/live.json") threads (tid, name, kind) as live"
	else
		bad "capture replays the same processes and threads" \
			"$(diff <(threads "$TMP/live.json" | jq .) <(threads "$TMP/replay.json" | jq .) | head -20)"
	fi
	# audit --all lists processes one way, live and replayed: the tree's ring holders are
	# the captured processes with a ring, and the live listing holds them all.
	"$BIN" --root "$TMP/cap" audit --all --watch 0 --format json --fail-on never >"$TMP/replay-all.json" 2>"$TMP/replay-all.err"
	"$BIN" audit --all --watch 0 --format json --fail-on never >"$TMP/live-all.json" 2>"$TMP/live-all.err"
	want=$(jq -c '[.processes[] | select((.rings | length) > 0) | .pid] | sort' "$TMP/live.json")
	if [ "$(jq -c '[.processes[].pid] | sort' "$TMP/replay-all.json")" = "$want" ] && [ "$want" != "[]" ] &&
		jq -e --argjson w "$want" '[.processes[].pid] | contains($w)' "$TMP/live-all.json" >/dev/null; then
		ok "audit --all lists the same ring holders live and replayed ($want)"
	else
		bad "audit --all lists the same ring holders live and replayed" "want $want" \
			"replayed $(jq -c '[.processes[].pid]' "$TMP/replay-all.json") $(head -c 300 "$TMP/replay-all.err")"
	fi
	# live-facts checks: per check and process (or host), no pass in the replay where live failed or warned
	jq -rn --slurpfile live "$TMP/live.json" --slurpfile rep "$TMP/replay.json" --slurpfile l "$TMP/live_ids.json" '
		def key: [.id, (.subject | split(" ")[0:2] | join(" "))];
		[$live[0].findings[] | select(.id as $i | $l[0] | index($i)) | select(.status == "fail" or .status == "warn") | key] as $bad |
		$rep[0].findings[] | select(.status == "pass") | key | select(. as $k | $bad | index([$k])) | @tsv' >"$TMP/falsepass"
	[ ! -s "$TMP/falsepass" ] && ok "capture replays: no live-facts check passes what the live report failed or warned" ||
		bad "capture replay passes what live did not" "$(cat "$TMP/falsepass")"
	# Only what was read: PID 1's environment keeps container= alone, nothing else of it.
	if [ -f "$TMP/cap/proc/1/environ" ]; then
		tr '\0' '\n' <"$TMP/cap/proc/1/environ" | grep -qv '^container=' &&
			bad "capture keeps only container= of PID 1's environment" || ok "capture keeps only container= of PID 1's environment"
	fi
	[ ! -e "$TMP/cap/proc/${cap_pids[0]}/environ" ] && [ ! -e "$TMP/cap/proc/${cap_pids[0]}/mem" ] &&
		ok "capture copies no file the collectors did not read (environ, mem)" ||
		bad "capture copies no file the collectors did not read"
	for p in "${cap_pids[@]}"; do stop "$p"; done
fi
# irqbalance's banned CPUs come from its environment: the capture keeps those
# variables (and PID 1's container=), and the replay judges irqbalance as live does.
if [ "$(id -u)" -eq 0 ] && ! pgrep -x irqbalance >/dev/null && [ "$(nproc)" -ge 2 ]; then
	cp /bin/sleep "$TMP/irqbalance"
	IRQBALANCE_BANNED_CPULIST=1 SECRET_TOKEN=hunter2 "$TMP/irqbalance" 60 &
	irq_pid=$!
	kids+=("$irq_pid")
	for _ in $(seq 50); do [ "$(cat "/proc/$irq_pid/comm" 2>/dev/null)" = irqbalance ] && break; sleep 0.05; done
	"$BIN" capture -o "$TMP/capirq" -q
	irqline() { jq -r '.findings[] | select(.id == "irqbalance") | [.status, .message] | @tsv' "$1"; }
	"$BIN" preflight --sqpoll-cpu 1 --format json --fail-on never >"$TMP/irq-live.json"
	"$BIN" --root "$TMP/capirq" preflight --sqpoll-cpu 1 --format json --fail-on never >"$TMP/irq-replay.json"
	[ -n "$(irqline "$TMP/irq-live.json")" ] && [ "$(irqline "$TMP/irq-live.json")" = "$(irqline "$TMP/irq-replay.json")" ] &&
		tr '\0' '\n' <"$TMP/capirq/proc/$irq_pid/environ" | grep -qx 'IRQBALANCE_BANNED_CPULIST=1' &&
		! grep -q hunter2 "$TMP/capirq/proc/$irq_pid/environ" &&
		ok "capture replays irqbalance's banned CPUs, and keeps nothing else of its environment" ||
		bad "capture replays irqbalance" "$(irqline "$TMP/irq-live.json")" "$(irqline "$TMP/irq-replay.json")"
	[ "$(stat -c %a "$TMP/capirq")" = 700 ] && ok "capture makes its tree readable by its owner only" ||
		bad "capture tree mode" "$(stat -c %a "$TMP/capirq")"
	kill "$irq_pid" 2>/dev/null
	wait "$irq_pid" 2>/dev/null
fi
run "capture into a non-empty dir" 2 "$BIN" capture -o "$TMP/cap" && one_error_line "capture non-empty message" "not an empty directory"
run "capture without -o" 2 "$BIN" capture && one_error_line "capture without -o message" "-o DIR"
run "capture --root" 2 "$BIN" --root testdata/host-6.18 capture -o "$TMP/cap2" && one_error_line "capture --root message" "live"
run "capture of a missing pid" 3 "$BIN" capture --pid "$gone" -o "$TMP/cap3" -q && one_error_line "capture missing pid message" "no such process"

declare -A expect=(
	[append]="fd-append fail append.dat"
	[unaligned-buffers]="fixed-buf-alignment fail pid"
	[many-sqpoll]="sqpoll-shared warn pid"
	[attached]="sqpoll-shared pass pid"
	[cq-overflow]="cq-overflow fail ring fd"
	[fragmented]="file-extents warn fragmented.dat"
)
for mode in append unaligned-buffers many-sqpoll attached cq-overflow fragmented; do
	start "$mode" || continue
	"$BIN" audit "$pid" --format json >"$TMP/out" 2>"$TMP/err"
	set -- ${expect[$mode]}
	id=$1 st=$2
	shift 2
	has "$id" "$st" "$*" && ok "$mode: $id $st" ||
		bad "$mode: $id $st" "$(jq -c --arg id "$id" '.findings[] | select(.id == $id) | [.status, .subject, .message]' "$TMP/out")"
	stop "$pid"
done

# --- a service that fell back to Linux AIO (pathology no-ring) ------------------------
# The ground truth is the process's own: liburing in its maps, no io_uring fd or
# mapping, an AIO ring, no CAP_IPC_LOCK, its RLIMIT_MEMLOCK; and what rings of 64, 256
# and 4096 entries need, measured by ring-need (each limit tried under a fresh uid),
# never taken from uringlint.
if start no-ring; then
	maps=$(cat "/proc/$pid/maps")
	ring_fds=0
	for l in /proc/"$pid"/fd/*; do
		[ "$(readlink "$l" 2>/dev/null)" = "anon_inode:[io_uring]" ] && ring_fds=$((ring_fds + 1))
	done
	limit=$(awk '/^Max locked memory/ {print $4}' "/proc/$pid/limits")
	capeff=$(awk '/^CapEff:/ {print $2}' "/proc/$pid/status")
	if grep -q '/liburing\.so' <<<"$maps" && ! grep -q 'anon_inode:\[io_uring\]' <<<"$maps" &&
		[ "$ring_fds" = 0 ] && grep -q '/\[aio\]' <<<"$maps" && [ $(((0x$capeff >> 14) & 1)) = 0 ]; then
		run "no-ring" 1 "$BIN" audit "$pid" --format json
		jq -e --argjson p "$pid" '.findings[] | select(.id == "uring-fallback" and .pid == $p) |
			.status == "fail" and (.message | contains("not on io_uring") and contains("liburing") and
			contains("Linux AIO instead (1 io_setup() context)")) and .evidence.aio_contexts == 1' \
			"$TMP/out" >/dev/null && ok "no-ring: uring-fallback fails, naming liburing and the AIO context" ||
			bad "no-ring: uring-fallback fails" "$(jq -c '.findings[] | select(.id == "uring-fallback")' "$TMP/out")"
		need=$("$HELPERS/ring-need" 64 256 4096 2>"$TMP/need.err")
		rc=$?
		set -- $(awk '{print $2}' <<<"$need")
		f='.findings[] | select(.id == "uring-fallback")'
		m='.findings[] | select(.id == "proc-memlock")'
		if [ "$rc" = 77 ]; then
			skip "no-ring: the cause against measured ring sizes" "$(head -n 1 "$TMP/need.err")"
		elif [ "$rc" != 0 ] || [ $# != 3 ]; then
			bad "no-ring: ring sizes measured" "exit $rc: $need $(cat "$TMP/need.err")"
		elif [ "$3" = 0 ]; then
			# Rings are not charged to RLIMIT_MEMLOCK here: it must not be blamed.
			jq -e "($f | .evidence.likely_cause != \"RLIMIT_MEMLOCK\" and (.message | contains(\"not why\"))) and
				($m | .status == \"pass\")" "$TMP/out" >/dev/null &&
				ok "no-ring: rings are not charged here (measured), and the limit is not blamed" ||
				bad "no-ring: the limit is not blamed" "$(jq -c "$f, $m" "$TMP/out")"
		else
			# Each size as measured, in the evidence and, in KiB, in the message; the
			# limit blamed exactly when a 4096-entry ring does not fit it.
			if [ "$limit" -lt "$3" ]; then cause='"RLIMIT_MEMLOCK"' memlock=warn; else cause=null memlock=pass; fi
			jq -e --argjson a "$1" --argjson b "$2" --argjson c "$3" --argjson cause "$cause" --arg ml "$memlock" "
				($f | .evidence.ring_memlock_bytes == {\"64\": \$a, \"256\": \$b, \"4096\": \$c} and
				.evidence.likely_cause == \$cause and .evidence.memlock_soft == $limit and
				(.message | contains(\"64 entries needs \(\$a / 1024) KiB, 256 entries needs \(\$b / 1024) KiB and 4096 entries needs \(\$c / 1024) KiB\"))) and
				($m | .status == \$ml)" "$TMP/out" >/dev/null &&
				ok "no-ring: the sizes measured ($1, $2, $3 bytes) and the $limit-byte limit make the cause" ||
				bad "no-ring: the cause against measured sizes ($need, limit $limit)" "$(jq -c "$f, $m" "$TMP/out")"
		fi
	else
		bad "no-ring: liburing mapped, an AIO ring, no ring, no CAP_IPC_LOCK" "fds $ring_fds, CapEff $capeff" \
			"$(grep -E 'uring|aio' <<<"$maps")"
	fi
	stop "$pid"
fi

if start many-files; then
	run "many-files" 0 "$BIN" audit "$pid" --format json --fail-on never &&
		[ "$(jq '.processes[0].rings | length' "$TMP/out")" = 8 ] && [ "$(jq '.processes[0].files | length' "$TMP/out")" -ge 10000 ] &&
		ok "many-files: 10,000 files and 8 rings inventoried" || bad "many-files inventory"
	stop "$pid"
fi

# LeakSanitizer cannot run under ptrace: an ASan build traced by strace checks no leaks.
NO_LSAN=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
# stopped_mid_read LOG N CMD...: CMD run under strace in the background ($a), stopped
# by a SIGSTOP that strace delivers at its Nth readlinkat (one per fd of a process);
# returns once it is stopped, with the path that readlinkat gave back in $mid_path.
# Whatever the machine's speed, the audit is then certainly in the middle of its reading.
stopped_mid_read() {
	local log=$1 n=$2 i
	shift 2
	ASAN_OPTIONS=$NO_LSAN strace -qq -s 4096 -o "$log" -e trace=readlinkat \
		-e inject=readlinkat:signal=SIGSTOP:when="$n" "$@" >"$TMP/out" 2>"$TMP/err" &
	a=$!
	mid_path=
	for i in $(seq 400); do
		grep -q 'stopped by SIGSTOP' "$log" 2>/dev/null && break
		kill -0 "$a" 2>/dev/null || return 1
		sleep 0.05
	done
	grep -q 'stopped by SIGSTOP' "$log" || return 1
	mid_path=$(grep '^readlinkat(' "$log" | tail -1 | sed -n 's/^readlinkat([^,]*, "[^"]*", "\([^"]*\)".*/\1/p')
}
# kill_resume NAME: the process killed (and reaped) while the audit is stopped in its
# fds, then the audit let go on; its exit status in $rc.
kill_resume() {
	case $mid_path in "$TMP"/data/many-*) ;; *) bad "$1: stopped in the process's fds" "$mid_path" ;; esac
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	kill -CONT $(pgrep -P "$a") 2>/dev/null
	wait "$a"
	rc=$?
}

# Killed mid-audit, with certainty: stopped after 5,000 of its 10,000 fds were read,
# the process killed, then the audit let go on: exit 3, one line saying so, valid JSON.
if ! command -v strace >/dev/null; then
	skip "process gone mid-audit" "strace is missing: nothing can stop the audit mid-read"
elif start many-files; then
	if ! stopped_mid_read "$TMP/mid.strace" 5000 "$BIN" audit "$pid" --format json; then
		bad "process gone mid-audit: the audit stopped at its 5,000th fd" "$(tail -3 "$TMP/mid.strace")" "$(cat "$TMP/err")"
		kill "$a" 2>/dev/null
	else
		kill_resume "process gone mid-audit"
		if [ "$rc" -eq 3 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
			grep -q "pid $pid exited while being audited" "$TMP/err" && jq -e '.schema_version == 1' "$TMP/out" >/dev/null; then
			ok "process gone mid-audit (killed at its fd read of $mid_path): exit 3, said, JSON valid"
		else
			bad "process gone mid-audit: exit 3, said, JSON valid" "exit $rc" "$(cat "$TMP/err")"
		fi
	fi
fi

# Found by --all and gone mid-audit: a busy host's normal, left out with a note, exit 0
# (--fail-on never: the host's other processes do not decide it), nothing on stderr.
# A first run counts the fds read before the audit of the process's own (each process's
# fds are read once to find rings, proc/PID/fd/N, and then by the audit of those with
# one, N under its fd directory); the second stops 5,000 into the audit's 10,000.
if ! command -v strace >/dev/null; then
	skip "--all: a process gone mid-audit" "strace is missing: nothing can stop the audit mid-read"
elif start many-files; then
	ASAN_OPTIONS=$NO_LSAN strace -qq -o "$TMP/all.strace" -e trace=readlinkat "$BIN" audit --all \
		--fail-on never >/dev/null 2>&1
	first=$(grep -n '^readlinkat([0-9]*, "[0-9]*", "'"$TMP"'/data/many-' "$TMP/all.strace" | head -1 | cut -d: -f1)
	if [ -z "$first" ]; then
		bad "--all: a process gone mid-audit: its fds are read" "$(grep -c . "$TMP/all.strace") readlinkat calls, none of its files"
	elif ! stopped_mid_read "$TMP/mid-all.strace" $((first + 5000)) "$BIN" audit --all --no-color --fail-on never; then
		bad "--all: a process gone mid-audit: the audit stopped in its fds" "$(tail -3 "$TMP/mid-all.strace")" "$(cat "$TMP/err")"
		kill "$a" 2>/dev/null
	else
		kill_resume "--all: a process gone mid-audit"
		if [ "$rc" -eq 0 ] && grep -q 'checks:' "$TMP/out" && ! grep -q . "$TMP/err" &&
			grep -q "pid $pid exited during the audit and is left out" "$TMP/out"; then
			ok "--all: a process gone mid-audit (killed at its fd read of $mid_path) is left out with a note, exit 0"
		else
			bad "--all: a process gone mid-audit is left out with a note, exit 0" "exit $rc" "$(cat "$TMP/err")" \
				"$(grep -i 'exited\|left out' "$TMP/out")"
		fi
	fi
fi

# Races: 200 audits of a process whose rings, files and threads come and go,
# four at a time (an audit of a SQPOLL ring mostly waits out its 300 ms
# window, and audits running side by side are a race of their own).
# CHURN_AUDITS lowers the count for the reruns (as nobody, under valgrind).
churn_n=${CHURN_AUDITS:-200}
churn_one() { # I: one audit; what went wrong, if anything, in $TMP/churn.I.bad
	local i=$1 rc
	"$BIN" audit "$pid" --watch 0 --format json >"$TMP/churn.$i.out" 2>"$TMP/churn.$i.err"
	rc=$?
	if [ "$rc" -gt 1 ] || ! jq -e '.schema_version == 1' "$TMP/churn.$i.out" >/dev/null ||
		grep -qE 'Sanitizer|runtime error:' "$TMP/churn.$i.err"; then
		echo "run $i: exit $rc $(head -c 300 "$TMP/churn.$i.err")" >"$TMP/churn.$i.bad"
	fi
	rm -f "$TMP/churn.$i.out" "$TMP/churn.$i.err"
}
if start churn; then
	apids=()	# the audits running; not `wait` alone, which would wait for the pathology
	for i in $(seq "$churn_n"); do
		if [ ${#apids[@]} -ge 4 ]; then
			wait "${apids[0]}"
			apids=("${apids[@]:1}")
		fi
		churn_one "$i" &
		apids+=($!)
	done
	wait "${apids[@]}"
	bad_rc=$(cat "$TMP"/churn.*.bad 2>/dev/null | head -n 3)
	[ -z "$bad_rc" ] && ok "churn: $churn_n audits, four at a time, each exit 0 or 1 with valid JSON" ||
		bad "churn: $churn_n audits" "$bad_rc"
	stop "$pid"
fi

# --- D state: buffered writes into a frozen XFS ------------------------------------
if [ "$(id -u)" -ne 0 ] || ! command -v mkfs.xfs >/dev/null || ! command -v fsfreeze >/dev/null; then
	skip "D-state on a frozen XFS" "needs root, mkfs.xfs and fsfreeze"
else
	if xfs_mount && start buffered "$TMP/xfs"; then
		fsfreeze -f "$TMP/xfs" && frozen=$TMP/xfs
		sleep 1
		run "frozen XFS" 1 "$BIN" audit "$pid" --format json
		jq -e '.findings[] | select(.id == "dstate-threads" and (.status == "warn" or .status == "fail")) |
			.message | contains("filesystem frozen")' "$TMP/out" >/dev/null &&
			ok "frozen XFS: D-state threads classified" ||
			bad "frozen XFS: D-state threads classified" "$(jq -c '.findings[] | select(.id == "dstate-threads")' "$TMP/out")"
		fsfreeze -u "$TMP/xfs" && frozen=
		stop "$pid"
		xfs_umount
	else
		skip "D-state on a frozen XFS" "could not mount XFS on a loop device"
	fi
fi

# --- fio, as Debian ships it ---------------------------------------------------------
if ! command -v fio >/dev/null; then
	skip "fio" "fio is missing"
else
	fio_audit() { # NAME FIO-ARGS...: runs fio, audits its worker (the process with a ring)
		local name=$1
		shift
		fio --name="$name" --directory="$TMP/data" --ioengine=io_uring --rw=randwrite --bs=4k \
			--size=64M --time_based --runtime=20 --iodepth=16 "$@" >"$TMP/fio.$name" 2>&1 &
		kids+=($!)
		local f=$!
		for _ in $(seq 100); do
			"$BIN" audit --all --format json --fail-on never >"$TMP/out" 2>/dev/null
			[ "$(jq '[.processes[] | select(.comm == "fio")] | length' "$TMP/out")" -ge 1 ] && break
			sleep 0.2
		done
		sleep 1
		"$BIN" audit --all ${FIO_WATCH:+--watch "$FIO_WATCH"} --format json --fail-on never \
			>"$TMP/out" 2>/dev/null
		# The truth of where its SQPOLL threads may run, read while fio still runs.
		: >"$TMP/sqp.$name"
		for t in /proc/[0-9]*/task/*; do
			case $(cat "$t/comm" 2>/dev/null) in
			iou-sqp-*) [ "$(cat "${t%/task/*}/comm" 2>/dev/null)" = fio ] &&
				awk '/^Cpus_allowed_list:/ {print $2}' "$t/status" >>"$TMP/sqp.$name" ;;
			esac
		done
		# Its job processes too, and until they are gone: a job still writing would be
		# audited by the next fio_audit's --all (a loaded CI machine saw one).
		local jobs
		jobs=$(pgrep -P "$f")
		kill "$f" $jobs 2>/dev/null
		wait "$f" 2>/dev/null
		for _ in $(seq 200); do
			kill -0 $jobs 2>/dev/null || break
			sleep 0.05
		done
	}
	ONLY_COMM=fio
	if [ "$(id -u)" -ne 0 ]; then
		skip "fio buffered on ext4" "audit --watch needs root"
	elif [ "$(stat -f -c %T "$TMP/data")" = ext2/ext3 ]; then
		# fio's file is not registered: only --watch can say io_uring writes it.
		FIO_WATCH=2 fio_audit buffered
		has fd-o-direct fail "buffered" && has file-punts fail "buffered" &&
			ok "fio buffered on ext4, watched: fd-o-direct and file-punts fail on its file" ||
			bad "fio buffered: fd-o-direct and file-punts fail" "$(jq -c '.findings[] | select(.id == "fd-o-direct" or .id == "file-punts") | [.status,.subject,.message]' "$TMP/out")"
	else
		skip "fio buffered on ext4" "the data directory is not ext4"
	fi
	fio_audit direct --direct=1 --sqthread_poll=1 --fixedbufs=1 --registerfiles=1
	jq -e '[.processes[] | select(.comm == "fio") | .rings[] | select(.sqpoll != null and .registered_files >= 1 and .registered_buffers >= 1)] | length >= 1' \
		"$TMP/out" >/dev/null && ok "fio direct: SQPOLL ring with registered files and buffers" ||
		bad "fio direct: SQPOLL ring" "$(jq -c '.processes' "$TMP/out" | head -c 600)"
	has fd-o-direct pass && ! has fd-o-direct fail && has fixed-buf-alignment pass && ok "fio direct: O_DIRECT and aligned buffers pass" ||
		bad "fio direct: O_DIRECT and aligned buffers pass" "$(jq -c '.findings[] | select(.id == "fd-o-direct" or .id == "fixed-buf-alignment") | [.pid,.status,.subject,.message]' "$TMP/out")"
	# Its SQPOLL thread unpinned (the truth: more than one CPU allowed): a risk said as
	# info or, with a loss measured, a warning, never a failure, with fio's own setting.
	# Applied as printed, the thread may run on that CPU alone, and the finding says so.
	cpu=$(($(nproc) - 1))
	if [ "$(nproc)" -lt 2 ]; then
		skip "fio sqpoll-cpu fix" "one CPU: nothing to pin apart"
	elif [ "$(sort -u "$TMP/sqp.direct" | wc -l)" = 1 ] && grep -q '[-,]' "$TMP/sqp.direct" &&
		jq -e '[.processes[] | select(.comm == "fio") | .pid] as $fio |
			[.findings[] | select(.id == "sqpoll-cpu-placement" and .status != "skip" and
				(.pid as $p | $fio | index($p)))] |
			length >= 1 and all(.status == "info" or .status == "warn") and
			all(.fix | contains("sqthread_poll_cpu=N")) and
			all(.message | contains("is not pinned"))' "$TMP/out" >/dev/null; then
		fio_audit pinned --direct=1 --sqthread_poll=1 --sqthread_poll_cpu="$cpu"
		if [ "$(sort -u "$TMP/sqp.pinned")" = "$cpu" ] &&
			jq -e --argjson c "$cpu" '[.processes[] | select(.comm == "fio") | .pid] as $fio |
				[.findings[] | select(.id == "sqpoll-cpu-placement" and .status != "skip" and
					(.pid as $p | $fio | index($p)))] |
				length >= 1 and all(.status != "fail" and .evidence.pinned == true and
				.evidence.cpu == $c and (.message | contains("is not pinned") | not))' "$TMP/out" >/dev/null; then
			ok "fio sqpoll-cpu fix: unpinned ($(head -1 "$TMP/sqp.direct")) is no failure and names sqthread_poll_cpu; applied, the thread runs on CPU $cpu alone"
		else
			bad "fio sqpoll-cpu fix applied: pinned to CPU $cpu" "allowed: $(cat "$TMP/sqp.pinned")" \
				"$(jq -c '.findings[] | select(.id == "sqpoll-cpu-placement") | [.status,.message,.evidence]' "$TMP/out")"
		fi
	else
		bad "fio sqpoll-cpu: unpinned, info or warn, fio's setting named" "allowed: $(cat "$TMP/sqp.direct")" \
			"$(jq -c '.findings[] | select(.id == "sqpoll-cpu-placement") | [.status,.message,.fix]' "$TMP/out")"
	fi
	ONLY_COMM=
	# fio's parent holds no ring; its job process does. Auditing the parent audits that
	# child too (the truth: the child fio forked, holding an io_uring fd, and its data
	# file's fdinfo flags without O_DIRECT), so the report fails, as the child does.
	fio --name=forked --directory="$TMP/data" --ioengine=io_uring --rw=randwrite --bs=4k \
		--size=16M --time_based --runtime=20 --iodepth=4 >"$TMP/fio.forked" 2>&1 &
	kids+=($!)
	fp=$! child=
	for _ in $(seq 100); do
		for c in $(pgrep -P "$fp"); do ring_fd "$c" >/dev/null && child=$c; done
		[ -n "$child" ] && break
		sleep 0.1
	done
	direct=
	for l in /proc/"$child"/fd/*; do
		case $(readlink "$l" 2>/dev/null) in
		*forked*) fl=$(awk '/^flags:/ {print $2}' "/proc/$child/fdinfo/${l##*/}" 2>/dev/null)
			[ -n "$fl" ] && direct=$((0$fl & 040000)) && break ;;
		esac
	done
	"$BIN" audit "$fp" --watch 2 --format json --fail-on fail >"$TMP/forked.json" 2>/dev/null
	rc=$?
	kill "$fp" "$child" 2>/dev/null
	wait "$fp" 2>/dev/null
	if [ "$(id -u)" -ne 0 ]; then
		skip "fio's parent audited with its ring-holding child" "the watch needs root"
	elif [ -n "$child" ] && [ "$direct" = 0 ] && [ "$rc" = 1 ] &&
		jq -e --argjson p "$fp" --argjson c "$child" '[.processes[].pid] == [$p, $c] and
			([.findings[] | select(.id == "fd-o-direct" and .status == "fail") | .pid] | unique) == [$c]' \
			"$TMP/forked.json" >/dev/null; then
		ok "fio's parent audited: its ring-holding child $child audited with it, its buffered file failed (exit 1)"
	else
		bad "fio's parent audited with its ring-holding child" "child '$child', O_DIRECT bit '$direct', exit $rc" \
			"$(jq -c '[.processes[].pid], [.findings[] | select(.status == "fail") | [.id, .pid]]' "$TMP/forked.json")"
	fi
fi

# A ring set up and never used, the file I/O done with pread and pwrite beside it (a server
# configured not to use asynchronous I/O). Without a watch: no pass, the ring said idle, as
# fdinfo's positions show. Watched (root): a failure with the plain calls counted, against
# perf's own count of pread64 and pwrite64 over the same second.
if start idle-ring; then
	ringfd=$(awk '$1 == "ring" {print $2}' "$(ls -t "$TMP"/ready.idle-ring.* | grep -v '\.err$' | head -1)")
	tail=$(awk '$1 == "SqTail:" {print $2}' "/proc/$pid/fdinfo/$ringfd")
	"$BIN" audit "$pid" --watch 0 --format json --fail-on never >"$TMP/idle.json" 2>/dev/null
	[ "$tail" = 0 ] && jq -e '[.findings[] | select(.id == "uring-fallback")][0] |
		.status == "skip" and (.message | contains("taken no request since it was set up"))' \
		"$TMP/idle.json" >/dev/null && ok "idle-ring, --watch 0: uring-fallback does not pass a ring that took nothing (SqTail $tail)" ||
		bad "idle-ring: no pass for an idle ring" "SqTail $tail" "$(jq -c '[.findings[] | select(.id == "uring-fallback")][0]' "$TMP/idle.json")"
	# Without a flag, as root: the idle ring is what makes the audit watch, and the watch fails it.
	if [ "$(id -u)" -eq 0 ]; then
		"$BIN" audit "$pid" --format json --fail-on never >"$TMP/idle-auto.json" 2>/dev/null
		jq -e '.processes[0].watch != null and ([.findings[] | select(.id == "uring-fallback")][0].status == "fail")' \
			"$TMP/idle-auto.json" >/dev/null && ok "idle-ring, no flag: watched because the ring never took a request, and failed" ||
			bad "idle-ring, no flag: watched and failed" "$(jq -c '[.findings[] | select(.id == "uring-fallback")][0]' "$TMP/idle-auto.json")"
	fi
	if [ "$(id -u)" -eq 0 ] && command -v perf >/dev/null; then
		perf stat -x, -e syscalls:sys_enter_pread64 -e syscalls:sys_enter_pwrite64 -p "$pid" \
			-o "$TMP/idle.perf" -- sleep 2 &
		perfpid=$!
		"$BIN" audit "$pid" --watch 2 --format json --fail-on never >"$TMP/idle-w.json" 2>/dev/null
		wait "$perfpid"
		truth=$(awk -F, '/sys_enter_p(read|write)64/ {n += $1} END {print n + 0}' "$TMP/idle.perf")
		if jq -e --argjson t "$truth" '.processes[0].watch.plain_io as $n | $t > 100 and
			$n >= 0.8 * $t and $n <= 1.2 * $t and
			([.findings[] | select(.id == "uring-fallback")][0] | .status == "fail" and
			 .evidence.plain_io_calls == $n and .evidence.uring_requests == 0)' "$TMP/idle-w.json" >/dev/null; then
			ok "idle-ring, watched: uring-fallback fails, $(jq '.processes[0].watch.plain_io' "$TMP/idle-w.json") plain pread/pwrite counted (perf: $truth over the same 2 s)"
		else
			bad "idle-ring, watched: the plain calls counted" "perf: $truth" \
				"$(jq -c '[.findings[] | select(.id == "uring-fallback")][0] | [.status, .message, .evidence]' "$TMP/idle-w.json")"
		fi
	else
		skip "idle-ring, watched" "needs root and perf"
	fi
	stop "$pid"
fi

# A ring that takes only NOPs, the file I/O done with pread and pwrite beside it (a tool that
# sets io_uring up, tries it, and copies with plain calls). Watched, it is no pass: its file I/O
# is off io_uring. Ground truth: perf's count of pread64 and pwrite64 over the same 2 s and the
# ring's SqHead in fdinfo; under --exec, the program's own count of its calls and NOPs (and a
# few more: the dynamic loader reads the libraries' headers with pread64).
if [ "$(id -u)" -ne 0 ] || ! command -v perf >/dev/null; then
	skip "nop-ring, watched" "needs root and perf"
elif start nop-ring; then
	ringfd=$(awk '$1 == "ring" {print $2}' "$(ls -t "$TMP"/ready.nop-ring.* | grep -v '\.err$' | head -1)")
	head0=$(awk '$1 == "SqHead:" {print $2}' "/proc/$pid/fdinfo/$ringfd")
	perf stat -x, -e syscalls:sys_enter_pread64 -e syscalls:sys_enter_pwrite64 -p "$pid" \
		-o "$TMP/nop.perf" -- sleep 2 &
	perfpid=$!
	"$BIN" audit "$pid" --watch 2 --format json --fail-on never >"$TMP/nop-w.json" 2>/dev/null
	wait "$perfpid"
	head1=$(awk '$1 == "SqHead:" {print $2}' "/proc/$pid/fdinfo/$ringfd")
	truth=$(awk -F, '/sys_enter_p(read|write)64/ {n += $1} END {print n + 0}' "$TMP/nop.perf")
	if jq -e --argjson t "$truth" --argjson nops "$((head1 - head0))" '.processes[0].watch.plain_io as $n |
		$t > 100 and $n >= 0.8 * $t and $n <= 1.2 * $t and
		([.findings[] | select(.id == "uring-fallback")][0] | .status == "fail" and
		 (.message | startswith("not on io_uring for its file I/O")) and
		 .evidence.plain_io_calls == $n and .evidence.uring_io_requests == 0 and
		 .evidence.uring_requests >= 1 and .evidence.uring_requests <= $nops)' "$TMP/nop-w.json" >/dev/null; then
		ok "nop-ring, watched: uring-fallback fails, $(jq '.processes[0].watch.plain_io' "$TMP/nop-w.json") plain calls (perf: $truth), $(jq '[.findings[] | select(.id == "uring-fallback")][0].evidence.uring_requests' "$TMP/nop-w.json") NOPs seen (SqHead moved $((head1 - head0)))"
	else
		bad "nop-ring, watched: no pass for a ring of NOPs beside plain file I/O" "perf: $truth, SqHead moved $((head1 - head0))" \
			"$(jq -c '[.findings[] | select(.id == "uring-fallback")][0] | [.status, .message, .evidence]' "$TMP/nop-w.json")"
	fi
	stop "$pid"
	PATHOLOGY_SECONDS=2 "$BIN" audit --exec --format json --fail-on never -o "$TMP/nop-x.json" -- \
		"$PATHO" nop-ring "$TMP" >"$TMP/nop-x.out" 2>"$TMP/nop-x.err"
	rounds=$(awk '$1 == "rounds" {print $2}' "$TMP/nop-x.out")
	nops=$(awk '$1 == "nops" {print $2}' "$TMP/nop-x.out")
	if [ -n "$rounds" ] && jq -e --argjson t "$((2 * rounds))" --argjson nops "$nops" \
		'[.findings[] | select(.id == "uring-fallback")][0] | .status == "fail" and
		 .evidence.plain_io_calls >= $t and .evidence.plain_io_calls <= $t + 8 and
		 .evidence.uring_requests == $nops and .evidence.uring_io_requests == 0' "$TMP/nop-x.json" >/dev/null; then
		ok "nop-ring under --exec: uring-fallback fails, $(jq '[.findings[] | select(.id == "uring-fallback")][0].evidence.plain_io_calls' "$TMP/nop-x.json") plain calls (the program's own: $((2 * rounds))), all $nops NOPs seen"
	else
		bad "nop-ring under --exec: no pass for a ring of NOPs" "program: rounds ${rounds:-?} nops ${nops:-?}" \
			"$(jq -c '[.findings[] | select(.id == "uring-fallback")][0] | [.status, .message, .evidence]' "$TMP/nop-x.json" 2>&1)"
	fi
fi

# A process in a container its cgroup does not name: systemd-nspawn without machined keeps its
# payload in the caller's cgroup (the host's own /usr, a tmpfs root), and unshare makes PID and
# mount namespaces with no manager at all. Ground truth: NSpid in the process's status and its
# ns/mnt link against this shell's.
ns_case() { # NAME RUNTIME WORDS CMD...: starts CMD (a pathology idle-ring that prints "ready"), audits it
	local name=$1 runtime=$2 words=$3 p="" inside
	shift 3
	"$@" >"$TMP/$name.out" 2>&1 &
	local launcher=$!
	for _ in $(seq 100); do
		grep -q '^ready' "$TMP/$name.out" 2>/dev/null && break
		sleep 0.1
	done
	p=$(pgrep -f "^$CTR_BIN idle-ring $CTR_DATA\$" | head -1)
	if [ -z "$p" ]; then
		bad "$name: the contained process starts" "$(head -c 600 "$TMP/$name.out")"
		kill "$launcher" 2>/dev/null
		return
	fi
	inside=$(awk '$1 == "NSpid:" {print $NF}' "/proc/$p/status")
	other_mnt=false
	[ "$(readlink "/proc/$p/ns/mnt")" != "$(readlink /proc/self/ns/mnt)" ] && other_mnt=true
	# The plain binary under valgrind (TABLE_BIN): the marks are read by a child given 2 s
	# (READ_AS_MS), which a child under valgrind can overrun; the unshare case keeps valgrind.
	"${CTR_AUDIT_BIN:-$BIN}" audit "$p" --watch 0 --format json --fail-on never >"$TMP/$name.json" 2>/dev/null
	if jq -e --arg rt "$runtime" --argjson in "$inside" --argjson mnt "$other_mnt" \
		'.processes[0].container | .runtime == $rt and .pid_inside == $in and
		 .own_mount_namespace == $mnt' "$TMP/$name.json" >/dev/null; then
		ok "$name: container named $runtime, pid $inside inside (NSpid), own mount namespace $other_mnt"
	else
		bad "$name: the container named" "runtime $runtime, NSpid $inside, other mnt $other_mnt" \
			"$(jq -c '.processes[0] | {unit, container}' "$TMP/$name.json")"
	fi
	# The words: what was seen, never an empty name ("namespaces container :", "namespaces/").
	"${CTR_AUDIT_BIN:-$BIN}" audit "$p" --watch 0 --fail-on never >"$TMP/$name.txt" 2>/dev/null
	if grep -Eq "^pid $p \(pathology\) in $words: " "$TMP/$name.txt" &&
		! grep -Eq "container :|[a-z]/ \(pid|container  " "$TMP/$name.txt"; then
		ok "$name: the text says where: $(grep -Eo "^pid $p \(pathology\) in [^:]*" "$TMP/$name.txt")"
	else
		bad "$name: the text says '$words'" "$(grep -E "^pid $p |in .* \(pid $p\)" "$TMP/$name.txt")"
	fi
	kill "$p" 2>/dev/null
	wait "$launcher" 2>/dev/null
}
if [ "$(id -u)" -ne 0 ]; then
	skip "containers named" "needs root (namespaces)"
else
	mkdir -p "$TMP/ctr"
	CTR_BIN=/opt/uringlint-t/pathology CTR_DATA=/data
	if command -v systemd-nspawn >/dev/null; then
		CTR_AUDIT_BIN=${TABLE_BIN:-$BIN} ns_case nspawn systemd-nspawn "(a )?systemd-nspawn container( [0-9a-f]{12}| [0-9a-f-]{36})?" systemd-nspawn -q -D / --volatile=yes -M uringlint-e2e \
			--register=no --keep-unit --bind-ro="$(dirname "$PATHO")":/opt/uringlint-t \
			--bind="$TMP/ctr":/data "$CTR_BIN" idle-ring "$CTR_DATA"
	else
		bad "nspawn: systemd-nspawn is installed (systemd-container, a test dependency)"
	fi
	CTR_BIN=$PATHO CTR_DATA=$TMP/ctr
	ns_case unshare namespaces "namespaces of its own" unshare --pid --fork --mount-proc "$CTR_BIN" idle-ring "$CTR_DATA"
fi

echo "audit: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
