#!/bin/bash
# End-to-end: the uringlint binary on the fixture trees (compared with the
# expected outputs in tests/e2e/expected/), on bad input, and live on this
# host. UPDATE=1 rewrites the expected outputs instead of comparing.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh
. tests/e2e/live.sh

# --- fixture trees: text and JSON against expected outputs -------------------
while read -r name tree args; do
	case "$name" in "" | "#"*) continue ;; esac
	# shellcheck disable=SC2086 # args are words by design
	"$BIN" --root "testdata/$tree" preflight $args --no-color >"$TMP/$name.txt" 2>"$TMP/$name.err"
	echo "exit $?" >>"$TMP/$name.txt"
	compare "fixture $name text" "$TMP/$name.txt" "$EXP/$name.txt"
	# shellcheck disable=SC2086
	"$BIN" --root "testdata/$tree" preflight $args --format json >"$TMP/$name.json" 2>>"$TMP/$name.err"
	if json_norm "$TMP/$name.json" >"$TMP/$name.norm.json"; then
		compare "fixture $name json" "$TMP/$name.norm.json" "$EXP/$name.json"
	else
		bad "fixture $name json" "output is not JSON"
	fi
	if [ -s "$TMP/$name.err" ]; then bad "fixture $name stderr empty" "$(cat "$TMP/$name.err")"; else ok "fixture $name stderr empty"; fi
done <tests/e2e/fixtures.list

# --- every format, on fixture trees: golden outputs and their schemas -----------
fmt_norm() { # the run's time and the build's versions are all that may differ
	sed -E 's/timestamp="[^"]*"/timestamp="T"/; s/^(uringlint_last_run_timestamp_seconds) .*/\1 T/
		s/^uringlint_build_info\{.*\} 1$/uringlint_build_info{V} 1/'
}
for c in "host-6.18|--dir / --dir /mnt/xfs" "isolated-nvme-irq|--sqpoll-cpu 1 --dir /" "uring-disabled-2|--dir /"; do
	tree=${c%%|*}
	args=${c#*|}
	for fmt in markdown junit prometheus; do
		# shellcheck disable=SC2086
		"$BIN" --root "testdata/$tree" preflight $args --format "$fmt" >"$TMP/$tree.$fmt" 2>"$TMP/err"
		fmt_norm <"$TMP/$tree.$fmt" >"$TMP/$tree.$fmt.norm"
		compare "$fmt $tree" "$TMP/$tree.$fmt.norm" "$EXP/$tree.$fmt"
	done
	if command -v xmllint >/dev/null; then
		xmllint --noout --schema tests/e2e/junit.xsd "$TMP/$tree.junit" 2>"$TMP/xsd" &&
			ok "junit $tree validates against the JUnit schema" || bad "junit $tree schema" "$(cat "$TMP/xsd")"
	else
		skip "junit schema" "xmllint is missing (libxml2-utils)"
	fi
	sh tests/e2e/check-exposition.sh "$TMP/$tree.prometheus" >"$TMP/prom" &&
		ok "prometheus $tree is valid exposition format" || bad "prometheus $tree" "$(cat "$TMP/prom")"
done
# The exposition checker itself fails on what it must.
printf 'a{b="x"} 1\n' >"$TMP/bad.prom"
! sh tests/e2e/check-exposition.sh "$TMP/bad.prom" >/dev/null && ok "exposition checker rejects a sample without TYPE" ||
	bad "exposition checker rejects a sample without TYPE"
printf '# TYPE a gauge\na 1\na 1\n' >"$TMP/dup.prom"
! sh tests/e2e/check-exposition.sh "$TMP/dup.prom" >/dev/null && ok "exposition checker rejects duplicates" ||
	bad "exposition checker rejects duplicates"
"$BIN" --root testdata/host-6.18 preflight --dir / --dir / --format prometheus >"$TMP/twice.prom"
sh tests/e2e/check-exposition.sh "$TMP/twice.prom" >/dev/null && ok "prometheus: a repeated --dir stays unique" ||
	bad "prometheus: a repeated --dir stays unique" "$(sh tests/e2e/check-exposition.sh "$TMP/twice.prom")"

# The fixture with io_uring_disabled=2 fails io-uring-available and names the sysctl.
run "disabled-2 exit 1" 1 "$BIN" --root testdata/uring-disabled-2 preflight --format json &&
	if jq -e '.findings[] | select(.id == "io-uring-available") |
		select(.status == "fail" and (.message | contains("kernel.io_uring_disabled = 2")))' \
		"$TMP/out" >/dev/null; then ok "disabled-2 names the sysctl"; else bad "disabled-2 names the sysctl"; fi

# --- bad input: one line on stderr, documented exit status -------------------
run "unknown command" 2 "$BIN" nosuch && one_error_line "unknown command message" "unknown command 'nosuch'"
grep -q "^Try 'uringlint --help'" "$TMP/err" && ok "usage error suggests --help" || bad "usage error suggests --help"
run "bad format" 2 "$BIN" preflight --format yaml && one_error_line "bad format message" "yaml"
run "explain nosuch" 2 "$BIN" explain nosuch && one_error_line "explain nosuch message" "nosuch"
run "explain no id" 2 "$BIN" explain && one_error_line "explain no id message" "check id"
run "bad option" 2 "$BIN" preflight --bogus && one_error_line "bad option message" "--bogus"
run "missing argument" 2 "$BIN" preflight --format && one_error_line "missing argument message" "--format"
run "bad fail-on" 2 "$BIN" --fail-on sometimes preflight && one_error_line "bad fail-on message" "sometimes"
run "unknown --only id" 2 "$BIN" preflight --only nosuch-check && one_error_line "unknown --only message" "nosuch-check"
run "unknown --only id in checks" 2 "$BIN" checks --only nosuch-check && one_error_line "checks: unknown --only message" "nosuch-check"
# A list that names no check would run none (or skip none) and exit 0: a usage error.
run "--only ''" 2 "$BIN" --root testdata/host-6.18 preflight --only '' &&
	one_error_line "--only '' message" "--only names no check"
run "--only ','" 2 "$BIN" --root testdata/host-6.18 preflight --only , &&
	one_error_line "--only ',' message" "--only names no check"
run "--skip ''" 2 "$BIN" --root testdata/host-6.18 preflight --skip '' &&
	one_error_line "--skip '' message" "--skip names no check"
run "unknown --skip id in explain" 2 "$BIN" explain fd-o-direct --skip nosuch-check && one_error_line "explain: unknown --skip message" "nosuch-check"
run "no command" 2 "$BIN" && one_error_line "no command message" "no command"
run "root missing" 2 "$BIN" --root /nonexistent/uringlint preflight &&
	one_error_line "root missing message" "/nonexistent/uringlint" "No such file or directory"
mkdir -p "$TMP/noproc"
run "root without proc" 2 "$BIN" --root "$TMP/noproc" preflight && one_error_line "root without proc message" "$TMP/noproc" "proc/"
run "dir missing" 2 "$BIN" preflight --dir /nonexistent/data && one_error_line "dir missing message" "/nonexistent/data"
run "dir is a file" 2 "$BIN" preflight --dir /etc/hostname && one_error_line "dir is a file message" "not a directory"
run "sqpoll-cpu offline" 2 "$BIN" --root testdata/host-6.18 preflight --sqpoll-cpu 99 &&
	one_error_line "sqpoll-cpu offline message" "--sqpoll-cpu 99" "online: 0-1"
run "sqpoll-cpu 1-" 2 "$BIN" preflight --sqpoll-cpu 1- && one_error_line "sqpoll-cpu 1- message" "'1-'"
run "sqpoll-cpu abc" 2 "$BIN" preflight --sqpoll-cpu abc && one_error_line "sqpoll-cpu abc message" "'abc'"
run "worker-cpus offline" 2 "$BIN" --root testdata/nic-8q-tuned preflight --worker-cpus 8-12 &&
	one_error_line "worker-cpus offline message" "--worker-cpus 8-12" "online: 0-9"
run "workers 0" 2 "$BIN" preflight --workers 0 && one_error_line "workers 0 message" "--workers" "'0'"
run "net-dev with a slash" 2 "$BIN" preflight --net-dev ../eth0 && one_error_line "net-dev slash message" "'../eth0'"
run "net-dev the host lacks" 2 "$BIN" --root testdata/nic-8q-tuned preflight --net-dev eth9 &&
	one_error_line "net-dev missing message" "--net-dev eth9" "sys/class/net/eth9"
printf 'worker-cpus = 2-\n' >"$TMP/workers.conf"
run "config: worker-cpus garbage" 2 "$BIN" --config "$TMP/workers.conf" checks &&
	one_error_line "config: worker-cpus message" "worker-cpus takes a CPU list"
run "depth 0" 2 "$BIN" preflight --depth 0 && one_error_line "depth 0 message" "--depth" "'0'"
run "ring-entries too big" 2 "$BIN" preflight --ring-entries 100000 && one_error_line "ring-entries message" "--ring-entries"
# One bound for the depth, on the command line and in the policy file: a ring's 32768 entries.
run "depth past a ring" 2 "$BIN" preflight --depth 40000 && one_error_line "depth past a ring message" "from 1 to 32768"
printf 'depth = 40000\n' >"$TMP/depth.conf"
run "config: depth past a ring" 2 "$BIN" --config "$TMP/depth.conf" checks &&
	one_error_line "config: depth past a ring message" "from 1 to 32768"
run "pid garbage in report" 2 "$BIN" report --pid 12x && one_error_line "report pid message" "not a process ID: '12x'"
run "pid past PID_MAX in capture" 2 "$BIN" capture --pid 4194305 -o "$TMP/cap" &&
	one_error_line "capture pid message" "not a process ID: '4194305'"
run "fixed-buffers garbage" 2 "$BIN" preflight --fixed-buffers 64Q && one_error_line "fixed-buffers message" "'64Q'"
if [ -w /dev/full ]; then
	run "stdout on a full device" 3 sh -c "'$BIN' --root testdata/host-6.18 preflight >/dev/full" &&
		one_error_line "stdout full message" "standard output" "No space left on device"
else
	skip "stdout on a full device" "/dev/full is not writable here"
fi
run "-o into a missing directory" 3 "$BIN" --root testdata/host-6.18 preflight -o /nonexistent/dir/report.json &&
	one_error_line "-o missing dir message" "/nonexistent/dir/report.json"
run "-o FILE writes the report" 0 "$BIN" --root testdata/host-6.18 preflight --format json -o "$TMP/report.json" &&
	jq -e '.schema_version == 1' "$TMP/report.json" >/dev/null && [ ! -s "$TMP/out" ] &&
	ok "-o FILE writes the report" || bad "-o FILE content"
# -o replaces a regular file by rename: a reader sees the old file or the new one,
# never half of one; a failed run leaves the old one; devices and links are honoured.
ino() { stat -c %i "$1"; }
old_ino=$(ino "$TMP/report.json")
chmod 0640 "$TMP/report.json"
"$BIN" --root testdata/host-6.18 preflight --format prometheus -o "$TMP/report.json" >/dev/null
[ "$(ino "$TMP/report.json")" != "$old_ino" ] && [ "$(stat -c %a "$TMP/report.json")" = 640 ] &&
	grep -q '^uringlint_' "$TMP/report.json" && [ -z "$(find "$TMP" -maxdepth 1 -name '.report.json.*')" ] &&
	ok "-o replaces the file by rename (new inode, the old mode kept, no temporary left)" ||
	bad "-o replaces the file by rename" "$(ls -la "$TMP" | head)"
# -o never follows a link and writes only regular files (tests/e2e/security.sh has
# the attacks these refusals stop).
ln -sf report.json "$TMP/link.json"
cp "$TMP/report.json" "$TMP/report.before"
run "-o on a symlink" 3 "$BIN" --root testdata/host-6.18 preflight -o "$TMP/link.json" &&
	one_error_line "-o on a symlink message" "link.json" "symbolic link" &&
	[ -L "$TMP/link.json" ] && cmp -s "$TMP/report.json" "$TMP/report.before" &&
	ok "-o on a symlink leaves the link and its target alone" || bad "-o on a symlink leaves both alone"
run "-o /dev/null" 3 "$BIN" --root testdata/host-6.18 preflight -o /dev/null &&
	one_error_line "-o /dev/null message" "/dev/null" "not a regular file"
run "-o on a directory" 3 "$BIN" --root testdata/host-6.18 preflight -o "$TMP/" &&
	one_error_line "-o on a directory message" "$TMP/"
if [ "$(id -u)" -ne 0 ]; then
	# A writable file in a directory that takes no new file: written in place, as before.
	mkdir "$TMP/ro" && cp "$TMP/report.json" "$TMP/ro/r.json" && cp "$TMP/report.json" "$TMP/ro/k.json" &&
		chmod 0444 "$TMP/ro/k.json" && chmod 0555 "$TMP/ro"
	ro_ino=$(ino "$TMP/ro/r.json")
	run "-o into a read-only directory" 0 "$BIN" --root testdata/host-6.18 preflight --format prometheus -o "$TMP/ro/r.json" &&
		[ "$(ino "$TMP/ro/r.json")" = "$ro_ino" ] && grep -q '^uringlint_' "$TMP/ro/r.json" &&
		ok "-o in a read-only directory writes the file in place" || bad "-o in a read-only directory writes in place"
	# Neither replaceable nor writable: one line, exit 3, the old file whole.
	run "-o on a read-only file" 3 "$BIN" --root testdata/host-6.18 preflight -o "$TMP/ro/k.json" &&
		one_error_line "-o read-only file message" "$TMP/ro/k.json" && cmp -s "$TMP/report.json" "$TMP/ro/k.json" &&
		ok "-o that cannot write leaves the old file whole" || bad "-o that cannot write leaves the old file whole"
	chmod 0755 "$TMP/ro"
else
	skip "-o into a read-only directory" "root writes anywhere (the nobody rerun covers it)"
fi

# A hostile tree: garbage gives error findings, the JSON stays valid.
H="$TMP/hostile"
mkdir -p "$H/proc/sys/kernel" "$H/proc/self"
echo banana >"$H/proc/sys/kernel/osrelease"
printf 'zero\n' >"$H/proc/sys/kernel/io_uring_disabled"
printf 'Name:\tx\n' >"$H/proc/self/status"
mkfifo "$H/proc/self/limits"
run "hostile tree" 1 timeout 10 "$BIN" --root "$H" preflight --format json &&
	if jq -e '[.findings[] | select(.status == "pass")] | length == 0' "$TMP/out" >/dev/null &&
		jq -e '.summary.error >= 3' "$TMP/out" >/dev/null; then ok "hostile tree: errors, no pass"
	else bad "hostile tree: errors, no pass" "$(jq -c '.findings[] | [.id, .status, .message]' "$TMP/out")"; fi

# --- policy and gates ---------------------------------------------------------
run "--skip shows suppressed" 0 "$BIN" --root testdata/host-6.18 preflight --skip memlock-limit --format json &&
	jq -e '.findings[] | select(.id == "memlock-limit" and .status == "skip" and
		(.message | contains("suppressed by policy")))' "$TMP/out" >/dev/null &&
	ok "--skip shows suppressed" || bad "--skip shows suppressed"
run "--only" 0 "$BIN" --root testdata/host-6.18 --only kernel-version preflight --format json &&
	[ "$(jq '.findings | length' "$TMP/out")" = 1 ] && ok "--only runs one check" || bad "--only runs one check"
run "--fail-on warn" 1 "$BIN" --root testdata/host-6.18 --fail-on warn preflight && ok "--fail-on warn exits 1"
run "--fail-on never" 0 "$BIN" --root testdata/uring-disabled-2 --fail-on never preflight && ok "--fail-on never exits 0"
run "-q hides passes" 0 "$BIN" --root testdata/host-6.18 -q preflight &&
	! grep -q kernel-version "$TMP/out" && grep -q memlock-limit "$TMP/out" && ok "-q hides passes" || bad "-q hides passes"
run "-v shows evidence" 0 "$BIN" --root testdata/host-6.18 -v preflight &&
	grep -q 'evidence: { "version": "6.18.44"' "$TMP/out" && ok "-v shows evidence" || bad "-v shows evidence" "$(cat "$TMP/out")"

# Colour only on a terminal, and never with NO_COLOR or --no-color.
if command -v script >/dev/null; then
	script -qec "'$BIN' --root testdata/host-6.18 preflight" /dev/null >"$TMP/tty" 2>&1
	grep -q $'\033\\[' "$TMP/tty" && ok "colour on a terminal" || bad "colour on a terminal"
	NO_COLOR=1 script -qec "'$BIN' --root testdata/host-6.18 preflight" /dev/null >"$TMP/tty" 2>&1
	grep -q $'\033\\[' "$TMP/tty" && bad "NO_COLOR respected" || ok "NO_COLOR respected"
	script -qec "'$BIN' --root testdata/host-6.18 preflight --no-color" /dev/null >"$TMP/tty" 2>&1
	grep -q $'\033\\[' "$TMP/tty" && bad "--no-color respected" || ok "--no-color respected"
else
	skip "colour on a terminal" "script(1) is missing"
fi
run "no colour into a pipe" 0 "$BIN" --root testdata/host-6.18 preflight &&
	! grep -q $'\033\\[' "$TMP/out" && ok "no colour into a pipe" || bad "no colour into a pipe"

# --- fleet: report merge of three hosts ----------------------------------------------
for t in host-6.18 uring-disabled-2 old-5.10-memlock-64k; do
	"$BIN" --root "testdata/$t" preflight --dir / --format json >"$TMP/fleet-$t.json"
done
"$BIN" report merge "$TMP"/fleet-*.json --no-color >"$TMP/merge.txt"
echo "exit $?" >>"$TMP/merge.txt"
compare "report merge of three hosts" "$TMP/merge.txt" "$EXP/merge-3-hosts.txt"
run "report merge json" 1 "$BIN" report merge "$TMP"/fleet-*.json --format json &&
	jq -e '.findings[] | select(.id == "io-uring-disabled-sysctl") | .status == "fail" and
		.evidence.fail == 1 and .evidence.pass == 1 and .evidence.skip == 1 and .evidence.failing_hosts == ["vm"]' \
		"$TMP/out" >/dev/null && ok "merge: counts and failing hosts per check" || bad "merge: counts" "$(jq -c '.findings[2]' "$TMP/out")"
echo '{"schema_version": 2}' >"$TMP/v2.json"
run "merge: not a report" 2 "$BIN" report merge "$TMP/v2.json" && one_error_line "merge: not a report message" "v2.json"
printf 'not json' >"$TMP/garbage.json"
run "merge: garbage" 2 "$BIN" report merge "$TMP/garbage.json" && one_error_line "merge: garbage message" "garbage.json"
run "merge: missing file" 3 "$BIN" report merge /nonexistent/r.json && one_error_line "merge: missing message" "/nonexistent/r.json"
run "merge: nothing" 2 "$BIN" report merge && one_error_line "merge: nothing message" "merge"

# --- packaging: the man page, the completion, install into a DESTDIR ----------------
MANPAGE=build/uringlint.1
if [ -f "$MANPAGE" ] && command -v man >/dev/null; then
	MANWIDTH=80 man --warnings -l "$MANPAGE" >"$TMP/man.txt" 2>"$TMP/man.err"
	[ ! -s "$TMP/man.err" ] && [ -s "$TMP/man.txt" ] && ok "man page renders without warnings" ||
		bad "man page renders without warnings" "$(head -5 "$TMP/man.err")"
	missing=$("$BIN" checks --format json | jq -r '.[].id' | while read -r id; do
		grep -q "^ *$id\$" "$TMP/man.txt" || echo "$id"; done)
	[ -z "$missing" ] && ok "man page lists every check of the table" || bad "man page lists every check" "$missing"
else
	skip "man page" "build/uringlint.1 or man is missing"
fi
COMPLETION=build/uringlint.bash-completion
bash -n "$COMPLETION" && ok "bash completion parses" || bad "bash completion parses"
# The completion and the man page are generated from the command table; this
# asks them, through bash-completion itself and the rendered page, for every
# command, every option its --help lists, and every check, so a generator
# that drops one fails here. Each option is also fed to the command, which
# must not call it unrecognized: help, completion and getopt are one table.
# TABLE_BIN asks the tables: the same build, but not under memcheck when
# valgrind.sh sets it, since these 150 runs only ask the binary about its
# own tables (85 s under valgrind; the option parser has a fuzz harness).
TABLE_BIN=${TABLE_BIN:-$BIN}
completions() { PATH=$(dirname "$TABLE_BIN"):$PATH bash tests/e2e/complete.sh "$COMPLETION" "$1"; }
help_opts() { # the options a command's --help lists, global ones included
	grep -o -- '^  \(-[a-zA-Z], \)\?--[a-z][a-z-]*' "$TMP/help.$1" | grep -o -- '--[a-z-]*' | sort -u
}
if [ -f /usr/share/bash-completion/bash_completion ]; then
	drift=
	cmds=$("$TABLE_BIN" --help | awk '/^Commands/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}')
	offered=$(completions "uringlint " | sort)
	for c in $cmds; do
		grep -qx "$c" <<<"$offered" || drift+="completion: no command $c"$'\n'
		grep -q "^\.B $c\$" "$MANPAGE" 2>/dev/null || drift+="man page: no command $c"$'\n'
		"$TABLE_BIN" "$c" --help >"$TMP/help.$c"
		want=$(help_opts "$c")
		got=$(completions "uringlint $c --" | sort -u)
		[ "$want" = "$got" ] || drift+="completion of '$c --': $(diff <(echo "$want") <(echo "$got") | grep '^[<>]' | tr '\n' ' ')"$'\n'
		for o in $want; do
			grep -q -- "$o\b" "$TMP/man.txt" 2>/dev/null || drift+="man page: no $o"$'\n'
			# Never runs the command: an option that takes a value is given none
			# (getopt stops there), a flag is followed by an unknown option.
			if grep -q -- "^  \(-[a-zA-Z], \)\?$o [A-Z]" "$TMP/help.$c"; then
				"$TABLE_BIN" "$c" "$o" </dev/null >/dev/null 2>"$TMP/opt.err"
			else
				"$TABLE_BIN" "$c" "$o" --no-such-option </dev/null >/dev/null 2>"$TMP/opt.err"
			fi
			grep -q "unrecognized option '$o'" "$TMP/opt.err" && drift+="$c rejects its own $o"$'\n'
		done
	done
	ids=$("$TABLE_BIN" checks --format json | jq -r '.[].id' | sort)
	[ "$(completions "uringlint explain " | sort)" = "$ids" ] || drift+="completion of explain: not every check id"$'\n'
	[ "$(completions "uringlint --skip " | sort)" = "$ids" ] || drift+="completion of --skip: not every check id"$'\n'
	[ -z "$drift" ] && ok "completion and man page name every command, option and check" ||
		bad "completion and man page name every command, option and check" "${drift%$'\n'}"
	# A value is completed by its kind: words, directories, nothing for a number.
	[ "$(completions "uringlint probe --mode sq" | sort | tr '\n' ' ')" = "sqpoll sqpoll-fixed " ] &&
		[ -z "$(completions "uringlint preflight --depth ")" ] &&
		[ "$(completions "uringlint report m")" = merge ] &&
		completions "uringlint audit " | grep -qx "$$" &&
		ok "completion completes values by kind (words, none for a number, merge, PIDs)" ||
		bad "completion completes values by kind"
else
	skip "completion through bash-completion" "/usr/share/bash-completion/bash_completion is missing"
fi
if [ ! -w Makefile ] || [ ! -w build ]; then
	# make install refreshes build/FLAGS first; a read-only checkout (the nobody rerun) cannot.
	skip "make install into a DESTDIR" "the checkout or build/ is not writable by $(id -un)"
elif make -s install DESTDIR="$TMP/dest" PREFIX=/usr >"$TMP/install.log" 2>&1; then
	"$TMP/dest/usr/bin/uringlint" -V >"$TMP/v" && [ -f "$TMP/dest/usr/share/man/man1/uringlint.1" ] &&
		[ -f "$TMP/dest/usr/share/bash-completion/completions/uringlint" ] &&
		"$TMP/dest/usr/bin/uringlint" --root testdata/host-6.18 preflight --fail-on never >/dev/null
	rc=$?
	[ "$rc" -eq 0 ] && ok "make install into a DESTDIR: binary, man page, completion; the installed binary runs" ||
		bad "make install into a DESTDIR" "exit $rc of -V, the man page, the completion or the installed preflight" \
			"$(cat "$TMP/install.log")"
	make -s uninstall DESTDIR="$TMP/dest" PREFIX=/usr >/dev/null 2>&1
	[ -z "$(find "$TMP/dest" -type f)" ] && ok "make uninstall removes what install put" || bad "make uninstall" "$(find "$TMP/dest" -type f)"
else
	bad "make install into a DESTDIR" "$(cat "$TMP/install.log")"
fi

# --- the policy file -------------------------------------------------------------
printf '# deploy policy\nskip = memlock-limit\nfail-on = warn\nsqpoll-cpu = 1\n\ndata-path = /srv/*\n' >"$TMP/good.conf"
run "config: good file" 1 "$BIN" --root testdata/host-6.18 preflight --config "$TMP/good.conf" --format json &&
	jq -e '(.findings[] | select(.id == "memlock-limit") | .status == "skip" and (.message | contains("suppressed by policy")))
		and (.findings[] | select(.id == "sqpoll-cpu-isolated") | .subject == "cpu 1")' "$TMP/out" >/dev/null &&
	ok "config: skip, fail-on and the planned SQPOLL CPU apply" || bad "config: good file" "$(jq -c '.findings[:12][] | [.id,.status,.subject]' "$TMP/out")"
run "config: --skip adds to the file's" 1 "$BIN" --root testdata/host-6.18 preflight --config "$TMP/good.conf" --skip kernel-version --format json &&
	[ "$(jq '[.findings[] | select(.status == "skip" and (.message | contains("suppressed")))] | length' "$TMP/out")" = 2 ] &&
	ok "config: --skip adds to the file's list" || bad "config: --skip adds"
run "config: --fail-on overrides the file" 0 "$BIN" --root testdata/host-6.18 preflight --config "$TMP/good.conf" --fail-on never && ok "config: the command line wins"
printf 'skip = memlock-limit\nbogus = 1\n' >"$TMP/bad.conf"
run "config: unknown key" 2 "$BIN" --config "$TMP/bad.conf" checks && one_error_line "config: unknown key message" "bad.conf:2" "unknown key"
printf 'depth = zero\n' >"$TMP/bad2.conf"
run "config: bad value" 2 "$BIN" --config "$TMP/bad2.conf" checks && one_error_line "config: bad value message" "bad2.conf:1" "depth"
printf 'this is not a setting\n' >"$TMP/bad3.conf"
run "config: bad line" 2 "$BIN" --config "$TMP/bad3.conf" checks && one_error_line "config: bad line message" "bad3.conf:1"
run "config: missing file" 2 "$BIN" --config "$TMP/nosuch.conf" checks && one_error_line "config: missing file message" "nosuch.conf"
printf 'sqpoll-cpu = 7\n' >"$TMP/offline.conf"
run "config: offline SQPOLL CPU" 2 "$BIN" --root testdata/host-6.18 preflight --config "$TMP/offline.conf" &&
	one_error_line "config: offline SQPOLL CPU names the file" "sqpoll-cpu in the policy file" "here: 7"
printf 'skip = kernel-version , memlock-limit,\n' >"$TMP/spaced.conf"
run "config: a list with blanks" 0 "$BIN" --root testdata/host-6.18 preflight --config "$TMP/spaced.conf" --fail-on never --format json &&
	[ "$(jq '[.findings[] | select(.message | contains("suppressed"))] | length' "$TMP/out")" = 2 ] &&
	ok "config: 'a , b,' skips a and b" || bad "config: a list with blanks" "$(cat "$TMP/err")"
awk 'BEGIN { printf "skip = "; for (i = 0; i < 5000; i++) printf "x"; print "" }' >"$TMP/long.conf"
run "config: a line too long" 2 "$BIN" --config "$TMP/long.conf" checks && one_error_line "config: long line message" "long.conf:1" "longer than"

# --- the other commands ------------------------------------------------------
run "--help" 0 "$BIN" --help && grep -q '^Usage: uringlint' "$TMP/out" && [ ! -s "$TMP/err" ] && ok "--help to stdout"
run "preflight -h" 0 "$BIN" preflight -h && grep -q 'preflight \[--dir DIR\]' "$TMP/out" && ok "command help"
run "--version" 0 "$BIN" -V && grep -q "^uringlint [0-9]" "$TMP/out" && grep -q "liburing" "$TMP/out" &&
	grep -q "liburing" "$TMP/out" && grep -q "libblkid" "$TMP/out" && grep -q "libproc2 [0-9]" "$TMP/out" && grep -q "^kernel " "$TMP/out" && ok "--version"
run "checks" 0 "$BIN" checks && grep -q "^ID  *SCOPE  *SEVERITY  *TITLE" "$TMP/out" &&
	grep -q "^memlock-limit  *host  *high" "$TMP/out" && ok "checks table" || bad "checks table"
run "checks json" 0 "$BIN" checks --format json &&
	jq -e 'length >= 4 and all(.[]; has("id") and has("scope") and has("severity") and has("title"))' \
		"$TMP/out" >/dev/null && ok "checks json" || bad "checks json"
run "explain" 0 "$BIN" explain memlock-limit && grep -q "^Why it matters:" "$TMP/out" &&
	grep -q "CAP_IPC_LOCK" "$TMP/out" && ok "explain" || bad "explain"
# One form of a check: explain's JSON is the checks listing's entry with its texts.
"$BIN" checks --format json | jq '.[] | select(.id == "memlock-limit")' >"$TMP/check-entry.json"
run "explain json" 0 "$BIN" explain memlock-limit --format json &&
	jq -e --slurpfile e "$TMP/check-entry.json" '. as $x | ($e[0] | length) > 5 and
		all($e[0] | to_entries[]; $x[.key] == .value) and (.why | length) > 0 and
		(.fix | length) > 0' "$TMP/out" >/dev/null &&
	ok "explain json: the checks listing's entry, whole, with why and fix" ||
	bad "explain json: the checks listing's entry, whole, with why and fix" "$(head -c 300 "$TMP/out")"

# --- live on this host -------------------------------------------------------
run "live preflight json" 0 "$BIN" --fail-on never preflight --format json &&
	if jq -e '.schema_version == 1 and (.tool | has("name") and has("version")) and
		(.host | has("hostname") and has("kernel") and has("liburing") and has("cpus")) and
		(.summary | has("pass") and has("warn") and has("fail") and has("skip") and has("error")) and
		(.findings | length >= 4) and
		all(.findings[]; has("id") and has("title") and has("category") and has("severity") and
			has("status") and has("subject") and has("pid") and has("message") and
			has("evidence") and has("fix") and has("reference"))' "$TMP/out" >/dev/null
	then ok "live JSON carries every pinned key"; else bad "live JSON carries every pinned key"; fi
jq -e '.findings[] | select(.id == "io-uring-available") | .evidence.tested == "live"' "$TMP/out" >/dev/null &&
	ok "live io-uring-available tested live" || bad "live io-uring-available tested live"

if [ -x "$HELPERS/seccomp-deny" ]; then
	run "seccomp EPERM" 1 "$HELPERS/seccomp-deny" 1 "$BIN" preflight --format json &&
		jq -e '.findings[] | select(.id == "io-uring-available" and .status == "fail" and
			(.message | contains("EPERM")) and (.message | contains("seccomp")))' "$TMP/out" >/dev/null &&
		ok "seccomp EPERM triaged" || bad "seccomp EPERM triaged" "$(jq -c '.findings[1]' "$TMP/out")"
	run "seccomp ENOSYS" 1 "$HELPERS/seccomp-deny" 38 "$BIN" preflight --format json &&
		jq -e '.findings[] | select(.id == "io-uring-available" and .status == "fail" and
			(.message | contains("ENOSYS while a seccomp filter")))' "$TMP/out" >/dev/null &&
		ok "seccomp ENOSYS triaged" || bad "seccomp ENOSYS triaged"
else
	skip "seccomp triage" "$HELPERS/seccomp-deny not built"
fi

# As nobody with RLIMIT_MEMLOCK 0, 6.14+ refuses even a one-entry ring.
if [ "$(id -u)" -ne 0 ]; then
	skip "memlock ENOMEM as nobody" "needs root to switch to nobody"
elif ! command -v setpriv >/dev/null; then
	skip "memlock ENOMEM as nobody" "setpriv is missing"
else
	install -m 0755 "$BIN" "$TMP/uringlint"
	chmod 0755 "$TMP"
	run "memlock 0 as nobody" 1 setpriv --reuid=65534 --regid=65534 --clear-groups \
		sh -c "ulimit -l 0 && exec '$TMP/uringlint' preflight --format json" &&
		jq -e '.findings[] | select(.id == "memlock-limit" and .status == "fail")' "$TMP/out" >/dev/null &&
		ok "memlock 0 fails memlock-limit" || bad "memlock 0 fails memlock-limit"
	kernel=$(uname -r)
	case "$kernel" in
	5.1[2-9]* | 6.[0-9].* | 6.1[0-3].*) want="ok" ;; # rings not charged to memlock
	*) want="ENOMEM" ;;
	esac
	if [ "$want" = ENOMEM ]; then
		jq -e '.findings[] | select(.id == "io-uring-available" and .status == "fail" and
			(.message | contains("ENOMEM")))' "$TMP/out" >/dev/null &&
			ok "memlock 0: io_uring_setup ENOMEM triaged" || bad "memlock 0: io_uring_setup ENOMEM triaged"
	else
		skip "memlock 0: ENOMEM" "Linux $kernel does not charge rings to RLIMIT_MEMLOCK"
	fi
fi

# A limit that holds a one-entry ring but not the service's: io-uring-available tries
# the planned --ring-entries too, and names the limit and the size; io-uring-features
# names the limit, not the kernel, for what was refused with ENOMEM. The sizes are
# measured by ring-need (each limit tried under a fresh uid), not taken from uringlint.
# The charge is per user, and other suites may run as nobody meanwhile: each run here
# is an unprivileged uid no other process has.
fresh_uid=$((0x60000000 + ($$ & 0xffff) * 16))
as_fresh_user() { # KIB ARGS...: uringlint as an unused uid under ulimit -l KIB
	local kib=$1
	shift
	fresh_uid=$((fresh_uid + 1))
	setpriv --reuid=$fresh_uid --regid=$fresh_uid --clear-groups \
		sh -c "ulimit -l $kib && exec \"\$0\" \"\$@\"" "$TMP/uringlint" "$@"
}
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	skip "planned ring under a low limit" "needs root and setpriv to switch users"
elif ! need=$("$HELPERS/ring-need" 4 4096 2>"$TMP/need.err"); then
	skip "planned ring under a low limit" "ring-need: $(head -n 1 "$TMP/need.err")"
else
	set -- $(awk '{print $2}' <<<"$need")
	install -m 0755 "$BIN" "$TMP/uringlint"
	chmod 0755 "$TMP"
	if [ "$2" = 0 ]; then
		skip "planned ring under a low limit" "Linux $(uname -r) does not charge rings to RLIMIT_MEMLOCK (measured)"
	elif [ $((64 << 10)) -ge "$2" ] || [ $((64 << 10)) -lt $((2 * $1)) ]; then
		bad "planned ring under a low limit" "64 KiB should hold two 4-entry rings ($1 bytes each), not a 4096-entry one ($2)"
	else
		run "64 KiB, --ring-entries 4096, unprivileged" 1 as_fresh_user 64 preflight --ring-entries 4096 \
			--only io-uring-available,io-uring-features --format json &&
			jq -e --argjson n "$2" '.findings[] | select(.id == "io-uring-available") | .status == "fail" and
				.evidence.planned_entries == 4096 and .evidence.planned_error == "ENOMEM" and
				.evidence.planned_ring_memlock_bytes == $n and
				(.message | contains("one-entry ring but returned ENOMEM for a 4096-entry ring") and
				contains("RLIMIT_MEMLOCK is 64 KiB and a 4096-entry ring needs \($n / 1024) KiB"))' \
				"$TMP/out" >/dev/null &&
			ok "64 KiB: io-uring-available fails for the planned 4096 entries, with the $2 bytes measured" ||
			bad "64 KiB: io-uring-available fails for the planned ring" "$(jq -c '.findings[]' "$TMP/out")"
		run "64 KiB, --ring-entries 64, unprivileged" 0 as_fresh_user 64 preflight --ring-entries 64 \
			--only io-uring-available --format json &&
			jq -e '.findings[0] | .status == "pass" and (.message | contains("a 64-entry ring (--ring-entries)"))' \
				"$TMP/out" >/dev/null && ok "64 KiB: a 64-entry plan passes" ||
			bad "64 KiB: a 64-entry plan passes" "$(jq -c '.findings[]' "$TMP/out")"
		# Room for the probe's own 4-entry ring and nothing more.
		kib=$(($1 / 1024))
		run "$kib KiB, unprivileged" 1 as_fresh_user "$kib" preflight --ring-entries 1 \
			--only io-uring-features --format json &&
			jq -e --arg l "RLIMIT_MEMLOCK is $kib KiB" '.findings[0] | .status == "fail" and
				(.message | contains("could not be tried: io_uring refused them memory (ENOMEM)") and
				contains($l) and contains("REGISTER_BUFFERS") and (contains("missing") | not)) and
				(.fix | contains("LimitMEMLOCK") and (contains("kernel") | not))' "$TMP/out" >/dev/null &&
			ok "$kib KiB: io-uring-features names RLIMIT_MEMLOCK, not the kernel" ||
			bad "$kib KiB: io-uring-features names RLIMIT_MEMLOCK" "$(jq -c '.findings[]' "$TMP/out")"
	fi
fi

# --- live data directories ----------------------------------------------------
# /dev/shm: tmpfs takes O_DIRECT as a no-op (6.6+) or refuses it; either way it fails.
if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	run "dir /dev/shm" 1 "$BIN" preflight --dir /dev/shm --only fs-o-direct,fs-type --format json &&
		jq -e '[.findings[] | select(.subject == "/dev/shm" and .status == "fail")] | length == 2' \
			"$TMP/out" >/dev/null &&
		jq -e '.findings[] | select(.id == "fs-o-direct") | .message | test("no-op|Invalid argument")' \
			"$TMP/out" >/dev/null && ok "/dev/shm fails fs-o-direct with the reason" ||
		bad "/dev/shm fails fs-o-direct with the reason" "$(jq -c '.findings' "$TMP/out")"
else
	skip "dir /dev/shm" "no tmpfs at /dev/shm"
fi

# An XFS loop mount: xfs, its loop device, its alignment; judged apart from a second --dir.
if [ "$(id -u)" -ne 0 ]; then
	skip "XFS loop mount" "needs root to mount a loop device"
elif ! command -v mkfs.xfs >/dev/null; then
	skip "XFS loop mount" "mkfs.xfs is missing (xfsprogs)"
else
	if xfs_mount; then
		run "dir on XFS loop" 0 "$BIN" --fail-on never preflight --dir "$TMP/xfs" --dir /dev/shm --format json
		cp "$TMP/out" "$TMP/xfs.json"
		q() { jq -e "$1" "$TMP/xfs.json" >/dev/null; }
		q ".findings[] | select(.id == \"fs-type\" and .subject == \"$TMP/xfs\" and .status == \"pass\" and
			.evidence.fs == \"xfs\" and (.evidence.device | startswith(\"loop\")) and .evidence.blkid_type == \"xfs\")" &&
			ok "XFS dir: xfs on a loop device" || bad "XFS dir: xfs on a loop device" "$(jq -c '.findings[] | select(.id == "fs-type")' "$TMP/xfs.json")"
		q ".findings[] | select(.id == \"dio-alignment\" and .subject == \"$TMP/xfs\" and
			.evidence.offset_align >= 512 and .evidence.source == \"statx(STATX_DIOALIGN)\")" &&
			ok "XFS dir: alignment from statx" || bad "XFS dir: alignment from statx"
		q ".findings[] | select(.id == \"fs-o-direct\" and .subject == \"$TMP/xfs\" and .status == \"pass\")" &&
			ok "XFS dir: O_DIRECT works" || bad "XFS dir: O_DIRECT works"
		q ".findings[] | select(.id == \"blk-stacked\" and .subject == \"$TMP/xfs\" and .status == \"warn\")" &&
			ok "XFS dir: loop device named as stacked" || bad "XFS dir: loop device named as stacked"
		q '[.findings[] | select(.id == "fs-type")] | length == 2 and .[0].evidence.fs == "xfs" and .[1].evidence.fs == "tmpfs"' &&
			ok "two --dir judged separately" || bad "two --dir judged separately"
		[ -z "$(ls -A "$TMP/xfs")" ] && ok "XFS dir: nothing left behind" || bad "XFS dir: nothing left behind" "$(ls -A "$TMP/xfs")"
		umount "$TMP/xfs"
	else
		# Root with mkfs.xfs has all a loop mount needs: its failure is one.
		bad "XFS loop mount" "mount failed: $(cat "$TMP/mount.err")"
	fi
fi

# A directory the service cannot write: the O_DIRECT try skips with the reason.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	mkdir -p "$TMP/ro-dir" && chmod 0755 "$TMP/ro-dir"
	run "unwritable dir as nobody" 0 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$TMP/uringlint" --fail-on never preflight --dir "$TMP/ro-dir" --only fs-o-direct --format json &&
		jq -e '.findings[0] | .status == "skip" and (.message | contains("Permission denied"))' "$TMP/out" >/dev/null &&
		ok "unwritable dir skips fs-o-direct" || bad "unwritable dir skips fs-o-direct" "$(cat "$TMP/out")"
else
	skip "unwritable dir as nobody" "needs root and setpriv"
fi

# Changing kernel.io_uring_disabled affects every process on the host: only in CI
# (a throwaway machine) or when asked.
if [ "${CI:-}" != true ] && [ "${URINGLINT_TEST_SYSCTL:-}" != 1 ]; then
	skip "live io_uring_disabled" "changes a host-wide sysctl; runs in CI or with URINGLINT_TEST_SYSCTL=1"
elif [ "$(id -u)" -ne 0 ] || [ ! -w /proc/sys/kernel/io_uring_disabled ]; then
	skip "live io_uring_disabled" "needs root and kernel.io_uring_disabled (6.6+)"
else
	old=$(cat /proc/sys/kernel/io_uring_disabled)
	trap 'echo "$old" > /proc/sys/kernel/io_uring_disabled; cleanup_live' EXIT
	echo 2 >/proc/sys/kernel/io_uring_disabled
	run "live io_uring_disabled=2" 1 "$BIN" preflight --format json
	echo 1 >/proc/sys/kernel/io_uring_disabled
	cp "$TMP/out" "$TMP/disabled2.json"
	run "live io_uring_disabled=1 as nobody" 1 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$TMP/uringlint" preflight --format json
	echo "$old" >/proc/sys/kernel/io_uring_disabled
	jq -e '.findings[] | select(.id == "io-uring-available" and .status == "fail" and
		.evidence.tested == "live" and (.message | contains("kernel.io_uring_disabled = 2")))' \
		"$TMP/disabled2.json" >/dev/null && ok "live disabled=2 names the sysctl" ||
		bad "live disabled=2 names the sysctl"
	jq -e '.findings[] | select(.id == "io-uring-available" and .status == "fail" and
		(.message | contains("uid 65534 lacks CAP_SYS_ADMIN")))' "$TMP/out" >/dev/null &&
		ok "live disabled=1 names the group rule" || bad "live disabled=1 names the group rule"
fi

echo "e2e: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
