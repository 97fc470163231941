#!/bin/sh
# make check-fleet: the Prometheus rules and metrics, the Debian package with
# its service end to end with node_exporter and Prometheus, and the Ansible
# roll-up; one closing line with the totals (tests/e2e/lib.sh's results file).
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
URINGLINT_RESULTS=$dir/results
export URINGLINT_RESULTS
: >"$URINGLINT_RESULTS"

rc=0
for s in rules package unit ansible; do
	t0=$(date +%s)
	bash "tests/fleet/$s.sh"
	st=$?
	[ "$st" -eq 0 ] || [ "$st" -eq 77 ] || { echo "fleet-$s: exit $st"; rc=1; }
	echo "fleet-$s took $(($(date +%s) - t0)) s"
done

bash tests/totals.sh fleet || rc=1
[ "$rc" -eq 0 ]
