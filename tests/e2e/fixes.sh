#!/bin/bash
# Every application fix uringlint prints is applied here: the application runs
# with the problem, uringlint finds it and prints the table's setting as the
# fix, the setting is applied (the application started again with it), and the
# finding is gone. Each half has its ground truth, taken apart from uringlint:
# perf's counts of the punts and requests (inherited by the program's
# children), the fd's flags in fdinfo, the ring fd in /proc/PID/fd, the image's
# allocated blocks. lib/apps/app_fixes.tbl's Tested: names these cases; a fix
# without one is not printed (its setting is in the evidence, said untested),
# and the last case holds every Tested: to a case that exists. Root.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh
. tests/e2e/live.sh
. tests/e2e/apps_lib.sh

TABLE=lib/apps/app_fixes.tbl

# The cases passed here, for the last case's check of the table's Tested: lines.
ok() { passed=$((passed + 1)); record 0 "$1"; echo "ok   $1"; printf '%s\n' "$1" >>"$TMP/passed"; }

finish() {
	echo "fixes: $passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
	exit
}

# problems JSON ID [SUBJECT-RE]: the warn and fail findings of check ID (on a matching subject).
problems() {
	jq --arg id "$2" --arg re "${3:-.}" '[.findings[] | select(.id == $id and
		(.status == "fail" or .status == "warn") and (.subject | test($re)))] | length' "$1"
}

# fix_says JSON ID WORDS: a warn or fail finding of ID whose fix holds WORDS.
fix_says() {
	jq -e --arg id "$2" --arg w "$3" '[.findings[] | select(.id == $id and
		(.status == "fail" or .status == "warn")) | select((.fix // "") | contains($w))] |
		length >= 1' "$1" >/dev/null
}

# has_ring PID: the process holds an io_uring fd (the ground truth of no-uring).
has_ring() {
	local f
	for f in /proc/"$1"/fd/*; do
		[ "$(readlink "$f" 2>/dev/null)" = "anon_inode:[io_uring]" ] && return 0
	done
	return 1
}

# odirect PID PATH: the fd of PATH in PID has O_DIRECT (040000) in fdinfo's octal flags.
odirect() {
	local f fl
	for f in /proc/"$1"/fd/*; do
		[ "$(readlink "$f" 2>/dev/null)" = "$2" ] || continue
		fl=$(awk '$1 == "flags:" {print $2}' "/proc/$1/fdinfo/${f##*/}")
		[ $((8#$fl & 8#40000)) -ne 0 ] && return 0
		return 1
	done
	return 2
}

# watched NAME SECONDS LOADFN: audit $1 of the running $app_pid (or AUDIT_PID) with
# --watch SECONDS while LOADFN runs for SECONDS + 2.
watched() {
	local name=$1 secs=$2 load=$3 l
	$load $((secs + 2)) &
	l=$!
	sleep 0.5
	"$BIN" audit "${AUDIT_PID:-$app_pid}" --watch "$secs" --format json --fail-on never \
		>"$TMP/$name.json" 2>"$TMP/$name.err"
	wait "$l"
}

# no_uring APP WORDS BROKEN APPLIED RING-BROKEN RING-APPLIED: the verdict of a no-uring
# fix from the two audits ($TMP/NAME.json) and the ring fd each process held (yes, no).
no_uring() {
	if [ "$5" = no ] && [ "$6" = yes ] && fix_says "$TMP/$3.json" uring-fallback "$2" &&
		[ "$(problems "$TMP/$4.json" uring-fallback)" = 0 ]; then
		ok "fix applied: $1 no-uring: uring-fallback failed with '$2' in the fix (no ring fd); applied, a ring and no finding"
	else
		bad "fix applied: $1 no-uring" "ring fd: before $5, applied $6" \
			"$(jq -c '[.findings[] | select(.id == "uring-fallback") | [.status, .message, .fix]]' "$TMP/$3.json" "$TMP/$4.json" 2>&1)"
	fi
}

# buffered_applied APP WORDS BROKEN APPLIED DIRECT-BROKEN DIRECT-APPLIED SUBJECT-RE: the
# verdict of a buffered fix of an image server from the two audits ($TMP/NAME.json) and
# the O_DIRECT bit fdinfo showed in each (odirect: 0 yes, 1 no).
buffered_applied() {
	if [ "$5" = 1 ] && [ "$6" = 0 ] && fix_says "$TMP/$3.json" file-punts "$2" &&
		[ "$(problems "$TMP/$4.json" file-punts "$7")" = 0 ] &&
		[ "$(problems "$TMP/$4.json" fd-o-direct "$7")" = 0 ]; then
		ok "fix applied: $1 buffered: file-punts failed with '$2' in the fix (fdinfo: no O_DIRECT); applied, O_DIRECT and no finding on the image"
	else
		bad "fix applied: $1 buffered" "O_DIRECT: broken $5, applied $6 (0 yes, 1 no)" \
			"$(jq -c '[.findings[] | select(.id == "file-punts" or .id == "fd-o-direct") | [.status, .subject, .fix]]' "$TMP/$3.json" "$TMP/$4.json")"
	fi
}

if [ "$(id -u)" -ne 0 ]; then
	skip "fixes applied" "the applications, loop mounts and perf need root"
	finish
fi
apps_mount ext4 1G || { bad "a loop ext4 for the applications" "$(cat "$TMP/apps.mount.err")"; finish; }

# --- fio, under audit --exec, inside perf stat ---------------------------------------------
# fio_run NAME ARGS...: a 2 s random write job on $APPS_DIR/fio.dat; perf counts the punts
# and requests of uringlint's children (fio and its job process) in $punts and $reqs.
fio_run() {
	local name=$1
	shift
	perf stat -x, -e io_uring:io_uring_queue_async_work -e io_uring:io_uring_submit_req \
		-o "$TMP/$name.perf" -- "$BIN" audit --exec --format json --fail-on never \
		-o "$TMP/$name.json" -- fio --name=j --ioengine=io_uring --filename="$APPS_DIR/fio.dat" \
		--size=32M --bs=4k --iodepth=8 --rw=randwrite --runtime=2 --time_based "$@" \
		>"$TMP/$name.fio" 2>&1
	punts=$(awk -F, '/queue_async_work/ {print $1 + 0}' "$TMP/$name.perf")
	reqs=$(awk -F, '/submit_req/ {print $1 + 0}' "$TMP/$name.perf")
}

if ! command -v fio >/dev/null; then
	bad "fio is installed (a test dependency)"
else
	dd if=/dev/zero of="$APPS_DIR/fio.dat" bs=1M count=32 conv=fsync status=none
	# buffered: direct=0 punts every write on ext4; direct=1 on the written file none.
	fio_run fio-buffered --direct=0
	b_p=$punts b_r=$reqs
	fio_run fio-direct --direct=1
	if [ "${b_r:-0}" -gt 1000 ] && [ "$b_p" -gt $((b_r / 2)) ] &&
		fix_says "$TMP/fio-buffered.json" file-punts "direct=1" &&
		[ "$(problems "$TMP/fio-direct.json" file-punts 'fio\.dat')" = 0 ] &&
		[ "$(problems "$TMP/fio-direct.json" fd-o-direct 'fio\.dat')" = 0 ] &&
		[ "${reqs:-0}" -gt 1000 ] && [ "$punts" -lt $((reqs / 100 + 1)) ]; then
		ok "fix applied: fio buffered: file-punts failed with 'direct=1' in the fix ($b_p of $b_r requests punted, perf); applied, no finding on fio.dat ($punts of $reqs)"
	else
		bad "fix applied: fio buffered" "perf: buffered $b_p of $b_r, direct $punts of $reqs" \
			"$(jq -c '[.findings[] | select(.id == "file-punts" or .id == "fd-o-direct") | [.status, .subject, .fix]]' "$TMP/fio-buffered.json" "$TMP/fio-direct.json")"
	fi
	# force-async: IOSQE_ASYNC on every request punts them all; without it none.
	fio_run fio-async --direct=1 --force_async=1
	if [ "${reqs:-0}" -gt 1000 ] && [ "$punts" -ge $((reqs * 9 / 10)) ] &&
		fix_says "$TMP/fio-async.json" iowq-punts "force_async" &&
		[ "$(problems "$TMP/fio-direct.json" iowq-punts)" = 0 ]; then
		ok "fix applied: fio force-async: iowq-punts failed with 'force_async' in the fix ($punts of $reqs punted, perf); applied (unset), no iowq-punts finding"
	else
		bad "fix applied: fio force-async" "perf: $punts of $reqs punted" \
			"$(jq -c '[.findings[] | select(.id == "iowq-punts") | [.status, .fix]]' "$TMP/fio-async.json" "$TMP/fio-direct.json")"
	fi
fi

# --- qemu-nbd ----------------------------------------------------------------------------
if ! apps_need qemu-nbd; then
	skip "fix applied: qemu-nbd" "$apps_why"
else
	# buffered: --cache=writeback has no O_DIRECT, and its writes punt; --cache=none has it.
	qnbd_start writeback && watched qnbd-writeback 2 qnbd_load
	odirect "$app_pid" "$APPS_DIR/qnbd.writeback.img"
	wb=$?
	qnbd_stop
	qnbd_start healthy && watched qnbd-none 2 qnbd_load
	odirect "$app_pid" "$APPS_DIR/qnbd.healthy.img"
	none=$?
	buffered_applied qemu-nbd "--cache=none" qnbd-writeback qnbd-none "$wb" "$none" qnbd
	qnbd_stop
	# sparse: an image created without preallocation is written into holes; created
	# preallocated, its creation's pages dropped once, it is not. Truth: allocated blocks.
	qnbd_start sparse
	s_alloc=$(($(stat -c '%b * %B' "$APPS_DIR/qnbd.sparse.img")))
	s_size=$(stat -c %s "$APPS_DIR/qnbd.sparse.img")
	watched qnbd-sparse 2 qnbd_load
	qnbd_stop
	# The scattered blocks the sparse image took would fragment the next one: gone first,
	# and committed (ext4 reuses freed blocks only after the journal commits).
	rm -f "$APPS_DIR/qnbd.sparse.img"
	sync -f "$APPS_DIR"
	qnbd_start healthy
	h_alloc=$(($(stat -c '%b * %B' "$APPS_DIR/qnbd.healthy.img")))
	h_size=$(stat -c %s "$APPS_DIR/qnbd.healthy.img")
	watched qnbd-full 2 qnbd_load
	if [ "$s_alloc" -lt $((s_size / 2)) ] && [ "$h_alloc" -ge "$h_size" ] &&
		fix_says "$TMP/qnbd-sparse.json" file-punts "preallocation=full" &&
		fix_says "$TMP/qnbd-sparse.json" file-punts "iflag=nocache" &&
		[ "$(problems "$TMP/qnbd-full.json" file-punts 'qnbd')" = 0 ] &&
		[ "$(problems "$TMP/qnbd-full.json" file-extents 'qnbd')" = 0 ]; then
		ok "fix applied: qemu-nbd sparse: file-punts failed naming preallocation=full and dropping the cached pages ($s_alloc of $s_size bytes allocated); applied, no finding ($h_alloc of $h_size)"
	else
		bad "fix applied: qemu-nbd sparse" "allocated: sparse $s_alloc of $s_size, full $h_alloc of $h_size" \
			"$(jq -c '[.findings[] | select(.id == "file-punts" or .id == "file-extents") | [.status, .subject, .message, .fix]]' "$TMP/qnbd-sparse.json" "$TMP/qnbd-full.json")"
	fi
	qnbd_stop
	# no-uring: --aio=threads makes no ring; --aio=io_uring one.
	QNBD_AIO=threads qnbd_start healthy
	"$BIN" audit "$app_pid" --watch 0 --format json --fail-on never >"$TMP/qnbd-threads.json" 2>/dev/null
	has_ring "$app_pid" && t_ring=yes || t_ring=no
	qnbd_stop
	qnbd_start healthy
	"$BIN" audit "$app_pid" --watch 0 --format json --fail-on never >"$TMP/qnbd-uring.json" 2>/dev/null
	has_ring "$app_pid" && u_ring=yes || u_ring=no
	qnbd_stop
	no_uring qemu-nbd "--aio=io_uring" qnbd-threads qnbd-uring "$t_ring" "$u_ring"
	# The cause from its command line (the --aio=threads it was started with), and a fix
	# that is its own option, not the limits and sysctls of a failed io_uring_setup().
	if jq -e '[.findings[] | select(.id == "uring-fallback")][0] |
		(.message | test("Cause, from its command line: qemu-nbd opens [^ ]*qnbd[^ ]* with --aio=threads")) and
		(.fix | contains("RLIMIT_MEMLOCK") | not)' "$TMP/qnbd-threads.json" >/dev/null; then
		ok "qemu-nbd no-uring: the cause read from its command line (--aio=threads), no limits in the fix"
	else
		bad "qemu-nbd no-uring: the cause from its command line" \
			"$(jq -c '[.findings[] | select(.id == "uring-fallback") | [.message, .fix]]' "$TMP/qnbd-threads.json")"
	fi
fi

# --- qemu-storage-daemon: its --blockdev exported over NBD, written through the socket ----
if ! command -v qemu-storage-daemon >/dev/null; then
	bad "qemu-storage-daemon is installed (qemu-system-common, a test dependency)"
else
	# buffered: cache.direct=off has no O_DIRECT, and its writes punt; on has it.
	QSD_DIRECT=off qsd_start && watched qsd-off 2 qnbd_load
	odirect "$app_pid" "$APPS_DIR/qsd.img"
	off=$?
	qsd_stop
	qsd_start && watched qsd-on 2 qnbd_load
	odirect "$app_pid" "$APPS_DIR/qsd.img"
	on=$?
	qsd_stop
	buffered_applied qemu-storage-daemon "cache.direct=on" qsd-off qsd-on "$off" "$on" qsd
	# no-uring: aio=threads makes no ring, and the cause is its --blockdev; aio=io_uring one.
	QSD_AIO=threads qsd_start
	"$BIN" audit "$app_pid" --watch 0 --format json --fail-on never >"$TMP/qsd-threads.json" 2>/dev/null
	has_ring "$app_pid" && t_ring=yes || t_ring=no
	qsd_stop
	qsd_start
	"$BIN" audit "$app_pid" --watch 0 --format json --fail-on never >"$TMP/qsd-uring.json" 2>/dev/null
	has_ring "$app_pid" && u_ring=yes || u_ring=no
	qsd_stop
	no_uring qemu-storage-daemon "aio=io_uring" qsd-threads qsd-uring "$t_ring" "$u_ring"
fi

# --- qemu-system and qemu-io: a drive opened, no guest (-S), no I/O -----------------------
# qemu_up NAME CMD...: starts CMD, its pid in $qpid once it holds the image open.
qemu_up() {
	local name=$1 img=$APPS_DIR/qemu.img
	shift
	"$@" >"$TMP/$name.log" 2>&1 &
	qpid=$!
	for _ in $(seq 100); do
		ls -l "/proc/$qpid/fd" 2>/dev/null | grep -q "$img" && return 0
		sleep 0.05
	done
	return 1
}
if ! command -v qemu-system-x86_64 >/dev/null || ! command -v qemu-io >/dev/null; then
	bad "qemu-system-x86_64 and qemu-io are installed (test dependencies)"
else
	qemu-img create -q -f raw "$APPS_DIR/qemu.img" 16M
	for aio in threads io_uring; do
		if qemu_up "qsys-$aio" qemu-system-x86_64 -machine q35 -S -nographic -nodefaults \
			-display none -monitor none -serial none -device virtio-blk-pci,drive=d0 \
			-drive "file=$APPS_DIR/qemu.img,format=raw,if=none,id=d0,cache=none,aio=$aio"; then
			"$BIN" audit "$qpid" --watch 0 --format json --fail-on never >"$TMP/qsys-$aio.json" 2>/dev/null
			has_ring "$qpid" && eval "ring_$aio=yes" || eval "ring_$aio=no"
		else
			eval "ring_$aio=unstarted"
		fi
		kill "$qpid" 2>/dev/null
		wait "$qpid" 2>/dev/null
	done
	exec 9>&-
	no_uring qemu-system "aio=io_uring" qsys-threads qsys-io_uring "$ring_threads" "$ring_io_uring"
	# qemu-io waits for commands on its stdin: a FIFO this shell holds open keeps it there.
	mkfifo "$TMP/qio.in"
	exec 9<>"$TMP/qio.in"
	for aio in threads io_uring; do
		qemu-io -f raw -i "$aio" "$APPS_DIR/qemu.img" <"$TMP/qio.in" >"$TMP/qio-$aio.log" 2>&1 &
		qpid=$!
		for _ in $(seq 100); do
			ls -l "/proc/$qpid/fd" 2>/dev/null | grep -q "qemu.img" && break
			sleep 0.05
		done
		"$BIN" audit "$qpid" --watch 0 --format json --fail-on never >"$TMP/qio-$aio.json" 2>/dev/null
		has_ring "$qpid" && eval "ring_$aio=yes" || eval "ring_$aio=no"
		kill "$qpid" 2>/dev/null
		wait "$qpid" 2>/dev/null
	done
	no_uring qemu-io "-i io_uring" qio-threads qio-io_uring "$ring_threads" "$ring_io_uring"
fi

# --- MariaDB -------------------------------------------------------------------------------
if ! apps_need mariadb; then
	skip "fix applied: mariadb" "$apps_why"
else
	# buffered: innodb_flush_method=fsync opens ibdata1 without O_DIRECT; O_DIRECT with it.
	mariadb_start buffered && watched mariadb-fsync 3 mariadb_load
	odirect "$app_pid" "$APPS_DIR/mariadb.buffered/data/ibdata1"
	f_od=$?
	mariadb_stop
	mariadb_start healthy && watched mariadb-odirect 3 mariadb_load
	odirect "$app_pid" "$APPS_DIR/mariadb.healthy/data/ibdata1"
	o_od=$?
	mariadb_stop
	if [ "$f_od" = 1 ] && [ "$o_od" = 0 ] &&
		{ fix_says "$TMP/mariadb-fsync.json" file-punts "innodb_flush_method" ||
		  fix_says "$TMP/mariadb-fsync.json" fd-o-direct "innodb_flush_method"; } &&
		[ "$(problems "$TMP/mariadb-odirect.json" file-punts 'ibdata|\.ibd')" = 0 ] &&
		[ "$(problems "$TMP/mariadb-odirect.json" fd-o-direct 'ibdata|\.ibd')" = 0 ]; then
		ok "fix applied: mariadb buffered: the data files' finding named innodb_flush_method (fdinfo: ibdata1 without O_DIRECT); applied, O_DIRECT and no finding on them"
	else
		bad "fix applied: mariadb buffered" "ibdata1 O_DIRECT: fsync $f_od, O_DIRECT $o_od (0 yes, 1 no)" \
			"$(jq -c '[.findings[] | select((.id == "file-punts" or .id == "fd-o-direct") and (.status == "fail" or .status == "warn")) | [.status, .subject, .fix]]' "$TMP/mariadb-fsync.json" "$TMP/mariadb-odirect.json")"
	fi
	# no-uring: innodb_linux_aio=aio keeps InnoDB on libaio; the default (auto) is io_uring.
	mariadb_start aio
	"$BIN" audit "$app_pid" --watch 0 --format json --fail-on never >"$TMP/mariadb-aio.json" 2>/dev/null
	has_ring "$app_pid" && a_ring=yes || a_ring=no
	mariadb_stop
	mariadb_start healthy
	"$BIN" audit "$app_pid" --watch 0 --format json --fail-on never >"$TMP/mariadb-uring.json" 2>/dev/null
	has_ring "$app_pid" && u_ring=yes || u_ring=no
	mariadb_stop
	no_uring mariadb "innodb_linux_aio" mariadb-aio mariadb-uring "$a_ring" "$u_ring"
fi

# --- Samba ---------------------------------------------------------------------------------
if ! apps_need samba; then
	skip "fix applied: samba" "$apps_why"
else
	# no-uring: aio sizes 0 keep the share's ring idle (SqHead 0) beside plain calls; the
	# defaults (aio sizes 1) put the reads and writes on it.
	sqhead() { awk '$1 == "SqHead:" {print $2; exit}' /proc/"$1"/fdinfo/* 2>/dev/null; }
	if samba_start noaio && samba_session 6 samba_load; then
		sleep 0.5
		"$BIN" audit "$samba_child" --watch 2 --format json --fail-on never >"$TMP/samba-noaio.json" 2>/dev/null
		n_head=$(sqhead "$samba_child")
		wait "$samba_loader"
	fi
	samba_stop
	if samba_start buffered && samba_session 6 samba_load; then
		sleep 0.5
		"$BIN" audit "$samba_child" --watch 2 --format json --fail-on never >"$TMP/samba-aio.json" 2>/dev/null
		d_head=$(sqhead "$samba_child")
		wait "$samba_loader"
	fi
	samba_stop
	if [ "${n_head:-x}" = 0 ] && [ "${d_head:-0}" -gt 0 ] &&
		fix_says "$TMP/samba-noaio.json" uring-fallback "aio read size" &&
		[ "$(problems "$TMP/samba-aio.json" uring-fallback)" = 0 ]; then
		ok "fix applied: samba no-uring: uring-fallback failed with 'aio read size' in the fix (SqHead 0); applied (the defaults), SqHead $d_head and no finding"
	else
		bad "fix applied: samba no-uring" "SqHead: aio 0 ${n_head:-?}, defaults ${d_head:-?}" \
			"$(jq -c '[.findings[] | select(.id == "uring-fallback") | [.status, .message, .fix]]' "$TMP/samba-noaio.json" "$TMP/samba-aio.json" 2>&1)"
	fi
fi

# Every Tested: of the table names a case that exists in its suite: in this one, a case
# this run passed; in another suite (audit.sh, the kernel matrix's vm_disk.sh), the case's
# name in it (that suite's run passes it).
missing=
while IFS= read -r t; do
	suite=${t%%: *} case=${t#*: }
	if [ "$suite" = tests/e2e/fixes.sh ]; then
		awk -v c="$case:" 'index($0, c) == 1 {f = 1} END {exit !f}' "$TMP/passed" 2>/dev/null ||
			missing+="$t; "
	else
		grep -qF "$case" "$suite" || missing+="$t; "
	fi
done < <(awk '/^Tested: / {sub(/^Tested: /, ""); print}' "$TABLE")
[ -z "$missing" ] && ok "every fix the table prints is applied by a case that passed here or exists in its suite" ||
	bad "every Tested: names a case that passed" "$missing"

finish
