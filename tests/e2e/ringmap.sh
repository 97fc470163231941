#!/bin/bash
# End-to-end for the ring map of audit --watch: pathology processes whose
# thread model is known (each prints which thread submits to which ring fd,
# and the setup flags it uses), fio with one ring per thread, and the
# pathologies of a provided-buffer ring that runs dry, a completion queue
# left nearly full and requests forced to io-wq. Each map is compared with
# that ground truth, or with fdinfo read by the test itself, and each mode
# with the finding it must produce.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh
. tests/e2e/live.sh

mkdir -p "$TMP/data"
if [ "$(id -u)" -ne 0 ]; then
	skip "ring map" "the io_uring tracepoints need root"
	echo "ringmap: $passed passed, $failed failed, $skipped skipped"
	exit 0
fi

# mapped MODE: starts MODE, lets its threads print their lines, audits it with --watch 2.
mapped() {
	start "$1" "$TMP/data" || return 1
	sleep 0.5
	cp "$(ls -t "$TMP"/ready."$1".* | grep -v '\.err$' | head -1)" "$TMP/$1.truth"
	"$BIN" audit "$pid" --watch 2 --format json --fail-on never >"$TMP/$1.json" 2>"$TMP/$1.err"
	local rc=$?
	[ "$rc" -eq 0 ] || { bad "$1: audit --watch exits 0" "rc $rc: $(cat "$TMP/$1.err")"; stop "$pid"; return 1; }
}
finding() { # MODE ID: the status of the first finding of check ID
	jq -r --arg id "$2" '[.findings[] | select(.id == $id)][0].status' "$TMP/$1.json"
}
# "tid fd" of every submitting thread with 5% or more of a ring, as the map says, sorted.
map_pairs() {
	jq -r '.processes[0].watch.rings[] | select(.requests > 0) | .matched_fd as $fd |
		.submitters[] | select(.share >= 0.05 and (.sq_thread | not)) | "\(.tid) \($fd)"' "$TMP/$1.json" | sort
}
truth_pairs() { awk '$1 == "thread" {print $2, $4}' "$TMP/$1.truth" | sort; }
# The Cpus_allowed_list of each thread MODE's truth names, as /proc says. An unpinned
# thread of the pathology is moved by pinning it to the next CPU for a moment: its
# widest list of 5 reads, 10 ms apart, is where it may run.
allowed_lists() {
	local tid l widest
	for tid in $(awk '$1 == "thread" {print $2}' "$TMP/$1.truth"); do
		widest=
		for _ in 1 2 3 4 5; do
			l=$(awk '$1 == "Cpus_allowed_list:" {print $2}' "/proc/$pid/task/$tid/status")
			[ "${#l}" -gt "${#widest}" ] && widest=$l
			sleep 0.01
		done
		echo "$widest"
	done
}

# Thread per core: each thread its own ring; the map names each thread's ring fd.
if mapped ring-per-thread; then
	if [ "$(map_pairs ring-per-thread)" = "$(truth_pairs ring-per-thread)" ] &&
		[ "$(finding ring-per-thread ring-submitters)" = pass ] &&
		jq -e '[.processes[0].watch.rings[] | select(.requests > 0) | .matched_by] | all(. == "io_uring_enter")' \
			"$TMP/ring-per-thread.json" >/dev/null; then
		ok "ring-per-thread: each thread on its own ring fd, matched through io_uring_enter ($(map_pairs ring-per-thread | tr '\n' ';'))"
	else
		bad "ring-per-thread: the map" "map: $(map_pairs ring-per-thread | tr '\n' ';')" "truth: $(truth_pairs ring-per-thread | tr '\n' ';')"
	fi
	# Where each ring thread may run, read by the test: one CPU each, all different.
	if [ "$(finding ring-per-thread ring-thread-cpus)" = pass ] &&
		[ "$(allowed_lists ring-per-thread | sort -u | grep -c '^[0-9]*$')" -eq "$(truth_pairs ring-per-thread | wc -l)" ]; then
		ok "ring-per-thread: ring-thread-cpus passes; each thread is pinned to a CPU of its own ($(allowed_lists ring-per-thread | tr '\n' ' ')as /proc says)"
	else
		bad "ring-per-thread: ring-thread-cpus passes on pinned threads" "$(jq -c '[.findings[] | select(.id == "ring-thread-cpus")]' "$TMP/ring-per-thread.json")" "allowed: $(allowed_lists ring-per-thread | tr '\n' ' ')"
	fi
	stop "$pid"
fi

# The same threads free to run anywhere, moved now and then: named, by tid, as advice
# (info): nothing in the process pins, so no design of its own is broken. The check
# names a thread it saw move within its samples: under load one may not have moved in
# them (CI: one of two), so each named thread must be one of the truth's, and one at least.
if mapped ring-per-thread-unpinned; then
	lists=$(allowed_lists ring-per-thread-unpinned | tr '\n' ' ')
	stop "$pid"
	warned=$(jq -r '[.findings[] | select(.id == "ring-thread-cpus" and .status == "info") | .subject | capture("tid (?<t>[0-9]+)").t] | sort | join(" ")' \
		"$TMP/ring-per-thread-unpinned.json")
	truth=$(truth_pairs ring-per-thread-unpinned | awk '{print $1}' | sort | tr '\n' ' ' | sed 's/ $//')
	moved=$(awk '$1 == "moved" && $3 > 0' "$(ls -t "$TMP"/ready.ring-per-thread-unpinned.* | grep -v '\.err$' | head -1)" | wc -l)
	extra=$(comm -23 <(tr ' ' '\n' <<<"$warned" | sed '/^$/d' | sort) <(tr ' ' '\n' <<<"$truth" | sort))
	if [ -n "$warned" ] && [ -z "$extra" ] && [ "$moved" -eq 2 ] && ! echo " $lists" | grep -qE ' [0-9]+ '; then
		ok "ring-per-thread-unpinned: ring-thread-cpus names tids $warned as advice (info), free to run on CPUs $lists, each of which moved CPU (sched_getcpu)"
	else
		bad "ring-per-thread-unpinned: an info finding per moving unpinned thread" "named: $warned, truth: $truth, moved: $moved, allowed: $lists" \
			"$(jq -c '[.findings[] | select(.id == "ring-thread-cpus")]' "$TMP/ring-per-thread-unpinned.json")"
	fi
fi

# Two threads pinned each to a CPU of its own show the thread-per-core design; the third,
# free and moving, breaks it: a warning for that one alone, advice for none.
if mapped ring-per-thread-stray; then
	stop "$pid"
	stray=$(awk '$1 == "moved" && $3 > 0 {print $2}' "$(ls -t "$TMP"/ready.ring-per-thread-stray.* | grep -v '\.err$' | head -1)")
	warned=$(jq -r '[.findings[] | select(.id == "ring-thread-cpus" and .status == "warn") | .subject | capture("tid (?<t>[0-9]+)").t] | join(" ")' \
		"$TMP/ring-per-thread-stray.json")
	if [ -n "$stray" ] && [ "$warned" = "$stray" ]; then
		ok "ring-per-thread-stray: ring-thread-cpus warns of the one moving thread (tid $stray) among two pinned"
	else
		bad "ring-per-thread-stray: a warning for the stray thread alone" "warned: '$warned', moved (sched_getcpu): '$stray'" \
			"$(jq -c '[.findings[] | select(.id == "ring-thread-cpus") | [.status, .subject]]' "$TMP/ring-per-thread-stray.json")"
	fi
fi

# Both ring threads pinned to CPU 0: one warning that names both.
if mapped ring-per-thread-one-cpu; then
	lists=$(allowed_lists ring-per-thread-one-cpu | sort -u | tr '\n' ' ')
	stop "$pid"
	if [ "$lists" = "0 " ] && jq -e --arg n "$(truth_pairs ring-per-thread-one-cpu | wc -l)" \
		'[.findings[] | select(.id == "ring-thread-cpus" and .status == "warn" and
			(.message | test("^" + $n + " ring-driving threads are pinned to CPU 0 alone")))] | length == 1' \
		"$TMP/ring-per-thread-one-cpu.json" >/dev/null; then
		ok "ring-per-thread-one-cpu: both threads pinned to CPU 0 as /proc says; ring-thread-cpus names them in one warning"
	else
		bad "ring-per-thread-one-cpu: one warning for the shared CPU" "allowed: $lists" \
			"$(jq -c '[.findings[] | select(.id == "ring-thread-cpus")]' "$TMP/ring-per-thread-one-cpu.json")"
	fi
fi

# Thousands of rings set up and torn down while watched: the watch follows the first
# 1024 (UT_MAX_RINGS), counts the events of the others, exits 0 and stays bounded.
if start setup-churn-fast "$TMP/data"; then
	sleep 0.3
	rss=$(python3 -c 'import resource, subprocess, sys
rc = subprocess.run(sys.argv[1:]).returncode
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' \
		"$BIN" audit "$pid" --watch 2 --format json -o "$TMP/churn-fast.json" --fail-on never 2>"$TMP/churn-fast.err")
	stop "$pid"
	read -r rc kib <<<"$rss"
	made=$(awk '$1 == "rings" {print $2}' "$(ls -t "$TMP"/ready.setup-churn-fast.* | grep -v '\.err$' | head -1)")
	read -r nrings created untracked <<<"$(jq -r '.processes[0].watch | "\(.rings | length) \([.rings[] | select(.setup != null)] | length) \(.untracked_ring_events)"' "$TMP/churn-fast.json" 2>/dev/null)"
	# The bound must be reached: a process that set up too few rings, or a watch that
	# followed fewer than 1024 and counted nothing of the others, is a failure here
	# (this machine sets up thousands in the window), not a skip that hides a regression.
	if [ "${made:-0}" -le 1100 ]; then
		bad "setup-churn-fast: more than 1100 rings set up" "the process set up only ${made:-0} rings in its life"
	elif [ "$rc" = 0 ] && [ "${nrings:-0}" -eq 1024 ] && [ "${created:-0}" -ge 100 ] && [ "${untracked:-0}" -gt 0 ] &&
		[ "${kib:-999999}" -lt 131072 ]; then
		ok "setup-churn-fast: $made rings set up in the process's life; the watch followed $nrings ($created seen set up), counted $untracked events of the others, peak RSS $((kib / 1024)) MiB"
	else
		bad "setup-churn-fast: bounded, and said" "rc $rc, rings $nrings, created $created, untracked $untracked, made $made, peak RSS ${kib:-?} KiB" "$(head -c 400 "$TMP/churn-fast.err")"
	fi
fi

# Three threads on one ring under a lock: all three on its fd, and the warning.
if mapped shared-ring; then
	if [ "$(map_pairs shared-ring)" = "$(truth_pairs shared-ring)" ] &&
		[ "$(finding shared-ring ring-submitters)" = info ]; then
		ok "shared-ring: three threads on one ring fd, ring-submitters names it as advice (info)"
	else
		bad "shared-ring: the map and the warning" "map: $(map_pairs shared-ring | tr '\n' ';')" \
			"truth: $(truth_pairs shared-ring | tr '\n' ';')" "status: $(finding shared-ring ring-submitters)"
	fi
	stop "$pid"
fi

# Rings set up while watched: their flags from io_uring_create, as the process used them.
if mapped setup-churn; then
	want=$(($(awk '$1 == "setup" {print $2}' "$TMP/setup-churn.truth")))
	if jq -e --argjson want "$want" '[.processes[0].watch.rings[] | select(.setup != null)] |
		length >= 3 and all(.setup.flags_value == $want and .setup.flags == ["COOP_TASKRUN"] and
		.matched_by == "io_uring_create")' "$TMP/setup-churn.json" >/dev/null &&
		[ "$(finding setup-churn ring-setup-flags)" = info ]; then
		ok "setup-churn: $(jq '[.processes[0].watch.rings[] | select(.setup != null)] | length' "$TMP/setup-churn.json") rings set up while watched, flags COOP_TASKRUN ($want) as used; ring-setup-flags advises (info)"
	else
		bad "setup-churn: flags from io_uring_create" "$(jq -c '[.processes[0].watch.rings[] | .setup]' "$TMP/setup-churn.json" | head -c 600)"
	fi
	stop "$pid"
fi

# One provided buffer for two receives: half of them end in ENOBUFS.
if mapped buf-dry; then
	if jq -e '.processes[0].watch.rings[] | select(.requests > 0) |
		([.errors[] | select(.errno == "ENOBUFS" and .opcode == "RECV") | .count] | add) as $e |
		.ops.RECV.completions as $c | $c > 20 and ($e / $c) > 0.4 and ($e / $c) < 0.6' \
		"$TMP/buf-dry.json" >/dev/null && [ "$(finding buf-dry ring-completion-errors)" = warn ]; then
		ok "buf-dry: ENOBUFS on about half of the receives, as two share one buffer; ring-completion-errors warns"
	else
		bad "buf-dry: ENOBUFS" "$(jq -c '.processes[0].watch.rings[] | {ops, errors}' "$TMP/buf-dry.json" | head -c 600)"
	fi
	stop "$pid"
fi

# 15 completions left in a queue of 16, with 4 polls in flight (cq-full: 19 owed, it can
# overflow: a warning) and without (cq-full-bounded: 15 owed, it cannot: a pass). The test
# reads fdinfo itself: CQEs pending, and in flight CachedSqHead less CachedCqTail.
for mode in cq-full cq-full-bounded; do
	mapped "$mode" || continue
	fd=$(awk '$1 == "thread" {print $4}' "$TMP/$mode.truth")
	cqes=$(awk '$1 == "CQEs:" {print $2}' "/proc/$pid/fdinfo/$fd")
	inflight=$(awk '$1 == "CachedSqHead:" {h = $2} $1 == "CachedCqTail:" {t = $2} END {print h - t}' "/proc/$pid/fdinfo/$fd")
	want=warn
	[ "$mode" = cq-full-bounded ] && want=pass
	if jq -e --argjson cqes "$cqes" --argjson fd "$fd" --argjson n "$inflight" '.processes[0].watch.queue_fill[] |
		select(.fd == $fd) | .cq_max == $cqes and .cq_entries == 16 and .inflight_max == $n' "$TMP/$mode.json" >/dev/null &&
		[ "$(jq -r --arg fd "$fd" '[.findings[] | select(.id == "ring-cq-fill" and (.subject | endswith("ring fd " + $fd)))][0].status' "$TMP/$mode.json")" = $want ]; then
		ok "$mode: the watch read $cqes of 16 CQEs pending and $inflight in flight, as fdinfo says; ring-cq-fill: $want"
	else
		bad "$mode: the fill" "fdinfo CQEs $cqes, in flight $inflight, want $want" "$(jq -c '.processes[0].watch.queue_fill' "$TMP/$mode.json")" \
			"$(jq -c '[.findings[] | select(.id == "ring-cq-fill") | [.status, .subject]]' "$TMP/$mode.json")"
	fi
	stop "$pid"
done

# Every write forced to io-wq with IOSQE_ASYNC.
if mapped async; then
	if jq -e '[.processes[0].watch.rings[] | select(.requests > 0)] | length > 0 and
		all(.iosqe_async_requests > 0 and .iosqe_async_requests >= 0.9 * .requests)' \
		"$TMP/async.json" >/dev/null && [ "$(finding async ring-iosqe-async)" = warn ]; then
		ok "async: the requests carry IOSQE_ASYNC in the map; ring-iosqe-async warns"
	else
		bad "async: IOSQE_ASYNC" "$(jq -c '[.processes[0].watch.rings[] | {requests, iosqe_async_requests}]' "$TMP/async.json")"
	fi
	stop "$pid"
fi

# --- audit --exec: the program run under the watch from its start to its end ----------
# Two threads, each its own ring set up by the main thread in the program's first
# milliseconds: the flags io_uring_create carries (none), the thread that set each
# up, each ring on the fd its thread printed, and the program's own status as
# uringlint's. Rings driven by another thread than their creator's are no
# SINGLE_ISSUER candidates (the kernel would bind them to the creator).
PATHOLOGY_SECONDS=2 "$BIN" audit --format json -o "$TMP/exec.json" --exec -- \
	"$HELPERS/pathology" ring-per-thread "$TMP/data" >"$TMP/exec.truth" 2>"$TMP/exec.err"
rc=$?
exec_pairs=$(jq -r '.processes[0].watch.rings[] | select(.requests > 0) | .matched_fd as $fd |
	.submitters[] | select(.sq_thread | not) | "\(.tid) \($fd)"' "$TMP/exec.json" 2>/dev/null | sort)
if [ "$rc" -eq 0 ] && [ "$exec_pairs" = "$(awk '$1 == "thread" {print $2, $4}' "$TMP/exec.truth" | sort)" ] &&
	jq -e --argjson main "$(awk '$1 == "ready" {print $2}' "$TMP/exec.truth")" \
		'[.processes[0].watch.rings[] | select(.requests > 0)] | length == 2 and
		all(.setup.flags == [] and .setup.flags_value == 0 and .setup.creator_tid == $main and
		    .matched_by == "io_uring_create")' "$TMP/exec.json" >/dev/null &&
	[ "$(jq -r '[.findings[] | select(.id == "ring-setup-flags")][0].status' "$TMP/exec.json")" = pass ]; then
	ok "--exec: both rings seen set up by the main thread (no flags), each on its thread's fd ($(tr '\n' ';' <<<"$exec_pairs")), exit 0 as the program's"
else
	bad "--exec: the rings from their setup" "rc $rc: $(cat "$TMP/exec.err")" "map: $exec_pairs" \
		"truth: $(tr '\n' ';' <"$TMP/exec.truth")" "$(jq -c '[.processes[0].watch.rings[] | {matched_fd, matched_by, setup}]' "$TMP/exec.json" 2>&1 | head -c 400)"
fi
# The program's status passes through; asked to fail on findings, a clean exit with one is 1.
run "--exec: the program's status" 7 "$BIN" audit -q --exec -- sh -c 'exit 7' &&
	ok "--exec exits with the program's status (7)"
# Rings set up and driven by one thread, all sampled: the SINGLE_ISSUER candidates.
PATHOLOGY_SECONDS=2 "$BIN" audit --format json -o "$TMP/exec-churn.json" --exec -- \
	"$HELPERS/pathology" setup-churn "$TMP/data" >/dev/null 2>&1
[ "$(jq -r '[.findings[] | select(.id == "ring-setup-flags")][0].status' "$TMP/exec-churn.json")" = info ] &&
	ok "--exec: rings set up and driven by one thread without SINGLE_ISSUER draw ring-setup-flags" ||
	bad "--exec: ring-setup-flags" "$(jq -c '[.findings[] | select(.id == "ring-setup-flags")]' "$TMP/exec-churn.json")"
# Completion work for a thread that spins in user space on its CQ: without COOP_TASKRUN
# the kernel interrupts it for each batch (ring-taskrun warns); with COOP_TASKRUN and
# TASKRUN_FLAG it enters the kernel for them itself. Truth: the flags it set, and the
# CQEs it reaped, against the task work items the watch counted on its thread (a rate,
# as the watch may sample in windows).
for mode in taskrun-interrupts taskrun-coop; do
	PATHOLOGY_SECONDS=2 "$BIN" audit --format json -o "$TMP/$mode.json" --exec -- \
		"$HELPERS/pathology" "$mode" "$TMP/data" >"$TMP/$mode.truth" 2>"$TMP/$mode.err"
	tid=$(awk '$1 == "thread" {print $2}' "$TMP/$mode.truth")
	fd=$(awk '$1 == "thread" {print $4}' "$TMP/$mode.truth")
	flags=$(( $(awk '$1 == "setup" {print $2}' "$TMP/$mode.truth") ))
	cqes=$(awk '$1 == "cqes" {print $2}' "$TMP/$mode.truth")
	want=pass
	[ "$mode" = taskrun-interrupts ] && want=info
	got=$(jq -r '[.findings[] | select(.id == "ring-taskrun")][0] | "\(.status) \(.subject)"' "$TMP/$mode.json")
	seen=$(jq -r --argjson tid "${tid:-0}" --argjson fd "${fd:-0}" '.processes[0].watch as $w |
		[$w.rings[] | select(.matched_fd == $fd)][0] as $r |
		"\($r.setup.flags_value) \([$r.submitters[] | select(.tid == $tid)][0].task_work_items / $w.seconds_sampled | floor) \($w.seconds_watched)"' \
		"$TMP/$mode.json" 2>/dev/null)
	read -r vflags items_ps secs <<<"$seen"
	truth_ps=$(awk -v c="${cqes:-0}" -v s="${secs:-1}" 'BEGIN {printf "%d", c / s}')
	if [ "$got" = "$want pid $(awk '$1 == "ready" {print $2}' "$TMP/$mode.truth") ring fd $fd" -o \( "$want" = pass -a "${got%% *}" = pass \) ] &&
		[ "$vflags" = "$flags" ] && [ "${truth_ps:-0}" -gt 500 ] &&
		awk -v a="$items_ps" -v b="$truth_ps" 'BEGIN {exit !(a >= 0.75 * b && a <= 1.33 * b)}'; then
		ok "$mode: flags $flags as set, $items_ps task work items a second on tid $tid (truth: $truth_ps CQEs a second reaped); ring-taskrun $want"
	else
		bad "$mode: ring-taskrun $want, flags and task work against the CQEs" "got: $got; flags $vflags (truth $flags); items/s $items_ps, truth $truth_ps" \
			"$(jq -c '[.findings[] | select(.id == "ring-taskrun")]' "$TMP/$mode.json" 2>&1 | head -c 600)" "$(cat "$TMP/$mode.err")"
	fi
done
# --fail-on warn: advice (info) never fails the gate, a warning does. setup-churn's
# rings come and go: a reading between two of them is no proof it is off io_uring.
# Its rings, set up with COOP_TASKRUN and each used by one thread, make the advice
# ring-setup-flags (info) certain, and nothing at or above warn.
PATHOLOGY_SECONDS=1 "$BIN" --fail-on warn --format json -o "$TMP/churn-gate.json" audit --exec -- \
	"$HELPERS/pathology" setup-churn "$TMP/data" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 0 ] && jq -e '([.findings[] | select(.id == "uring-fallback" and .status == "pass")] | length) == 1 and
	([.findings[] | select(.id == "ring-setup-flags" and .status == "info")] | length) == 1 and
	([.findings[] | select(.status == "warn" or .status == "fail" or .status == "error")] | length) == 0' \
	"$TMP/churn-gate.json" >/dev/null &&
	ok "--exec with --fail-on warn: rings set up and torn down, an info finding (ring-setup-flags) and no warning: 0" ||
	bad "--exec with --fail-on warn: setup-churn gives 0 with its info finding" "rc $rc" \
		"$(jq -c '[.findings[] | select(.status != "pass" and .status != "skip") | [.id, .status, .message[0:200]]]' "$TMP/churn-gate.json")"
# buf-dry's provided buffers run out: RECV completes with ENOBUFS, ring-completion-errors
# warns, and that warning alone is what exits 1.
PATHOLOGY_SECONDS=2 "$BIN" --fail-on warn --format json -o "$TMP/buf-dry-gate.json" audit --exec -- \
	"$HELPERS/pathology" buf-dry "$TMP/data" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 1 ] && jq -e '[.findings[] | select(.status == "warn" or .status == "fail" or .status == "error")] as $w |
	($w | length) == 1 and $w[0].id == "ring-completion-errors" and $w[0].status == "warn" and
	($w[0].message | contains("failed with ENOBUFS"))' "$TMP/buf-dry-gate.json" >/dev/null &&
	ok "--exec with --fail-on warn: the program's clean exit and one warning (buf-dry: ENOBUFS in ring-completion-errors) give 1" ||
	bad "--exec with --fail-on warn: buf-dry gives 1 for its ENOBUFS warning" "rc $rc" \
		"$(jq -c '[.findings[] | select(.status == "warn" or .status == "fail" or .status == "error") | [.id, .status, .message[0:200]]]' "$TMP/buf-dry-gate.json")"
run "--exec: no such program" 127 "$BIN" audit --exec -- /nonexistent/program &&
	one_error_line "--exec not found message" "cannot run '/nonexistent/program'"
run "--exec: not runnable" 126 "$BIN" audit --exec -- /etc &&
	one_error_line "--exec not runnable message" "cannot run '/etc'"
run "--exec: no program" 2 "$BIN" audit --exec && one_error_line "--exec without a program" "needs a program"
run "--exec under --root" 2 "$BIN" --root testdata/host-6.18 audit --exec -- true &&
	one_error_line "--exec --root message" "live system"
# A signal sent to uringlint goes on to the program, whose death by it is the status.
"$BIN" audit -q --exec -- sleep 30 >/dev/null 2>&1 &
ul=$!
kids+=("$ul")
for _ in $(seq 50); do pgrep -P "$ul" -x sleep >/dev/null && break; sleep 0.1; done
kill -TERM "$ul"
wait "$ul"
st=$?
[ "$st" -eq 143 ] && ! pgrep -P "$ul" >/dev/null && ok "--exec passes SIGTERM on to the program: exit 143, nothing left" ||
	bad "--exec passes SIGTERM on" "exit $st"

# strace_flags FILE: the flags of each io_uring_setup strace saw succeed, one a line,
# as numbers (include/uapi/linux/io_uring.h, bit by bit).
strace_flags() {
	python3 - "$1" <<'PY'
import re, sys
names = ["IOPOLL", "SQPOLL", "SQ_AFF", "CQSIZE", "CLAMP", "ATTACH_WQ", "R_DISABLED", "SUBMIT_ALL",
         "COOP_TASKRUN", "TASKRUN_FLAG", "SQE128", "CQE32", "SINGLE_ISSUER", "DEFER_TASKRUN"]
for line in open(sys.argv[1]):
    m = re.search(r"io_uring_setup\(\d+, \{flags=([^,]*),", line)
    if not m or "= -" in line:
        continue
    v = 0
    for part in m.group(1).split("|"):
        v |= int(part, 16) if part.startswith("0x") else 1 << names.index(part.replace("IORING_SETUP_", ""))
    print(v)
PY
}

# Four SQPOLL rings, the last three attached to the first's thread with ATTACH_WQ:
# under --exec every ring's flags, as strace saw them set, and sqpoll-shared passes.
if command -v strace >/dev/null; then
	PATHOLOGY_SECONDS=1 strace -f -e trace=io_uring_setup -o "$TMP/attached.strace" \
		"$HELPERS/pathology" attached "$TMP/data" >/dev/null 2>&1
	want=$(strace_flags "$TMP/attached.strace" | sort -n | tr '\n' ' ')
	PATHOLOGY_SECONDS=1 "$BIN" audit --format json -o "$TMP/execattached.json" --exec -- \
		"$HELPERS/pathology" attached "$TMP/data" >/dev/null 2>"$TMP/execattached.err"
	rc=$?
	got=$(jq -r '[.processes[0].watch.rings[] | select(.setup != null) | .setup.flags_value] | sort | map(tostring) | join(" ")' \
		"$TMP/execattached.json" 2>/dev/null)
	if [ "$rc" -eq 0 ] && [ "$got " = "$want" ] && [ "$want" = "2 34 34 34 " ] &&
		[ "$(jq -r '[.findings[] | select(.id == "sqpoll-shared")][0].status' "$TMP/execattached.json")" = pass ]; then
		ok "--exec attached: flags $got (SQPOLL, then SQPOLL|ATTACH_WQ) as strace saw them; sqpoll-shared passes"
	else
		bad "--exec attached: ATTACH_WQ from io_uring_create" "rc $rc, got '$got', strace '$want'" "$(head -c 300 "$TMP/execattached.err")"
	fi
else
	skip "--exec attached against strace" "strace is not installed"
fi

# fio under --exec: four rings, each set up and driven by its own job thread, with the
# flags fio 3.33 passes to io_uring_setup as strace decodes them (the ground truth,
# from the system call itself, not from the tracepoint).
if command -v fio >/dev/null && command -v strace >/dev/null; then
	fio_job=(--name=map --directory="$TMP/data" --ioengine=io_uring --rw=randread --bs=4k --size=8M
		--direct=1 --thread --numjobs=4 --iodepth=8 --time_based --runtime=2)
	strace -f -e trace=io_uring_setup -o "$TMP/fio.strace" fio "${fio_job[@]}" >/dev/null 2>&1
	want=$(strace_flags "$TMP/fio.strace" | sort -un | tr '\n' ' ' | sed 's/ $//')
	"$BIN" audit --format json -o "$TMP/execfio.json" --exec -- fio "${fio_job[@]}" >/dev/null 2>"$TMP/execfio.err"
	rc=$?
	if [ "$rc" -eq 0 ] && [ -n "$want" ] && jq -e --arg want "$want" '[.processes[0].watch.rings[] |
		select(.requests > 0)] | length == 4 and
		all(.setup.flags_value == ($want | tonumber) and .submitters[0].tid == .setup.creator_tid and
		    (.submitters | length == 1) and .matched_by == "io_uring_create") and
		([.[].setup.creator_tid] | unique | length == 4)' "$TMP/execfio.json" >/dev/null; then
		ok "--exec fio --thread --numjobs=4: four rings, each set up and driven by its own thread, flags $(jq -c '.processes[0].watch.rings[0].setup.flags' "$TMP/execfio.json") = $want as strace saw them"
	else
		bad "--exec fio: flags against strace" "rc $rc strace: '$want'" "$(jq -c '[.processes[0].watch.rings[] | {requests, setup, subs: [.submitters[].tid]}]' "$TMP/execfio.json" 2>&1 | head -c 600)"
	fi
else
	skip "--exec fio against strace" "fio or strace is not installed"
fi

# fio with one ring per thread: four rings, four distinct submitters, each ring a ring fd of fio's.
if command -v fio >/dev/null; then
	fio --name=map --directory="$TMP/data" --ioengine=io_uring --rw=randread --bs=4k --size=8M \
		--direct=1 --thread --numjobs=4 --iodepth=8 --time_based --runtime=8 >"$TMP/fio.out" 2>&1 &
	fio_pid=$!
	kids+=("$fio_pid")
	sleep 2
	"$BIN" audit "$fio_pid" --watch 2 --format json --fail-on never >"$TMP/fio.json" 2>"$TMP/fio.err"
	ring_fds=$(for f in /proc/$fio_pid/fd/*; do
		[ "$(readlink "$f")" = "anon_inode:[io_uring]" ] && basename "$f"; done | sort -n | tr '\n' ' ')
	map_fds=$(jq -r '[.processes[0].watch.rings[] | select(.requests > 0) | .matched_fd] | sort | map(tostring) | join(" ")' "$TMP/fio.json")
	if jq -e '[.processes[0].watch.rings[] | select(.requests > 0)] | length == 4 and
		all(.submitters | length == 1) and ([.[].submitters[0].tid] | unique | length == 4) and
		all(.ops.READ.latency_us.p50 > 0)' "$TMP/fio.json" >/dev/null &&
		[ "$map_fds " = "$ring_fds" ]; then
		ok "fio --thread --numjobs=4: four rings, four submitting threads, fds $map_fds as /proc lists them, read latency p50 $(jq '[.processes[0].watch.rings[] | select(.requests > 0) | .ops.READ.latency_us.p50] | min' "$TMP/fio.json") us"
	else
		bad "fio: four rings, four submitters" "map fds '$map_fds' /proc '$ring_fds'" "$(jq -c '[.processes[0].watch.rings[] | {matched_fd, subs: [.submitters[] | .tid]}]' "$TMP/fio.json")"
	fi
	kill "$fio_pid" 2>/dev/null
	wait "$fio_pid" 2>/dev/null
else
	skip "fio ring map" "fio is not installed"
fi

echo "ringmap: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
