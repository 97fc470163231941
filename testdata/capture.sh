#!/bin/sh
# Copies the files uringlint preflight reads from this host into a tree that
# `uringlint --root DIR` replays. proc/self is captured from this shell, so
# run it with the credentials and limits of the service you want judged
# (e.g. `setpriv --reuid=svc ... sh capture.sh OUT`, `prlimit --memlock=...`).
#
#   sh testdata/capture.sh OUT_DIR
set -eu

out=${1:?usage: capture.sh OUT_DIR}
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
	echo "capture.sh: '$out' exists and is not empty" >&2
	exit 2
fi

copy() { # copy SRC-ABSOLUTE [DEST-RELATIVE]: a missing source is left out, as on the host
	src=$1
	dst=$out/${2:-${1#/}}
	[ -r "$src" ] || return 0
	mkdir -p "$(dirname "$dst")"
	cat "$src" > "$dst"
}

copy /proc/sys/kernel/osrelease
copy /proc/sys/kernel/hostname
copy /proc/version
copy /proc/version_signature
copy /proc/sys/kernel/io_uring_disabled
copy /proc/sys/kernel/io_uring_group
copy /sys/devices/system/cpu/online
# This shell's own status and limits, stored as proc/self/ (a real directory).
copy /proc/$$/status proc/self/status
copy /proc/$$/limits proc/self/limits

{
	echo "captured: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "uname: $(uname -srm)"
	echo "uid: $(id -u) gid: $(id -g)"
} > "$out/CAPTURE"
echo "captured into $out"
