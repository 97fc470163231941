#!/bin/sh
# totals.sh LABEL: the closing line of a run, counted from the results file
# the suites append to (URINGLINT_RESULTS, see tests/e2e/lib.sh), after the
# failed cases; exits 1 when any case failed.
p=$(grep -c '^0	' "$URINGLINT_RESULTS")
f=$(grep -c '^1	' "$URINGLINT_RESULTS")
s=$(grep -c '^77	' "$URINGLINT_RESULTS")
[ "$f" -eq 0 ] || grep '^1	' "$URINGLINT_RESULTS" | cut -f2- | sed 's/^/failed: /'
echo "$1: $p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
