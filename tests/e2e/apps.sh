#!/bin/bash
# Real io_uring applications as Debian ships them (apps_lib.sh): MariaDB,
# qemu-nbd, Samba and MPD, healthy and broken, on a fresh ext4 (XFS punts O_DIRECT writes
# once per timestamp tick, which would blur healthy against broken). Under
# load each is audited with --watch while punt_truth.py records the same
# process: a broken one must be diagnosed on the right file with the right
# cause, against that ground truth; after it idles, a healthy one must give
# no warn and no fail. Root.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh
. tests/e2e/live.sh
. tests/e2e/apps_lib.sh

TRUTH=tests/e2e/punt_truth.py
COMPARE=tests/e2e/watch_compare.py

# APPS_ONLY=NAME runs one application's cases (the others skip, saying so).
want() { [ -z "${APPS_ONLY:-}" ] || [ "$APPS_ONLY" = "$1" ]; }

finish() {
	echo "apps: $passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
	exit
}

if [ "$(id -u)" -ne 0 ]; then
	skip "real applications" "loop mounts, tracefs and the tracepoints need root"
	finish
fi
apps_mount ext4 1G || { bad "a loop ext4 for the applications" "$(cat "$TMP/apps.mount.err")"; finish; }

# audit_loaded NAME LOADFN [LOAD WATCH]: audits $app_pid with --watch WATCH (3) s while
# LOADFN runs for LOAD (5) s and the truth records.
audit_loaded() {
	local name=$1 load=$2 secs=${3:-5} watch=${4:-3}
	$load "$secs" &
	local l=$!
	sleep 0.5
	# 64 MiB a CPU (apps_truth_start): a full buffer drops events, and qemu-nbd's 5 s of
	# punted writes take some 17 MiB here, on one CPU as much as on two (a CI run
	# counted 5426 requests watched against 3417 in the truth over the same windows).
	apps_truth_start "apps$app_pid" "$app_pid" || { bad "$name: ground truth starts"; return 1; }
	"$BIN" audit "$app_pid" --watch "$watch" --format json --fail-on never >"$TMP/$name.json" \
		2>"$TMP/$name.err"
	local rc=$?
	apps_truth_stop "apps$app_pid" "$app_pid" "$TMP/$name.truth"
	wait "$l"
	[ "$rc" -eq 0 ] || { bad "$name: audit --watch under load exits 0" "rc $rc: $(cat "$TMP/$name.err")"; return 1; }
}

# idle_clean NAME: after 7 s without load (io-wq's idle timeout is 5 s), no warn and no fail.
idle_clean() {
	local name=$1
	sleep 7
	"$BIN" audit "$app_pid" --watch 2 --format json --fail-on never >"$TMP/$name.idle.json" \
		2>"$TMP/$name.idle.err" || { bad "$name, idle: audit --watch exits 0" "$(cat "$TMP/$name.idle.err")"; return; }
	local bad_list
	bad_list=$(jq -r '.findings[] | select(.status == "warn" or .status == "fail") |
		"\(.status) \(.id) \(.subject): \(.message)"' "$TMP/$name.idle.json")
	[ -z "$bad_list" ] && [ "$(jq '.findings | length' "$TMP/$name.idle.json")" -gt 10 ] && ok "$name, idle: no warn and no fail ($(jq '.findings | length' "$TMP/$name.idle.json") findings)" ||
		bad "$name, idle: no warn and no fail" "$bad_list"
}

# loaded_clean NAME: the audit under load of a healthy configuration holds no warn and no
# fail, and the same report gated with --fail-on warn (report merge --fail-on reads it back)
# exits 0. Against its truth: requests through io_uring (no fallback from it), and of no
# file more than 2 reads and writes punted (FSYNC and the like io_uring always punts) unless
# they are 2% of its requests at most, twice the default punt tolerance; as the verdict
# says: no file blamed, no fallback. None for qemu-nbd, Samba's reads and MPD; MariaDB punts
# the first write of each persistent statistics table (1 of 1) and 1 or 2 of ibdata1's
# hundreds (ext4 punts the writes that extend a file).
loaded_clean() {
	local name=$1 bad_list reqs truth trw rc
	bad_list=$(jq -r '.findings[] | select(.status == "warn" or .status == "fail") |
		"\(.status) \(.id) \(.subject): \(.message)"' "$TMP/$name.json")
	reqs=$(jq '[.processes[0].watch.rings[]?.requests // 0] | add // 0' "$TMP/$name.json")
	"$BIN" report merge "$TMP/$name.json" --fail-on warn >/dev/null 2>"$TMP/$name.merge.err"
	rc=$?
	if [ -z "$bad_list" ] && [ "$reqs" -gt 0 ] && [ "$rc" -eq 0 ]; then
		ok "$name, loaded: no warn and no fail, report merge --fail-on warn exits 0 ($reqs requests watched)"
	else
		bad "$name, loaded: no warn and no fail, requests watched, the gate exits 0" "$bad_list" \
			"requests watched: $(jq -c '[.processes[0].watch.rings[]?.requests]' "$TMP/$name.json"); report merge --fail-on warn: rc $rc $(head -c 300 "$TMP/$name.merge.err")"
	fi
	truth=$(jq '[.files[]?.requests] | add // 0' "$TMP/$name.truth")
	trw=$(jq '[.files[]?.punts_rw] | add // 0' "$TMP/$name.truth")
	if [ "$truth" -gt 0 ] && jq -e '[.files[] | select(.punts_rw > 2 and .punts_rw * 50 > .requests)] |
		length == 0' "$TMP/$name.truth" >/dev/null && jq -e '[.findings[] | select((.id == "file-punts" or
		.id == "uring-fallback") and (.status == "warn" or .status == "fail"))] | length == 0' \
		"$TMP/$name.json" >/dev/null; then
		ok "$name, loaded: the truth agrees: $truth requests through io_uring, $trw reads and writes punted ($(jq '.total.punts' "$TMP/$name.truth") punts in all, $(jq '.total.lost' "$TMP/$name.truth") events lost); the verdict blames no file, sees no fallback"
	else
		bad "$name, loaded: the truth, no file's reads and writes punted past 2 and 2%, against the verdict" \
			"truth: $truth requests, $trw reads and writes punted: $(jq -c '[.files[] | select(.punts_rw > 0) | {path, requests, punts_rw}]' "$TMP/$name.truth")" \
			"$(jq -c '[.findings[] | select(.id == "file-punts" or .id == "uring-fallback") | [.status, .message[:200]]]' "$TMP/$name.json")"
	fi
}

# gate_ten NAME PID: the gate a deployment runs, ten times in a row while the load goes
# on: audit PID --watch 1 --fail-on warn exits 0 every time, and report merge --fail-on
# warn of each report too.
gate_ten() {
	local name=$1 pid=$2 i rc fails=0 reqs=0 why=
	for i in $(seq 10); do
		"$BIN" audit "$pid" --watch 1 --format json --fail-on warn -o "$TMP/$name.gate$i.json" \
			2>"$TMP/$name.gate$i.err"
		rc=$?
		if [ "$rc" -eq 0 ]; then
			"$BIN" report merge "$TMP/$name.gate$i.json" --fail-on warn >/dev/null 2>&1 || rc="merge $?"
		fi
		reqs=$((reqs + $(jq '[.processes[0].watch.rings[]?.requests // 0] | add // 0' "$TMP/$name.gate$i.json" 2>/dev/null || echo 0)))
		[ "$rc" = 0 ] && continue
		fails=$((fails + 1))
		why+="run $i: rc $rc: $(jq -r '[.findings[] | select(.status == "warn" or .status == "fail") |
			"\(.status) \(.id) \(.subject): \(.message[:240])"] | join("; ")' "$TMP/$name.gate$i.json" 2>/dev/null) $(head -c 200 "$TMP/$name.gate$i.err")"$'\n'
	done
	if [ "$fails" -eq 0 ] && [ "$reqs" -gt 0 ]; then
		ok "$name, loaded: audit --watch 1 --fail-on warn exits 0 10 times in a row, and report merge --fail-on warn of each ($reqs requests watched in all)"
	else
		bad "$name, loaded: --fail-on warn exits 0 10 times in a row" "$fails of 10 did not, $reqs requests watched in all" "$why"
	fi
}

# gate_loaded NAME LOADFN: gate_ten on $app_pid while LOADFN runs (stopped after the ten).
gate_loaded() {
	local l
	rm -f "$APPS_LOAD_STOP"
	$2 90 &
	l=$!
	sleep 1
	gate_ten "$1" "$app_pid"
	touch "$APPS_LOAD_STOP"
	wait "$l"
	rm -f "$APPS_LOAD_STOP"
}

# audit_around NAME LOADFN LOAD: the truth records LOAD s of LOADFN inside an audit
# --watch of LOAD + 3 s, for writers whose bursts (InnoDB's page flushes) must fall in both;
# the watch writes its --trace to $TMP/NAME.trace.json.
audit_around() {
	local name=$1 load=$2 secs=$3
	"$BIN" audit "$app_pid" --watch $((secs + 3)) --trace "$TMP/$name.trace.json" --format json \
		--fail-on never >"$TMP/$name.json" 2>"$TMP/$name.err" &
	local a=$!
	# The truth inside the watch: once the audit holds its perf events (it reads a
	# large server's files first, which took near 1 s on a loaded CI machine).
	for _ in $(seq 200); do
		ls -l "/proc/$a/fd" 2>/dev/null | grep -q 'perf_event' && break
		sleep 0.05
	done
	sleep 0.3
	apps_truth_start "apps$app_pid" "$app_pid" 16384 || { bad "$name: ground truth starts"; return 1; }
	$load "$secs"
	apps_truth_stop "apps$app_pid" "$app_pid" "$TMP/$name.truth"
	wait "$a" || { bad "$name: audit --watch under load exits 0" "$(cat "$TMP/$name.err")"; return 1; }
}

# truth_punts NAME REGEX: the truth's punts of the files whose path matches REGEX; when
# the watch sampled in windows (a high rate), over the same windows, from its raw lines.
truth_punts() {
	python3 - "$TMP/$1.json" "$TMP/$1.truth.raw" "$2" <<'EOP'
import json, re, sys
sys.path.insert(0, "tests/e2e")
import punt_truth
watch = json.load(open(sys.argv[1]))["processes"][0].get("watch") or {}
raw = json.load(open(sys.argv[2]))
windows = None if watch.get("sampled_all", True) else watch.get("windows")
t = punt_truth.account(raw["lines"], raw["pid"], raw["paths"], windows)
print(sum(f["punts"] for f in t["files"].values() if re.search(sys.argv[3], f["path"] or "")))
EOP
}

# blamed NAME CAUSE TOL [--inner]: the broken configuration's files, shares and cause
# against the truth.
blamed() {
	local msg
	if msg=$(python3 "$COMPARE" ${4:-} "$TMP/$1.json" "$TMP/$1.truth" "$2" "$3"); then
		ok "$1, loaded: $msg"
	else
		bad "$1, loaded: file, share and cause against the tracepoints" "$msg"
	fi
}

if ! want mariadb; then
	skip "mariadb" "APPS_ONLY=$APPS_ONLY"
elif ! apps_need mariadb; then
	skip "mariadb" "$apps_why"
else
	# Healthy: O_DIRECT data files, nothing punted but FSYNC; and clean once idle.
	# The load and its final page flush inside the watch (audit_around): InnoDB may write
	# nothing through io_uring for seconds while rows go in.
	if mariadb_start healthy && audit_around mariadb-healthy mariadb_load 3; then
		jq -e '[.findings[] | select(.id == "fd-o-direct" and .status == "fail")] | length == 0' \
			"$TMP/mariadb-healthy.json" >/dev/null && ok "mariadb healthy, loaded: fd-o-direct does not fail" ||
			bad "mariadb healthy, loaded: fd-o-direct does not fail" "$(jq -c '.findings[] | select(.id == "fd-o-direct")' "$TMP/mariadb-healthy.json")"
		loaded_clean mariadb-healthy
		gate_loaded mariadb-healthy mariadb_gate_load
		idle_clean mariadb-healthy
	fi
	mariadb_stop
	# Buffered (innodb_flush_method=fsync): the InnoDB data files, not the redo log.
	# Its writes come when InnoDB flushes pages: the truth records the load and its
	# final flush inside the watch.
	if mariadb_start buffered && audit_around mariadb-buffered mariadb_load 3; then
		blamed mariadb-buffered buffered 0.15 --inner
		# The trace of that watch: valid trace events, every punt of ibdata1 the truth saw in it.
		if sum=$(python3 tests/e2e/trace_check.py "$TMP/mariadb-buffered.trace.json"); then
			truth=$(truth_punts mariadb-buffered 'ibdata1$')
			traced=$(jq '[.punted_by_file | to_entries[] | select(.key | test("ibdata1$")) | .value] | add // 0' <<<"$sum")
			# Sampled in windows (a high rate), the trace holds the windows' punts only, and
			# the truth is counted over the same windows: 1% and 10 less for the two
			# clocks at the windows' edges (watch_compare.py's rule).
			all=$(jq '.processes[0].watch.sampled_all' "$TMP/mariadb-buffered.json")
			least=$truth
			[ "$all" = false ] && least=$((truth * 99 / 100 - 10))
			[ "${truth:-0}" -gt 0 ] && [ "$traced" -ge "$least" ] &&
				ok "mariadb buffered: the --trace file parses, and holds every punt of ibdata1 the truth saw ($traced >= $least of $truth, sampled all: $all; $(jq .requests <<<"$sum") requests, $(jq '.threads | length' <<<"$sum") threads)" ||
				bad "mariadb buffered: the trace holds every punt the truth saw" "truth $truth, traced $traced" "$(jq -c .punted_by_file <<<"$sum")"
		else
			bad "mariadb buffered: the --trace file parses as trace events" "$sum"
		fi
		# The fix in MariaDB's own words, next to the syscall-level one.
		jq -e '[.findings[] | select(.id == "file-punts" and .status == "fail") |
			select((.fix | contains("O_DIRECT")) and (.fix | contains("innodb_flush_method")) and
			       .evidence.application == "mariadb")] | length >= 1' \
			"$TMP/mariadb-buffered.json" >/dev/null &&
			ok "mariadb buffered: the fix names innodb_flush_method next to O_DIRECT" ||
			bad "mariadb buffered: the fix names innodb_flush_method" "$(jq -c '[.findings[] | select(.id == "file-punts") | .fix]' "$TMP/mariadb-buffered.json")"
		logs=$(jq -r '[.findings[] | select(.status == "fail" or .status == "warn") |
			select(.subject | test("ib_logfile"))] | length' "$TMP/mariadb-buffered.json")
		[ "$logs" = 0 ] && ok "mariadb buffered: the redo log, written with pwrite64, is not blamed" ||
			bad "mariadb buffered: the redo log is not blamed" "$(jq -c '.findings[] | select(.subject | test("ib_logfile"))' "$TMP/mariadb-buffered.json")"
	fi
	mariadb_stop
	# Without --watch, the table says which files InnoDB drives through io_uring:
	# the buffered data files are judged, the redo log is left alone.
	if mariadb_start buffered; then
		"$BIN" audit "$app_pid" --watch 0 --format json --fail-on never >"$TMP/mariadb-nowatch.json" 2>/dev/null
		jq -e '[.findings[] | select(.id == "fd-o-direct" and .status != "pass" and .status != "skip")] as $f |
			($f | map(select(.subject | test("ibdata1"))) | length == 1) and
			($f | map(select(.subject | test("ib_logfile"))) | length == 0) and
			($f | map(select(.fix | contains("innodb_flush_method"))) | length == ($f | length))' \
			"$TMP/mariadb-nowatch.json" >/dev/null &&
			ok "mariadb buffered, not watched: ibdata1 judged by the application table, the redo log not" ||
			bad "mariadb buffered, not watched: ibdata1 judged by the table" "$(jq -c '.findings[] | select(.id == "fd-o-direct") | [.status,.subject,.fix]' "$TMP/mariadb-nowatch.json")"
		# The cause as the server was told it, on its command line.
		jq -e '[.findings[] | select(.id == "fd-o-direct" and .status == "fail") |
			select(.evidence.application_config == "innodb_flush_method = fsync" and
			       (.fix | contains("(its command line: innodb_flush_method = fsync)")))] | length >= 1' \
			"$TMP/mariadb-nowatch.json" >/dev/null &&
			ok "mariadb buffered, not watched: the cause read from its command line" ||
			bad "mariadb buffered, not watched: the cause from its command line" "$(jq -c '[.findings[] | select(.id == "fd-o-direct" and .status == "fail")][0] | [.fix, .evidence.application_config]' "$TMP/mariadb-nowatch.json")"
	fi
	mariadb_stop
	# Buffered by an option file three levels down (my.cnf, !includedir, a later file
	# over an earlier one, a group the server reads, one it does not): the setting and
	# its file as MariaDB's own my_print_defaults resolves them.
	if mariadb_start cnf; then
		"$BIN" audit "$app_pid" --watch 0 --format json --fail-on never >"$TMP/mariadb-cnf.json" 2>/dev/null
		d=$APPS_DIR/mariadb.cnf
		truth=$(my_print_defaults --defaults-file="$d/my.cnf" mysqld server mariadb mariadbd client-server galera |
			sed -n 's/^--innodb[-_]flush[-_]method=//p' | tail -n 1)
		if [ "$truth" = fsync ] && jq -e --arg f "$d/conf.d/50-tuning.cnf" '[.findings[] |
			select(.id == "fd-o-direct" and .status == "fail" and (.subject | test("ibdata1"))) |
			select(.evidence.application_config == "innodb_flush_method = fsync" and
			       (.fix | contains("(\($f): innodb_flush_method = fsync)")))] | length == 1' \
			"$TMP/mariadb-cnf.json" >/dev/null; then
			ok "mariadb cnf: innodb_flush_method = fsync named from $(basename "$d")/conf.d/50-tuning.cnf, as my_print_defaults resolves it ($truth)"
		else
			bad "mariadb cnf: the flush method from its option files" "my_print_defaults: $truth" \
				"$(jq -c '[.findings[] | select(.id == "fd-o-direct")] | map([.status, .subject, .fix, .evidence.application_config])' "$TMP/mariadb-cnf.json")"
		fi
	fi
	mariadb_stop
fi

if ! want qemu-nbd; then
	skip "qemu-nbd" "APPS_ONLY=$APPS_ONLY"
elif ! apps_need qemu-nbd; then
	skip "qemu-nbd" "$apps_why"
else
	if qnbd_start healthy && audit_loaded qnbd-healthy qnbd_load; then
		jq -e '[.findings[] | select(.id == "file-punts" and (.status == "fail" or .status == "warn"))] | length == 0' \
			"$TMP/qnbd-healthy.json" >/dev/null && ok "qemu-nbd healthy, loaded: no file punts (FSYNC is io_uring's own)" ||
			bad "qemu-nbd healthy, loaded: no file punts" "$(jq -c '.findings[] | select(.id == "file-punts") | [.status,.message]' "$TMP/qnbd-healthy.json")"
		loaded_clean qnbd-healthy
		gate_loaded qnbd-healthy qnbd_load
		idle_clean qnbd-healthy
	fi
	qnbd_stop
	for c in "writeback buffered 0.15" "sparse holes 0.15"; do
		set -- $c
		if qnbd_start "$1" && audit_loaded "qnbd-$1" qnbd_load; then
			blamed "qnbd-$1" "$2" "$3"
			jq -e '[.findings[] | select(.id == "file-punts" and .status == "fail") |
				select(.evidence.application == "qemu-nbd" and (.fix | contains("in qemu-nbd")))] | length >= 1' \
				"$TMP/qnbd-$1.json" >/dev/null && ok "qnbd-$1: the fix speaks qemu-nbd's options" ||
				bad "qnbd-$1: the fix speaks qemu-nbd's options" "$(jq -c '[.findings[] | select(.id == "file-punts") | .fix]' "$TMP/qnbd-$1.json")"
		fi
		qnbd_stop
	done
fi
# Samba with vfs_io_uring, an application none of the above was built against: a
# forking server whose ring is the connection's child's. Buffered writes of a put
# on ext4 all punt (Samba has no O_DIRECT); gets of a cached file stay inline;
# with aio sizes 0 the ring is idle and the child writes with pwrite64; on XFS
# the writes of a put, many in flight on one file, find its I/O lock held.
if ! want samba; then
	skip "samba" "APPS_ONLY=$APPS_ONLY"
elif ! apps_need samba; then
	skip "samba" "$apps_why"
else
	# samba_watch NAME LOADFN: the session's child audited with --watch 3 under the
	# load, the truth recording the same child.
	samba_watch() {
		local name=$1 load=$2
		samba_session 7 "$load" || { bad "$name: the session's smbd child" "$(tail -3 "$app_sock/stdout.log")"; return 1; }
		sleep 0.5
		apps_truth_start "apps$samba_child" "$samba_child" 16384 || { bad "$name: ground truth starts"; return 1; }
		"$BIN" audit "$samba_child" --watch 3 --format json --fail-on never >"$TMP/$name.json" 2>"$TMP/$name.err"
		local rc=$?
		apps_truth_stop "apps$samba_child" "$samba_child" "$TMP/$name.truth"
		wait "$samba_loader"
		[ "$rc" -eq 0 ] || { bad "$name: audit --watch under load exits 0" "rc $rc: $(cat "$TMP/$name.err")"; return 1; }
	}
	if samba_start buffered && samba_watch samba-buffered samba_load; then
		blamed samba-buffered buffered 0.15
		# Samba has no O_DIRECT option; what the table says to do instead (serve from XFS)
		# is applied by no test, so it is evidence, not a printed fix.
		jq -e '[.findings[] | select(.id == "file-punts" and .status == "fail") |
			select(.evidence.application == "samba" and
			       (.evidence.application_setting_untested | contains("no option")) and
			       (.fix | contains("in Samba") | not))] | length >= 1' \
			"$TMP/samba-buffered.json" >/dev/null && ok "samba buffered: Samba's untested advice (no O_DIRECT option) is evidence, not a printed fix" ||
			bad "samba buffered: Samba's untested advice kept out of the fix" "$(jq -c '[.findings[] | select(.id == "file-punts") | [.fix, .evidence.application_setting_untested]]' "$TMP/samba-buffered.json")"
	fi
	samba_stop
	# Gets of a file in the page cache: buffered reads ext4 serves inline. Healthy.
	if samba_start buffered && head -c 64M /dev/urandom >"$app_sock/share/get.dat" &&
		cat "$app_sock/share/get.dat" >/dev/null && samba_watch samba-reads samba_get_load; then
		# No warn and no fail, against its truth; and gated ten times in a new session.
		loaded_clean samba-reads
		rm -f "$APPS_LOAD_STOP"
		if samba_session 90 samba_get_load; then
			sleep 0.5
			gate_ten samba-reads "$samba_child"
		else
			bad "samba reads: the gate's session" "$(tail -3 "$app_sock/stdout.log")"
		fi
		touch "$APPS_LOAD_STOP"
		wait "$samba_loader"
		rm -f "$APPS_LOAD_STOP"
		# The server once the session is gone: smbd with no ring, its children none.
		idle_clean samba-reads
	fi
	samba_stop
	# aio read size = 0, aio write size = 0: the ring made, never used; the plain
	# calls counted against perf's count of the child's positional calls (the same
	# six), perf's window around the whole audit, so holding the watch's: the load
	# comes in bursts, and two windows side by side saw 93 and 64 of them.
	if samba_start noaio && samba_session 6 samba_load; then
		sleep 0.5
		perf stat -x, -e syscalls:sys_enter_pread64 -e syscalls:sys_enter_pwrite64 \
			-e syscalls:sys_enter_preadv -e syscalls:sys_enter_pwritev \
			-e syscalls:sys_enter_preadv2 -e syscalls:sys_enter_pwritev2 -p "$samba_child" \
			-o "$TMP/samba-noaio.perf" &
		perfpid=$!
		# The audit once perf holds its events: perf's start took more than 0.2 s on
		# a loaded CI machine, and its window must hold the watch's.
		for _ in $(seq 200); do
			ls -l "/proc/$perfpid/fd" 2>/dev/null | grep -q 'perf_event' && break
			sleep 0.05
		done
		sleep 0.1
		"$BIN" audit "$samba_child" --watch 2 --format json --fail-on never >"$TMP/samba-noaio.json" 2>"$TMP/samba-noaio.err"
		kill -INT "$perfpid"
		wait "$perfpid"
		wait "$samba_loader"
		truth=$(awk -F, '/sys_enter_p(read|write)/ {n += $1} END {print n + 0}' "$TMP/samba-noaio.perf")
		# The cause read from the smb.conf smbd was started with (its --configfile).
		if jq -e --argjson t "$truth" --arg conf "$APPS_DIR/samba.noaio/smb.conf" '.processes[0].watch.plain_io as $n | $t > 10 and
			$n >= 0.5 * $t and $n <= $t and
			([.findings[] | select(.id == "uring-fallback")][0] | .status == "fail" and
			 .evidence.uring_requests == 0 and (.fix | contains("aio write size")) and
			 (.message | contains("Cause, from \($conf): [share] aio read size = 0, aio write size = 0")))' \
			"$TMP/samba-noaio.json" >/dev/null; then
			ok "samba aio sizes 0, loaded: uring-fallback fails, $(jq '.processes[0].watch.plain_io' "$TMP/samba-noaio.json") plain calls (perf, around the audit: $truth), the cause read from its smb.conf, the fix names aio write size"
		else
			bad "samba aio sizes 0: an idle ring beside plain calls" "perf: $truth" \
				"$(jq -c '[.findings[] | select(.id == "uring-fallback")][0] | [.status, .message, .fix, .evidence]' "$TMP/samba-noaio.json")" \
				"$(cat "$TMP/samba-noaio.err")"
		fi
	fi
	samba_stop
	# A share on XFS: XFS takes buffered writes without blocking and punts one only when
	# the inode's lock is held or its timestamps need an update, so the share is
	# measured, never "every write", and the cause is not called certain.
	if apps_mount xfs 512M "$APPS_XFS" && samba_start xfs && samba_watch samba-xfs samba_load; then
		blamed samba-xfs "buffered|timestamp" 0.15
		# Samba's writes of one put are many in flight on one file: the share is high,
		# but each write's fate is the lock's or the times', so the inferred cause is XFS's
		# and not certain. The punts whose worker stored the file's times are observed as
		# timestamp punts: at Samba's rate (some 40 a second) they warn where the rest of
		# the punts are within chance of the tolerance. When every punt's worker showed what
		# XFS did (108 of 108 timestamp updates in one CI run; 94 updates, one allocation and
		# one write in the same clock tick in another), nothing is left to infer as
		# "buffered": each cause is observed, or inferred from an observed update in the same
		# tick, and it warns.
		jq -e '[.findings[] | select(.id == "file-punts" and (.status == "fail" or
			(.status == "warn" and (.evidence.causes | map(select(.cause == "timestamp" and .observed)) | length == 1)))) |
			select(((.evidence.causes | map(select(.cause == "buffered" and .certain == false)) | length == 1) and
			        (.message | contains("XFS takes a buffered write without blocking"))) or
			       (.status == "warn" and (.evidence.causes | all((.cause == "timestamp" or .cause == "allocation") and
			                                                (.observed or .same_tick == true)))))] | length >= 1' \
			"$TMP/samba-xfs.json" >/dev/null &&
			ok "samba on XFS: the inferred cause is XFS's inode lock or times, not every buffered write, not called certain; $(jq -r '[.findings[] | select(.id == "file-punts")][0] | "\(.status), observed \([.evidence.causes[] | select(.observed) | "\(.cause) \(.punts)"] | join(", "))"' "$TMP/samba-xfs.json")" ||
			bad "samba on XFS: the cause in XFS's terms, not certain" "$(jq -c '[.findings[] | select(.id == "file-punts") | [.status, .message, .evidence.causes]]' "$TMP/samba-xfs.json")"
	fi
	samba_stop
	apps_umount "$APPS_XFS"
fi

if ! want mpd; then
	skip "mpd" "APPS_ONLY=$APPS_ONLY"
elif ! apps_need mpd; then
	skip "mpd" "$apps_why"
else
	# Playing: a few buffered reads a second of a track in the page cache, none punted.
	# The requests the watch counted against the truth recorded inside it, and the
	# track, only read, counted by fd-o-direct's pass.
	if mpd_start && audit_around mpd-playing mpd_load 5; then
		loaded_clean mpd-playing
		gate_ten mpd-playing "$app_pid"
		truth=$(jq '[.files[]?.requests] | add // 0' "$TMP/mpd-playing.truth")
		tpunts=$(jq '[.files[]?.punts] | add // 0' "$TMP/mpd-playing.truth")
		if jq -e --argjson t "$truth" --argjson tp "$tpunts" '.processes[0].watch as $w |
			([$w.rings[]?.requests // 0] | add) >= $t and $t > 0 and $tp == 0 and $w.punts == 0 and
			([.findings[] | select(.id == "fd-o-direct" and .status == "pass" and
			  (.message | test("[1-9][0-9]* only read")))] | length == 1)' \
			"$TMP/mpd-playing.json" >/dev/null; then
			ok "mpd playing: $(jq '[.processes[0].watch.rings[]?.requests // 0] | add' "$TMP/mpd-playing.json") requests watched, none punted (truth inside the watch: $truth requests, $tpunts punts); the track counted as only read"
		else
			bad "mpd playing: requests and punts against the truth, the track only read" \
				"truth $truth requests, $tpunts punts" \
				"$(jq -c '.processes[0].watch | {punts, rings: [.rings[]? | .requests]}' "$TMP/mpd-playing.json")" \
				"$(jq -c '.findings[] | select(.id == "fd-o-direct") | .message' "$TMP/mpd-playing.json")"
		fi
		mpd_cmd pause >/dev/null
		idle_clean mpd-paused
	fi
	mpd_stop
fi
finish
