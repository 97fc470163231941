#!/bin/bash
# make check: every fuzz harness, built with the project's compiler (and its
# sanitizers under SANITIZE=...), runs once on each saved regression input
# and seed (tests/fuzz/seeds.sh). A crash here is a fuzz finding that came back.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
. tests/fuzz/seeds.sh
pass=0 fail=0 skip=0
record() { # STATUS CASE: see tests/e2e/lib.sh
	[ -z "${URINGLINT_RESULTS:-}" ] || printf '%s\treplay\t%s\n' "$1" "$2" >>"$URINGLINT_RESULTS"
}
for bin in "$B"/tests/replay_*; do
	name=${bin##*/replay_}
	inputs=()
	while read -r f; do inputs+=("$f"); done < <(seeds "$name")
	if [ ${#inputs[@]} -eq 0 ]; then
		echo "skip replay_$name: no saved inputs"
		record 77 "replay_$name"
		skip=$((skip + 1))
		continue
	fi
	if "$bin" "${inputs[@]}" >/dev/null 2>"$B/replay-$name.log"; then
		echo "ok   replay_$name: ${#inputs[@]} saved inputs"
		record 0 "replay_$name"
		pass=$((pass + 1))
	else
		echo "FAIL replay_$name (exit $?)"
		record 1 "replay_$name"
		grep -v '^uringlint: ' "$B/replay-$name.log" | head -n 30
		fail=$((fail + 1))
	fi
done
echo "replay: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
