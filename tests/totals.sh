#!/bin/bash
# totals.sh LABEL: the closing line of a run, counted from the results file
# the suites append to (URINGLINT_RESULTS, see tests/e2e/lib.sh), after the
# skipped cases and the failed ones, each by name: a skip is a case that did
# not run, and the log says which. Exits 1 when any case failed, and under
# CI=true when a case skipped that tests/ci-skips does not name (on the CI
# machine every other case must run) or a suite passed fewer cases than
# tests/ci-minimum says it must (each such suite counts as one failure).
p=$(grep -c '^0	' "$URINGLINT_RESULTS")
f=$(grep -c '^1	' "$URINGLINT_RESULTS")
s=$(grep -c '^77	' "$URINGLINT_RESULTS")
allowed() { # SUITE CASE: whether tests/ci-skips names the skip
	local suite pat why
	while IFS=$'\t' read -r suite pat why; do
		case $suite in '#'* | '') continue ;; esac
		# shellcheck disable=SC2053 # patterns, on purpose
		[[ $1 == $suite && $2 == $pat ]] && return 0
	done <"$(dirname "$0")/ci-skips"
	return 1
}
unexpected=0
while IFS=$'\t' read -r st suite name; do
	[ "$st" = 77 ] || continue
	if [ "${CI:-}" = true ] && ! allowed "$suite" "$name"; then
		echo "skipped, not allowed on CI: $suite: $name"
		unexpected=$((unexpected + 1))
	else
		echo "skipped: $suite: $name"
	fi
done <"$URINGLINT_RESULTS"
# A suite left out by SKIP_SUITES (CI's sanitizer pass) owes no minimum.
short=0
while IFS=$'\t' read -r label suite want; do
	[ "${CI:-}" = true ] && [ "$label" = "$1" ] || continue
	grep -q "^77	$suite	the whole suite, left out by SKIP_SUITES$" "$URINGLINT_RESULTS" && continue
	got=$(grep -c "^0	$suite	" "$URINGLINT_RESULTS")
	if [ "$got" -lt "$want" ]; then
		echo "suite $suite: $got passed, fewer than the $want it must run on CI (tests/ci-minimum)"
		short=$((short + 1))
	fi
done <"$(dirname "$0")/ci-minimum"
[ "$f" -eq 0 ] || grep '^1	' "$URINGLINT_RESULTS" | cut -f2- | sed 's/^/failed: /'
f=$((f + unexpected + short)) s=$((s - unexpected))
echo "$1: $p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
