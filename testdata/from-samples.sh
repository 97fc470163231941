#!/bin/sh
# Builds the process trees proc-6.18 and proc-6.1 from the real captures in
# ../shared/fdinfo-samples (one io_uring process: an SQPOLL ring with three
# registered file slots and two buffers, a plain ring, data.bin opened
# O_DIRECT, log.txt opened O_APPEND), laid out as `uringlint --root` reads
# them: proc/PID/{stat,status,limits,fd/,fdinfo/,task/TID/stat}.
#
#   sh testdata/from-samples.sh [SAMPLES_DIR]
set -eu
cd "$(dirname "$0")"
samples=${1:-../../shared/fdinfo-samples}

section() { # section FILE NAME: the lines under "### NAME"
	awk -v want="$2" '/### /{sub(/.*### /,""); sec=$1; next} sec==want' "$1"
}

build() { # build SAMPLE TREE HOSTNAME
	src=$1
	t=$2
	rm -rf "$t"
	pid=$(section "$src" tasks | head -n 1 | cut -d' ' -f1)
	p="$t/proc/$pid"
	mkdir -p "$p/fd" "$p/fdinfo" "$t/proc/sys/kernel" "$t/sys/devices/system/cpu"
	section "$src" uname >"$t/proc/sys/kernel/osrelease"
	echo "$3" >"$t/proc/sys/kernel/hostname"
	section "$src" status >"$p/status"
	section "$src" limits >"$p/limits"
	section "$src" tasks | head -n 1 >"$p/stat"
	awk '/Cpus_allowed_list/{print $2}' "$p/status" >"$t/sys/devices/system/cpu/online"
	section "$src" tasks | while read -r line; do
		tid=${line%% *}
		mkdir -p "$p/task/$tid"
		echo "$line" >"$p/task/$tid/stat"
	done
	# "lrwx------ 1 root root 64 Nov 29 21:13 5 -> /srv/data/data.bin"
	section "$src" fds | awk '/ -> /{print $(NF-2), $NF}' | while read -r fd target; do
		ln -s "$target" "$p/fd/$fd"
	done
	section "$src" fds | awk '/ -> /{print $(NF-2)}' | while read -r fd; do
		section "$src" "fdinfo/$fd" >"$p/fdinfo/$fd"
	done
	echo "built by from-samples.sh from $(basename "$src"): pid $pid" >"$t/CAPTURE"
}

build "$samples/linux-6.18.44.txt" proc-6.18 sample-618
build "$samples/linux-6.1.0-50-cloud.txt" proc-6.1 sample-61
echo "process trees written"
