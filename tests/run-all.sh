#!/bin/sh
# make check: the layers of the tree, the unit suites, the fuzz replays, then the e2e suites, and one
# closing line with the totals of all.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

suites="layers unit replay e2e hostile audit probe nobody names watch apps"
{ bash tests/layers.sh; echo $? >"$dir/layers.rc"; } | tee "$dir/layers.log"
{ sh tests/run-unit.sh "$@"; echo $? >"$dir/unit.rc"; } | tee "$dir/unit.log"
{ bash tests/fuzz/replay.sh; echo $? >"$dir/replay.rc"; } | tee "$dir/replay.log"
{ bash tests/e2e/run.sh; echo $? >"$dir/e2e.rc"; } | tee "$dir/e2e.log"
for suite in hostile audit probe nobody names watch apps; do
	{ bash "tests/e2e/$suite.sh"; echo $? >"$dir/$suite.rc"; } | tee "$dir/$suite.log"
done

count() { # LOG WORD: the number before WORD on the suite's closing line
	n=$(sed -n "s/^[a-z0-9]*: .*\b\([0-9][0-9]*\) $2.*/\1/p" "$1" | tail -n 1)
	echo "${n:-0}"
}
p=0 f=0 s=0 rc=0
for suite in $suites; do
	p=$((p + $(count "$dir/$suite.log" passed)))
	f=$((f + $(count "$dir/$suite.log" failed)))
	s=$((s + $(count "$dir/$suite.log" skipped)))
	[ "$(cat "$dir/$suite.rc")" -eq 0 ] || rc=1
done
echo "total: $p passed, $f failed, $s skipped"
[ "$rc" -eq 0 ] && [ "$f" -eq 0 ]
