#!/bin/bash
# Shared by the e2e suites: where things are, and how a case reports.
# Sourced from the repository root.

BIN=${BIN:-./uringlint}
HELPERS=${HELPERS:-build/tests}
EXP=tests/e2e/expected
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0 skipped=0


# Each case ends in a status, as a test program's exit status does for liburing's
# runner: 0 pass, 1 fail, 77 skip. With URINGLINT_RESULTS set, it is appended there
# ("STATUS<TAB>SUITE<TAB>CASE"), and tests/run-all.sh totals those, not the lines.
SUITE=${SUITE:-$(basename "$0" .sh)}
export SUITE	# tests/e2e/check-exposition.sh records its skip under it
record() {
	[ -z "${URINGLINT_RESULTS:-}" ] ||
		printf '%s\t%s\t%s\n' "$1" "$SUITE" "${2//$'\n'/ }" >>"$URINGLINT_RESULTS"
}
ok() { passed=$((passed + 1)); record 0 "$1"; echo "ok   $1"; }
bad() { failed=$((failed + 1)); record 1 "$1"; echo "FAIL $1"; shift; [ $# -gt 0 ] && printf '     %s\n' "$@"; }
skip() { skipped=$((skipped + 1)); record 77 "$1"; echo "skip $1: $2"; }

# run NAME EXPECTED_STATUS CMD...: runs CMD, keeps stdout/stderr in $TMP/out, $TMP/err.
run() {
	local name=$1 want=$2 rc
	shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		bad "$name" "exit $rc, wanted $want" "$(head -c 400 "$TMP/err")"
		return 1
	fi
	return 0
}

# One line on stderr that contains every given word.
one_error_line() {
	local name=$1
	shift
	local lines
	lines=$(grep -cv '^Try ' "$TMP/err")
	if [ "$lines" -ne 1 ]; then
		bad "$name" "wanted one error line, got $lines:" "$(cat "$TMP/err")"
		return
	fi
	for w in "$@"; do
		if ! grep -qF -- "$w" "$TMP/err"; then
			bad "$name" "stderr lacks '$w':" "$(cat "$TMP/err")"
			return
		fi
	done
	ok "$name"
}

compare() { # NAME FILE EXPECTED
	if [ "${UPDATE:-}" = 1 ]; then
		cp "$2" "$3"
		ok "$1 (updated)"
	elif diff -u "$3" "$2" >"$TMP/diff"; then
		ok "$1"
	else
		bad "$1" "$(head -40 "$TMP/diff")"
	fi
}

json_norm() { jq -S 'del(.tool.version, .host.liburing)' "$1"; }
