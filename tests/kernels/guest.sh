#!/bin/sh
# The kernel matrix's test script, one copy for every kernel: /init runs it
# in the guest, and tests/kernels/run.sh runs it natively on the host kernel.
# POSIX sh (busybox ash in the guest).
#
#   guest.sh EXT4-DIR [XFS-DIR]
#
# Each case's output goes to stdout framed and base64-encoded (a serial
# console carries it intact, whatever the kernel prints in between):
#   @@begin NAME EXIT-STATUS / base64 lines / @@end NAME
# UL and PATHO name the uringlint and pathology binaries; CAPTURE=1 also
# captures two io_uring processes with `uringlint capture` (the fixture tree
# testdata/debian12-6.1-qemu came from there).
UL=${UL:-uringlint}
PATHO=${PATHO:-pathology}
data=$1
xfs=${2:-}
t=$(mktemp -d)

emit() { # NAME STATUS FILE
	echo "@@begin $1 $2"
	base64 <"$3"
	echo "@@end $1"
}
case_json() { # NAME CMD...: runs CMD (JSON on stdout) and emits its output and errors
	name=$1
	shift
	"$@" >"$t/out" 2>"$t/err"
	rc=$?
	emit "$name" "$rc" "$t/out"
	[ -s "$t/err" ] && emit "$name.stderr" "$rc" "$t/err"
}
start() { # MODE DIR: a pathology process; its PID in $pid once it says ready
	mkdir -p "$2"
	# A file per process: the last one's "ready" line must never be read as this one's.
	ready=$t/ready.$1.$$
	rm -f "$ready"
	# WRAP: a command to start it under (unshare), "" none.
	${WRAP:-} "$PATHO" "$1" "$2" >"$ready" 2>"$ready.err" &
	kid=$!
	pid=
	i=0
	while [ $i -lt 600 ]; do
		if grep -q '^ready' "$ready"; then
			pid=$(awk '$1 == "ready" {print $2; exit}' "$ready")
			return 0
		fi
		kill -0 "$kid" 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	emit "start-$1" 1 "$ready.err"
	return 1
}
stop() { kill "$kid" 2>/dev/null; wait "$kid" 2>/dev/null; }

echo "@@kernel $(uname -r)"
case_json preflight-ext4 "$UL" preflight --dir "$data" --format json --fail-on never
[ -n "$xfs" ] && case_json preflight-xfs "$UL" preflight --dir "$xfs" --format json --fail-on never

for mode in clean buffered append many-sqpoll attached cq-overflow no-ring registered-socket reuseport-listeners; do
	start "$mode" "$data/$mode" || continue
	# Let buffered writes be punted before the audit looks for io-wq workers.
	[ "$mode" = buffered ] && sleep 1
	# The plain collection on each kernel (the watch has its cases below).
	case_json "audit-$mode" "$UL" audit "$pid" --watch 0 --format json --fail-on never
	stop
	# A pathology process that died says why on its stderr.
	[ -s "$ready.err" ] && emit "audit-$mode.pathology" 1 "$ready.err"
done

# audit --watch: the tracepoints' fields by name on every kernel (6.1 has
# io_uring_submit_sqe, not io_uring_submit_req), one cause of punts each, and
# socket requests: IOSQE_ASYNC recvs, a multishot recv whose buffers run dry.
# Their ping-pong paced to one message each 5 ms: at full speed a guest under
# software emulation spent minutes on the watch.
export PATHOLOGY_NET_PACE_MS=5
# nop-ring: a ring that takes only NOPs beside plain preads and pwrites, counted by the
# syscalls:sys_enter_p* tracepoints (CONFIG_FTRACE_SYSCALLS, in 6.1's too).
for mode in async buffered-fd extending shared-ring setup-churn net-echo-async multishot-dry nop-ring; do
	start "$mode" "$data/watch-$mode" || continue
	# shared-ring says "ready" before it starts its threads, and each thread says itself
	# before it submits: under a loaded emulator that took longer than the pause below
	# (a CI run saw no request in the 2 s watched). Wait for all three.
	if [ "$mode" = shared-ring ]; then
		i=0
		while [ "$(grep -c '^thread' "$ready")" -lt 3 ] && [ $i -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		# And until its ring has taken requests (a CI run's watch still saw none in 2 s).
		rfd=$(awk '$1 == "thread" {print $4; exit}' "$ready")
		i=0
		while [ -n "$rfd" ] && [ $i -lt 100 ] &&
			[ "$(awk '$1 == "CachedSqHead:" {print $2}' "/proc/$pid/fdinfo/$rfd" 2>/dev/null || echo 0)" -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
	fi
	sleep 0.5
	case_json "watch-$mode" "$UL" audit "$pid" --watch 2 --format json --fail-on never
	stop
	[ -s "$ready.err" ] && emit "watch-$mode.pathology" 1 "$ready.err"
done

# The cause a punted write's io-wq worker shows, where the kernel has its tracepoint
# (xfs:xfs_update_time, in 6.1's fs/xfs too): O_DIRECT overwrites of a written XFS file,
# one at a time, each in a new clock tick refused for the file's times.
if [ -n "$xfs" ] && start timestamp "$xfs/watch-timestamp"; then
	sleep 0.5
	case_json watch-timestamp "$UL" audit "$pid" --watch 2 --format json --fail-on never
	stop
	[ -s "$ready.err" ] && emit "watch-timestamp.pathology" 1 "$ready.err"
fi

# A process in PID and mount namespaces of its own (unshare) that no cgroup names: its
# container from NSpid and ns/mnt on every kernel. "ready" gives its pid inside (1);
# the one to audit is unshare's child.
WRAP="unshare -p -f -m --mount-proc"
if start idle-ring "$data/unshare"; then
	WRAP=
	pid=$(awk -v k="$kid" '$4 == k {print $1}' /proc/[0-9]*/stat 2>/dev/null | head -n 1)
	case_json audit-unshare "$UL" audit "$pid" --watch 0 --format json --fail-on never
	# unshare does not pass its signal on to the process it forked.
	kill "$pid" 2>/dev/null
	stop
	[ -s "$ready.err" ] && emit "audit-unshare.pathology" 1 "$ready.err"
fi
WRAP=

# Names a process chooses: a comm with a newline, and registered files named
# with escapes and newlines, which kernels before 6.14 print raw in fdinfo.
if start hostile-names "$data/hostile-names"; then
	case_json audit-hostile-names "$UL" audit "$pid" --watch 0 --format json --fail-on never
	stop
	[ -s "$ready.err" ] && emit "audit-hostile-names.pathology" 1 "$ready.err"
fi

case_json probe-ext4 "$UL" probe --dir "$data" --contrast --duration 0.3 --size 16M --format json --fail-on never
# The network probe on loopback: what this kernel's io_uring offers for sockets.
case_json probe-net "$UL" probe --net --duration 0.3 --format json --fail-on never

# The capture: attached's idle shared SQPOLL thread, and clean's busy one with a
# registered file and buffer.
if [ "${CAPTURE:-}" = 1 ] && start attached "$data/capture"; then
	pids="--pid $pid" kids=$kid
	if start clean "$data/capture"; then
		pids="$pids --pid $pid" kids="$kids $kid"
	fi
	"$UL" capture $pids -o "$t/capture" -q
	rc=$?
	kill $kids 2>/dev/null
	wait $kids 2>/dev/null
	tar -C "$t/capture" -czf "$t/capture.tgz" .
	emit capture "$rc" "$t/capture.tgz"
fi
rm -rf "$t"
echo "@@done"
