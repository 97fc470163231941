#!/bin/bash
# The watch of a process of many threads, both ways it can be watched, side
# by side: a pathology many-threads process (THREADS threads asleep, the
# last writing buffered through its own ring, every write punted) audited
# with no flags (a 2 s watch) and with --watch SECONDS,
#   cgroup   alone in a cgroup v2 of its own: watched through the cgroup,
#            one buffer per CPU
#   threads  the same process back in a shared cgroup: one perf buffer per
#            thread, as many as the open-file limit allows
# Prints, each ROUNDS times: the wall time, uringlint's peak RSS, the threads
# watched and not attached, the punts counted, and whether the data file
# was named. Informs, never gates. Root (the tracepoints, the cgroup).
#
#   bash tests/bench/threads.sh [THREADS] [SECONDS] [ROUNDS]   (after make bench's helpers)
set -eu
cd "$(dirname "$0")/../.."
threads=${1:-10000}
seconds=${2:-10}
rounds=${3:-2}
. tests/bench/lib.sh
bench_patho "the tracepoints, the cgroup"
CG2=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/mounts)
[ -n "$CG2" ] && [ -w "$CG2/cgroup.procs" ] || { echo "bench: no writable cgroup v2 hierarchy" >&2; exit 2; }
TMP=$(mktemp -d /tmp/uringlint-bench-threads-XXXXXX)
cg=$CG2/uringlint-bench-$$
kid=
cleanup() {
	[ -z "$kid" ] || { kill "$kid" 2>/dev/null; wait "$kid" 2>/dev/null; } || true
	rmdir "$cg" 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

PATHOLOGY_THREADS=$threads "$PATHO" many-threads "$TMP" >"$TMP/out" 2>&1 &
kid=$!
for _ in $(seq 600); do grep -q '^ready' "$TMP/out" && break; sleep 0.1; done
pid=$(awk '$1 == "ready" {print $2}' "$TMP/out")
[ -n "$pid" ] || { echo "bench: many-threads did not start: $(cat "$TMP/out")" >&2; exit 2; }
mkdir "$cg"

# audit WAY ARGS...: one line of figures.
audit() {
	local way=$1 t0 t1
	shift
	if [ "$way" = cgroup ]; then echo "$pid" >"$cg/cgroup.procs"; else echo "$pid" >"$CG2/cgroup.procs"; fi
	t0=$(date +%s.%N)
	/usr/bin/time -f "%M" -o "$TMP/rss" "$BIN" audit "$pid" "$@" --format json --fail-on never \
		>"$TMP/a.json" 2>/dev/null || true
	t1=$(date +%s.%N)
	jq -r --arg way "$way" --arg args "$*" --arg s "$(echo "$t1 - $t0" | bc)" \
		--arg rss "$(($(tail -1 "$TMP/rss") / 1024))" '.processes[0] as $p | $p.watch as $w |
		"\($way) \($args | if . == "" then "(no flags)" else . end): \($s | tonumber * 100 | floor / 100) s, " +
		"\($rss) MiB peak, by \($w.attached_by), \($w.threads_watched) threads watched, " +
		"\($w.threads_not_attached) not, \($w.punts) punts, buffer \($w.ring_bytes_per_thread / 1048576) MiB, " +
		"data file named: \([.findings[] | select(.id == "file-punts" and .status == "fail" and
		  (.evidence.path // "" | endswith("many-threads.dat")))] | length == 1)"' "$TMP/a.json"
}

echo "threads: $(ls "/proc/$pid/task" | wc -l) tasks, $(nproc) CPUs, open-file hard limit $(ulimit -Hn)"
for _ in $(seq "$rounds"); do
	for way in cgroup threads; do
		audit "$way"
		audit "$way" --watch "$seconds"
	done
done
