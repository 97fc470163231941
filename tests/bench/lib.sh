# Sourced by the benches that run fio on a fast, quiet filesystem: XFS on a
# loop device over memory (/dev/shm), far less noisy than the VM's disk.
# loopfs sets TMP (a directory) and mounts the filesystem at $TMP/mnt, all
# of it removed on exit; needs root and mkfs.xfs.
#   loopfs NAME SIZE: e.g. loopfs watch 512M
loopfs() {
	command -v mkfs.xfs >/dev/null || { echo "bench: mkfs.xfs is missing (xfsprogs)" >&2; exit 2; }
	[ "$(id -u)" -eq 0 ] || { echo "bench: needs root (the tracepoints and the loop device)" >&2; exit 2; }
	TMP=$(mktemp -d "/tmp/uringlint-bench-$1-XXXXXX")
	img=/dev/shm/${TMP##*/}.img
	loop=
	trap loopfs_cleanup EXIT
	trap 'exit 130' INT TERM
	truncate -s "$2" "$img"
	loop=$(losetup -f --show "$img")
	mkfs.xfs -q -f "$loop"
	mkdir "$TMP/mnt"
	mount "$loop" "$TMP/mnt"
}
loopfs_cleanup() {
	umount "$TMP/mnt" 2>/dev/null || true
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null || true
	rm -rf "$TMP" "$img"
}

# ring_pid PID: the process of fio's that has the ring (a job is a child of fio's main process).
ring_pid() {
	local c
	for _ in $(seq 400); do
		for c in $(pgrep -P "$1") "$1"; do
			ls -l /proc/"$c"/fd 2>/dev/null | grep -q io_uring && { echo "$c"; return; }
		done
		sleep 0.005
	done
	echo "$1"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }

# bench_patho WHY: the benches that start pathology processes: root (for WHY) and the
# helper built; sets BIN and PATHO.
bench_patho() {
	BIN=./uringlint
	PATHO=build/tests/pathology
	[ "$(id -u)" -eq 0 ] || { echo "bench: needs root ($1)" >&2; exit 2; }
	[ -x "$PATHO" ] || { echo "bench: $PATHO is missing (make build/tests/pathology)" >&2; exit 2; }
}
