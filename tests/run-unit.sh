#!/bin/sh
# Runs each cmocka unit binary and adds up cmocka's own summaries. A binary
# that dies without a summary counts as one failure.
passed=0
failed=0
skipped=0
for t in "$@"; do
	out=$("$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/.*\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	f=$(printf '%s\n' "$out" | sed -n 's/.*\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	s=$(printf '%s\n' "$out" | sed -n 's/.*\[  SKIPPED \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	passed=$((passed + ${p:-0}))
	skipped=$((skipped + ${s:-0}))
	if [ -n "$f" ]; then
		failed=$((failed + f))
	elif [ "$rc" -ne 0 ]; then
		echo "$t: exited $rc without a cmocka summary"
		failed=$((failed + 1))
	fi
done
echo "unit: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
