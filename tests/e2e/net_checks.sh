#!/bin/bash
# End-to-end for net-accept-backlog and net-busy-poll, live, against ground truth the
# test takes itself: the namespace's TcpExt ListenOverflows from /proc/PID/net/netstat
# before and after the audit, ss -ltn's Recv-Q and Send-Q (accept queue and backlog, as
# sock_diag gives them to ss), the process's own fdinfo NAPI lines and the devices'
# napi_defer_hard_irqs and gro_flush_timeout under /sys/class/net.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh
. tests/e2e/live.sh

chmod 0755 "$TMP"
mkdir -p "$TMP/data"

if [ ! -x "$PATHO" ]; then
	skip "net checks" "build/tests/pathology is not built (make check builds it)"
	echo "net_checks: $passed passed, $failed failed, $skipped skipped"
	exit 0
fi

# overflows PID: TcpExt ListenOverflows of the process's network namespace, as the kernel prints it.
overflows() {
	awk '$1 == "TcpExt:" { if (!n) { for (i = 2; i <= NF; i++) name[i] = $i; n = 1; next }
		for (i = 2; i <= NF; i++) if (name[i] == "ListenOverflows") print $i }' "/proc/$1/net/netstat"
}
# finding ID: the check's findings in $TMP/out, compact.
finding() { jq -c --arg id "$1" '[.findings[] | select(.id == $id) | {status, subject, message, evidence}]' "$TMP/out"; }

# --- net-accept-backlog: a backlog of 4, overflowed ------------------------------------
if start slow-accepter; then
	port=$(awk '$1 == "ready" {print $3; exit}' "$TMP"/ready.slow-accepter.*)
	# Without --watch: the queue full as read, overflows not judged from the lifetime total.
	# The ring takes one connection a second and the client refills the queue within 20 ms:
	# a reading in that gap sees 4 of 4, so a round that ss or the audit caught there is retried.
	for round in 1 2 3; do
		before=$(overflows "$pid")
		run "audit of slow-accepter" 0 "$BIN" audit "$pid" --format json --fail-on never || break
		after=$(overflows "$pid")
		read -r recvq sendq < <(ss -Hltn "sport = :$port" | awk '{print $2, $3; exit}')
		got=$(finding net-accept-backlog)
		[ "${recvq:-0}" -gt "${sendq:-0}" ] && jq -e '.[0].status == "warn"' <<<"$got" >/dev/null && break
	done
	if [ "${sendq:-}" = 4 ] && [ "${recvq:-0}" -gt "$sendq" ] &&
		jq -e --arg p "$port" --argjson lo "$before" --argjson hi "$after" 'length == 1 and .[0].status == "warn" and
		(.[0].message | contains("tcp 127.0.0.1:" + $p + " accept queue 5 of backlog 4 (full)")) and
		(.[0].message | capture("lifetime TcpExt ListenOverflows total was (?<n>[0-9]+), which may be from long ago, and it is not judged").n |
			tonumber | . >= $lo and . <= $hi)' <<<"$got" >/dev/null; then
		ok "slow-accepter: a queue full as read (ss: Recv-Q $recvq, Send-Q $sendq; round $round), the lifetime total ($before..$after) not judged"
	else
		bad "slow-accepter without --watch (ss: Recv-Q ${recvq:-?} Send-Q ${sendq:-?}, ListenOverflows $before..$after)" "$got"
	fi
	jq -e --argjson p "$port" '[.processes[0].sockets.list[] | select(.state == "LISTEN" and
		(.local | endswith(":" + ($p | tostring))))] | length == 1 and .[0].backlog == 4' "$TMP/out" >/dev/null &&
		ok "sock_diag's backlog in the inventory is ss's Send-Q (4)" ||
		bad "sock_diag's backlog in the inventory" "$(jq -c '.processes[0].sockets.list' "$TMP/out")"

	# With --watch: the growth the test sees around the audit bounds the audit's from above.
	before=$(overflows "$pid")
	run "audit --watch 2 of slow-accepter" 0 "$BIN" audit "$pid" --watch 2 --format json --fail-on never
	after=$(overflows "$pid")
	truth=$((after - before))
	others=$(($(ss -Hltn | wc -l) - 1))
	got=$(finding net-accept-backlog)
	if [ "$others" -eq 0 ]; then
		owner='contains("TCP listener is this process'"'"'s, so they are its own")'
	else
		owner='contains("namespace-wide")'
	fi
	if [ "$truth" -le 0 ]; then
		skip "slow-accepter over --watch" "ListenOverflows did not grow ($before to $after): the client could not overflow the queue"
	elif jq -e --argjson t "$truth" ".[0].status == \"fail\" and (.[0].evidence.listen_overflows_delta | . > 0 and . <= \$t) and
		(.[0].message | contains(\"TcpExt ListenOverflows grew by\") and $owner)" <<<"$got" >/dev/null; then
		ok "slow-accepter over --watch: ListenOverflows grew by $(jq '.[0].evidence.listen_overflows_delta' <<<"$got"), within the $truth the test saw around it ($others other listener(s) in the namespace)"
	else
		bad "slow-accepter over --watch (truth $truth, $others other listeners)" "$got"
	fi
	jq -e '.processes[0].sockets.netstat.watch | .seconds >= 2 and .listen_overflows > 0 and .listen_drops >= .listen_overflows' \
		"$TMP/out" >/dev/null && ok "the watch's counters in the JSON (seconds, overflows, drops)" ||
		bad "the watch's counters in the JSON" "$(jq -c '.processes[0].sockets.netstat' "$TMP/out")"
	stop "$pid"
fi

# A ring with two idle listeners: no queue full; over --watch, a pass only if nothing grew.
if start reuseport-listeners; then
	before=$(overflows "$pid")
	run "audit --watch 2 of reuseport-listeners" 0 "$BIN" audit "$pid" --watch 2 --format json --fail-on never
	after=$(overflows "$pid")
	got=$(finding net-accept-backlog)
	if [ "$after" -eq "$before" ]; then
		jq -e '.[0].status == "pass" and (.[0].message | contains("TcpExt ListenOverflows did not grow"))' <<<"$got" >/dev/null &&
			ok "idle listeners over --watch: a pass, ListenOverflows still $after" ||
			bad "idle listeners over --watch (ListenOverflows $before to $after)" "$got"
	else
		jq -e '.[0].status != "pass" or .[0].evidence.listen_overflows_delta == 0' <<<"$got" >/dev/null &&
			ok "idle listeners over --watch: another listener overflowed the namespace ($before to $after), judged as such" ||
			bad "idle listeners over --watch (ListenOverflows $before to $after)" "$got"
	fi
	# No NAPI registered: said plainly, as fdinfo shows it.
	rfd=$(ring_fd "$pid")
	napi=$(awk -F'\t' '$1 == "NAPI:" {print $2}' "/proc/$pid/fdinfo/$rfd")
	got=$(finding net-busy-poll)
	case $napi in
	disabled) want='.[0].status == "skip" and (.[0].message | contains("no ring of the process registered NAPI"))' ;;
	"") want='.[0].status == "skip" and (.[0].message | contains("NAPI line"))' ;;
	*) want='false' ;;
	esac
	jq -e "$want" <<<"$got" >/dev/null && ok "no NAPI registered (fdinfo: NAPI ${napi:-not printed}): a skip that says so" ||
		bad "net-busy-poll without NAPI (fdinfo: ${napi:-none})" "$got"
	stop "$pid"
fi

# --- net-busy-poll: NAPI registered ------------------------------------------------------
# deferred: whether some device but loopback defers its interrupts (both knobs above 0).
deferred=no ndev=0
for d in /sys/class/net/*; do
	[ $(( $(cat "$d/flags") & 8 )) -ne 0 ] && continue
	ndev=$((ndev + 1))
	[ "$(cat "$d/napi_defer_hard_irqs" 2>/dev/null || echo 0)" -gt 0 ] &&
		[ "$(cat "$d/gro_flush_timeout" 2>/dev/null || echo 0)" -gt 0 ] && deferred=yes
done
for mode in napi-prefer napi-zero; do
	if ! start "$mode"; then
		continue
	fi
	rfd=$(ring_fd "$pid")
	fdinfo=/proc/$pid/fdinfo/$rfd
	state=$(awk -F'\t' '$1 == "NAPI:" {print $2}' "$fdinfo")
	dt=$(awk -F'\t' '$1 == "napi_busy_poll_dt:" {print $2}' "$fdinfo")
	prefer=$(awk -F'\t' '$1 == "napi_prefer_busy_poll:" {print $2}' "$fdinfo")
	run "audit --watch 2 of $mode" 0 "$BIN" audit "$pid" --watch 2 --format json --fail-on never
	got=$(finding net-busy-poll)
	if [ -z "$state" ]; then
		want='.[0].status == "skip"'
		what="no NAPI line in fdinfo: a skip"
	elif [ "$dt" = 0 ]; then
		want='.[0].status == "fail" and (.[0].message | contains("a busy-poll time of 0 polls nothing"))'
		what="fdinfo: NAPI $state, napi_busy_poll_dt 0: a fail"
	elif [ "$prefer" = true ] && [ "$ndev" -gt 0 ] && [ "$deferred" = no ]; then
		want='.[0].status == "warn" and (.[0].message | contains("prefer_busy_poll does nothing"))'
		what="fdinfo: NAPI $state, $dt ns, prefer $prefer; no device defers interrupts: a warn"
	elif [ "$ndev" -eq 0 ]; then
		want='.[0].status == "warn" and (.[0].message | contains("no device but loopback"))'
		what="no device but loopback: a warn"
	else
		want='.[0].status == "pass"'
		what="fdinfo: NAPI $state, $dt ns, prefer $prefer; a device defers interrupts: a pass"
	fi
	jq -e --arg fd "$rfd" "length == 1 and (.[0].subject | endswith(\"ring fd \" + \$fd)) and $want" <<<"$got" >/dev/null &&
		ok "$mode: $what" || bad "$mode: $what" "$got"
	# The inventory's NAPI block is the fdinfo's.
	jq -e --arg s "$state" --arg dt "$dt" --arg p "$prefer" '.processes[0].rings[0].napi as $n |
		if $s == "" then $n == null else $n.state == $s and ($n.busy_poll_dt_ns | tostring) == $dt and
		($n.prefer_busy_poll | tostring) == $p end' "$TMP/out" >/dev/null &&
		ok "$mode: rings[].napi is the fdinfo's (NAPI ${state:-none}, ${dt:-?} ns, prefer ${prefer:-?})" ||
		bad "$mode: rings[].napi" "$(jq -c '.processes[0].rings' "$TMP/out")" "fdinfo: $state $dt $prefer"
	stop "$pid"
done

echo "net_checks: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
