#!/bin/bash
# The time to a verdict for many processes: N ring holders, P of them
# punting every write (pathology buffered-fd), the rest idle (idle-worker).
# Side by side in one run, each ROUNDS times in turn:
#   all      audit --all, no flags: reads all, watches those that need it in one window
#   floor    audit --all --watch 0: the same reading, no watch
#   one      audit PID of one punting process, no flags (one 2 s watch)
#   idle     audit PID of one idle ring holder, no flags (answered without a watch)
# Prints the medians, the ratio all/one (1 when the window is shared, N
# when processes were watched one after another), the punting processes
# whose data file was named, and the most memory. Informs, never gates.
# Root (the tracepoints).
#
#   bash tests/bench/watch_many.sh [N] [P] [ROUNDS]   (after make bench's helpers)
set -eu
cd "$(dirname "$0")/../.."
n=${1:-200}
p=${2:-50}
rounds=${3:-3}
. tests/bench/lib.sh
bench_patho "the tracepoints"
TMP=$(mktemp -d /tmp/uringlint-bench-many-XXXXXX)
kids=()
cleanup() {
	[ "${#kids[@]}" -eq 0 ] || kill "${kids[@]}" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for i in $(seq "$n"); do
	mode=idle-worker
	[ "$i" -le "$p" ] && mode=buffered-fd
	mkdir "$TMP/$i"
	"$PATHO" "$mode" "$TMP/$i" >"$TMP/$i/out" 2>&1 &
	kids+=($!)
done
for _ in $(seq 200); do
	[ "$(grep -l '^ready' "$TMP"/*/out 2>/dev/null | wc -l)" -ge "$n" ] && break
	sleep 0.1
done
ready=$(grep -l '^ready' "$TMP"/*/out 2>/dev/null | wc -l)
[ "$ready" -ge "$n" ] || { echo "bench: only $ready of $n processes started" >&2; exit 2; }
one_pid=$(awk '$1 == "ready" {print $2}' "$TMP/1/out")
idle_pid=$(awk '$1 == "ready" {print $2}' "$TMP/$n/out")
sleep 1

# timed NAME CMD...: wall seconds and max RSS (KiB) of CMD, appended to $TMP/NAME.
timed() {
	local name=$1
	shift
	/usr/bin/time -f '%e %M' -o "$TMP/time" "$@" >"$TMP/$name.json" 2>/dev/null || true
	cat "$TMP/time" >>"$TMP/$name"
}
for r in $(seq "$rounds"); do
	timed all "$BIN" audit --all --format json --fail-on never
	timed floor "$BIN" audit --all --watch 0 --format json --fail-on never
	timed one "$BIN" audit "$one_pid" --format json --fail-on never
	timed idle "$BIN" audit "$idle_pid" --format json --fail-on never
	named=$(jq --arg d "$TMP/" '[.findings[] | select(.id == "file-punts" and .status == "fail" and
		(.evidence.path // "" | startswith($d)))] | length' "$TMP/all.json")
	watched=$(jq '[.processes[] | select(.watch != null)] | length' "$TMP/all.json")
	printf 'round %d: all %s s, floor %s s, one %s s, idle %s s; %d watched, %d of %d punting named\n' \
		"$r" "$(tail -1 "$TMP/all" | cut -d' ' -f1)" "$(tail -1 "$TMP/floor" | cut -d' ' -f1)" \
		"$(tail -1 "$TMP/one" | cut -d' ' -f1)" "$(tail -1 "$TMP/idle" | cut -d' ' -f1)" \
		"$watched" "$named" "$p"
done
med() { cut -d' ' -f1 "$TMP/$1" | median; }
rss() { cut -d' ' -f2 "$TMP/$1" | sort -n | tail -1; }
echo "audit --all of $n processes ($p punting), medians of $rounds rounds:"
echo "  no flags $(med all) s (max $(($(rss all) / 1024)) MiB), --watch 0 $(med floor) s, one process watched $(med one) s, an idle one $(med idle) s"
awk -v a="$(med all)" -v o="$(med one)" -v p="$p" \
	'BEGIN { printf "  all / one: %.2f (1: one window for all; %d: one after another)\n", a / o, p }'
