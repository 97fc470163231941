#!/bin/bash
# make check: uringlint without root. First the preflight suite (run.sh) and
# the audit suite again as nobody, from a copy of the tree nobody can read;
# their own root-only cases skip with the reason. Then root's and nobody's
# verdicts on the same host, directories and root-owned processes, compared:
# as nobody every finding is pass, warn, fail or skip with a reason, and
# nobody never passes (or flags) what root, who can read every file, does not.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh
. tests/e2e/live.sh

NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	skip "suites as nobody" "needs root and setpriv to switch to nobody"
	echo "nobody: $passed passed, $failed failed, $skipped skipped"
	exit 0
fi
chmod 0755 "$TMP"

# --- the suites again, as nobody --------------------------------------------------
# The checkout may sit where nobody cannot read (/root): a copy of what the
# suites use, owned by root and read-only to nobody.
S=$TMP/tree
mkdir -p "$S/build/tests" "$S/cmd"
cp -a tests testdata "$S/"
[ -f build/uringlint.1 ] && cp build/uringlint.1 build/uringlint.bash-completion "$S/build/"
cp "$HELPERS/pathology" "$HELPERS/seccomp-deny" "$HELPERS/ring-need" "$S/build/tests/"
install -m 0755 "$BIN" "$S/uringlint"
chmod -R a+rX,go-w "$S"

rerun() { # SUITE: runs tests/e2e/SUITE.sh as nobody and adds its cases' statuses to ours
	local log=$TMP/$1.log res=$TMP/$1.results rc p f s
	: >"$res"
	chmod 0666 "$res"
	(cd "$S" && "${NOBODY[@]}" env BIN=./uringlint HELPERS=build/tests CHURN_AUDITS=20 \
		URINGLINT_RESULTS="$res" SUITE="$1 as nobody" bash "tests/e2e/$1.sh") >"$log" 2>&1
	rc=$?
	p=$(grep -c '^0	' "$res") f=$(grep -c '^1	' "$res") s=$(grep -c '^77	' "$res")
	if [ $((p + f + s)) -eq 0 ]; then
		bad "$1.sh as nobody" "exit $rc without a case" "$(tail -n 15 "$log")"
		return
	fi
	[ -z "${URINGLINT_RESULTS:-}" ] || cat "$res" >>"$URINGLINT_RESULTS"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	grep -E '^(FAIL|skip) |^     ' "$log" | sed "s/^/[$1 as nobody] /"
	[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && bad "$1.sh as nobody" "exit $rc with 0 failures"
	echo "$1 as nobody: $p passed, $f failed, $s skipped"
}
rerun run
rerun audit

# --- root's verdicts against nobody's ------------------------------------------------
# same NAME ROOT.json NOBODY.json: each of nobody's findings is pass, warn, fail or
# skip with a reason; a pass needs root's pass, a warn or fail root's warn or fail.
gaps() { # ROOT.json NOBODY.json: one line for each finding that breaks the rule
	jq -r --slurpfile r "$1" '
		def key: [.id, .subject, (.pid // 0)] | tostring;
		($r[0].findings | map({(key): .status}) | add) as $root
		| .findings[] | ($root[key]) as $rs
		| if (.status | IN("pass", "warn", "fail", "skip") | not) then "\(.id) \(.subject): \(.status) as nobody"
		  elif .status == "skip" and ((.message // "") | length) == 0 then "\(.id) \(.subject): skip without a reason"
		  elif .status == "pass" and $rs != "pass" then "\(.id) \(.subject): pass as nobody, \($rs) as root"
		  elif (.status == "warn" or .status == "fail") and ($rs != "warn" and $rs != "fail") then
			"\(.id) \(.subject): \(.status) as nobody, \($rs) as root"
		  else empty end' "$2" 2>&1
}
same() {
	local why
	why=$(gaps "$2" "$3")
	if [ -n "$why" ] || ! jq -e '.findings | length > 0' "$3" >/dev/null 2>&1; then
		bad "$1" "${why:-no findings as nobody}"
	else
		ok "$1"
	fi
}
# The rule can fail: root's fail turned into nobody's pass, and root's pass into a warn.
jq '(.findings[] | select(.id == "fd-o-direct") | .status) = "fail"' "$EXP/audit-proc-6.18.json" >"$TMP/r.json" 2>/dev/null
jq '(.findings[] | select(.id == "fd-o-direct") | .status) = "pass" | (.findings[] | select(.id == "proc-rings") | .status) = "warn"' \
	"$TMP/r.json" >"$TMP/n.json" 2>/dev/null
[ "$(gaps "$TMP/r.json" "$TMP/n.json" | grep -c 'as nobody')" -ge 2 ] && ok "the comparison flags a pass and a warn root did not give" ||
	bad "the comparison flags a pass and a warn root did not give" "$(gaps "$TMP/r.json" "$TMP/n.json")"

# both NAME ARGS...: runs uringlint ARGS as root, then as nobody, and compares.
both() {
	local name=$1
	shift
	"$S/uringlint" "$@" --format json --fail-on never >"$TMP/root.json" 2>"$TMP/root.err"
	"${NOBODY[@]}" "$S/uringlint" "$@" --format json --fail-on never >"$TMP/nobody.json" 2>"$TMP/nobody.err"
	local rc=$?
	if [ "$rc" -ne 0 ] || grep -qE 'Sanitizer|runtime error:' "$TMP/nobody.err"; then
		bad "$name" "exit $rc as nobody" "$(head -c 400 "$TMP/nobody.err")"
		return 1
	fi
	same "$name" "$TMP/root.json" "$TMP/nobody.json"
}
# denied NAME ID...: as nobody, each of these checks skipped and said why.
denied() {
	local name=$1
	shift
	local ids
	ids=$(printf '%s\n' "$@" | jq -R . | jq -sc .)
	jq -e --argjson ids "$ids" '[.findings[] | select(.id as $i | $ids | index($i)) |
		.status == "skip" and (.message | test("Permission denied|not permitted|root"))] | length > 0 and all' \
		"$TMP/nobody.json" >/dev/null && ok "$name" ||
		bad "$name" "$(jq -c --argjson ids "$ids" '.findings[] | select(.id as $i | $ids | index($i)) | [.id,.status,.message]' "$TMP/nobody.json")"
}

# Host checks: one directory nobody may write in, one it may not (the O_DIRECT try needs it).
mkdir -p "$TMP/data" "$TMP/open" && chmod 1777 "$TMP/open"
both "preflight: nobody's verdicts agree with root's" preflight --dir "$TMP/open" --dir "$TMP/data"
jq -e --arg d "$TMP/data" '[.findings[] | select(.id == "fs-o-direct" and (.subject | contains($d)))] |
	length == 1 and .[0].status == "skip" and (.[0].message | test("Permission denied|not writable"))' "$TMP/nobody.json" >/dev/null &&
	ok "preflight: the O_DIRECT try in a dir nobody cannot write skips with the reason" ||
	bad "preflight: O_DIRECT try in an unwritable dir" "$(jq -c '.findings[] | select(.id == "fs-o-direct") | [.subject,.status,.message]' "$TMP/nobody.json")"

# Process checks on root's processes: /proc/PID/fd, fdinfo and stack are root's alone.
for mode in clean buffered attached cq-overflow fragmented no-ring; do
	start "$mode" || continue
	[ "$mode" = buffered ] && sleep 0.3
	both "$mode: nobody's verdicts agree with root's" audit "$pid" &&
		denied "$mode: checks that need the fds skip as nobody" proc-rings fd-o-direct fd-append \
			cq-overflow file-extents uring-fallback
	stop "$pid"
done
if start buffered; then
	sleep 0.3
	both "report: nobody's verdicts agree with root's" report --dir "$TMP/open" --pid "$pid"
	stop "$pid"
fi

# D state on a frozen XFS: root reads the stacks and says why; nobody cannot read them
# (mode 0400) but still sees the D state in the task's stat, so it must not pass.
if ! command -v mkfs.xfs >/dev/null || ! command -v fsfreeze >/dev/null; then
	skip "D state as nobody" "needs mkfs.xfs and fsfreeze"
else
	if xfs_mount && start buffered "$TMP/xfs"; then
		fsfreeze -f "$TMP/xfs" && frozen=$TMP/xfs
		sleep 1
		both "frozen XFS: nobody's verdicts agree with root's" audit "$pid" --only dstate-threads &&
			jq -e '.findings[0] | (.status == "warn" or .status == "fail")' "$TMP/nobody.json" >/dev/null &&
			ok "frozen XFS: D state flagged as nobody without the stacks" ||
			bad "frozen XFS: D state flagged as nobody" "$(jq -c '.findings' "$TMP/nobody.json")"
		fsfreeze -u "$TMP/xfs" && frozen=
		stop "$pid"
		xfs_umount
	else
		skip "D state as nobody" "could not mount XFS on a loop device"
	fi
fi

echo "nobody: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
