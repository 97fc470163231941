#!/bin/bash
# End-to-end for probe --net: every mode runs with plausible numbers, the
# io_uring modes punt nothing (also by an ftrace count of our own), the
# formats carry it, bad options are refused, and a SIGKILLed probe leaves
# no listener, socket, thread or child behind.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh

NET=(probe --net --duration 0.5)
root=false
[ "$(id -u)" -eq 0 ] && root=true

# --- every mode, JSON ------------------------------------------------------------
run "probe --net" 0 "$BIN" "${NET[@]}" --format json --fail-on never
jq -e '.probe.net | (.modes | length) + (.skipped | length) == 5 and
	([.modes[].mode, .skipped[].mode] | sort == ["epoll", "multishot", "napi", "send-zc", "uring"])' \
	"$TMP/out" >/dev/null && ok "net: every mode ran or says why not" ||
	bad "net: every mode ran or says why not" "$(jq -c '.probe.net | [.modes[].mode], .skipped' "$TMP/out")"
jq -e '.probe.net.modes | length > 0 and all(.[]; .messages > 0 and .msgs_per_sec > 0 and .errors == 0 and
	.lat_us.p50 > 0 and .lat_us.p50 <= .lat_us.p99 and .lat_us.p99 <= .lat_us.p999 and
	.echoes >= .messages and .cpu_us_per_msg > 0 and .conns_per_worker[1] >= 1)' "$TMP/out" >/dev/null &&
	ok "net: numbers plausible (messages > 0, p50 <= p99 <= p99.9, no errors, CPU per message > 0)" ||
	bad "net: numbers plausible" "$(jq -c '[.probe.net.modes[] | {mode, messages, errors, lat_us, echoes}]' "$TMP/out")"
# The baseline never enters io_uring; a ring enters at most a few times a message.
jq -e '.probe.net.modes | all(.[]; if .mode == "epoll" then .enters == 0
	else .enters_per_msg > 0 and .enters_per_msg <= 4 end)' "$TMP/out" >/dev/null &&
	ok "net: io_uring_enter per message plausible (epoll 0, rings within (0, 4])" ||
	bad "net: io_uring_enter per message" "$(jq -c '[.probe.net.modes[] | {mode, enters, enters_per_msg}]' "$TMP/out")"
jq -e '.probe.net | .workers >= 1 and (.cpus | length) == .workers and .connections == 16 and .msg_size == 64 and
	(.addresses | index("127.0.0.1") != null)' "$TMP/out" >/dev/null &&
	ok "net: the run's shape (workers, CPUs, connections, addresses)" || bad "net: the run's shape" "$(jq -c '.probe.net | del(.modes)' "$TMP/out")"
jq -e '[.findings[].id] | sort == ["probe-net-echo", "probe-net-enobufs", "probe-net-features", "probe-net-napi", "probe-net-punts"]' \
	"$TMP/out" >/dev/null && ok "net: the network checks judge it, the storage checks do not" ||
	bad "net: which checks ran" "$(jq -c '[.findings[].id]' "$TMP/out")"

if $root; then
	jq -e '.probe.net.tracepoints and (.probe.net.modes | all(.[]; .punts == 0 and .punts_source == "tracepoint")) and
		.probe.net.fast_path and (.findings[] | select(.id == "probe-net-punts") | .status == "pass")' "$TMP/out" >/dev/null &&
		ok "net: no mode punted (tracepoint), probe-net-punts passes" ||
		bad "net: no mode punted" "$(jq -c '[.probe.net.modes[] | {mode, punts, punts_source}], [.findings[] | select(.id == "probe-net-punts")]' "$TMP/out")"
	# Single-shot recv arms poll about once a message; multishot arms once a connection.
	jq -e '.probe.net.modes | (map(select(.mode == "uring"))[0].poll_arms_per_msg > 0.2) and
		((map(select(.mode == "multishot"))[0] // {poll_arms_per_msg: 0}).poll_arms_per_msg < 0.05)' \
		"$TMP/out" >/dev/null && ok "net: poll arms: uring about one a message, multishot one a connection" ||
		bad "net: poll arms" "$(jq -c '[.probe.net.modes[] | {mode, poll_arms, poll_arms_per_msg}]' "$TMP/out")"
else
	skip "net: punts by tracepoint" "needs root"
fi

# --- an independent count: ftrace in an instance of our own ------------------------
TRACEFS=/sys/kernel/tracing
if $root && { [ -d $TRACEFS/events/io_uring ] || mount -t tracefs nodev $TRACEFS 2>/dev/null; } &&
	[ -d $TRACEFS/events/io_uring/io_uring_poll_arm ]; then
	inst=$TRACEFS/instances/uringlint-net-$$
	mkdir "$inst"
	echo 32768 >"$inst/buffer_size_kb"
	echo 1 >"$inst/options/record-tgid"
	echo 1 >"$inst/events/io_uring/io_uring_queue_async_work/enable"
	echo 1 >"$inst/events/io_uring/io_uring_poll_arm/enable"
	echo 1 >"$inst/tracing_on"
	"$BIN" probe --net --duration 0.3 --mode uring,multishot,send-zc,napi --format json --fail-on never \
		>"$TMP/truth.json" 2>"$TMP/err" &
	p=$!
	wait "$p"
	echo 0 >"$inst/tracing_on"
	cat "$inst/trace" >"$TMP/trace"
	echo 0 >"$inst/events/io_uring/io_uring_queue_async_work/enable"
	echo 0 >"$inst/events/io_uring/io_uring_poll_arm/enable"
	rmdir "$inst"
	lost=$(sed -n 's/.*entries-in-buffer\/entries-written: \([0-9]*\)\/\([0-9]*\).*/\2-\1/p' "$TMP/trace" | head -1)
	t_punts=$(grep -cE "\(\s*$p\) .* io_uring_queue_async_work:" "$TMP/trace")
	t_arms=$(grep -cE "\(\s*$p\) .* io_uring_poll_arm:" "$TMP/trace")
	p_punts=$(jq '[.probe.net.modes[].punts] | add' "$TMP/truth.json")
	p_arms=$(jq '[.probe.net.modes[].poll_arms] | add' "$TMP/truth.json")
	if [ "$((lost))" -ne 0 ]; then
		skip "net: punts against ftrace" "ftrace lost $((lost)) events"
	else
		# The probe counts its modes; ftrace also sees the feature tries before each
		# mode (a multishot accept and recv arm poll there): a few more, never fewer.
		[ "$t_punts" -eq 0 ] && [ "$p_punts" = 0 ] && [ "$t_arms" -ge "$p_arms" ] &&
			[ "$((t_arms - p_arms))" -le 20 ] &&
			ok "net: ftrace agrees: 0 punts; poll arms $t_arms traced, $p_arms counted by the probe" ||
			bad "net: ftrace agrees" "ftrace: punts $t_punts, poll arms $t_arms; probe: punts $p_punts, poll arms $p_arms"
	fi
else
	skip "net: punts against ftrace" "needs root and tracefs with io_uring events"
fi

# --- text and Prometheus -------------------------------------------------------------
run "probe --net text" 0 "$BIN" probe --net --duration 0.2 --mode epoll,uring --no-color --fail-on never &&
	grep -q "^  MODE  *MSG/S  *p50 us" "$TMP/out" && grep -q "^  epoll  " "$TMP/out" && grep -q "^  uring  " "$TMP/out" &&
	grep -q "Network probe: TCP echo on 127.0.0.1" "$TMP/out" &&
	ok "net text: the table with each mode selected" || bad "net text" "$(head -20 "$TMP/out")"
run "probe --net prometheus" 0 "$BIN" probe --net --duration 0.2 --mode epoll,multishot --format prometheus --fail-on never &&
	sh tests/e2e/check-exposition.sh "$TMP/out" >"$TMP/prom" &&
	grep -q '^uringlint_probe_net_messages_per_second{mode="epoll"} ' "$TMP/out" &&
	grep -q '^uringlint_probe_net_latency_seconds{mode="epoll",quantile="0.99"} ' "$TMP/out" &&
	grep -q '^uringlint_probe_net_punts{mode="epoll"} ' "$TMP/out" &&
	grep -q '^uringlint_probe_net_fast_path [01]$' "$TMP/out" && ! grep -q '^uringlint_probe_iops' "$TMP/out" &&
	ok "net prometheus: valid, with messages per second, latency and punts" || bad "net prometheus" "$(cat "$TMP/prom")"

# --- without root: no tracepoints, said so, nothing counted as zero -------------------
if $root && command -v setpriv >/dev/null; then
	run "probe --net as nobody" 0 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$BIN" probe --net --duration 0.2 --mode uring --format json --fail-on fail &&
		jq -e '.probe.net.tracepoints == false and (.probe.net.tracepoints_why | length > 0) and
			(.probe.net.modes[0] | .punts == null and .poll_arms == null and .enters_source == "calls" and .enters > 0)' \
			"$TMP/out" >/dev/null && ok "nobody: enters counted by the servers, punts unknown (null), and why" ||
		bad "nobody: probe --net" "$(jq -c '.probe.net | del(.modes[].lat_hist_log2_us)' "$TMP/out")"
else
	skip "probe --net as nobody" "needs root and setpriv"
fi

# --- bad options: one line, exit 2 ----------------------------------------------------------
run "--net --workers 0" 2 "$BIN" probe --net --workers 0 && one_error_line "--workers 0 message" "'0'"
run "--net --connections 99999" 2 "$BIN" probe --net --connections 99999 && one_error_line "--connections message" "'99999'"
run "--net --mode bogus" 2 "$BIN" probe --net --mode uring,bogus && one_error_line "--net --mode message" "'uring,bogus'"
run "--net --dir" 2 "$BIN" probe --net --dir /tmp && one_error_line "--net --dir message" "--dir" "not of --net"
run "--workers without --net" 2 "$BIN" probe --workers 2 && one_error_line "--workers without --net message" "goes with --net"
run "--net --root" 2 "$BIN" --root testdata/host-6.18 probe --net && one_error_line "--net --root message" "live"

# --- SIGKILL mid-run: no listener, socket, thread or child left --------------------------
env --default-signal=INT,TERM "$BIN" probe --net --duration 30 --mode multishot >/dev/null 2>&1 &
p=$!
for _ in $(seq 50); do
	ss -tlnpH 2>/dev/null | grep -q "pid=$p," && break
	sleep 0.1
done
ports=$(ss -tlnpH | grep "pid=$p," | awk '{print $4}' | sed 's/.*://' | sort -u)
listeners=$(ss -tlnpH | grep -c "pid=$p,")
threads=$(ls /proc/$p/task 2>/dev/null | wc -l)
if [ -z "$ports" ]; then
	bad "SIGKILL: the probe listened" "no listener of pid $p seen in 5 s"
	kill -KILL "$p" 2>/dev/null
	wait "$p" 2>/dev/null
else
	sleep 0.5
	estab=$(ss -tanpH state established | grep -c "pid=$p,")
	kill -KILL "$p"
	wait "$p" 2>/dev/null
	left=""
	for _ in $(seq 20); do
		left=$(ss -tanpH | grep "pid=$p,")
		for port in $ports; do
			left+=$(ss -tanH "( sport = :$port or dport = :$port )" | grep -E '^(LISTEN|ESTAB)')
		done
		[ -z "$left" ] && break
		sleep 0.1
	done
	[ -z "$left" ] && [ ! -d "/proc/$p" ] && [ -z "$(pgrep -P "$p")" ] &&
		ok "SIGKILL: $listeners listeners, $estab connections and $threads threads gone, no child" ||
		bad "SIGKILL leaves nothing" "$left" "$(pgrep -a -P "$p")"
fi

echo "probe_net: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
