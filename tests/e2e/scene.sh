#!/bin/bash
# The incident scene (audit --watch, read through libproc2) against ground truth taken
# by this script over the same window: /proc/diskstats of the loop device under fio's
# file (w/s, %util) and /proc/PID/task/*/stat of fio's io-wq workers (their CPU), read
# just before and just after the audit. A healthy O_DIRECT fio gets no scene warning;
# --watch 0 judges only what needs no window, --no-scene nothing; a frozen XFS holds io-wq
# workers in D on an idle device; a raw loop device throttled under it is at its limit, and
# not when lightly loaded; a replayed capture was not measured.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh
. tests/e2e/live.sh

TRUTH=tests/e2e/punt_truth.py

if [ "$(id -u)" -ne 0 ]; then
	skip "scene" "the loop mount and the watch need root"
	echo "scene: $passed passed, $failed failed, $skipped skipped"
	exit 0
fi

now() { date +%s.%N; }
# The loop device's writes and io_ticks (fields 8 and 13 after major minor name).
disk() { awk -v d="$1" '$3 == d {print $8, $13}' /proc/diskstats; }
# utime+stime of the iou-wrk threads of $1, in clock ticks.
wrk_tics() {
	local t s sum=0
	for t in /proc/"$1"/task/*; do
		s=$(cat "$t/stat" 2>/dev/null) || continue
		[[ $(cat "$t/comm" 2>/dev/null) == iou-wrk-* ]] || continue
		s=${s##*) }
		set -- $s
		sum=$((sum + ${12} + ${13}))
	done
	echo "$sum"
}
ring_pid() { # FIO_PID: the fio process that holds the ring
	local c
	for _ in $(seq 300); do
		for c in $(pgrep -P "$1") "$1"; do
			ls -l /proc/"$c"/fd 2>/dev/null | grep -q 'anon_inode:\[io_uring\]' && { echo "$c"; return 0; }
		done
		sleep 0.02
	done
	return 1
}
# jq on the scene of the only process
sj() { jq -r ".processes[0].scene | $1" "$2"; }
# The scene checks' statuses: "scene-device=pass ..."
statuses() { jq -r '[.findings[] | select(.id | startswith("scene-")) | "\(.id)=\(.status)"] | join(" ")' "$1"; }
within() { # A B REL ABS: |A-B| <= max(REL*B, ABS)
	awk -v a="$1" -v b="$2" -v r="$3" -v m="$4" 'BEGIN { d = a - b; if (d < 0) d = -d;
		t = r * b; if (t < m) t = m; exit !(d <= t) }'
}

if ! xfs_mount; then
	bad "a loop XFS mounts" "$(cat "$TMP/mount.err")"
	echo "scene: $passed passed, $failed failed, $skipped skipped"
	exit 1
fi
dev=$(basename "$(findmnt -no SOURCE "$TMP/xfs")")
fio --name=layout --ioengine=psync --rw=write --bs=1M --size=128M --direct=1 \
	--filename="$TMP/xfs/fio.dat" >/dev/null 2>&1

# watched ARGS...: fio with ARGS on the loop XFS, audited for 2 s between two readings of
# truth; FMT=text or prometheus writes $TMP/NAME.FMT instead of NAME.json.
watched() {
	local name=$1 fio_pid pid
	shift
	fio --name="$name" --ioengine=io_uring --rw=randwrite --bs=4k --size=128M --time_based \
		--runtime=30 --filename="$TMP/xfs/fio.dat" "$@" >/dev/null 2>&1 &
	fio_pid=$!
	kids+=($fio_pid)
	pid=$(ring_pid "$fio_pid") || { bad "$name: fio starts its ring" "$(cat "$TMP/$name.fio")"; return 1; }
	sleep 1
	read -r w0 io0 <<<"$(disk "$dev")"; k0=$(wrk_tics "$pid"); t0=$(now)
	"$BIN" audit "$pid" --watch 2 --format "${FMT:-json}" --fail-on never \
		>"$TMP/$name.${FMT:-json}" 2>"$TMP/$name.err"
	rc=$?
	read -r w1 io1 <<<"$(disk "$dev")"; k1=$(wrk_tics "$pid"); t1=$(now)
	"$BIN" audit "$pid" --watch 0 --format json --fail-on never >"$TMP/$name.0.json" 2>>"$TMP/$name.err"
	[ "$name" = direct ] && "$BIN" audit "$pid" --watch 1 --no-scene --format json --fail-on never \
		>"$TMP/$name.off.json" 2>>"$TMP/$name.err"
	kill "$fio_pid" 2>/dev/null
	wait "$fio_pid" 2>/dev/null
	[ "$rc" -eq 0 ] || { bad "$name: audit --watch 2 exits 0" "rc $rc: $(cat "$TMP/$name.err")"; return 1; }
	dt=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
	truth_ws=$(awk -v a="$w0" -v b="$w1" -v t="$dt" 'BEGIN { printf "%.1f", (b - a) / t }')
	truth_util=$(awk -v a="$io0" -v b="$io1" -v t="$dt" 'BEGIN { u = (b - a) / t / 10; if (u > 100) u = 100; printf "%.1f", u }')
	truth_wq=$(awk -v a="$k0" -v b="$k1" -v t="$dt" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.3f", (b - a) / hz / t }')
}

if watched direct --direct=1 --iodepth=32; then
	ws=$(sj ".devices[] | select(.name == \"$dev\") | .w_s" "$TMP/direct.json")
	util=$(sj ".devices[] | select(.name == \"$dev\") | .util_pct" "$TMP/direct.json")
	# The truth's window holds the audit's start-up and exit around the watch's 2 s.
	within "$ws" "$truth_ws" 0.15 50 && ok "O_DIRECT fio: $dev w/s $ws, diskstats $truth_ws" ||
		bad "O_DIRECT fio: $dev w/s within 15% of diskstats" "scene $ws, truth $truth_ws"
	within "$util" "$truth_util" 0 12 && ok "O_DIRECT fio: $dev %util $util, diskstats $truth_util" ||
		bad "O_DIRECT fio: $dev %util within 12 points of diskstats" "scene $util, truth $truth_util"
	st=$(statuses "$TMP/direct.json")
	if [ -n "$st" ] && ! grep -qE '=(warn|fail)' <<<"$st"; then
		ok "O_DIRECT fio: no scene warning ($st)"
	else
		bad "O_DIRECT fio: no scene warning" "$st" \
			"$(jq -c '.findings[] | select(.id | startswith("scene-")) | .message' "$TMP/direct.json")"
	fi
	st0=$(statuses "$TMP/direct.0.json")
	inf=$(sj ".devices[] | select(.name == \"$dev\") | .in_flight" "$TMP/direct.0.json")
	if [ "$(sj .seconds "$TMP/direct.0.json")" = null ] && [[ $inf =~ ^[0-9]+$ ]] &&
		grep -q 'scene-device=skip' <<<"$st0" && grep -q 'scene-writeback=pass' <<<"$st0"; then
		ok "--watch 0: one reading ($dev in flight $inf), rates skipped ($st0)"
	else
		bad "--watch 0: one reading, rates skipped" "$st0" "$(jq -c .processes[0].scene "$TMP/direct.0.json")"
	fi
	# --no-scene: the same watch, no scene read; it says so and its checks skip.
	st=$(statuses "$TMP/direct.off.json")
	if [ "$(sj .measured "$TMP/direct.off.json")" = false ] &&
		[ "$(sj .skip "$TMP/direct.off.json")" = "not taken: audit --no-scene" ] &&
		[ "$(sj .devices "$TMP/direct.off.json")" = null ] &&
		[ "$(jq '.processes[0].watch.punts | type' "$TMP/direct.off.json")" = '"number"' ] &&
		[ "$st" = "scene-device=skip scene-cpu=skip scene-writeback=skip scene-iowq=skip" ]; then
		ok "--no-scene: watched, the scene not taken and said so ($st)"
	else
		bad "--no-scene: watched, the scene not taken and said so" "$st" \
			"$(jq -c .processes[0].scene "$TMP/direct.off.json" 2>&1)" "$(cat "$TMP/direct.err")"
	fi
fi

# Every write forced to io-wq (IOSQE_ASYNC): the workers' CPU against their stat files.
if watched async --direct=1 --iodepth=16 --force_async=1; then
	wq=$(sj '.iowq.cpu' "$TMP/async.json")
	within "$wq" "$truth_wq" 0.2 0.05 && ok "io-wq CPU: $wq, task stat $truth_wq" ||
		bad "io-wq CPU within 20% of the workers' task stat" "scene $wq, truth $truth_wq"
	# Measured, not null, wherever the truth saw the workers run (how much they run
	# is the machine's business: a loaded one gave them 0.04 CPU).
	[[ $wq =~ ^[0-9.]+$ ]] && awk -v c="$wq" -v t="$truth_wq" 'BEGIN { exit !(t > 0 && c > 0) }' &&
		ok "io-wq CPU measured while forced async ($wq, truth $truth_wq)" ||
		bad "io-wq workers burn CPU while every write is forced async" "scene $wq, truth $truth_wq"
fi

# The scene as gauges: the exposition format holds, and the loop device's w/s and %util are
# the test's own diskstats over the same window; the same scene's JSON numbers are the
# gauges' in the unit tests (test_scene_views).
if FMT=prometheus watched prom --direct=1 --iodepth=32; then
	g() { awk -v f="uringlint_scene_$1" -v l="$2" 'index($0, f "{") == 1 && index($0, l) { print $NF; exit }' "$TMP/prom.prometheus"; }
	# Gauges there, and the exposition format (and promtool) accept them.
	if ! grep -q '^uringlint_scene_' "$TMP/prom.prometheus"; then
		bad "scene gauges: written, in the exposition format" "no uringlint_scene_ sample"
	elif out=$(sh tests/e2e/check-exposition.sh "$TMP/prom.prometheus" 2>&1); then
		ok "scene gauges: written, in the exposition format ($(grep -c '^uringlint_scene_' "$TMP/prom.prometheus") samples)"
	else
		bad "scene gauges: written, in the exposition format" "$out"
	fi
	ws=$(g device_iops "device=\"$dev\",op=\"write\"")
	util=$(g device_util_ratio "device=\"$dev\"")
	util=$(awk -v u="$util" 'BEGIN { if (u != "") printf "%.1f", u * 100 }')
	if [ -n "$ws" ] && within "$ws" "$truth_ws" 0.15 50 && [ -n "$util" ] && within "$util" "$truth_util" 0 12; then
		ok "scene gauges: $dev iops{op=write} $ws, util $util%; diskstats $truth_ws, $truth_util%"
	else
		bad "scene gauges: $dev w/s and util are diskstats's" "gauges ws=$ws util=$util, truth $truth_ws $truth_util" \
			"$(grep '^uringlint_scene_device' "$TMP/prom.prometheus" | head -20)"
	fi
	n=$(grep -c "^uringlint_scene_cpu_ratio{pid=\"[0-9]*\",comm=\"fio\",cpu=\"[0-9]*\",mode=\"system\"}" "$TMP/prom.prometheus")
	grep -q "^uringlint_scene_iowq_cpu_ratio{pid=\"[0-9]*\",comm=\"fio\"} " "$TMP/prom.prometheus" && [ "$n" -ge 1 ] &&
		grep -q '^uringlint_scene_dirty_threshold_bytes{.*} [1-9]' "$TMP/prom.prometheus" &&
		ok "scene gauges: $n CPUs, io-wq CPU and the dirty threshold, labelled pid and comm" ||
		bad "scene gauges: CPUs, io-wq CPU and the dirty threshold, labelled pid and comm" \
			"$(grep '^uringlint_scene' "$TMP/prom.prometheus" | grep -v device | head)"
fi

# The text report's scene line under the process's: the loop device's %util and w/s
# as diskstats saw them over the same window.
if FMT=text watched text --direct=1 --iodepth=32; then
	line=$(grep -m1 '^  scene over [0-9.]* s: ' "$TMP/text.text")
	util=$(sed -n "s/.* $dev \([0-9]*\)% util.*/\1/p" <<<"$line")
	ws=$(sed -n "s/.* $dev [^;]*, w \([0-9.]*\)\(k*\)\/s .*/\1 \2/p" <<<"$line" |
		awk '{ print ($2 == "k") ? $1 * 1000 : $1 }')
	if [ -n "$util" ] && within "$util" "$truth_util" 0 12 && [ -n "$ws" ] && within "$ws" "$truth_ws" 0.15 50 &&
		[[ $line == *"; Dirty "*" threshold"* ]]; then
		ok "text: the scene line ($dev ${util}% util, w ${ws}/s; diskstats $truth_util%, $truth_ws/s)"
	else
		bad "text: the scene line under the process's, as diskstats saw it" "util=$util ws=$ws truth $truth_util $truth_ws" "$line"
	fi
fi

# A frozen XFS under buffered io_uring writes: the punted writes wait in D for the thaw, and
# the loop device does nothing. Truth: the test's own diskstats of the loop device over the
# audit (no write, io_ticks still) and the iou-wrk threads' task stat (D before and after).
wrk_in_d() { # PID: the iou-wrk threads of PID in state D
	local t n=0 s
	for t in /proc/"$1"/task/*; do
		[[ $(cat "$t/comm" 2>/dev/null) == iou-wrk-* ]] || continue
		s=$(cat "$t/stat" 2>/dev/null) || continue
		s=${s##*) }
		[ "${s%% *}" = D ] && n=$((n + 1))
	done
	echo "$n"
}
fio --name=frozen --ioengine=io_uring --rw=randwrite --bs=4k --size=32M --time_based --runtime=30 \
	--iodepth=8 --filename="$TMP/xfs/frozen.dat" >/dev/null 2>&1 &
fio_pid=$!
kids+=($fio_pid)
if pid=$(ring_pid "$fio_pid"); then
	sleep 1
	fsfreeze -f "$TMP/xfs" && frozen=$TMP/xfs
	sleep 1
	read -r w0 io0 <<<"$(disk "$dev")"; d0=$(wrk_in_d "$pid")
	"$BIN" audit "$pid" --watch 2 --format json --fail-on never >"$TMP/frozen.json" 2>"$TMP/frozen.err"
	read -r w1 io1 <<<"$(disk "$dev")"; d1=$(wrk_in_d "$pid")
	fsfreeze -u "$TMP/xfs" && frozen=
	kill "$fio_pid" 2>/dev/null
	wait "$fio_pid" 2>/dev/null
	msg=$(jq -r '.findings[] | select(.id == "scene-device") | "\(.status): \(.message)"' "$TMP/frozen.json")
	why=
	[ "$((w1 - w0))" -eq 0 ] || why="$why the loop device wrote $((w1 - w0)) requests;"
	[ "$((io1 - io0))" -le 10 ] || why="$why its io_ticks moved $((io1 - io0)) ms;"
	[ "$d0" -ge 1 ] && [ "$d1" -ge 1 ] || why="$why iou-wrk in D: $d0 before, $d1 after;"
	if [ -n "$why" ]; then
		bad "frozen XFS: the truth is threads in D on an idle device" "$why" "$msg"
	elif [[ $msg == "warn: "*" held in D "*"while $dev, the device under its files, was idle"* ]]; then
		ok "frozen XFS: scene-device warns (diskstats: 0 writes, io_ticks +$((io1 - io0)) ms; $d0 iou-wrk in D)"
	else
		bad "frozen XFS: scene-device warns of threads in D on an idle $dev" "$msg"
	fi
else
	bad "frozen: fio starts its ring"
fi

# The collapse: buffered random writes from 4 submitters through io_uring onto an XFS on a
# loop device whose direct I/O lands on a second loop device throttled to 300 writes/s
# (blkio), so requests pile up on the first. Truth, the test's own: the first loop's
# diskstats over the audit (w/s under 1000, aqu-sz from time_in_queue 8 or more), the
# iou-wrk threads' task stat sampled every 10 ms during the audit (seen in D), and the
# punts the watch counted. The workers' D comes in bursts with the flusher's passes (a 3 s
# watch missed all of them once while the truth's longer span caught one): 6 s hold several.
# scene-device must fail naming the collapse when the truth meets
# those thresholds, and the test says which one it did not meet otherwise.
slow_loop= throttled= raw_loop=
cleanup_more() {
	[ -n "$raw_loop" ] && losetup -d "$raw_loop" 2>/dev/null
	[ -n "$throttled" ] && echo "$throttled 0" >/sys/fs/cgroup/blkio/blkio.throttle.write_iops_device
	mountpoint -q "$TMP/slow" 2>/dev/null && { umount "$TMP/slow" || umount -l "$TMP/slow"; }
	[ -n "$slow_loop" ] && losetup -d "$slow_loop" 2>/dev/null
}
# loop's time_in_queue (field 14 after major minor name) and writes
disk_q() { awk -v d="$1" '$3 == d {print $8, $14}' /proc/diskstats; }
# The device at its limit: O_DIRECT random writes at a deep queue onto a loop device held
# open by fio itself (a raw disk, as a database's), whose backing file's device is throttled
# to 1500 writes/s (blkio), so that it has requests in flight all the time: its 64 take 43 ms
# to drain, and fio, at nice -20, is not kept off a CPU that long on a busy machine (at nice 0
# and 2000 writes/s, a load average of 30 left the device idle 5% of a window). A loop
# device whose writes land in the page cache is not reliably saturated: under the same fio
# it had none in flight for 3 to 27% of the window, its worker and fio sharing two CPUs
# (the O_DIRECT cases above). Nor a file: each O_DIRECT write
# that must update the file's mtime is punted (kiocb_modified() refuses IOCB_NOWAIT; about
# 330 a second on XFS here), a block device's own writes never. Truth, the test's own: the
# loop device's %util from its io_ticks over the audit, and the punts of fio's threads
# recorded by perf (punt_truth.py --only): 95% or more, and none. The same device lightly
# loaded (50 writes/s, one at a time, no throttle) must pass, not be at its limit.
# limit_case NAME IOPS FIO-ARGS...: IOPS 0 is no throttle; the truth in $truth_util and
# $truth_punts, the scene's %util of the device in $util, scene-device in $msg.
limit_case() {
	local iops=$2 fio_pid pid io0 io1 t0 t1
	name=$1
	shift 2
	throttled=$(cat "/sys/block/$dev/dev")
	echo "$throttled $iops" >/sys/fs/cgroup/blkio/blkio.throttle.write_iops_device
	nice -n -20 fio --name="$name" --ioengine=io_uring --rw=randwrite --bs=4k --size=32M \
		--time_based --runtime=30 --direct=1 --filename="$raw_loop" "$@" >"$TMP/$name.fio" 2>&1 &
	fio_pid=$!
	kids+=($fio_pid)
	pid=$(ring_pid "$fio_pid") || { bad "$name: fio starts its ring" "$(cat "$TMP/$name.fio")"; return 1; }
	sleep 1
	python3 "$TRUTH" start --only "scene$pid" "$pid" 2>"$TMP/$name.truth.err" ||
		{ bad "$name: ground truth starts" "$(cat "$TMP/$name.truth.err" "$TMP/$name.fio")"; return 1; }
	read -r _ io0 <<<"$(disk "$rdev")"; t0=$(now)
	"$BIN" audit "$pid" --watch 3 --format json --fail-on never >"$TMP/$name.json" 2>"$TMP/$name.err"
	read -r _ io1 <<<"$(disk "$rdev")"; t1=$(now)
	python3 "$TRUTH" stop "scene$pid" "$pid" >"$TMP/$name.truth"
	kill "$fio_pid" 2>/dev/null
	echo "$throttled 0" >/sys/fs/cgroup/blkio/blkio.throttle.write_iops_device && throttled=
	wait "$fio_pid" 2>/dev/null
	truth_util=$(awk -v a="$io0" -v b="$io1" -v t0="$t0" -v t1="$t1" \
		'BEGIN { u = (b - a) / (t1 - t0) / 10; if (u > 100) u = 100; printf "%.1f", u }')
	truth_punts=$(jq -r '.total.punts' "$TMP/$name.truth")
	util=$(sj ".devices[] | select(.name == \"$rdev\") | .util_pct" "$TMP/$name.json")
	msg=$(jq -r '.findings[] | select(.id == "scene-device") | "\(.status): \(.message)"' "$TMP/$name.json")
}
# limit_judged WHY: WHY, empty when the truth's %util is the case's; the limit case must be
# named at its limit with no punt, the light one must pass.
limit_judged() {
	local why=$1 want
	[ "$truth_punts" = 0 ] || why="$why $truth_punts punts in perf's record;"
	[[ $util =~ ^[0-9.]+$ ]] && within "$util" "$truth_util" 0 5 || why="$why the scene's %util of $rdev is $util;"
	case $name in
	limit) want="info: $rdev is at its limit (%util "*" with no punt in the watch: the device is the bottleneck, not io_uring" ;;
	*) want="pass: busiest device "*" over "* ;;
	esac
	if [ -n "$why" ]; then
		bad "$name: the truth and the scene agree" "$why" "$msg"
	elif [[ $msg == $want ]]; then
		ok "$name: scene-device ${msg%%:*} ($rdev: diskstats %util $truth_util, scene $util; $truth_punts punts)"
	else
		bad "$name: scene-device's verdict on $rdev" "truth %util $truth_util, 0 punts; want $want" "$msg"
	fi
}
if [ ! -w /sys/fs/cgroup/blkio/blkio.throttle.write_iops_device ]; then
	skip "collapse: buffered writes onto a throttled device" "no cgroup v1 blkio throttle to slow a loop device"
elif truncate -s 320M "$TMP/xfs/slow.img" && slow_loop=$(losetup --direct-io=on -f --show "$TMP/xfs/slow.img") &&
	mkfs.xfs -q -f "$slow_loop" && mkdir -p "$TMP/slow" && mount "$slow_loop" "$TMP/slow"; then
	sdev=$(basename "$slow_loop")
	throttled=$(cat "/sys/block/$dev/dev")
	echo "$throttled 300" >/sys/fs/cgroup/blkio/blkio.throttle.write_iops_device
	fio --name=collapse --ioengine=io_uring --rw=randwrite --bs=4k --size=16M --time_based --runtime=40 \
		--iodepth=32 --numjobs=4 --filename="$TMP/slow/c.dat" >/dev/null 2>&1 &
	fio_pid=$!
	kids+=($fio_pid)
	if pid=$(ring_pid "$fio_pid"); then
		sleep 5
		read -r w0 q0 <<<"$(disk_q "$sdev")"; t0=$(now)
		"$BIN" audit "$pid" --watch 6 --format json --fail-on never >"$TMP/collapse.json" 2>"$TMP/collapse.err" &
		apid=$!
		seen_d=0 nsamp=0
		while kill -0 "$apid" 2>/dev/null; do
			[ "$(wrk_in_d "$pid")" -gt 0 ] && seen_d=$((seen_d + 1))
			nsamp=$((nsamp + 1))
			sleep 0.01
		done
		wait "$apid"
		read -r w1 q1 <<<"$(disk_q "$sdev")"; t1=$(now)
		kill "$fio_pid" 2>/dev/null
		echo "$throttled 0" >/sys/fs/cgroup/blkio/blkio.throttle.write_iops_device && throttled=
		wait "$fio_pid" 2>/dev/null
		ws=$(awk -v a="$w0" -v b="$w1" -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%.0f", (b - a) / (t1 - t0) }')
		aqu=$(awk -v a="$q0" -v b="$q1" -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%.1f", (b - a) / (t1 - t0) / 1000 }')
		punts=$(jq -r '.processes[0].watch.punts // 0' "$TMP/collapse.json")
		msg=$(jq -r '.findings[] | select(.id == "scene-device") | "\(.status): \(.message)"' "$TMP/collapse.json")
		why=
		[ "$ws" -lt 1000 ] || why="$why $sdev wrote $ws/s, not under 1000;"
		awk -v a="$aqu" 'BEGIN { exit !(a >= 8) }' || why="$why aqu-sz $aqu, under 8;"
		[ "$seen_d" -gt 0 ] || why="$why no iou-wrk seen in D;"
		[[ $punts =~ ^[0-9]+$ ]] && [ "$punts" -gt 0 ] || why="$why the watch counted no punt ($punts);"
		if [ -n "$why" ]; then
			bad "collapse: the truth meets the thresholds" "$why" "$msg"
		elif [[ $msg == "fail: $sdev's queue is full "*"collapse into writeback"* ]]; then
			ok "collapse: scene-device fails ($sdev: diskstats $ws w/s, aqu-sz $aqu; iou-wrk in D in $seen_d of $nsamp samples; $punts punts)"
		else
			bad "collapse: scene-device fails naming the collapse on $sdev" \
				"truth: $ws w/s, aqu-sz $aqu, D in $seen_d of $nsamp samples, $punts punts" "$msg" \
				"scene: $(jq -c .processes[0].scene.iowq "$TMP/collapse.json")"
		fi
	else
		bad "collapse: fio starts its ring"
	fi
	cleanup_more
	slow_loop= throttled=
else
	bad "collapse: a loop XFS on a direct-I/O loop device" "$slow_loop"
fi

# The device at its limit, and the same device lightly loaded (limit_case above).
if [ ! -w /sys/fs/cgroup/blkio/blkio.throttle.write_iops_device ]; then
	skip "limit: a device at its limit" "no cgroup v1 blkio throttle to slow a loop device"
elif rm -f "$TMP/xfs/frozen.dat" && fallocate -l 32M "$TMP/xfs/raw.img" &&
	raw_loop=$(losetup --direct-io=on -f --show "$TMP/xfs/raw.img"); then
	rdev=$(basename "$raw_loop")
	limit_case limit 1500 --iodepth=64 &&
		limit_judged "$(awk -v u="$truth_util" 'BEGIN { exit !(u >= 95) }' || echo "%util $truth_util, under 95;")"
	limit_case light 0 --iodepth=1 --rate_iops=50 &&
		limit_judged "$(awk -v u="$truth_util" 'BEGIN { exit !(u < 50) }' || echo "%util $truth_util, not under 50;")"
	losetup -d "$raw_loop" && raw_loop=
else
	bad "limit: a loop device over a file of the loop XFS" "$raw_loop"
fi

# A replayed capture: the scene was not measured, and says so (never zeros).
fio --name=cap --ioengine=io_uring --rw=randwrite --bs=4k --size=128M --time_based --runtime=30 \
	--direct=1 --iodepth=8 --filename="$TMP/xfs/fio.dat" >/dev/null 2>&1 &
fio_pid=$!
kids+=($fio_pid)
if pid=$(ring_pid "$fio_pid") && "$BIN" capture -o "$TMP/cap" --pid "$pid" >/dev/null 2>"$TMP/cap.err"; then
	"$BIN" --root "$TMP/cap" audit "$pid" --format json --fail-on never >"$TMP/rep.json" 2>>"$TMP/cap.err"
	m=$(sj .measured "$TMP/rep.json")
	why=$(sj .skip "$TMP/rep.json")
	st=$(statuses "$TMP/rep.json")
	if [ "$m" = false ] && [[ $why == *"not measured"* ]] && [ "$(sj .devices "$TMP/rep.json")" = null ] &&
		! grep -qE '=(pass|warn|fail)' <<<"$st"; then
		ok "replay: the scene was not measured ($why)"
	else
		bad "replay: the scene was not measured" "measured=$m skip=$why $st"
	fi
	"$BIN" --root "$TMP/cap" audit "$pid" --format prometheus --fail-on never >"$TMP/rep.prom" 2>>"$TMP/cap.err"
	"$BIN" --root "$TMP/cap" audit "$pid" --fail-on never >"$TMP/rep.text" 2>>"$TMP/cap.err"
	grep -q "^pid $pid " "$TMP/rep.text" && ! grep -q '^  scene ' "$TMP/rep.text" &&
		ok "replay: the text report has no scene line (its findings say why)" ||
		bad "replay: the text report has no scene line" "$(grep -A1 "^pid $pid " "$TMP/rep.text")"
	if grep -q '^uringlint_check_status{id="scene-device"' "$TMP/rep.prom" &&
		! grep -q 'uringlint_scene_' "$TMP/rep.prom"; then
		ok "replay: no scene gauge, no scene family (never zeros)"
	else
		bad "replay: no scene gauge" "$(grep -c uringlint_scene_ "$TMP/rep.prom") scene lines"
	fi
else
	bad "replay: fio captured" "$(cat "$TMP/cap.err")"
fi
kill "$fio_pid" 2>/dev/null
wait "$fio_pid" 2>/dev/null

echo "scene: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
