#!/bin/bash
# End-to-end for the socket-request checks (net-punts, net-multishot): a
# pathology process plays TCP ping-pong on 127.0.0.1 through a ring (recvs
# that wait on poll, IOSQE_ASYNC recvs that io-wq runs, a multishot recv
# that stays armed, one whose two-buffer ring runs dry; one listener and
# one ring shared by three threads), audited with --watch 2
# while ftrace, in a tracefs instance of its own, records the same events
# (tests/e2e/ops_truth.py). Each verdict is compared with that trace and
# with what the process counted itself.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh
. tests/e2e/live.sh

mkdir -p "$TMP/data"
if [ "$(id -u)" -ne 0 ]; then
	skip "socket requests" "the io_uring tracepoints need root"
	echo "net_requests: $passed passed, $failed failed, $skipped skipped"
	exit 0
fi
if [ ! -d /sys/kernel/tracing/events/io_uring/io_uring_poll_arm ] && ! mountpoint -q /sys/kernel/tracing; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
fi
if [ ! -d /sys/kernel/tracing/events/io_uring/io_uring_poll_arm ]; then
	skip "socket requests" "this kernel has no io_uring_poll_arm tracepoint"
	echo "net_requests: $passed passed, $failed failed, $skipped skipped"
	exit 0
fi

truth_name=uringlint-ops-$$
cleanup_truth() {
	[ -d "/sys/kernel/tracing/instances/$truth_name" ] && {
		echo 0 >"/sys/kernel/tracing/instances/$truth_name/tracing_on"
		for e in io_uring_submit_req io_uring_poll_arm io_uring_queue_async_work io_uring_complete; do
			echo 0 >"/sys/kernel/tracing/instances/$truth_name/events/io_uring/$e/enable"
		done
		rmdir "/sys/kernel/tracing/instances/$truth_name"
	} 2>/dev/null
	cleanup_live
}
trap cleanup_truth EXIT

# traced MODE: starts MODE, audits it with --watch 2 while ftrace records the
# same events; the audit in $TMP/MODE.json, the trace's account in
# $TMP/MODE.truth.json, the process's own counts in $TMP/MODE.own.
traced() {
	start "$1" || return 1
	sleep 0.3
	python3 tests/e2e/ops_truth.py start "$truth_name" || { bad "$1: ftrace instance" "could not start"; stop "$pid"; return 1; }
	"$BIN" audit "$pid" --watch 2 --format json --fail-on never >"$TMP/$1.json" 2>"$TMP/$1.err"
	local rc=$?
	python3 tests/e2e/ops_truth.py stop "$truth_name" "$pid" >"$TMP/$1.truth.json"
	ss -Hltn >"$TMP/$1.ss"	# the listeners, read by the test while the process lives
	local out
	out=$(ls -t "$TMP"/ready."$1".* | grep -v '\.err$' | head -1)
	stop "$pid"
	cp "$out" "$TMP/$1.own"
	[ "$rc" -eq 0 ] || { bad "$1: audit --watch exits 0" "rc $rc: $(cat "$TMP/$1.err")"; return 1; }
}
finding() { # MODE ID: the status of the first finding of check ID
	jq -r --arg id "$2" '[.findings[] | select(.id == $id)][0].status' "$TMP/$1.json"
}
# audit_op MODE OPCODE KEY: the sum of KEY over the rings' OPCODE accounts.
audit_op() {
	jq -r --arg op "$2" --arg k "$3" '[.processes[0].watch.rings[].ops[$op][$k] // 0] | add // 0' "$TMP/$1.json"
}
truth_op() { jq -r --arg op "$2" --arg k "$3" '.ops[$op][$k] // 0' "$TMP/$1.truth.json"; }
throttled() { jq -r '.processes[0].watch.samples_throttled' "$TMP/$1.json"; }
own() { awk -v k="$2" '$1 == k {print $2}' "$TMP/$1.own"; }
# share A B: A/B to two places, or "none" when B is 0.
share() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "none" }'; }
near() { awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN { exit !(a != "none" && b != "none" && a - b <= d && b - a <= d) }'; }

# Recvs submitted before their data: each waits on poll, none is punted; net-punts passes.
if traced net-echo-poll; then
	a_reqs=$(audit_op net-echo-poll RECV completed_seen) a_punt=$(audit_op net-echo-poll RECV completed_punted)
	a_armed=$(audit_op net-echo-poll RECV completed_poll_armed)
	t_reqs=$(truth_op net-echo-poll RECV requests) t_punt=$(truth_op net-echo-poll RECV punted)
	t_armed=$(truth_op net-echo-poll RECV poll_armed)
	a_share=$(share "$a_armed" "$a_reqs") t_share=$(share "$t_armed" "$t_reqs")
	if [ "$(finding net-echo-poll net-punts)" = pass ] && [ "$a_punt" -eq 0 ] && [ "$t_punt" -eq 0 ] &&
		near "$a_share" "$t_share" 0.05 && [ "$a_reqs" -gt 100 ]; then
		ok "net-echo-poll: RECV $a_armed of $a_reqs seen to completion armed on poll ($a_share; ftrace $t_armed of $t_reqs, $t_share), none punted (ftrace: $t_punt; $(throttled net-echo-poll) throttles); net-punts passes"
	else
		bad "net-echo-poll: passes, nothing punted" "net-punts $(finding net-echo-poll net-punts)" \
			"audit RECV: $a_reqs requests, $a_punt punted, $a_armed armed" "ftrace RECV: $t_reqs requests, $t_punt punted, $t_armed armed"
	fi
fi

# One multishot recv with buffers to spare: it stays armed, CQE after CQE; net-multishot passes.
if traced net-echo-multishot; then
	more=$(jq -r '[.processes[0].watch.rings[].completions_multishot] | add // 0' "$TMP/net-echo-multishot.json")
	t_ended=$(jq -r '.multishot.ended' "$TMP/net-echo-multishot.truth.json")
	if [ "$(finding net-echo-multishot net-multishot)" = pass ] && [ "$more" -gt 100 ] &&
		[ "$(audit_op net-echo-multishot RECV multishot_ended)" -eq 0 ] && [ "$t_ended" -eq 0 ] &&
		[ "$(own net-echo-multishot rearms)" -eq 0 ]; then
		ok "net-echo-multishot: $more CQEs of the one multishot recv, none ending it (ftrace: $t_ended ended; the process re-armed 0 times); net-multishot passes"
	else
		bad "net-echo-multishot: passes" "net-multishot $(finding net-echo-multishot net-multishot), $more multishot CQEs" \
			"audit: $(audit_op net-echo-multishot RECV multishot_ended) ended; ftrace: $t_ended" "$(cat "$TMP/net-echo-multishot.own")"
	fi
fi

# IOSQE_ASYNC recvs: every one punted, as ftrace saw; net-punts warns and names IOSQE_ASYNC.
if traced net-echo-async; then
	a_reqs=$(audit_op net-echo-async RECV completed_seen) a_punt=$(audit_op net-echo-async RECV completed_punted)
	a_async=$(audit_op net-echo-async RECV completed_iosqe_async)
	t_reqs=$(truth_op net-echo-async RECV requests) t_punt=$(truth_op net-echo-async RECV punted)
	a_share=$(share "$a_punt" "$a_reqs") t_share=$(share "$t_punt" "$t_reqs")
	msg=$(jq -r '[.findings[] | select(.id == "net-punts")][0].message' "$TMP/net-echo-async.json")
	if [ "$(finding net-echo-async net-punts)" = warn ] && near "$a_share" "$t_share" 0.05 &&
		[ "$a_async" -eq "$a_reqs" ] && [[ $msg == *"because the application set IOSQE_ASYNC"* ]] &&
		[ "$a_reqs" -gt 100 ]; then
		ok "net-echo-async: RECV $a_punt of $a_reqs seen to completion punted ($a_share; ftrace $t_punt of $t_reqs, $t_share), all with IOSQE_ASYNC ($(throttled net-echo-async) throttles); net-punts warns and names it"
	else
		bad "net-echo-async: net-punts warns" "status $(finding net-echo-async net-punts): $msg" \
			"audit RECV: $a_reqs requests, $a_punt punted, $a_async IOSQE_ASYNC" "ftrace RECV: $t_reqs requests, $t_punt punted"
	fi
fi

# Two 16-byte buffers for 64-byte messages: the multishot recv ends with ENOBUFS every
# third CQE, and the process arms it again; net-multishot warns.
if traced multishot-dry; then
	ended=$(audit_op multishot-dry RECV multishot_ended) enobufs=$(audit_op multishot-dry RECV multishot_ended_enobufs)
	cqes=$(audit_op multishot-dry RECV multishot_cqes)
	t_ended=$(jq -r '.multishot.ended' "$TMP/multishot-dry.truth.json") t_cqes=$(jq -r '.multishot.cqes' "$TMP/multishot-dry.truth.json")
	t_enobufs=$(jq -r '.multishot.enobufs' "$TMP/multishot-dry.truth.json")
	a_run=$(share "$cqes" "$ended") t_run=$(share "$t_cqes" "$t_ended")
	msg=$(jq -r '[.findings[] | select(.id == "net-multishot")][0].message' "$TMP/multishot-dry.json")
	if [ "$(finding multishot-dry net-multishot)" = warn ] && [ "$ended" -gt 100 ] && [ "$enobufs" -eq "$ended" ] &&
		[ "$t_enobufs" -eq "$t_ended" ] && near "$a_run" "$t_run" 0.1 && [[ $msg == *"with ENOBUFS"* ]] &&
		[ "$(own multishot-dry rearms)" -gt "$ended" ] && [ "$(finding multishot-dry net-punts)" = pass ]; then
		ok "multishot-dry: $ended runs ended with ENOBUFS after $a_run CQEs a run (ftrace: $t_ended, $t_run; the process re-armed $(own multishot-dry rearms) times in its life); net-multishot warns"
	else
		bad "multishot-dry: net-multishot warns" "status $(finding multishot-dry net-multishot): $msg" \
			"audit: $ended ended, $enobufs ENOBUFS, $cqes CQEs" "ftrace: $t_ended ended, $t_enobufs ENOBUFS, $t_cqes CQEs" "$(cat "$TMP/multishot-dry.own")"
	fi
fi

# One listener and one ring shared by three workers under a lock: net-listeners says the
# listener is shared and which threads accept through which ring, ring-submitters names
# the shared ring as advice (info): sharing it is how the program is written.
if traced shared-listener; then
	port=$(awk '$1 == "ready" {print $3}' "$TMP/shared-listener.own")
	listeners=$(awk -v p=":$port" 'substr($4, length($4) - length(p) + 1) == p' "$TMP/shared-listener.ss" | wc -l)
	truth=$(awk '$1 == "thread" {print $2}' "$TMP/shared-listener.own" | sort -n | tr '\n' ' ')
	msg=$(jq -r '[.findings[] | select(.id == "net-listeners")][0].message' "$TMP/shared-listener.json")
	said=$(sed -n 's/.*ACCEPT went to ring fd [0-9]* from tid \([0-9, ]*\).*/\1/p' <<<"$msg" | tr -d ',' | tr ' ' '\n' | grep . | sort -n | tr '\n' ' ')
	if [ "$(finding shared-listener net-listeners)" = pass ] && [[ $msg == *"1 listener of its own"* ]] &&
		[ "$listeners" -eq 1 ] && [ -n "$truth" ] && [ "$said" = "$truth" ] &&
		[ "$(finding shared-listener ring-submitters)" = info ]; then
		ok "shared-listener: one listener (ss: $listeners on port $port), ACCEPT through one ring from tids $said as the workers said; ring-submitters names it as advice (info)"
	else
		bad "shared-listener: one listener, three threads" "net-listeners $(finding shared-listener net-listeners): $msg" \
			"ss: $listeners listeners; workers: $truth; said: $said" "ring-submitters $(finding shared-listener ring-submitters)"
	fi
fi

echo "net_requests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
