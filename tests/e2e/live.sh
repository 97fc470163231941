#!/bin/bash
# Shared by the e2e suites that start live processes or mount a loop XFS.
# Sourced after lib.sh; replaces its EXIT trap with one that also stops the
# processes, thaws and unmounts.

PATHO=$HELPERS/pathology
# punt_truth.py --only keeps its perf data here, removed with the suite's $TMP.
export PUNT_TRUTH_DIR=$TMP/truth
kids=()
frozen=
cleanup_live() {
	local d n k
	[ ${#kids[@]} -gt 0 ] && kill "${kids[@]}" 2>/dev/null
	wait 2>/dev/null
	# A ground truth's tracefs instance, named after a pid of this run, left by a test cut
	# short: its buffers (16 MiB a CPU and more) would outlive the run.
	for d in /sys/kernel/tracing/instances/*[0-9]; do
		[ -d "$d" ] || continue
		n=${d##*/}
		n=${n##*[!0-9]}
		for k in "${kids[@]}" $$; do
			[ "$n" = "$k" ] && rmdir "$d" 2>/dev/null
		done
	done
	[ -n "$frozen" ] && fsfreeze -u "$frozen" 2>/dev/null
	# A suite's own undoing (a throttle, a stacked mount), before the XFS goes.
	declare -F cleanup_more >/dev/null && cleanup_more
	# Still busy after xfs_umount's wait: detach it, so no test mount outlives the run.
	mountpoint -q "$TMP/xfs" 2>/dev/null && { xfs_umount || umount -l "$TMP/xfs"; }
	rm -rf "$TMP"
}
trap cleanup_live EXIT

# start MODE [DIR]: a pathology process, its PID in $pid once it says ready.
start() {
	local out=$TMP/ready.$1.$RANDOM
	"$PATHO" "$1" "${2:-$TMP/data}" >"$out" 2>"$out.err" &
	kids+=($!)
	pid=
	for _ in $(seq 200); do
		grep -q '^ready' "$out" 2>/dev/null && { pid=$(awk '$1 == "ready" {print $2; exit}' "$out"); return 0; }
		kill -0 "${kids[-1]}" 2>/dev/null || break
		sleep 0.05
	done
	bad "pathology $1 starts" "$(cat "$out.err")"
	return 1
}
stop() { kill "$1" 2>/dev/null; wait "$1" 2>/dev/null; }

# xfs_mount: a fresh 320 MiB XFS on a loop device at $TMP/xfs (needs root and
# mkfs.xfs); the reason it failed in $TMP/mount.err.
xfs_mount() {
	truncate -s 320M "$TMP/xfs.img" && mkfs.xfs -q "$TMP/xfs.img" 2>"$TMP/mount.err" &&
		mkdir -p "$TMP/xfs" && mount -o loop "$TMP/xfs.img" "$TMP/xfs" 2>"$TMP/mount.err" &&
		mountpoint -q "$TMP/xfs"
}
# xfs_umount: after a thaw the workers finish their writes; the mount frees then.
# With the disk busy (check-repeat LOAD=disk) that took longer than 5 s: wait up to 60 s.
xfs_umount() {
	for _ in $(seq 600); do
		mountpoint -q "$TMP/xfs" 2>/dev/null || return 0
		umount "$TMP/xfs" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# ring_fd PID: the first io_uring fd of a process.
ring_fd() {
	local l
	for l in /proc/"$1"/fd/*; do
		[ "$(readlink "$l" 2>/dev/null)" = "anon_inode:[io_uring]" ] && { echo "${l##*/}"; return 0; }
	done
	return 1
}
# ring_counters PID FD: "SqTotalTime SqWorkTime CachedSqHead CachedCqTail" read
# straight from fdinfo, as ground truth next to uringlint's own reading; a ring
# whose lock is busy prints none of them, so it is read again.
ring_counters() {
	local i out
	for i in $(seq 200); do
		out=$(awk '/^SqTotalTime:/ {t=$2} /^SqWorkTime:/ {w=$2} /^CachedSqHead:/ {h=$2}
			/^CachedCqTail:/ {c=$2} END {if (t != "" && h != "") print t, w, h, c}' \
			"/proc/$1/fdinfo/$2" 2>/dev/null)
		[ -n "$out" ] && { echo "$out"; return 0; }
		sleep 0.001
	done
	return 1
}
# allowed PID TID: the thread's Cpus_allowed_list.
allowed() { awk '/^Cpus_allowed_list:/ {print $2}' "/proc/$1/task/$2/status"; }
# cpulist_expand LIST: one CPU a line ("0-2,5" gives 0 1 2 5).
cpulist_expand() {
	local part
	for part in ${1//,/ }; do
		case $part in
		*-*) seq "${part%-*}" "${part#*-}" ;;
		*) echo "$part" ;;
		esac
	done | sort
}
