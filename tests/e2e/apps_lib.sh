#!/bin/bash
# Real io_uring applications for the e2e suites, as Debian ships them
# (Makefile DEB_APPS): a throwaway MariaDB server and qemu-nbd, each in a
# healthy and a broken configuration, on a loop-mounted XFS or ext4; load for
# them; and the ground truth of what io_uring did with each of their files,
# taken from the io_uring tracepoints in a private tracefs instance,
# independently of uringlint.
#
# Sourced after lib.sh and live.sh (it uses $TMP and chains live.sh's
# cleanup). Needs root: loop mounts, tracefs, and mariadbd --user=root.
#
# Nothing is left behind: apps_cleanup (on EXIT, INT, TERM and HUP; bash runs
# it once the command in the foreground ends) stops the applications, removes
# the tracefs instance and unmounts; the applications die
# with the suite's shell (PR_SET_PDEATHSIG); and a guardian process outside the
# suite's process group does the same cleanup if the suite is killed with
# SIGKILL. Nothing here reads or touches a system MariaDB: every server gets
# --no-defaults, its own datadir, socket and pid file, and --skip-networking.
#
# The functions:
#   apps_need mariadb|qemu-nbd       0 when it can run here, else the reason in $apps_why
#   apps_mount xfs|ext4 [SIZE]       a fresh filesystem at $APPS_DIR (default 1G)
#   apps_umount
#   mariadb_start CONFIG [ARGS...]   a server on $APPS_DIR/mariadb.CONFIG; $app_pid,
#                                    $app_ready_ms (start to first answered query)
#   mariadb_sql SQL                  runs SQL on the last started server
#   mariadb_load SECONDS             single-row inserts, then page flushing, for SECONDS
#                                    (both loads are bounded; run them with & to audit meanwhile)
#   mariadb_stop                     SIGTERM, waits for the clean shutdown
#   qnbd_start CONFIG                qemu-nbd --aio=io_uring on $APPS_DIR/qnbd.CONFIG.img
#   qnbd_load SECONDS                4 KiB writes, then reads, 1 MiB + 4 KiB apart, through
#                                    the NBD socket (qemu-img bench at depth 8)
#   qnbd_stop
#   truth_start PID                  starts recording io_uring events
#   truth_stop PID FILE              stops, writes the per-fd ground truth to FILE
#   truth_get FILE PATH-REGEX COLUMN sums a column over the files whose path matches
#
# The configurations, and what each did under load on Linux 6.18 (HZ=250),
# ext4 on a loop device (io_uring requests punted to io-wq of those submitted):
#   mariadb healthy    the 10.11 defaults spelled out: innodb_flush_method=O_DIRECT,
#                      innodb_log_file_buffering=OFF, innodb_use_native_aio=ON;
#                      ibdata1 2 of 1028 WRITEV punted, t.ibd 0 of 37
#   mariadb buffered   innodb_flush_method=fsync: ibdata1 and every .ibd opened
#                      without O_DIRECT; ibdata1 1623 of 1623 punted, t.ibd 70 of 70
#   mariadb memlock    the healthy settings as nobody under RLIMIT_MEMLOCK 64 KiB:
#                      io_uring_queue_init() fails with ENOMEM (262144 bytes
#                      needed) and InnoDB falls back to libaio: no io_uring fd
#   qnbd healthy       raw, preallocation=full, page cache evicted, --cache=none:
#                      0 of 30000 WRITEV punted (FSYNC always goes to io-wq)
#   qnbd cached        the same with the cache qemu-img create left: 365 of 20000
#   qnbd sparse        raw, preallocation=off: 2000 of 30000, each first write into a hole
#   qnbd writeback     raw, preallocation=full, --cache=writeback: 40000 of 40000
# On XFS every O_DIRECT writer also punts about once per 4 ms timestamp tick per
# file (xfs_file_write_checks -> kiocb_modified returns EAGAIN under IOCB_NOWAIT
# when mtime needs an update; ext4 updates it in line): mariadb healthy punted
# 32 of 75 ibdata1 writes there, qnbd healthy 1866 of 24000. For a clean contrast
# between healthy and broken, use ext4.
#
# Start-up (this VM): mariadb-install-db 0.9-3.2 s ($app_install_ms), then
# mariadbd answers in 140-260 ms ($app_ready_ms); qemu-img create 10-480 ms,
# qemu-nbd's socket 20-100 ms; a clean stop takes about 120 ms (mariadbd) and
# 10 ms (qemu-nbd).
#
# Ground truth (truth_stop FILE), one line per fd, tab-separated:
#   fd  requests  punts  forced  opcodes  flags  path
# requests: requests submitted on the process's rings that took this fd
# (io_uring_submit_req joined with io_uring_file_get by request pointer);
# punts: those of them queued to io-wq (io_uring_queue_async_work); forced:
# punts of requests that were marked for io-wq before they were issued
# (REQ_F_FORCE_ASYNC: the application's IOSQE_ASYNC, or the opcode's own
# choice, as FSYNC's); opcodes: OP:requests:punts,...; flags:
# the fd's octal flags from fdinfo when the FILE was written; path: its
# readlink. fd "-" is requests that took no normal fd (registered files, or
# opcodes without a file); fd "?" is punts of requests submitted before the
# recording started. The process's rings are those its threads used: the
# threads at truth_start and at truth_stop, and its iou-wrk/iou-sqp threads.

APPS_DIR=$TMP/apps
APPS_STATE=$TMP/apps.state
APPS_TRACE=
app_pid= app_sock= app_ready_ms= apps_why=
apps_pids=()

apps_now_ms() { echo $(($(date +%s%N) / 1000000)); }

apps_need() {
	apps_why=
	if [ "$(id -u)" -ne 0 ]; then
		apps_why="needs root"
	elif [ ! -d /sys/kernel/tracing/instances ]; then
		apps_why="no tracefs at /sys/kernel/tracing"
	else
		case $1 in
		mariadb)
			for b in /usr/sbin/mariadbd mariadb-install-db mariadb; do
				command -v "$b" >/dev/null || apps_why="$b is missing (make deps installs DEB_APPS)"
			done ;;
		qemu-nbd)
			for b in qemu-nbd qemu-img qemu-io; do
				command -v "$b" >/dev/null || apps_why="$b is missing (make deps installs DEB_APPS)"
			done ;;
		*) apps_why="no such application '$1'" ;;
		esac
	fi
	[ -z "$apps_why" ]
}

# --- cleanup, also when the suite is killed ------------------------------------------
# The state file lists what to undo, one "kind value" a line; the guardian
# reads it when the suite's shell is gone.
apps_state_add() { echo "$1 $2" >>"$APPS_STATE"; }	# KIND VALUE

apps_guardian() {
	local suite=$$ state=$APPS_STATE trap_tmp
	[ -n "${apps_guard_pid:-}" ] && return 0
	: >"$state"
	# And at the end the suite's $TMP, which lib.sh's trap would have removed.
	trap_tmp=$TMP
	# A grandchild of init, in its own session: not waited for by the suite's
	# `wait`, not killed with the suite's process group.
	(setsid bash -c '
		suite=$1 state=$2
		while kill -0 "$suite" 2>/dev/null; do sleep 0.5; done
		[ -f "$state" ] || exit 0
		# Only the process that was started: its start time must still match.
		while read -r kind v st; do
			[ "$kind" = pid ] && [ "$(sed "s/.*) //" "/proc/$v/stat" 2>/dev/null | cut -d " " -f 20)" = "$st" ] &&
				kill -KILL "$v"
		done <"$state"
		sleep 0.5
		while read -r kind v; do
			case $kind in
			trace) echo 0 >"$v/tracing_on" 2>/dev/null; rmdir "$v" 2>/dev/null ;;
			mount) umount "$v" 2>/dev/null || umount -l "$v" 2>/dev/null ;;
			file) rm -rf "$v" ;;
			esac
		done <"$state"
		rm -f "$state"
		case $3 in /tmp/*|"${TMPDIR:-/tmp}"/*) rm -rf "$3" ;; esac' apps-guardian "$suite" "$state" "$trap_tmp" \
		</dev/null >/dev/null 2>&1 &
	echo $! >"$state.guard")
	apps_guard_pid=$(cat "$state.guard")
}

apps_cleanup() {
	[ -n "$app_pid" ] && { kill -0 "$app_pid" 2>/dev/null && apps_stop_pid "$app_pid"; }
	local p
	for p in "${apps_pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
	[ -n "$APPS_TRACE" ] && { echo 0 >"$APPS_TRACE/tracing_on"; rmdir "$APPS_TRACE"; } 2>/dev/null
	APPS_TRACE=
	apps_umount
	[ -n "${apps_guard_pid:-}" ] && kill "$apps_guard_pid" 2>/dev/null
	rm -f "$APPS_STATE" "$APPS_STATE.guard"
	apps_guard_pid=
}
trap 'apps_cleanup; cleanup_live' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# apps_stop_pid PID: SIGTERM, up to 30 s for a clean exit, then SIGKILL.
apps_stop_pid() {
	kill -TERM "$1" 2>/dev/null || return 0
	for _ in $(seq 300); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 0
}

# --- the filesystem ----------------------------------------------------------------------
apps_mount() {
	local fs=${1:-xfs} size=${2:-1G}
	apps_guardian
	mkdir -p "$APPS_DIR"
	truncate -s "$size" "$TMP/apps.img" || return 1
	apps_state_add file "$TMP/apps.img"
	case $fs in
	xfs) mkfs.xfs -q -f "$TMP/apps.img" ;;
	ext4) mkfs.ext4 -q -F "$TMP/apps.img" ;;
	*) echo "apps_mount: no such filesystem '$fs'" >&2; return 1 ;;
	esac 2>"$TMP/apps.mount.err" || return 1
	apps_state_add mount "$APPS_DIR"
	mount -o loop "$TMP/apps.img" "$APPS_DIR" 2>>"$TMP/apps.mount.err" && mountpoint -q "$APPS_DIR"
}
apps_umount() {
	mountpoint -q "$APPS_DIR" 2>/dev/null || return 0
	for _ in $(seq 100); do
		umount "$APPS_DIR" 2>/dev/null && return 0
		sleep 0.1
	done
	umount -l "$APPS_DIR"
}

# apps_spawn LOG CMD...: starts CMD in the background as a child that dies with
# this shell; its PID in $app_pid.
apps_spawn() {
	local log=$1
	shift
	apps_guardian
	setpriv --pdeathsig KILL -- "$@" >"$log" 2>&1 &
	app_pid=$!
	apps_pids+=("$app_pid")
	apps_state_add pid "$app_pid $(sed 's/.*) //' "/proc/$app_pid/stat" | cut -d ' ' -f 20)"
}

# --- MariaDB -------------------------------------------------------------------------------
# mariadb_config CONFIG: the server options of a configuration (measured above).
mariadb_config() {
	case $1 in
	healthy)
		echo --innodb-flush-method=O_DIRECT --skip-innodb-log-file-buffering --innodb-use-native-aio=ON ;;
	buffered)
		echo --innodb-flush-method=fsync --innodb-log-file-buffering=ON --innodb-use-native-aio=ON ;;
	memlock)
		echo --innodb-flush-method=O_DIRECT --skip-innodb-log-file-buffering --innodb-use-native-aio=ON ;;
	*) return 1 ;;
	esac
}

mariadb_sql() {
	mariadb --no-defaults --socket="$app_sock" -uroot --batch --skip-column-names -e "$1"
}

# mariadb_start CONFIG [ARGS...]: a new datadir, the server, and the first
# answered query; $app_ready_ms counts from mariadbd's start (the datadir's
# mariadb-install-db is not in it: it is in $app_install_ms).
mariadb_start() {
	local conf=$1 opts t0 d
	shift
	opts=$(mariadb_config "$conf") || { echo "mariadb_start: no such configuration '$conf'" >&2; return 1; }
	d=$APPS_DIR/mariadb.$conf
	rm -rf "$d"
	mkdir -p "$d/data" "$d/tmp"
	# memlock runs as nobody: root's CAP_IPC_LOCK would exempt it from the limit.
	local user=root pre=()
	if [ "$conf" = memlock ]; then
		user=nobody pre=(prlimit --memlock=65536:65536)
		chmod 0711 "$TMP"
		chown -R nobody: "$d"
	fi
	t0=$(apps_now_ms)
	mariadb-install-db --no-defaults --datadir="$d/data" --user="$user" --skip-test-db \
		--auth-root-authentication-method=normal --innodb-buffer-pool-size=8M \
		--innodb-log-file-size=16M $opts >"$d/install.log" 2>&1 || {
		echo "mariadb-install-db failed: $(tail -n 3 "$d/install.log")" >&2
		return 1
	}
	app_install_ms=$(($(apps_now_ms) - t0))
	app_sock=$d/mariadb.sock
	t0=$(apps_now_ms)
	apps_spawn "$d/stdout.log" "${pre[@]}" /usr/sbin/mariadbd --no-defaults --user="$user" \
		--datadir="$d/data" --tmpdir="$d/tmp" --socket="$app_sock" --pid-file="$d/mariadb.pid" \
		--log-error="$d/error.log" --skip-networking --innodb-buffer-pool-size=8M \
		--innodb-log-file-size=16M $opts "$@"
	for _ in $(seq 600); do
		mariadb_sql 'select 1' >/dev/null 2>&1 && { app_ready_ms=$(($(apps_now_ms) - t0)); return 0; }
		kill -0 "$app_pid" 2>/dev/null || break
		sleep 0.05
	done
	echo "mariadbd did not start: $(tail -n 5 "$d/error.log" 2>/dev/null)" >&2
	return 1
}

# mariadb_load SECONDS: one client inserting rows one by one, a table larger
# than the 8 MiB buffer pool, so pages are written back and read again, then
# a checkpoint push (innodb_max_dirty_pages_pct=0); bounded in time.
mariadb_load() {
	local secs=${1:-3} end
	end=$(($(apps_now_ms) + secs * 1000))
	mariadb_sql "create database if not exists load_db;
		create table if not exists load_db.t (id int primary key auto_increment,
			v varchar(500), key(v(20))) engine=innodb" || return 1
	while [ "$(apps_now_ms)" -lt "$end" ]; do
		for _ in $(seq 50); do
			echo "insert into load_db.t (v) values (concat(rand(), repeat('x', 480)));"
		done
		echo "select count(*) from load_db.t where v like '0.1%';"
	done | mariadb --no-defaults --socket="$app_sock" -uroot --batch >/dev/null 2>&1 &
	local c=$!
	while kill -0 "$c" 2>/dev/null && [ "$(apps_now_ms)" -lt $((end + 2000)) ]; do sleep 0.1; done
	kill "$c" 2>/dev/null
	wait "$c" 2>/dev/null
	mariadb_sql "set global innodb_max_dirty_pages_pct_lwm=0.001; set global innodb_max_dirty_pages_pct=0" >/dev/null
	return 0
}

mariadb_stop() {
	[ -n "$app_pid" ] && apps_stop_pid "$app_pid"
	app_pid=
}

# --- qemu-nbd ------------------------------------------------------------------------------
# qnbd_config CONFIG: "PREALLOCATION CACHE EVICT". qemu-img create writes a
# preallocation=full image through the page cache; O_DIRECT writes to a range
# that still has cached pages return EAGAIN under IOCB_NOWAIT and are punted
# (ext4: 365 of 28000 writes with the cache left, 0 of 22000 with it
# evicted), so healthy evicts it (EVICT=1), as a reboot or memory pressure
# would, and cached keeps it.
qnbd_config() {
	case $1 in
	healthy) echo full none 1 ;;
	cached) echo full none 0 ;;
	sparse) echo off none 0 ;;
	writeback) echo full writeback 0 ;;
	*) return 1 ;;
	esac
}

qnbd_start() {
	local conf=$1 c img t0
	c=$(qnbd_config "$conf") || { echo "qnbd_start: no such configuration '$conf'" >&2; return 1; }
	set -- $c
	img=$APPS_DIR/qnbd.$conf.img
	app_sock=$APPS_DIR/qnbd.$conf.sock
	rm -f "$img" "$app_sock"
	t0=$(apps_now_ms)
	qemu-img create -q -f raw -o preallocation="$1" "$img" 128M || return 1
	# GNU dd: iflag=nocache with count=0 drops the whole file's cached pages.
	if [ "$3" = 1 ]; then sync "$img" && dd if="$img" iflag=nocache count=0 status=none || return 1; fi
	app_install_ms=$(($(apps_now_ms) - t0))
	t0=$(apps_now_ms)
	apps_spawn "$APPS_DIR/qnbd.$conf.log" qemu-nbd --persistent --shared=4 --format=raw \
		--cache="$2" --aio=io_uring --socket="$app_sock" "$img"
	for _ in $(seq 200); do
		[ -S "$app_sock" ] && { app_ready_ms=$(($(apps_now_ms) - t0)); return 0; }
		kill -0 "$app_pid" 2>/dev/null || break
		sleep 0.05
	done
	echo "qemu-nbd did not start: $(cat "$APPS_DIR/qnbd.$conf.log")" >&2
	return 1
}

# qnbd_load SECONDS: a client writing and reading random 4 KiB blocks through
# the socket at depth 8 (qemu-img bench), bounded in time.
qnbd_load() {
	local secs=${1:-3} end
	end=$(($(apps_now_ms) + secs * 1000))
	while [ "$(apps_now_ms)" -lt "$end" ]; do
		qemu-img bench -q -f raw -w -c 2000 -d 8 -s 4096 -S 1052672 \
			"nbd+unix:///?socket=$app_sock" >/dev/null 2>&1 || return 1
		qemu-img bench -q -f raw -c 2000 -d 8 -s 4096 -S 1052672 \
			"nbd+unix:///?socket=$app_sock" >/dev/null 2>&1 || return 1
	done
}

qnbd_stop() { mariadb_stop; }

# --- ground truth ----------------------------------------------------------------------------
APPS_EVENTS="io_uring_create io_uring_submit_req io_uring_file_get io_uring_queue_async_work"

# apps_tids PID: the process's thread IDs, one a line.
apps_tids() { ls "/proc/$1/task" 2>/dev/null; }

truth_start() {
	local e
	apps_guardian
	APPS_TRACE=/sys/kernel/tracing/instances/uringlint-apps-$$
	rmdir "$APPS_TRACE" 2>/dev/null
	mkdir "$APPS_TRACE" || { APPS_TRACE=; return 1; }
	apps_state_add trace "$APPS_TRACE"
	echo 16384 >"$APPS_TRACE/buffer_size_kb"
	for e in $APPS_EVENTS; do
		echo 1 >"$APPS_TRACE/events/io_uring/$e/enable" || return 1
	done
	apps_tids "$1" >"$TMP/truth.$1.tids"
	echo 1 >"$APPS_TRACE/tracing_on"
}

# truth_stop PID FILE: the per-fd ground truth (format at the top of this file).
truth_stop() {
	local pid=$1 out=$2 fd
	[ -n "$APPS_TRACE" ] || return 1
	echo 0 >"$APPS_TRACE/tracing_on"
	apps_tids "$pid" >>"$TMP/truth.$pid.tids"
	# The fds as they are now, before the parse: a process may exit meanwhile.
	for fd in "/proc/$pid/fd/"*; do
		fd=${fd##*/}
		[ "$fd" = "*" ] && continue
		printf '%s\t%s\t%s\n' "$fd" "$(awk '/^flags:/ {print $2}' "/proc/$pid/fdinfo/$fd" 2>/dev/null)" \
			"$(readlink "/proc/$pid/fd/$fd" 2>/dev/null)"
	done >"$TMP/truth.$pid.fds"
	cp "$APPS_TRACE/trace" "$TMP/truth.$pid.trace"
	# Lost events would make the counts wrong: say so rather than undercount.
	grep -q 'LOST' "$TMP/truth.$pid.trace" && echo "truth_stop: the trace lost events" >&2
	rmdir "$APPS_TRACE"
	APPS_TRACE=
	awk -f - "$TMP/truth.$pid.tids" "$TMP/truth.$pid.trace" "$TMP/truth.$pid.trace" \
		>"$out.raw" <<-'AWK'
	# File 1 (the tids): our threads. File 2 (the trace): the rings they used.
	# File 3 (the trace again): the requests on those rings, in time order (the
	# trace is merged by time). Plain awk: Debian's mawk has no and()/strtonum().
	FNR == 1 { file++ }
	file == 1 { mine[$1] = 1; next }
	!/ io_uring_[a-z_]+: / { next }
	{
		match($0, /-[0-9]+ +\[[0-9]+\]/)
		tid = substr($0, RSTART + 1); sub(/ .*/, "", tid)
		comm = substr($0, 1, RSTART - 1); sub(/^ +/, "", comm)
		match($0, / io_uring_[a-z_]+: /); ev = substr($0, RSTART + 10, RLENGTH - 12)
		ring = field("ring ")
	}
	function field(key) {
		if (!match($0, key "[^ ,]+")) return ""
		return substr($0, RSTART + length(key), RLENGTH - length(key))
	}
	# REQ_F_FORCE_ASYNC is IOSQE_ASYNC's bit (1 << 4) in the request flags,
	# the lowest bit of the second hex digit from the right.
	function forced_async(hex,   d) {
		d = index("0123456789abcdef", tolower(substr(hex, length(hex) - 1, 1))) - 1
		return length(hex) > 3 && d % 2 == 1
	}
	file == 2 {
		w = comm; sub(/^iou-(wrk|sqp)-/, "", w)
		if (tid in mine || ((comm ~ /^iou-(wrk|sqp)-/) && (w in mine))) rings[ring] = 1
		next
	}
	!(ring in rings) { next }
	ev == "submit_req" {
		req = field("req ")
		n++; cur[req] = n; fdof[n] = "-"; op[n] = field("opcode "); fl[n] = field("flags ")
		next
	}
	ev == "file_get" {
		req = field("req ")
		if (req in cur) fdof[cur[req]] = field("fd ")
		next
	}
	ev == "queue_async_work" {
		req = field("request ")
		if (!(req in cur)) { punts["?"]++; seen["?"] = 1; next }
		punted[cur[req]] = 1
		if (forced_async(fl[cur[req]])) forced[cur[req]] = 1
		next
	}
	END {
		for (i = 1; i <= n; i++) {
			f = fdof[i]; seen[f] = 1
			reqs[f]++
			if (i in punted) { punts[f]++; opp[f, op[i]]++ }
			if (i in forced) forc[f]++
			ops[f, op[i]]++
			if (!((f, op[i]) in opseen)) { opseen[f, op[i]] = 1; oplist[f] = oplist[f] (oplist[f] == "" ? "" : ",") op[i] }
		}
		for (f in seen) {
			s = ""
			k = split(oplist[f], o, ",")
			for (j = 1; j <= k; j++) s = s (j > 1 ? "," : "") o[j] ":" ops[f, o[j]] ":" opp[f, o[j]] + 0
			printf "%s\t%d\t%d\t%d\t%s\n", f, reqs[f], punts[f], forc[f], s == "" ? "-" : s
		}
	}
	AWK
	sort -t "$(printf '\t')" -k2,2nr "$out.raw" | awk -F '\t' -v OFS='\t' '
		FNR == NR { flags[$1] = $2 == "" ? "-" : $2; path[$1] = $3 == "" ? "-" : $3; next }
		{ print $0, ($1 in flags) ? flags[$1] : "-", ($1 in path) ? path[$1] : "-" }' \
		"$TMP/truth.$pid.fds" - >"$out"
	rm -f "$out.raw"
}

# truth_get FILE PATH-REGEX COLUMN: the sum of COLUMN (requests, punts,
# forced) over the fds whose path matches.
truth_get() {
	awk -F '\t' -v re="$2" -v col="$3" '
		BEGIN { c = (col == "requests") ? 2 : (col == "punts") ? 3 : (col == "forced") ? 4 : 0 }
		c && $7 ~ re { s += $c } END { print s + 0 }' "$1"
}
