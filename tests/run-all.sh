#!/bin/sh
# make check: the layers of the tree, the unit suites, the fuzz replays, then
# the e2e suites, and one closing line with the totals of all. Every case
# reports a status (0 pass, 1 fail, 77 skip) into one results file
# (URINGLINT_RESULTS, see tests/e2e/lib.sh); the totals are counted there,
# and a suite that exits with anything but 0 or 77 fails the run too.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
URINGLINT_RESULTS=$dir/results
export URINGLINT_RESULTS
: >"$URINGLINT_RESULTS"

# SKIP_SUITES="NAME ...": suites left out of this run, each counted as one
# skipped case that says so (CI's second pass, under ASan, leaves out what a
# sanitizer cannot change: see .ci/run).
rc=0
suite() { # NAME CMD...: runs one suite, keeps its exit status
	name=$1 t0=$(date +%s)
	shift
	case " ${SKIP_SUITES:-} " in
	*" $name "*)
		echo "$name: skipped (SKIP_SUITES)"
		printf '77\t%s\t%s\n' "$name" "the whole suite, left out by SKIP_SUITES" >>"$URINGLINT_RESULTS"
		return ;;
	esac
	"$@"
	st=$?
	echo "$name: took $(($(date +%s) - t0)) s"
	[ "$st" -eq 0 ] || [ "$st" -eq 77 ] || { echo "$name: exit $st"; rc=1; }
}
suite layers bash tests/layers.sh
suite shape bash tests/shape.sh
suite unit sh tests/run-unit.sh "$@"
suite replay bash tests/fuzz/replay.sh
suite deps bash tests/deps.sh
suite e2e bash tests/e2e/run.sh
for s in hostile security audit operator probe probe_net nobody names watch punt_rule many trace ringmap html apps fixes hostwide sockets net_requests net_checks scene; do
	suite "$s" bash "tests/e2e/$s.sh"
done

bash tests/totals.sh total || rc=1
[ "$rc" -eq 0 ]
