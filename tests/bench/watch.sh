#!/bin/bash
# What audit --watch costs the process it watches, on two workloads whose
# every write is punted to io-wq (so every tracepoint fires): fio with
# force_async=1 on XFS on a loop device over memory, the highest punt rate
# this machine reaches (about 100k a second on the 2-core VM), and, when
# qemu-utils is installed, `qemu-img bench` writing with cache=writeback
# to a raw image on tmpfs (/dev/shm), whose buffered io_uring writes all
# punt. Each runs a fixed number of writes plain, under a watch over its
# whole run, under `perf stat` counting the punt tracepoint alone (when
# perf is installed), and under the other design for an exact count, a
# tracefs instance recording the punt event of the process's threads
# alone (set_event_pid; tests/bench/tracefs_count.py); alternating in one
# run. With a writable cgroup v2 each workload runs alone in a cgroup of
# its own, as a service does, and is watched through it; mode `threads`
# runs it beside the bench's shell, so that each thread is watched on its
# own, for the two designs side by side. Prints each round and, per
# workload, the ratios of the medians and the medians of each round's
# ratio; the goal is 1.05 or less against plain and 1.03 against perf
# stat. The watch runs twice a round, with the incident scene (iostat,
# vmstat and top over its window) and without it (--no-scene), side by
# side: the workload's time and CPU, and uringlint's own CPU, with against
# without (the goal: the scene adds 1% or less). Informs, never gates.
# Root (the tracepoints and the loop device).
#
#   bash tests/bench/watch.sh [WRITES] [ROUNDS]   (after make)
set -eu
cd "$(dirname "$0")/../.."
writes=${1:-300000}
rounds=${2:-15}
BIN=./uringlint
command -v fio >/dev/null || { echo "bench: fio is missing (apt-get install fio)" >&2; exit 2; }
. tests/bench/lib.sh
loopfs watch 512M
fio --name=layout --ioengine=psync --rw=write --bs=1M --size=64M --direct=1 \
	--filename="$TMP/mnt/fio.dat" >/dev/null

# start WORKLOAD MODE: starts $writes punted writes of WORKLOAD in the background (pid in
# $pid), in its own cgroup unless MODE is threads. fio runs its job as a thread (--thread),
# so that it is one process, alone in that cgroup.
start() {
	local into=
	[ -n "$cg" ] && [ "$2" != threads ] && into="echo \$\$ >$cg/cgroup.procs;"
	case $1 in
	fio)
		sh -c "$into exec fio --thread --name=punts --ioengine=io_uring --force_async=1 \
			--rw=randwrite --bs=4k --iodepth=16 --direct=1 --size=64M \
			--io_size=$((writes * 4))k --filename=$TMP/mnt/fio.dat \
			--output-format=terse" >"$TMP/terse" &
		;;
	qemu)
		sh -c "$into exec qemu-img bench -w -t writeback -i io_uring -c $writes -d 16 -s 4k \
			-f raw $qimg" >/dev/null &
		;;
	esac
	pid=$!
}

# run WORKLOAD MODE: seconds WORKLOAD takes for $writes punted writes under MODE (plain,
# watch, noscene, threads, perf); fio's own CPU goes to $TMP/WORKLOAD.MODE.cpu, the
# watch's own (uringlint's user + system) to $TMP/WORKLOAD.MODE.self.
run() {
	local t0 t1 w
	t0=$(date +%s.%N)
	start "$1" "$2"
	case $2 in
	watch | threads | noscene)
		w=$(ring_pid "$pid")
		# bash's time: the audit's user and system CPU, in ms.
		(
			TIMEFORMAT='%3U %3S'
			{ time "$BIN" audit "$w" --watch 60 $([ "$2" = noscene ] && echo --no-scene) \
				--format json --fail-on never >"$TMP/$1.$2.json" 2>/dev/null; } 2>>"$TMP/$1.$2.time"
		) &
		;;
	tracefs)
		w=$(ring_pid "$pid")
		python3 tests/bench/tracefs_count.py "uringlint-bench-$$" "$w" >"$TMP/$1.tracefs.count" &
		;;
	perf)
		w=$(ring_pid "$pid")
		timeout 60 perf stat -o /dev/null -e io_uring:io_uring_queue_async_work -p "$w" \
			>/dev/null 2>&1 &
		;;
	esac
	wait "$pid"
	t1=$(date +%s.%N)
	[ "$2" = plain ] || wait || true
	# fio's own CPU (user + system, its io-wq workers included) in seconds, beside the time.
	[ "$1" = fio ] && awk -F';' -v s="$(echo "$t1 - $t0" | bc)" \
		'NR == 1 {print ($88 + $89) / 100 * s}' "$TMP/terse" >>"$TMP/$1.$2.cpu"
	echo "$t1 - $t0" | bc
}

workloads=fio
qimg=
if command -v qemu-img >/dev/null; then
	qimg=$(mktemp /dev/shm/uringlint-bench-qemu-XXXXXX)
	trap 'loopfs_cleanup; rm -f "$qimg"' EXIT
	qemu-img create -f raw "$qimg" 256M >/dev/null
	workloads="fio qemu"
fi
cg=
CG2=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/mounts)
if [ -n "$CG2" ] && [ -w "$CG2/cgroup.procs" ]; then
	cg=$CG2/uringlint-bench-watch-$$
	mkdir "$cg"
	# A workload still in the cgroup (the bench interrupted) is moved out before it goes.
	trap 'for p in $(cat "$cg/cgroup.procs" 2>/dev/null); do echo "$p" >"$CG2/cgroup.procs"; done
		loopfs_cleanup; rm -f "$qimg"
		rmdir "$cg" /sys/kernel/tracing/instances/uringlint-bench-$$ 2>/dev/null' EXIT
fi
modes="plain watch noscene"
[ -n "$cg" ] && modes="$modes threads"
command -v perf >/dev/null && perf stat -o /dev/null true 2>/dev/null && modes="$modes perf"
[ -d /sys/kernel/tracing/instances ] && modes="$modes tracefs"
printf '%-6s' ROUND
for l in $workloads; do for m in $modes; do printf ' %11s' "$l.$m"; done; done
printf '\n'
# A first run fills the new filesystem's metadata and the page allocator: not counted.
for l in $workloads; do run "$l" plain >/dev/null; done
rm -f "$TMP"/*.cpu "$TMP"/*.time
for r in $(seq "$rounds"); do
	printf '%-6s' "$r"
	for l in $workloads; do
		for m in $modes; do
			t=$(run "$l" "$m")
			echo "$t" >>"$TMP/$l.$m"
			printf ' %10.2fs' "$t"
		done
	done
	printf '\n'
done
# Rounds run side by side: the median of each round's ratio cancels the VM's slow drifts.
paired() { paste "$TMP/$1.$3${4:-}" "$TMP/$1.$2${4:-}" | awk '$1 > 0 {print $2 / $1}' | median; }
for l in $workloads; do
	pm=$(median <"$TMP/$l.plain")
	wm=$(median <"$TMP/$l.watch")
	for m in watch threads; do
		[ -s "$TMP/$l.$m.json" ] || continue
		jq -r --arg l "$l.$m" '.processes[0].watch |
			"\($l): last watch, by \(.attached_by): \(.punts) punts counted over " +
			"\(.seconds_watched * 100 | floor / 100) s, samples from " +
			"\(.seconds_sampled * 100 | floor / 100) s of it " +
			"(\(if .coverage then "\(.coverage * 1000 | floor / 10)%" else "?" end) of the punts), " +
			"\(.samples_lost) samples lost"' \
			"$TMP/$l.$m.json"
	done
	printf '%s: %s writes, all punted; median %.2fs plain, %.2fs watched: ratio %.3f, per round %.3f (goal <= 1.05)' \
		"$l" "$writes" "$pm" "$wm" "$(echo "$wm / $pm" | bc -l)" "$(paired "$l" watch plain)"
	[ -s "$TMP/$l.threads" ] && printf '; thread by thread: per round %.3f' \
		"$(paired "$l" threads plain)"
	if [ -s "$TMP/$l.perf" ]; then
		fm=$(median <"$TMP/$l.perf")
		printf '; perf stat counting the punt tracepoint alone: %.2fs, ratio %.3f, per round %.3f; watched against perf stat: per round %.3f (goal <= 1.03)' \
			"$fm" "$(echo "$fm / $pm" | bc -l)" "$(paired "$l" perf plain)" "$(paired "$l" watch perf)"
		[ -s "$TMP/$l.threads" ] && printf ', thread by thread %.3f' "$(paired "$l" threads perf)"
	fi
	[ -s "$TMP/$l.tracefs" ] &&
		printf '; a tracefs instance counting the punt event of its threads (set_event_pid): per round %.3f (last: %s punts)' \
			"$(paired "$l" tracefs plain)" "$(cat "$TMP/$l.tracefs.count")"
	printf '\n'
	# The scene's share: the same watch with it and without it, round by round.
	for m in watch noscene; do awk '{ print $1 + $2 }' "$TMP/$l.$m.time" >"$TMP/$l.$m.self"; done
	printf '%s: the scene: watched with it against without (--no-scene), per round: time %.3f' \
		"$l" "$(paired "$l" watch noscene)"
	[ -s "$TMP/$l.watch.cpu" ] && printf ', %s CPU %.3f' "$l" "$(paired "$l" watch noscene .cpu)"
	printf "; uringlint's own CPU: median %.3fs with, %.3fs without, per round %.3f (goal <= 1.01)\n" \
		"$(median <"$TMP/$l.watch.self")" "$(median <"$TMP/$l.noscene.self")" \
		"$(paired "$l" watch noscene .self)"
done
# The wall time drifts with the VM's neighbours; the CPU fio itself spent says what the
# tracepoints cost its threads.
printf 'fio CPU per round, against plain: watched %.3f' "$(paired fio watch plain .cpu)"
[ -s "$TMP/fio.threads.cpu" ] && printf ', thread by thread %.3f' "$(paired fio threads plain .cpu)"
[ -s "$TMP/fio.tracefs.cpu" ] && printf ', tracefs %.3f' "$(paired fio tracefs plain .cpu)"
[ -s "$TMP/fio.perf.cpu" ] && printf ', perf stat %.3f' "$(paired fio perf plain .cpu)"
printf '\n'
# The scene against the whole watch's cost: the CPU it adds to uringlint, against what the
# watch costs in CPU (fio's, watched less plain, and uringlint's own), medians.
awk -v pc="$(median <"$TMP/fio.plain.cpu")" -v wc="$(median <"$TMP/fio.watch.cpu")" \
	-v ws="$(median <"$TMP/fio.watch.self")" -v ns="$(median <"$TMP/fio.noscene.self")" 'BEGIN {
	cost = wc - pc + ws
	printf "fio: the watch costs %.3f CPU s (fio %.3f watched, %.3f plain; uringlint %.3f); the scene adds %.3f s to uringlint: %.2f%% of the watch'"'"'s cost (goal <= 1%%)\n",
		cost, wc, pc, ws, ws - ns, (cost > 0 ? 100 * (ws - ns) / cost : 0) }'
