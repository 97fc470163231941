#!/bin/sh
# check-exposition.sh FILE: validates the Prometheus text exposition format
# (0.0.4) as node_exporter's textfile collector parses it: HELP and TYPE
# lines before their samples, metric and label names, quoted and escaped
# label values, numeric values, no duplicate series, a final newline.
# Then Prometheus's own parser and linter, `promtool check metrics`, when
# installed (Debian: prometheus): it misses duplicates and the final
# newline, this script misses its naming lints, so both run; without
# promtool, a skip is recorded (see below).
# Prints the first problem and exits 1, or exits 0.
[ -s "$1" ] || { echo "empty file"; exit 1; }
[ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] || { echo "no final newline"; exit 1; }
awk '
function bad(msg) { printf "line %d: %s: %s\n", NR, msg, $0; err = 1; exit 1 }
/^# HELP / { if ($3 !~ /^[a-zA-Z_:][a-zA-Z0-9_:]*$/) bad("bad metric name in HELP"); help[$3] = 1; next }
/^# TYPE / {
	if ($3 !~ /^[a-zA-Z_:][a-zA-Z0-9_:]*$/) bad("bad metric name in TYPE")
	if ($4 !~ /^(counter|gauge|histogram|summary|untyped)$/) bad("bad TYPE")
	if ($3 in type) bad("second TYPE for a family")
	if ($3 in seen) bad("TYPE after samples of its family")
	type[$3] = $4; next
}
/^#/ { next }
/^$/ { bad("empty line") }
{
	line = $0
	if (!match(line, /^[a-zA-Z_:][a-zA-Z0-9_:]*/)) bad("bad metric name")
	name = substr(line, 1, RLENGTH); rest = substr(line, RLENGTH + 1)
	labels = ""
	if (substr(rest, 1, 1) == "{") {
		# label="value" pairs; values may hold \\, \" and \n escapes
		if (!match(rest, /^\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\[\\"n])*"(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\[\\"n])*")*)?\}/))
			bad("bad labels")
		labels = substr(rest, 1, RLENGTH); rest = substr(rest, RLENGTH + 1)
	}
	if (rest !~ /^ [-+]?([0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?|\.[0-9]+|NaN|[-+]?Inf)( -?[0-9]+)?$/)
		bad("bad value")
	if (!(name in type)) bad("sample without TYPE")
	if ((name labels) in series) bad("duplicate series")
	series[name labels] = 1; seen[name] = 1
}
END { exit err }
' "$1" || exit 1
# Without promtool half of the check did not run: said, and recorded as a skip
# of the calling suite's (URINGLINT_RESULTS, SUITE from tests/e2e/lib.sh), so
# the caller's pass is never taken for both.
if ! command -v promtool >/dev/null; then
	echo "skip promtool check metrics of ${1##*/}: promtool is not installed (Debian: prometheus)" >&2
	[ -z "${URINGLINT_RESULTS:-}" ] || printf '77\t%s\t%s\n' "${SUITE:-check-exposition}" \
		"promtool check metrics of ${1##*/}" >>"$URINGLINT_RESULTS"
	exit 0
fi
# uringlint_probe_latency_microseconds predates the naming lints (a gauge
# with quantiles, not in seconds) and is never renamed; its twin
# uringlint_probe_latency_seconds follows them. Those two lints on it are
# expected, any other problem is not.
out=$(promtool check metrics <"$1" 2>&1)
rc=$?
[ "$rc" -eq 0 ] && exit 0
# Exit 3 is lint only; 1 is a parse error, always a failure.
problems=$(printf '%s\n' "$out" |
	grep -v -e '^uringlint_probe_latency_microseconds use base unit "seconds" instead of "microseconds"$' \
		-e '^uringlint_probe_latency_microseconds non-summary metrics should not have "quantile" label$')
[ "$rc" -eq 3 ] && [ -z "$problems" ] && exit 0
echo "promtool check metrics: exit $rc: $problems"
exit 1
