#!/bin/sh
# Copies the files uringlint preflight reads from this host into a tree that
# `uringlint --root DIR` replays: sysctls and identity, this shell's status,
# limits, mounts and cgroup (stored as proc/self/), CPU isolation, IRQs and
# their affinity, NUMA, cpufreq, irqbalance, container marks, and sysfs of
# every block device with its links, so partitions resolve to their disks.
#
# proc/self is this shell: run it with the credentials and limits of the
# service you want judged (e.g. `setpriv --reuid=svc ... sh capture.sh OUT`,
# `prlimit --memlock=...`). Missing files are left out, as on the host.
#
# With PIDs, also each process as audit reads it: stat, status, limits,
# mountinfo, its fd links (targets kept, not followed), every fdinfo, and its
# threads' stat, status and wchan.
#
#   sh testdata/capture.sh OUT_DIR [PID...]
set -eu

out=${1:?usage: capture.sh OUT_DIR [PID...]}
shift
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
	echo "capture.sh: '$out' exists and is not empty" >&2
	exit 2
fi
mkdir -p "$out"

copy() { # copy SRC [DEST-RELATIVE]: regular content only
	src=$1
	dst=$out/${2:-${1#/}}
	[ -f "$src" ] && [ -r "$src" ] || return 0
	mkdir -p "$(dirname "$dst")"
	cat "$src" >"$dst" 2>/dev/null || rm -f "$dst"
}

link() { # link PATH: the same (relative) symlink inside the tree
	[ -L "$1" ] || return 0
	mkdir -p "$out$(dirname "$1")"
	ln -sfn "$(readlink "$1")" "$out$1"
}

touch_marker() { # marker files whose existence is the fact
	[ -e "$1" ] || return 0
	mkdir -p "$out$(dirname "$1")"
	: >"$out$1"
}

# Identity, sysctls, this shell.
for f in /proc/sys/kernel/osrelease /proc/sys/kernel/hostname /proc/version \
	/proc/version_signature /proc/sys/kernel/io_uring_disabled \
	/proc/sys/kernel/io_uring_group /proc/cmdline /proc/interrupts; do
	copy "$f"
done
for f in status limits mountinfo cgroup; do
	copy "/proc/$$/$f" "proc/self/$f"
done
touch_marker /.dockerenv
touch_marker /run/.containerenv

# CPUs, NUMA, cpufreq, IRQ affinity.
for f in online possible isolated nohz_full; do
	copy "/sys/devices/system/cpu/$f"
done
for g in /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor; do
	copy "$g"
done
copy /sys/devices/system/node/online
for n in /sys/devices/system/node/node[0-9]*; do
	copy "$n/cpulist"
done
for d in /proc/irq/[0-9]*; do
	copy "$d/effective_affinity_list"
	copy "$d/smp_affinity_list"
done

# irqbalance: its comm makes it "running"; its banned CPUs come from its config.
# PID 1's comm shows the process table was captured (so "not running" means it).
copy /proc/1/comm
for p in $(pgrep -x irqbalance 2>/dev/null || true); do
	copy "/proc/$p/comm"
done
copy /etc/default/irqbalance
copy /etc/sysconfig/irqbalance

# Block devices: the class and dev links, and the attributes behind them.
copy /sys/module/nvme/parameters/poll_queues
for c in /sys/class/block/*; do
	[ -e "$c" ] || continue
	name=${c##*/}
	real=$(readlink -f "$c")
	link "$c"
	copy "$real/uevent"
	copy "$real/dev"
	copy "$real/dm/name"
	if [ -r "$real/dev" ]; then
		link "/sys/dev/block/$(cat "$real/dev")"
	fi
	[ -d "$real/queue" ] || continue
	link "/sys/block/$name"
	for q in logical_block_size physical_block_size max_sectors_kb nr_requests \
		dma_alignment io_poll rotational scheduler; do
		copy "$real/queue/$q"
	done
	copy "$real/loop/backing_file"
	mkdir -p "$out$real/slaves"
	for s in "$real"/slaves/*; do
		link "$s"
	done
	if [ -L "$real/device" ]; then
		link "$real/device"
		dev=$(readlink -f "$real/device")
		copy "$dev/numa_node"
		if [ -L "$dev/device" ]; then
			link "$dev/device"
			copy "$(readlink -f "$dev/device")/numa_node"
		fi
	fi
done

# Processes for audit --root.
for pid in "$@"; do
	p=/proc/$pid
	[ -d "$p" ] || { echo "capture.sh: no process $pid" >&2; continue; }
	for f in stat status limits mountinfo comm; do
		copy "$p/$f"
	done
	mkdir -p "$out$p/fd" "$out$p/fdinfo"
	for l in "$p"/fd/*; do
		[ -L "$l" ] && ln -sfn "$(readlink "$l")" "$out$l"
	done
	for f in "$p"/fdinfo/*; do
		copy "$f"
	done
	for t in "$p"/task/*; do
		for f in stat status wchan; do
			copy "$t/$f"
		done
	done
done

{
	echo "captured: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "uname: $(uname -srm)"
	echo "uid: $(id -u) gid: $(id -g)"
} >"$out/CAPTURE"
echo "captured into $out"
