#!/bin/bash
# Real io_uring applications for the e2e suites, as Debian ships them
# (Makefile DEB_APPS): a throwaway MariaDB server and qemu-nbd, each in a
# healthy and a broken configuration, on a loop-mounted XFS or ext4; load for
# them. The ground truth of what io_uring did with each of their files is
# punt_truth.py's.
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
# --no-defaults (or an option file of its own), its own datadir, socket and
# pid file, and --skip-networking.
#
# The functions:
#   apps_need mariadb|qemu-nbd       0 when it can run here, else the reason in $apps_why
#   apps_mount xfs|ext4 [SIZE [DIR]] a fresh filesystem at DIR ($APPS_DIR; default 1G)
#   apps_umount [DIR]
#   mariadb_start CONFIG [ARGS...]   a server on $APPS_DIR/mariadb.CONFIG; $app_pid,
#                                    $app_ready_ms (start to first answered query)
#   mariadb_sql SQL                  runs SQL on the last started server
#   mariadb_load SECONDS             single-row inserts, then page flushing, for SECONDS
#                                    (every load is bounded, and ends early once $APPS_LOAD_STOP
#                                    exists; run them with & to audit meanwhile)
#   mariadb_gate_load SECONDS        three mariadb_loads beside O_DIRECT writes of another process
#   mariadb_stop                     SIGTERM, waits for the clean shutdown
#   qnbd_start CONFIG                qemu-nbd --aio=io_uring (or $QNBD_AIO) on $APPS_DIR/qnbd.CONFIG.img
#   qnbd_load SECONDS                4 KiB writes, then reads, 1 MiB + 4 KiB apart, through
#                                    the NBD socket (qemu-img bench at depth 8); writes
#                                    only on the sparse and writeback images
#   qnbd_stop
#   qsd_start                        qemu-storage-daemon, the image a --blockdev (QSD_AIO,
#                                    QSD_DIRECT) exported over NBD; qnbd_load loads it
#   qsd_stop
#   samba_start CONFIG               smbd on 127.0.0.1:$SAMBA_PORT serving $APPS_DIR/samba.CONFIG/share
#                                    with vfs objects = io_uring; $app_pid is the parent
#   samba_load SECONDS               one smbclient session putting a 64 MiB file, again and again,
#                                    for SECONDS; the session's smbd child in $samba_child
#                                    (run it with & after samba_session)
#   samba_stop
#   apps_truth_start NAME PID [KB]   punt_truth.py --only records PID's threads (perf,
#                                    filtered in the kernel: no other process's load)
#   apps_truth_stop NAME PID OUT     its account in OUT, its raw lines in OUT.raw
#
# The configurations, and what each did under load on Linux 6.18 (HZ=250),
# ext4 on a loop device (io_uring requests punted to io-wq of those submitted):
#   mariadb healthy    the 10.11 defaults spelled out: innodb_flush_method=O_DIRECT,
#                      innodb_log_file_buffering=OFF, innodb_use_native_aio=ON;
#                      ibdata1 2 of 1028 WRITEV punted, t.ibd 0 of 37
#   mariadb buffered   innodb_flush_method=fsync: ibdata1 and every .ibd opened
#                      without O_DIRECT; ibdata1 1623 of 1623 punted, t.ibd 70 of 70
#   mariadb cnf        buffered by its option file: --defaults-file=my.cnf, whose
#                      !includedir's 50-tuning.cnf sets innodb-flush-method =
#                      "fsync" in [mariadb], over 10-server.cnf's O_DIRECT
#   mariadb memlock    the healthy settings as nobody under RLIMIT_MEMLOCK 64 KiB:
#                      io_uring_queue_init() fails with ENOMEM (262144 bytes
#                      needed) and InnoDB falls back to libaio: no io_uring fd
#   qnbd healthy       raw, preallocation=full, page cache evicted, --cache=none:
#                      0 of 30000 WRITEV punted (FSYNC always goes to io-wq)
#   qnbd cached        the same with the cache qemu-img create left: 365 of 20000
#   qnbd sparse        raw, 1 GiB, preallocation=off, writes only: 48-58% punted,
#                      the writes into holes
#   qnbd writeback     raw, preallocation=full, --cache=writeback, writes only: all punted
#   samba buffered     vfs objects = io_uring (aio sizes 1, the defaults): every WRITEV of
#                      the served file punted (ext4 takes no buffered write inline)
#   samba noaio        the same with aio read size = 0, aio write size = 0: the ring is
#                      made and stays idle, the child writes with pwrite64
#   samba xfs          samba buffered with the share on an XFS of its own: 93-96% of
#                      the WRITEVs of a put punted (many in flight on one file: each
#                      finds the inode's I/O lock held, xfs_file_buffered_write)
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
# Ground truth for these processes is tests/e2e/punt_truth.py, shared with the
# watch suite.

APPS_DIR=$TMP/apps
APPS_XFS=$TMP/apps-xfs
APPS_STATE=$TMP/apps.state
APPS_TRACE=
APPS_TRUTH=
# A load ends early once this file exists (apps_load_stop): the gate's ten audits set its length.
APPS_LOAD_STOP=$TMP/apps.load.stop
# punt_truth.py --only keeps its perf data here, removed with the suite's $TMP.
export PUNT_TRUTH_DIR=$TMP/truth
app_pid= app_sock= app_ready_ms= apps_why= qnbd_rw=rw qnbd_export=
apps_pids=()

apps_now_ms() { echo $(($(date +%s%N) / 1000000)); }
# apps_loading END_MS: true while a load should go on (before END_MS, and not stopped).
apps_loading() { [ "$(apps_now_ms)" -lt "$1" ] && [ ! -e "$APPS_LOAD_STOP" ]; }

apps_need() {
	apps_why=
	# The ground truth counts on tracefs; a host mounts it at boot, a bare
	# machine may not have yet.
	[ "$(id -u)" -eq 0 ] && ! [ -d /sys/kernel/tracing/instances ] &&
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
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
		samba)
			for b in /usr/sbin/smbd smbclient; do
				command -v "$b" >/dev/null || apps_why="$b is missing (make deps installs DEB_APPS)"
			done
			[ -z "$apps_why" ] && [ ! -e "$(/usr/sbin/smbd -b | awk '$1 == "MODULESDIR:" { print $2 }')/vfs/io_uring.so" ] &&
				apps_why="smbd has no vfs_io_uring module (samba-vfs-modules)" ;;
		mpd)
			command -v mpd >/dev/null || apps_why="mpd is missing (make deps installs DEB_APPS)" ;;
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
			truth) [ -f "$v/perf.pid" ] && kill -KILL "$(cat "$v/perf.pid")" 2>/dev/null; rm -rf "$v" ;;
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
	[ -n "$APPS_TRUTH" ] && [ -f "$APPS_TRUTH/perf.pid" ] && kill -KILL "$(cat "$APPS_TRUTH/perf.pid")" 2>/dev/null
	[ -n "$APPS_TRUTH" ] && rm -rf "$APPS_TRUTH"
	APPS_TRUTH=
	apps_umount "$APPS_XFS"
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

# --- the ground truth ----------------------------------------------------------------------
# apps_truth_start NAME PID [KB]: the truth of PID alone, filtered in the kernel
# (punt_truth.py's --only: perf record -p, whose events follow the process's new
# threads, io-wq workers too); 64 MiB a CPU by default (qemu-nbd's 5 s of punted
# writes take some 17 MiB). Another process's load can no longer push its events out.
apps_truth_start() {
	APPS_TRUTH=$PUNT_TRUTH_DIR/$1
	apps_state_add truth "$APPS_TRUTH"
	python3 tests/e2e/punt_truth.py start --only "$1" "$2" "${3:-65536}"
}
# apps_truth_stop NAME PID OUT: stops it; the account in OUT, the raw lines in OUT.raw.
apps_truth_stop() {
	PUNT_TRUTH_RAW="$3.raw" python3 tests/e2e/punt_truth.py stop "$1" "$2" >"$3"
	local rc=$?
	APPS_TRUTH=
	return $rc
}

# --- the filesystem ----------------------------------------------------------------------
apps_mount() {
	local fs=${1:-xfs} size=${2:-1G} dir=${3:-$APPS_DIR} img
	img=$TMP/apps.$(basename "$dir").img
	apps_guardian
	mkdir -p "$dir"
	truncate -s "$size" "$img" || return 1
	apps_state_add file "$img"
	case $fs in
	xfs) mkfs.xfs -q -f "$img" ;;
	ext4) mkfs.ext4 -q -F "$img" ;;
	*) echo "apps_mount: no such filesystem '$fs'" >&2; return 1 ;;
	esac 2>"$TMP/apps.mount.err" || return 1
	apps_state_add mount "$dir"
	mount -o loop "$img" "$dir" 2>>"$TMP/apps.mount.err" && mountpoint -q "$dir"
}
apps_umount() {
	local dir=${1:-$APPS_DIR}
	mountpoint -q "$dir" 2>/dev/null || return 0
	for _ in $(seq 100); do
		umount "$dir" 2>/dev/null && return 0
		sleep 0.1
	done
	umount -l "$dir"
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
	# The healthy settings on Linux AIO: innodb_linux_aio=aio (fixes.sh applies io_uring).
	aio)
		echo --innodb-flush-method=O_DIRECT --skip-innodb-log-file-buffering --innodb-use-native-aio=ON \
			--innodb-linux-aio=aio ;;
	# Buffered by its option file: mariadb_start writes it (below).
	cnf) echo --innodb-log-file-buffering=ON ;;
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
	# cnf: the server reads my.cnf (--defaults-file), whose !includedir holds the
	# flush method, as Debian's /etc/mysql/my.cnf holds its conf.d directories.
	local defaults=--no-defaults
	if [ "$conf" = cnf ]; then
		mkdir -p "$d/conf.d"
		printf '%s\n' '[client-server]' '# innodb_flush_method = O_DIRECT' \
			"!includedir $d/conf.d" >"$d/my.cnf"
		printf '%s\n' '[mysqld]' 'innodb_flush_method = O_DIRECT' >"$d/conf.d/10-server.cnf"
		printf '%s\n' '[mariadb]' 'innodb-flush-method = "fsync"   # buffered' \
			'[client]' 'innodb_flush_method = O_DSYNC' >"$d/conf.d/50-tuning.cnf"
		defaults=--defaults-file=$d/my.cnf
	fi
	t0=$(apps_now_ms)
	mariadb-install-db "$defaults" --datadir="$d/data" --user="$user" --skip-test-db \
		--auth-root-authentication-method=normal --innodb-buffer-pool-size=8M \
		--innodb-log-file-size=16M $opts >"$d/install.log" 2>&1 || {
		echo "mariadb-install-db failed: $(tail -n 3 "$d/install.log")" >&2
		return 1
	}
	app_install_ms=$(($(apps_now_ms) - t0))
	app_sock=$d/mariadb.sock
	t0=$(apps_now_ms)
	apps_spawn "$d/stdout.log" "${pre[@]}" /usr/sbin/mariadbd "$defaults" --user="$user" \
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
	# rand() prints up to 22 characters (0.0001...e-5 forms): 470 more stay within the
	# column's 500, where 480 stopped the client at its first too-long row (ERROR 1406)
	# within a second, whatever SECONDS said.
	while apps_loading "$end"; do
		for _ in $(seq 50); do
			echo "insert into load_db.t (v) values (concat(rand(), repeat('x', 470)));"
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

# mariadb_gate_load SECONDS: three mariadb_loads beside a neighbour on the same device: 200 MiB
# written with O_DIRECT and fsync, again and again. InnoDB's own O_DIRECT reads and
# flushes then keep its threads in D for tens to hundreds of ms, as on a shared disk.
mariadb_gate_load() {
	local secs=${1:-3} end n
	end=$(($(apps_now_ms) + secs * 1000))
	(while apps_loading "$end"; do
		dd if=/dev/zero of="$APPS_DIR/neighbour.dat" bs=1M count=200 oflag=direct conv=fsync status=none || break
	done) &
	n=$!
	# Three clients: one keeps InnoDB's I/O too sparse to wait on.
	mariadb_load "$secs" &
	mariadb_load "$secs" &
	mariadb_load "$secs"
	wait
	rm -f "$APPS_DIR/neighbour.dat"
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
	# preallocation, cache, evict the page cache, size, load (rw: writes then reads)
	healthy) echo full none 1 128M rw ;;
	cached) echo full none 0 128M rw ;;
	# The broken ones written only: with reads between the write rounds, each
	# 0.2 s long, the few sampling windows of a watch at this rate (the first
	# 0.15 s of each second) could all hold reads, served from the cache without
	# a punt, and the watch too few punts to blame a file. The sparse image is
	# larger than the load can fill, so every round meets holes.
	sparse) echo off none 0 1G w ;;
	writeback) echo full writeback 0 128M w ;;
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
	qnbd_rw=$5
	qemu-img create -q -f raw -o preallocation="$1" "$img" "$4" || return 1
	# GNU dd: iflag=nocache with count=0 drops the whole file's cached pages.
	if [ "$3" = 1 ]; then sync "$img" && dd if="$img" iflag=nocache count=0 status=none || return 1; fi
	app_install_ms=$(($(apps_now_ms) - t0))
	t0=$(apps_now_ms)
	# QNBD_AIO: another engine than io_uring (fixes.sh's no-uring case).
	apps_spawn "$APPS_DIR/qnbd.$conf.log" qemu-nbd --persistent --shared=4 --format=raw \
		--cache="$2" --aio="${QNBD_AIO:-io_uring}" --socket="$app_sock" "$img"
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
	local secs=${1:-3} end off=0
	end=$(($(apps_now_ms) + secs * 1000))
	while apps_loading "$end"; do
		# Each round starts 8 KiB further, so a sparse image keeps meeting new holes.
		qemu-img bench -q -f raw -w -c 2000 -d 8 -s 4096 -S 1052672 -o "$off" \
			"nbd+unix:///${qnbd_export:-}?socket=$app_sock" >/dev/null 2>&1 || return 1
		if [ "$qnbd_rw" = rw ]; then
			qemu-img bench -q -f raw -c 2000 -d 8 -s 4096 -S 1052672 -o "$off" \
				"nbd+unix:///${qnbd_export:-}?socket=$app_sock" >/dev/null 2>&1 || return 1
		fi
		off=$(((off + 8192) % 1048576))
	done
}

qnbd_stop() { mariadb_stop; }

# --- qemu-storage-daemon -------------------------------------------------------------------
# The same block layer, the image a --blockdev of driver=file exported over NBD
# (export name "img"), so qnbd_load loads it. QSD_AIO and QSD_DIRECT: its aio=
# (io_uring) and cache.direct= (on); the image as qnbd's healthy one (preallocated,
# its cached pages dropped).
qsd_start() {
	local img=$APPS_DIR/qsd.img t0
	app_sock=$APPS_DIR/qsd.sock
	rm -f "$img" "$app_sock"
	qnbd_rw=w
	qnbd_export=img
	qemu-img create -q -f raw -o preallocation=full "$img" 128M || return 1
	sync "$img" && dd if="$img" iflag=nocache count=0 status=none || return 1
	t0=$(apps_now_ms)
	apps_spawn "$APPS_DIR/qsd.log" qemu-storage-daemon \
		--blockdev "driver=file,node-name=f0,filename=$img,aio=${QSD_AIO:-io_uring},cache.direct=${QSD_DIRECT:-on}" \
		--nbd-server "addr.type=unix,addr.path=$app_sock" \
		--export "type=nbd,id=e0,node-name=f0,name=img,writable=on"
	for _ in $(seq 200); do
		[ -S "$app_sock" ] && { app_ready_ms=$(($(apps_now_ms) - t0)); return 0; }
		kill -0 "$app_pid" 2>/dev/null || break
		sleep 0.05
	done
	echo "qemu-storage-daemon did not start: $(cat "$APPS_DIR/qsd.log")" >&2
	return 1
}
qsd_stop() { mariadb_stop; qnbd_export=; }

# --- Samba ---------------------------------------------------------------------------------
# A standalone smbd of its own: its own smb.conf, state directories and port on
# loopback, a guest share. The ring is the connection's smbd child's, made when
# the client connects the share; the parent, smbd-notifyd and cleanupd have none.
SAMBA_PORT=${SAMBA_PORT:-44501}
samba_child=
samba_conf() { # CONFIG: the share's settings
	case $1 in
	buffered) echo "vfs objects = io_uring" ;;
	noaio) printf '%s\n' "vfs objects = io_uring" "aio read size = 0" "aio write size = 0" ;;
	xfs) echo "vfs objects = io_uring" ;;
	*) return 1 ;;
	esac
}

samba_start() {
	local conf=$1 d share t0 c
	c=$(samba_conf "$conf") || { echo "samba_start: no such configuration '$conf'" >&2; return 1; }
	d=$APPS_DIR/samba.$conf
	rm -rf "$d"
	mkdir -p "$d"/{private,lock,state,cache,pid,ncalrpc,share}
	# The guest is nobody: it must reach the share through $TMP (mktemp makes it 0700).
	chmod 0711 "$TMP"
	chmod 0777 "$d/share"
	# The share of "xfs" on an XFS of its own (apps_mount xfs SIZE $APPS_XFS first).
	if [ "$conf" = xfs ]; then
		mountpoint -q "$APPS_XFS" || { echo "samba_start: no XFS at $APPS_XFS" >&2; return 1; }
		mkdir -p "$APPS_XFS/share" && chmod 0777 "$APPS_XFS/share" || return 1
	fi
	cat >"$d/smb.conf" <<EOC
[global]
server role = standalone server
smb ports = $SAMBA_PORT
interfaces = lo
bind interfaces only = yes
disable netbios = yes
private dir = $d/private
lock directory = $d/lock
state directory = $d/state
cache directory = $d/cache
pid directory = $d/pid
ncalrpc dir = $d/ncalrpc
passdb backend = tdbsam:$d/private/passdb.tdb
log file = $d/log.%m
map to guest = Bad User
load printers = no
printcap name = /dev/null
disable spoolss = yes
[share]
path = $( [ "$conf" = xfs ] && echo "$APPS_XFS/share" || echo "$d/share")
guest ok = yes
guest only = yes
read only = no
$c
EOC
	head -c 64M /dev/urandom >"$d/src.dat" || return 1
	app_sock=$d
	t0=$(apps_now_ms)
	# In a process group of its own (no --no-process-group): at its exit smbd signals its
	# whole group, which would otherwise be the suite's.
	apps_spawn "$d/stdout.log" /usr/sbin/smbd --foreground --debug-stdout --configfile="$d/smb.conf"
	for _ in $(seq 200); do
		if smbclient -s "$d/smb.conf" -N -p "$SAMBA_PORT" //127.0.0.1/share -c ls >/dev/null 2>&1; then
			app_ready_ms=$(($(apps_now_ms) - t0))
			return 0
		fi
		kill -0 "$app_pid" 2>/dev/null || break
		sleep 0.05
	done
	echo "smbd did not start: $(tail -n 5 "$d/stdout.log")" >&2
	return 1
}

# samba_repeat SECONDS CMD PAUSE: one session giving smbclient CMD every PAUSE s
# (it reads the next when the last is done) for SECONDS; what is still queued
# at the end is cut by the timeout.
samba_repeat() {
	local secs=$1 end d=$app_sock
	end=$(($(apps_now_ms) + secs * 1000))
	while apps_loading "$end"; do
		echo "$2"
		sleep "$3"
	done | timeout $((secs + 1)) smbclient -s "$d/smb.conf" -N -p "$SAMBA_PORT" //127.0.0.1/share >/dev/null 2>&1
}
# samba_load SECONDS: puts of the 64 MiB file over one name; samba_get_load SECONDS:
# gets of share/get.dat.
samba_load() { samba_repeat "${1:-3}" "put $app_sock/src.dat dst.dat" 0.2; }
samba_get_load() { samba_repeat "${1:-3}" "get get.dat /dev/null" 0.1; }

# samba_session SECONDS [LOADFN]: LOADFN (samba_load) in the background, and the
# smbd child that serves it (the one with an io_uring fd) in $samba_child.
samba_session() {
	local p f
	${2:-samba_load} "$1" &
	samba_loader=$!
	samba_child=
	for _ in $(seq 100); do
		for p in $(pgrep -P "$app_pid" -x smbd); do
			for f in /proc/"$p"/fd/*; do
				[ "$(readlink "$f" 2>/dev/null)" = "anon_inode:[io_uring]" ] && { samba_child=$p; return 0; }
			done
		done
		sleep 0.05
	done
	echo "no smbd child with an io_uring fd: $(pgrep -a -P "$app_pid")" >&2
	return 1
}

samba_stop() { mariadb_stop; }

# --- MPD -----------------------------------------------------------------------------------
# A Music Player Daemon of its own: its own configuration, database and port on
# loopback, a null output played in real time. It reads each track through
# io_uring (READV of the file it opens when the track starts, buffered, a few
# a second), so its ring is busy but slow, and its files are only read.
MPD_PORT=${MPD_PORT:-44600}

# mpd_cmd COMMAND...: each given to the daemon in one connection, its replies printed.
mpd_cmd() {
	python3 - "$MPD_PORT" "$@" <<'EOP'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
f = s.makefile("rwb")
f.readline()
for c in sys.argv[2:]:
    f.write((c + "\n").encode())
    f.flush()
    while True:
        line = f.readline().decode()
        if not line or line.startswith("ACK"):
            sys.exit(line.strip() or "mpd closed the connection")
        if line.startswith("OK"):
            break
        print(line.strip())
EOP
}

# mpd_start: three tracks of 60 s (a tone, 16-bit stereo WAV, 10 MiB each), indexed and
# playing; the daemon in $app_pid.
mpd_start() {
	local d=$APPS_DIR/mpd t0
	rm -rf "$d"
	mkdir -p "$d/music" "$d/playlists"
	python3 - "$d/music" <<'EOP' || return 1
import math, struct, sys, wave
for i in range(1, 4):
    second = b"".join(struct.pack("<hh", v, v) for v in
                      (int(8000 * math.sin(2 * math.pi * 220 * i * k / 44100)) for k in range(44100)))
    with wave.open(f"{sys.argv[1]}/t{i}.wav", "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(44100)
        w.writeframes(second * 60)
EOP
	cat >"$d/mpd.conf" <<EOC
music_directory "$d/music"
playlist_directory "$d/playlists"
db_file "$d/db"
state_file "$d/state"
pid_file "$d/pid"
bind_to_address "127.0.0.1"
port "$MPD_PORT"
# A small buffer (the default holds some 20 s of these tracks, read in a burst at
# the start): reads come steadily while it plays.
audio_buffer_size "128"
audio_output {
	type "null"
	name "null"
	sync "yes"
}
EOC
	t0=$(apps_now_ms)
	apps_spawn "$d/log" mpd --no-daemon "$d/mpd.conf"
	for _ in $(seq 200); do
		if mpd_cmd ping >/dev/null 2>&1; then
			app_ready_ms=$(($(apps_now_ms) - t0))
			mpd_cmd update >/dev/null || return 1
			for _ in $(seq 100); do
				mpd_cmd status | grep -q '^updating_db:' || break
				sleep 0.05
			done
			mpd_cmd "add t1.wav" "add t2.wav" "add t3.wav" play >/dev/null || return 1
			mpd_cmd status | grep -q '^state: play' && return 0
			break
		fi
		kill -0 "$app_pid" 2>/dev/null || break
		sleep 0.05
	done
	echo "mpd did not start playing: $(tail -n 5 "$d/log")" >&2
	return 1
}

# mpd_load SECONDS: the playback is the load.
mpd_load() { sleep "${1:-3}"; }

mpd_stop() { mariadb_stop; }
