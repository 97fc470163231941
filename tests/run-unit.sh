#!/bin/sh
# Runs each cmocka unit binary with cmocka's TAP output, one status per test
# (0 pass, 1 fail, 77 skip; appended to $URINGLINT_RESULTS when set, see
# tests/e2e/lib.sh), and adds them up. A binary that exits non-zero with
# no failed test in its TAP counts as one failure of its own.
results=${URINGLINT_RESULTS:-}
passed=0
failed=0
skipped=0
tap=$(mktemp)
trap 'rm -f "$tap"' EXIT
for t in "$@"; do
	CMOCKA_MESSAGE_OUTPUT=TAP "$t" >"$tap" 2>&1
	rc=$?
	cat "$tap"
	name=${t##*/}
	# "ok N - test", "not ok N - test", "ok N # SKIP test"
	st=$(awk -v b="$name" '
		/^not ok [0-9]+/ { sub(/^not ok [0-9]+ - /, ""); print "1\tunit\t" b ": " $0; next }
		/^ok [0-9]+ .*# SKIP/ { sub(/^ok [0-9]+ /, ""); print "77\tunit\t" b ": " $0; next }
		/^ok [0-9]+/ { sub(/^ok [0-9]+ - /, ""); print "0\tunit\t" b ": " $0 }' "$tap")
	f=$(printf '%s\n' "$st" | grep -c '^1	')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "$t: exited $rc without a failed test"
		st=$(printf '%s\n1\tunit\t%s: exited %s\n' "$st" "$name" "$rc")
	fi
	printf '%s\n' "$st" | grep -v '^$' >"$tap.st"
	[ -n "$results" ] && cat "$tap.st" >>"$results"
	passed=$((passed + $(grep -c '^0	' "$tap.st")))
	failed=$((failed + $(grep -c '^1	' "$tap.st")))
	skipped=$((skipped + $(grep -c '^77	' "$tap.st")))
	rm -f "$tap.st"
done
echo "unit: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
