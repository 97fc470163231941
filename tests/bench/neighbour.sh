#!/bin/bash
# What a watch costs the processes it does not watch. A watch through a
# cgroup opens its events per CPU for the cgroup, and the kernel then
# switches the perf context (perf_cgroup_switch) whenever a CPU goes from
# a task of one cgroup to a task of another; a watch thread by thread
# hooks only the watched threads' own switches. Measured with
# `perf bench sched pipe` (two tasks passing a token, a context switch per
# message) run in the root cgroup beside a pathology many-threads process
# (4 threads, the last writing buffered, every write punted):
#   plain    nothing watched
#   cgroup   the process alone in a cgroup of its own, watched through it
#   threads  the process in the root cgroup beside the bench, watched
#            thread by thread
# alternating in one run. Prints each round's pipe time and, per mode, the
# median and the median of each round's ratio to plain. Informs, never
# gates. Root (the tracepoints, the cgroup); perf (linux-perf).
#
#   bash tests/bench/neighbour.sh [ROUNDS] [MESSAGES] [WATCH_SECONDS]   (after make bench's helpers)
set -eu
cd "$(dirname "$0")/../.."
rounds=${1:-11}
messages=${2:-100000}
# A window that holds the pipe bench (1.6 s for 100,000 messages here) with room to spare.
watch=${3:-4}
. tests/bench/lib.sh
bench_patho "the tracepoints, the cgroup"
command -v perf >/dev/null || { echo "bench: perf is missing (apt-get install linux-perf)" >&2; exit 2; }
CG2=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/mounts)
[ -n "$CG2" ] && [ -w "$CG2/cgroup.procs" ] || { echo "bench: no writable cgroup v2 hierarchy" >&2; exit 2; }
TMP=$(mktemp -d /tmp/uringlint-bench-neighbour-XXXXXX)
cg=$CG2/uringlint-bench-$$
kid= audit=
cleanup() {
	[ -z "$audit" ] || { kill "$audit" 2>/dev/null; wait "$audit" 2>/dev/null; } || true
	[ -z "$kid" ] || { kill "$kid" 2>/dev/null; wait "$kid" 2>/dev/null; } || true
	rmdir "$cg" 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

PATHOLOGY_THREADS=4 "$PATHO" many-threads "$TMP" >"$TMP/out" 2>&1 &
kid=$!
for _ in $(seq 600); do grep -q '^ready' "$TMP/out" && break; sleep 0.1; done
pid=$(awk '$1 == "ready" {print $2}' "$TMP/out")
[ -n "$pid" ] || { echo "bench: many-threads did not start: $(cat "$TMP/out")" >&2; exit 2; }
mkdir "$cg"
echo $$ >"$CG2/cgroup.procs"

# pipe MODE: the pipe bench's seconds with the process watched as MODE.
pipe() {
	local t
	if [ "$1" = cgroup ]; then echo "$pid" >"$cg/cgroup.procs"; else echo "$pid" >"$CG2/cgroup.procs"; fi
	if [ "$1" != plain ]; then
		"$BIN" audit "$pid" --watch "$watch" --format json --fail-on never >"$TMP/$1.json" 2>/dev/null &
		audit=$!
		# Until every event is open: the watch's perf fds, one set per CPU or per thread.
		for _ in $(seq 100); do
			[ "$(find /proc/"$audit"/fd -lname 'anon_inode:*perf_event*' 2>/dev/null | wc -l)" -gt 0 ] && break
			sleep 0.05
		done
		sleep 0.5
	fi
	t=$(perf bench -f simple sched pipe -l "$messages" 2>/dev/null | tail -1)
	if [ -n "$audit" ]; then
		wait "$audit" 2>/dev/null || true
		audit=
		[ "$(jq -r '.processes[0].watch.attached_by' "$TMP/$1.json" 2>/dev/null)" = "$1" ] ||
			echo "bench: the $1 watch was attached by $(jq -r '.processes[0].watch.attached_by' "$TMP/$1.json" 2>/dev/null)" >&2
	fi
	echo "$t"
}

echo "neighbour: perf bench sched pipe -l $messages in the root cgroup, $(nproc) CPUs, $rounds rounds"
for r in $(seq "$rounds"); do
	line="round $r:"
	for mode in plain cgroup threads; do
		t=$(pipe "$mode")
		echo "$t" >>"$TMP/$mode"
		line="$line $mode $t s"
	done
	echo "$line"
	p=$(sed -n "${r}p" "$TMP/plain")
	for mode in cgroup threads; do
		echo "$(sed -n "${r}p" "$TMP/$mode") / $p" | bc -l >>"$TMP/$mode.ratio"
	done
done
for mode in plain cgroup threads; do
	printf '%-8s median %s s' "$mode" "$(median <"$TMP/$mode")"
	[ "$mode" = plain ] || printf ', median of the ratios to plain %.3f' "$(median <"$TMP/$mode.ratio")"
	echo
done
