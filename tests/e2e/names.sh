#!/bin/bash
# Names other users' processes choose, audited live in every format: the
# pathology's hostile-names mode has a comm and a thread name with escapes
# and a newline, and registered files named with escapes, a forged report
# line, Markdown and XML metacharacters and bytes that are not UTF-8.
# Text and Markdown show no raw control character and no forged line; JSON
# is strict UTF-8 and gives every name back exactly; JUnit validates
# against the schema; promtool accepts the Prometheus exposition; and the
# audit itself has no error.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh
. tests/e2e/live.sh

chmod 0755 "$TMP"
mkdir -p "$TMP/data"
CHECK=tests/e2e/names.py

# audit_as FORMAT: audits $pid in FORMAT into $TMP/names.FORMAT; 0 or 1 is a report.
audit_as() {
	local rc
	"$BIN" audit "$pid" --watch 0 --format "$1" --no-color -v >"$TMP/names.$1" 2>"$TMP/names.$1.err"
	rc=$?
	if [ "$rc" -gt 1 ] || [ -s "$TMP/names.$1.err" ]; then
		bad "hostile names: $1 report" "exit $rc" "$(head -c 400 "$TMP/names.$1.err" | cat -v)"
		return 1
	fi
}

# checked NAME CMD...: ok when CMD succeeds, its output as the reason when not.
checked() {
	local name=$1 why
	shift
	if why=$("$@" 2>&1); then ok "$name"; else bad "$name" "$(printf '%s' "$why" | head -c 600 | cat -v)"; fi
}

if ! command -v python3 >/dev/null; then
	skip "hostile names" "python3 is not installed (make deps installs it)"
elif start hostile-names; then
	# cmp, not $(...): command substitution would drop the comm's own newline.
	cmp -s "/proc/$pid/comm" <(printf '\033[31mx\033[0m\n\n') &&
		ok "hostile names: the comm holds escapes and a newline" ||
		bad "hostile names: the comm holds escapes and a newline" "$(cat -v "/proc/$pid/comm")"
	for fmt in text markdown; do
		audit_as "$fmt" && checked "hostile names: $fmt has no raw control and no forged line" \
			python3 "$CHECK" human "$TMP/names.$fmt"
	done
	grep -qF 'evil\\e\]0;PWNED\\a\\e\[2J\\n  PASS' "$TMP/names.markdown" &&
		grep -qF 'md\`\|\*\_\[x\](javascript:x)\<b\>\&amp;' "$TMP/names.markdown" &&
		ok "hostile names: Markdown shows the names escaped, markup included" ||
		bad "hostile names: Markdown shows the names escaped, markup included" \
			"$(grep -a 'dat' "$TMP/names.markdown" | head -5 | cat -v)"
	if audit_as text; then
		grep -qF 'evil\e]0;PWNED\a\e[2J\n  PASS   fd-o-direct' "$TMP/names.text" &&
			grep -qF '(\e[31mx\e[0m\n)' "$TMP/names.text" &&
			grep -qF 'bad\xff\xfe\e[2J\n- [x] **forged** item.dat' "$TMP/names.text" &&
			ok "hostile names: text shows the names escaped" ||
			bad "hostile names: text shows the names escaped" "$(grep -a 'dat' "$TMP/names.text" | head -5)"
		grep -qE '^ +fix: .*bad\\xff\\xfe' "$TMP/names.text" &&
			ok "hostile names: the fix line quotes the path escaped" ||
			bad "hostile names: the fix line quotes the path escaped" "$(grep -a 'fix:' "$TMP/names.text" | head -3)"
	fi
	audit_as json && checked "hostile names: JSON is strict UTF-8, names recovered, no error" \
		python3 "$CHECK" json "$TMP/names.json" "$TMP/data"
	if audit_as junit; then
		checked "hostile names: JUnit is valid against the schema" \
			xmllint --noout --schema tests/e2e/junit.xsd "$TMP/names.junit"
		checked "hostile names: JUnit is UTF-8 with no raw control" python3 "$CHECK" human "$TMP/names.junit"
		grep -qF 'data/bad\xff\xfe\e[2J\n- [x] **forged** item.dat' "$TMP/names.junit" &&
			ok "hostile names: JUnit shows the names escaped" ||
			bad "hostile names: JUnit shows the names escaped" "$(grep -a 'dat' "$TMP/names.junit" | head -3 | cat -v)"
	fi
	if audit_as prometheus; then
		checked "hostile names: exposition format" sh tests/e2e/check-exposition.sh "$TMP/names.prometheus"
		grep -qF 'data/bad\\xff\\xfe\\e[2J\\n- [x]' "$TMP/names.prometheus" &&
			ok "hostile names: Prometheus labels show the names escaped" ||
			bad "hostile names: Prometheus labels show the names escaped" \
				"$(grep -a 'dat' "$TMP/names.prometheus" | head -3 | cat -v)"
		if command -v promtool >/dev/null; then
			checked "hostile names: promtool check metrics accepts it" \
				sh -c 'promtool check metrics <"$1"' _ "$TMP/names.prometheus"
		else
			skip "hostile names: promtool check metrics" "promtool is not installed (Debian: prometheus)"
		fi
	fi
	# The ring map names its submitter by the name the thread set, every byte of it.
	if [ "$(id -u)" -eq 0 ]; then
		"$BIN" audit "$pid" --watch 1 --format json >"$TMP/names.watch.json" 2>"$TMP/names.watch.err"
		checked "hostile names: the ring map gives the thread's name back exactly (comm_base64)" \
			python3 "$CHECK" ringmap "$TMP/names.watch.json"
	else
		skip "hostile names: the ring map's thread name" "the watch needs root"
	fi
	stop "$pid"
	for _ in $(seq 50); do [ -z "$(ls -A "$TMP/data")" ] && break; sleep 0.1; done
	[ -z "$(ls -A "$TMP/data")" ] && ok "hostile names: files removed on SIGTERM" ||
		bad "hostile names: files removed on SIGTERM" "$(ls -b "$TMP/data")"
fi

# A fleet report merged from a host whose name is not UTF-8 and holds escapes
# (json-c reads such bytes as they are): its JSON stays UTF-8, its text clean.
if command -v python3 >/dev/null; then
	"$BIN" --root testdata/uring-disabled-2 preflight --dir / --format json >"$TMP/fleet.json"
	python3 -c 'import sys; p = sys.argv[1]; b = open(p, "rb").read()
open(p, "wb").write(b.replace(b"\"hostname\": \"vm\"", b"\"hostname\": \"vm\xff\x1b[2J\"", 1))' "$TMP/fleet.json"
	if grep -qa $'vm\xff' "$TMP/fleet.json"; then
		"$BIN" report merge "$TMP/fleet.json" --format json >"$TMP/merge.json"
		checked "merge: a host name that is not UTF-8 leaves the JSON UTF-8" python3 -c \
			'import json, sys; json.load(open(sys.argv[1], encoding="utf-8", errors="strict"))' "$TMP/merge.json"
		"$BIN" report merge "$TMP/fleet.json" --no-color >"$TMP/merge.text"
		checked "merge: the host name is escaped in text" python3 "$CHECK" human "$TMP/merge.text"
	else
		bad "merge: a host name that is not UTF-8" "the fixture's hostname was not replaced"
	fi
fi

# An error on stderr that quotes a name stays one line with no control in it.
"$BIN" --root "$(printf '/nonexistent/x\033[2J\n  PASS   fd-o-direct           all good')" preflight \
	>/dev/null 2>"$TMP/names.stderr"
[ "$(grep -cv '^Try ' "$TMP/names.stderr")" -eq 1 ] && grep -qF 'x\e[2J\n  PASS' "$TMP/names.stderr" &&
	! LC_ALL=C grep -q '[[:cntrl:]]' "$TMP/names.stderr" && ok "a name in an error message is escaped" ||
	bad "a name in an error message is escaped" "$(cat -v "$TMP/names.stderr")"

echo "names: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
