#!/bin/bash
# The Prometheus side, checked by Prometheus's own promtool: every exposition
# uringlint writes here (captured hosts, a live audit of a process writing
# buffered, a probe) passes `promtool check metrics` (through
# check-exposition.sh, which also checks what promtool does not); the rules
# pass `promtool check rules`; and `promtool test rules` runs every alert
# against series made from those same outputs (expo2test.py).
set -u
cd "$(dirname "$0")/../.." || exit 2
SUITE=fleet-rules
. tests/e2e/lib.sh
. tests/e2e/live.sh

RULES=$PWD/dist/prometheus/uringlint.rules.yml
command -v promtool >/dev/null || { skip "promtool" "not installed (Debian: prometheus)"; exit 77; }

expo() { # NAME FILE: the exposition passes promtool and the project's checker
	if sh tests/e2e/check-exposition.sh "$2" >"$TMP/expo.out"; then
		ok "promtool check metrics: $1"
	else
		bad "promtool check metrics: $1" "$(head -5 "$TMP/expo.out")"
	fi
}

for c in "host-6.18|--dir / --dir /mnt/xfs" "isolated-nvme-irq|--sqpoll-cpu 1 --dir /" "uring-disabled-2|--dir /"; do
	tree=${c%%|*}
	# shellcheck disable=SC2086
	"$BIN" --root "testdata/$tree" preflight ${c#*|} --format prometheus >"$TMP/$tree.prom"
	expo "preflight of $tree" "$TMP/$tree.prom"
done
mkdir -p "$TMP/data"
if start buffered; then
	"$BIN" audit "$pid" --format prometheus >"$TMP/live.prom"
	expo "live audit of a buffered writer" "$TMP/live.prom"
	stop "$pid"
fi
"$BIN" probe --dir "$TMP/data" --mode default --duration 0.2 --size 16M --format prometheus \
	--fail-on never >"$TMP/probe.prom"
expo "probe" "$TMP/probe.prom"
"$BIN" --format json --root testdata/host-6.18 preflight --dir / >"$TMP/a.json"
"$BIN" --format json --root testdata/uring-disabled-2 preflight --dir / >"$TMP/b.json"
"$BIN" --format prometheus --fail-on never report merge "$TMP/a.json" "$TMP/b.json" >"$TMP/merge.prom"
expo "report merge" "$TMP/merge.prom"

if promtool check rules "$RULES" >"$TMP/rules.out" 2>&1; then
	ok "promtool check rules: $(grep -o '[0-9]* rules found' "$TMP/rules.out")"
else
	bad "promtool check rules" "$(cat "$TMP/rules.out")"
fi
if python3 tests/fleet/expo2test.py "$RULES" captured-host:9100="$TMP/host-6.18.prom" \
	live-host:9100="$TMP/live.prom" probe-host:9100="$TMP/probe.prom" >"$TMP/test.yml" 2>"$TMP/gen.err" &&
	promtool test rules "$TMP/test.yml" >"$TMP/test.out" 2>&1; then
	ok "promtool test rules: every alert, on series from uringlint's output"
else
	bad "promtool test rules" "$(cat "$TMP/gen.err")" "$(head -30 "$TMP/test.out")"
fi

echo "fleet-rules: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
