#!/bin/bash
# make check-repeat N=10 [LOAD=cpu|disk|cpu,disk] [SUITES="audit probe"]:
# the e2e suites N rounds in a row, to find verdicts and tests that depend on
# timing. LOAD=cpu runs stress-ng with a CPU hog on every CPU, LOAD=disk one
# that keeps writing and syncing on the disk under $TMPDIR (where the suites
# put their data), both for the whole run and ended with it. Every case's
# verdict is kept per round; a case that passes in one round and fails in
# another is a flake, listed with its rounds. The closing line counts case
# runs: "repeat: P passed, F failed, S skipped".
set -u
cd "$(dirname "$0")/.." || exit 2

N=${N:-10}
SUITES=${SUITES:-run hostile audit probe probe_net nobody names}
LOAD=${LOAD:-}
case $N in '' | *[!0-9]* | 0) echo "check-repeat: N must be a count of rounds, not '$N'" >&2; exit 2 ;; esac

dir=$(mktemp -d)
hogs=()
cleanup() {
	[ ${#hogs[@]} -gt 0 ] && kill "${hogs[@]}" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A hog outlives no run: stress-ng's own --timeout bounds it even if this script is killed.
bound=$((N * 900))
for l in ${LOAD//,/ }; do
	command -v stress-ng >/dev/null || { echo "check-repeat: LOAD needs stress-ng" >&2; exit 2; }
	case $l in
	cpu) stress-ng --cpu "$(nproc)" --timeout "$bound" --quiet & ;;
	disk) stress-ng --hdd 1 --hdd-bytes 256M --temp-path "${TMPDIR:-/tmp}" --timeout "$bound" --quiet & ;;
	*) echo "check-repeat: LOAD takes cpu, disk or cpu,disk, not '$l'" >&2; exit 2 ;;
	esac
	hogs+=($!)
done
[ -n "$LOAD" ] && echo "check-repeat: load: $LOAD (stress-ng, pids ${hogs[*]})"

# The loop-mounted XFS images of the suites (tests/e2e/live.sh) now mounted.
test_mounts() { mount | grep -c "^${TMPDIR:-/tmp}/tmp\.[^ ]*/xfs\.img"; }

for round in $(seq "$N"); do
	t0=$SECONDS
	for suite in $SUITES; do
		mounts0=$(test_mounts)
		bash "tests/e2e/$suite.sh" >"$dir/$round.$suite.log" 2>&1
		# A case is its suite and its name, numbers left out (they are measurements),
		# and for a skip without the reason after its last ": ". The nobody suite
		# shows its reruns' failures and skips behind "[SUITE as nobody] ".
		sed -n 's/^\(\[[a-z]* as nobody\] \)\{0,1\}\(ok  \|FAIL\|skip\) \(.*\)$/\2\t\1\3/p' \
			"$dir/$round.$suite.log" |
			sed -e 's/[0-9][0-9]*/N/g' -e '/^skip/s/: [^:]*$//' -e 's/^ok  /ok/' |
			awk -F'\t' -v s="$suite" -v r="$round" '{ print s "\t" $2 "\t" r "\t" $1 }'
		# A suite's own closing line must agree: failures it counted that no case
		# line showed are failures too.
		closing=$(grep -E '^[a-z0-9_]+: [0-9]+ passed, [0-9]+ failed' "$dir/$round.$suite.log" | tail -n 1)
		case $closing in
		*' 0 failed'*) ;;
		*) printf '%s\t%s\t%s\t%s\n' "$suite" "closing line: ${closing:-missing}" "$round" FAIL ;;
		esac
		# What a suite left behind is a failure too: a test mount outlives no run.
		[ "$(test_mounts)" -gt "$mounts0" ] &&
			printf '%s\t%s\t%s\t%s\n' "$suite" "left a test XFS mounted" "$round" FAIL
	done >"$dir/$round.cases"
	f=$(awk -F'\t' '$4 == "FAIL"' "$dir/$round.cases" | wc -l)
	echo "round $round: $(wc -l <"$dir/$round.cases") cases, $f failed, $((SECONDS - t0)) s"
	# A failure with what its suite said about it, since the round's logs go.
	for suite in $SUITES; do
		awk -v s="$suite" '/^(\[[a-z]* as nobody\] )?FAIL / { p = 1; print "  " s ": " $0; next }
			p && /^(\[[a-z]* as nobody\] )?     / { print "  " $0; next } { p = 0 }' \
			"$dir/$round.$suite.log"
	done
	# And the failures that are no case line: a closing line that disagrees, a mount left.
	awk -F'\t' '$4 == "FAIL" && ($2 ~ /^closing line: / || $2 == "left a test XFS mounted") {
		print "  " $1 ": " $2 }' "$dir/$round.cases"
done

cat "$dir"/*.cases >"$dir/all"
# Flakes: a case with more than one verdict over the rounds.
awk -F'\t' '{ c = $1 "\t" $2; v[c] = v[c] " " $3 ":" $4
		if (!((c, $4) in seen)) { seen[c, $4] = 1; n[c]++ } }
	END { for (c in n) if (n[c] > 1) print c "\t" v[c] }' "$dir/all" | sort >"$dir/flakes"
if [ -s "$dir/flakes" ]; then
	echo "cases whose verdict changed between rounds:"
	awk -F'\t' '{ print "  " $1 ": " $2 " (" substr($3, 2) ")" }' "$dir/flakes"
else
	echo "no case changed its verdict over $N rounds"
fi
p=$(awk -F'\t' '$4 == "ok"' "$dir/all" | wc -l)
f=$(awk -F'\t' '$4 == "FAIL"' "$dir/all" | wc -l)
s=$(awk -F'\t' '$4 == "skip"' "$dir/all" | wc -l)
echo "repeat: $p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
