#!/bin/sh
# make check: the unit suites, then the e2e suite, then one closing line
# with the totals of both.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

{ sh tests/run-unit.sh "$@"; echo $? >"$dir/unit.rc"; } | tee "$dir/unit.log"
{ bash tests/fuzz/replay.sh; echo $? >"$dir/replay.rc"; } | tee "$dir/replay.log"
{ bash tests/e2e/run.sh; echo $? >"$dir/e2e.rc"; } | tee "$dir/e2e.log"
{ bash tests/e2e/hostile.sh; echo $? >"$dir/hostile.rc"; } | tee "$dir/hostile.log"
{ bash tests/e2e/audit.sh; echo $? >"$dir/audit.rc"; } | tee "$dir/audit.log"
{ bash tests/e2e/probe.sh; echo $? >"$dir/probe.rc"; } | tee "$dir/probe.log"

count() { # LOG WORD: the number before WORD on the suite's closing line
	n=$(sed -n "s/^[a-z0-9]*: .*\b\([0-9][0-9]*\) $2.*/\1/p" "$1" | tail -n 1)
	echo "${n:-0}"
}
p=0 f=0 s=0
for suite in unit replay e2e hostile audit probe; do
	p=$((p + $(count "$dir/$suite.log" passed)))
	f=$((f + $(count "$dir/$suite.log" failed)))
	s=$((s + $(count "$dir/$suite.log" skipped)))
done
echo "total: $p passed, $f failed, $s skipped"
[ "$(cat "$dir/unit.rc")" -eq 0 ] && [ "$(cat "$dir/replay.rc")" -eq 0 ] &&
	[ "$(cat "$dir/e2e.rc")" -eq 0 ] && [ "$(cat "$dir/hostile.rc")" -eq 0 ] &&
	[ "$(cat "$dir/audit.rc")" -eq 0 ] && [ "$(cat "$dir/probe.rc")" -eq 0 ] && [ "$f" -eq 0 ]
