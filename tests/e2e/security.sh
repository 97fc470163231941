#!/bin/bash
# make check: a hostile local user against a root uringlint. Each case is an
# attack a user without privileges (nobody, through setpriv) can make on
# this host, and what root's run must then do: refuse with one line and the
# documented exit status, never write, block or take the user's word for
# another's. Each of these attacks worked on the tool before its fix.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh
. tests/e2e/live.sh

NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
FIX=testdata/host-6.18

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	skip "attacks by another user" "needs root and setpriv to act as nobody"
	echo "security: $passed passed, $failed failed, $skipped skipped"
	exit 0
fi
chmod 0755 "$TMP"
# Debian's python3, which nobody may run (a python3 earlier in root's PATH may not be).
PY=$( [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3)

# --- -o FILE in a directory another user can write --------------------------------
# A shared reports directory: nobody may create and remove names in it.
SH=$TMP/shared
mkdir "$SH" && chmod 0777 "$SH"
printf 'root only\n' >"$TMP/secret" && chmod 0600 "$TMP/secret"
cp "$TMP/secret" "$TMP/secret.orig"

"${NOBODY[@]}" ln -s "$TMP/secret" "$SH/uringlint.prom"
run "-o on another user's symlink" 3 "$BIN" --root "$FIX" preflight --format prometheus \
	-o "$SH/uringlint.prom" &&
	one_error_line "-o on another user's symlink: message" "$SH/uringlint.prom" "symbolic link" &&
	cmp -s "$TMP/secret" "$TMP/secret.orig" && [ "$(stat -c %a "$TMP/secret")" = 600 ] &&
	ok "-o on another user's symlink: the link's target untouched" ||
	bad "-o on another user's symlink: the link's target untouched" "$(head -c 200 "$TMP/secret")"
rm -f "$SH/uringlint.prom"

"${NOBODY[@]}" mkfifo "$SH/uringlint.prom"
timeout 10 "$BIN" --root "$FIX" preflight -o "$SH/uringlint.prom" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 3 ] && grep -q "FIFO" "$TMP/err" && ok "-o on another user's FIFO: refused, not blocked" ||
	bad "-o on another user's FIFO: refused, not blocked" "exit $rc (124: blocked)" "$(cat "$TMP/err")"
rm -f "$SH/uringlint.prom"

# A name that another user turns from a file into a link to root's file and back
# while root writes, 40 times: the target is never written.
"${NOBODY[@]}" bash -c "while :; do ln -sfn '$TMP/secret' '$SH/race.prom.l' && mv -fT '$SH/race.prom.l' '$SH/race.prom'; : >'$SH/race.prom.f' && mv -fT '$SH/race.prom.f' '$SH/race.prom'; done" &
racer=$!
kids+=("$racer")
for _ in $(seq 40); do
	"$BIN" --root "$FIX" preflight --format prometheus -o "$SH/race.prom" >/dev/null 2>&1
done
kill "$racer" 2>/dev/null
wait "$racer" 2>/dev/null
cmp -s "$TMP/secret" "$TMP/secret.orig" && ok "-o racing a symlink swap: root's file never written" ||
	bad "-o racing a symlink swap: root's file never written" "$(head -c 200 "$TMP/secret")"

# A file of nobody's at the name: replaced by root's own, never written into.
"${NOBODY[@]}" sh -c "echo planted >'$SH/theirs.json' && chmod 0666 '$SH/theirs.json' && ln '$SH/theirs.json' '$SH/theirs.hard'"
run "-o on another user's file" 0 "$BIN" --root "$FIX" preflight --format json -o "$SH/theirs.json" &&
	jq -e '.schema_version == 1' "$SH/theirs.json" >/dev/null &&
	[ "$(stat -c %U "$SH/theirs.json")" = root ] && [ "$(cat "$SH/theirs.hard")" = planted ] &&
	[ "$(stat -c %a "$SH/theirs.json")" = "$(printf '%o' $((0666 & ~$(umask))))" ] &&
	ok "-o on another user's file: a new file of root's, the other link untouched" ||
	bad "-o on another user's file" "$(ls -la "$SH")"

# Killed after the report is written and before it has its name: nothing is left.
printf 'old\n' >"$SH/killed.json"
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
	LD_PRELOAD=$PWD/$HELPERS/kill-on-publish.so "$BIN" --root "$FIX" preflight --format json \
	-o "$SH/killed.json" >/dev/null 2>&1
rc=$?
left=$(find "$SH" -name '.killed.json*')
[ "$rc" -eq 137 ] && [ -z "$left" ] && [ "$(cat "$SH/killed.json")" = old ] &&
	ok "-o killed before the rename: no temporary file left, the old file whole" ||
	bad "-o killed before the rename" "exit $rc, left: $left"

# Killed between the link and the rename, the one moment the report has a name of its own
# (.NAME.PID.N): the next run for the name removes it, and the file is whole.
printf 'old\n' >"$SH/killed2.json"
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 KILL_ON_PUBLISH=rename \
	LD_PRELOAD=$PWD/$HELPERS/kill-on-publish.so "$BIN" --root "$FIX" preflight --format json \
	-o "$SH/killed2.json" >/dev/null 2>&1
rc=$?
after_kill=$(find "$SH" -name '.killed2.json.*' | wc -l)
"$BIN" --root "$FIX" preflight --format json -o "$SH/killed2.json" >/dev/null 2>&1
left=$(find "$SH" -name '.killed2.json*')
[ "$rc" -eq 137 ] && [ "$after_kill" -eq 1 ] && [ -z "$left" ] && jq -e '.schema_version == 1' "$SH/killed2.json" >/dev/null &&
	ok "-o killed between link and rename: the next run leaves no temporary name, the file whole" ||
	bad "-o killed between link and rename" "exit $rc, temporary names after the kill: $after_kill, after the next run: $left"

# An old file of root's that is set-user-ID: the new report is not.
printf '#!/bin/sh\n' >"$TMP/suid.prom" && chmod 4755 "$TMP/suid.prom"
run "-o over a set-user-ID file" 0 "$BIN" --root "$FIX" preflight --format prometheus -o "$TMP/suid.prom" &&
	[ "$(stat -c %a "$TMP/suid.prom")" = 755 ] && ok "-o over a set-user-ID file: the new one has no set-ID bit" ||
	bad "-o over a set-user-ID file: the new one has no set-ID bit" "mode $(stat -c %a "$TMP/suid.prom")"

# --- a directory of another user's on the path, swapped for a link ------------------------
# nobody owns a directory on the way to -o's and swaps its subdirectory for a link to a
# directory only root may write, back and forth, while root writes there 60 times: the
# file of root's in that directory is never replaced, and a run that met the link says so.
ROOTONLY=$TMP/rootonly
mkdir "$ROOTONLY" && chmod 0700 "$ROOTONLY"
printf 'root only\n' >"$ROOTONLY/report.prom" && chmod 0600 "$ROOTONLY/report.prom"
cp "$ROOTONLY/report.prom" "$TMP/report.orig"
ino=$(stat -c %i "$ROOTONLY/report.prom")
NB=$SH/nobody
"${NOBODY[@]}" mkdir -p "$NB/reports"
"${NOBODY[@]}" "$PY" -c 'import os, sys, time
d, target = sys.argv[1], sys.argv[2]
os.chdir(d)
while True:
    os.rename("reports", "reports.d")
    os.symlink(target, "reports")
    time.sleep(0.001)
    os.unlink("reports")
    os.rename("reports.d", "reports")
    time.sleep(0.001)' "$NB" "$ROOTONLY" &
racer=$!
kids+=("$racer")
refused=0
for _ in $(seq 60); do
	"$BIN" --root "$FIX" preflight --format prometheus -o "$NB/reports/report.prom" >/dev/null 2>"$TMP/err"
	grep -q "'$NB/reports' is a symbolic link owned by uid 65534" "$TMP/err" && refused=$((refused + 1))
done
kill "$racer" 2>/dev/null
wait "$racer" 2>/dev/null
cmp -s "$ROOTONLY/report.prom" "$TMP/report.orig" && [ "$(stat -c %i "$ROOTONLY/report.prom")" = "$ino" ] &&
	[ -z "$(find "$ROOTONLY" -mindepth 1 ! -name report.prom)" ] &&
	ok "-o racing a parent directory swapped for a link: root's file never replaced ($refused of 60 runs refused)" ||
	bad "-o racing a parent directory swapped for a link: root's file never replaced" \
		"$(ls -la "$ROOTONLY")" "$(head -c 200 "$ROOTONLY/report.prom")"

# The same link left in place: one line that names it and its owner, exit 3. --trace takes
# the same road.
"${NOBODY[@]}" ln -sfn "$ROOTONLY" "$NB/link"
run "-o through another user's link to a directory" 3 "$BIN" --root "$FIX" preflight --format prometheus \
	-o "$NB/link/report.prom" &&
	one_error_line "-o through another user's link to a directory: message" \
		"cannot write '$NB/link/report.prom': '$NB/link' is a symbolic link owned by uid 65534"
printf 'root trace\n' >"$ROOTONLY/trace.json" && chmod 0600 "$ROOTONLY/trace.json"
sleep 30 &
sl=$!
kids+=("$sl")
"$BIN" audit "$sl" --watch 1 --trace "$NB/link/trace.json" --fail-on never >/dev/null 2>"$TMP/err"
rc=$?
kill "$sl" 2>/dev/null
[ "$rc" -eq 3 ] && [ "$(cat "$ROOTONLY/trace.json")" = "root trace" ] &&
	grep -q "'$NB/link' is a symbolic link owned by uid 65534" "$TMP/err" &&
	ok "--trace through another user's link to a directory: refused, exit 3, root's file untouched" ||
	bad "--trace through another user's link to a directory" "exit $rc" "$(cat "$TMP/err")"

# --config and report merge through another user's link to a file of root's (0600): refused,
# and nothing of the file is shown, its value not in an error, its hostname not in a report.
printf 'only = hunter2\nsecret = hunter2\n' >"$ROOTONLY/policy.conf" && chmod 0600 "$ROOTONLY/policy.conf"
"${NOBODY[@]}" ln -s "$ROOTONLY/policy.conf" "$NB/policy.conf"
# shown NAME: a case that fails when the run's output or error holds the secret.
shown() {
	grep -q hunter2 "$TMP/err" "$TMP/out" && bad "$1" "the file's content shown:" "$(grep -h hunter2 "$TMP/err" "$TMP/out")"
}
run "--config through another user's link" 2 "$BIN" --config "$NB/policy.conf" checks &&
	! shown "--config through another user's link: nothing of the file shown" &&
	one_error_line "--config through another user's link: refused, nothing of the file shown" \
		"'$NB/policy.conf' is a symbolic link owned by uid 65534"
"$BIN" --root "$FIX" preflight --format json --fail-on never | jq '.host.hostname = "hunter2" |
	.findings[0].status = "fail"' >"$ROOTONLY/host.json" && chmod 0600 "$ROOTONLY/host.json"
"${NOBODY[@]}" ln -s "$ROOTONLY/host.json" "$NB/host.json"
run "report merge through another user's link" 3 "$BIN" report merge "$NB/host.json" &&
	! shown "report merge through another user's link: nothing of the file shown" &&
	one_error_line "report merge through another user's link: refused, nothing of the file shown" \
		"'$NB/host.json' is a symbolic link owned by uid 65534"
# Root's own policy file with a bad line: its number and what is wrong, never the value.
run "--config's bad value" 2 "$BIN" --config "$ROOTONLY/policy.conf" checks &&
	! shown "--config's bad value: not quoted" && one_error_line "--config's bad value: not quoted" "policy.conf:1" "only"

# --- inputs: a FIFO never holds a run ------------------------------------------------
"${NOBODY[@]}" mkfifo "$SH/policy.conf" "$SH/host.json"
timeout 10 "$BIN" --config "$SH/policy.conf" checks >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "not a regular file" "$TMP/err" &&
	ok "--config on a FIFO: refused, not blocked" || bad "--config on a FIFO" "exit $rc" "$(cat "$TMP/err")"
timeout 10 "$BIN" report merge "$SH/host.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "not a regular file" "$TMP/err" &&
	ok "report merge of a FIFO: refused, not blocked" || bad "report merge of a FIFO" "exit $rc" "$(cat "$TMP/err")"

# capture -o: a link another user planted is not followed, their directory not used.
mkdir "$TMP/capdest" && chmod 0700 "$TMP/capdest"
"${NOBODY[@]}" ln -s "$TMP/capdest" "$SH/cap"
run "capture -o on another user's symlink" 2 "$BIN" capture -o "$SH/cap" &&
	[ -z "$(ls -A "$TMP/capdest")" ] && ok "capture -o on another user's symlink: nothing written" ||
	bad "capture -o on another user's symlink: nothing written" "$(ls -A "$TMP/capdest")"
"${NOBODY[@]}" mkdir "$SH/capdir"
run "capture -o into another user's directory" 2 "$BIN" capture -o "$SH/capdir" &&
	[ -z "$(ls -A "$SH/capdir")" ] && ok "capture -o into another user's directory: refused" ||
	bad "capture -o into another user's directory: refused" "$(ls -A "$SH/capdir")"

# --- a unix socket name that forges a line of /proc/net/unix ----------------------------
# Root's service listens on a unix socket; nobody binds an abstract name holding a
# newline and a whole table line that claims the service's inode. The audit must still
# name the service's socket, its path and state (sock_diag gives each name whole).
VS=$TMP/victim.sock
"$PY" -c 'import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8)
print("ready", flush=True); time.sleep(60)' "$VS" >"$TMP/victim.out" &
victim=$!
kids+=("$victim")
for _ in $(seq 100); do grep -q ready "$TMP/victim.out" 2>/dev/null && break; sleep 0.05; done
vino=$(ls -l "/proc/$victim/fd" 2>/dev/null | sed -n 's/.*socket:\[\([0-9]*\)\].*/\1/p' | head -1)
"${NOBODY[@]}" "$PY" -c 'import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.bind("\0x\n0000000000000000: 00000002 00000000 00000000 0001 01 %s /forged" % sys.argv[1])
print("ready", flush=True); time.sleep(60)' "$vino" >"$TMP/forger.out" &
forger=$!
kids+=("$forger")
for _ in $(seq 100); do grep -q ready "$TMP/forger.out" 2>/dev/null && break; sleep 0.05; done
if [ -z "$vino" ] || [ "$(grep -c " $vino " /proc/net/unix)" -lt 2 ]; then
	bad "a forged unix line: the attack is in place" "inode '$vino'; the table:" "$(grep -a forged /proc/net/unix)"
else
	"$BIN" audit "$victim" --format json --fail-on never >"$TMP/victim.json" 2>"$TMP/victim.err"
	jq -e --argjson i "$vino" --arg p "$VS" '.processes[0].sockets as $s | $s.unix_source == "sock_diag" and
		($s.list[] | select(.inode == $i) | .proto == "unix" and .local == $p and .state == "LISTEN" and
		 (.ambiguous | not) and .error == null)' "$TMP/victim.json" >/dev/null &&
		ok "a forged unix line: the service's socket keeps its path and state" ||
		bad "a forged unix line: the service's socket keeps its path and state" \
			"$(jq -c --argjson i "$vino" '.processes[0].sockets.list[] | select(.inode == $i)' "$TMP/victim.json")"
	# The forger's own name, every byte of it, newline and NULs included.
	"$BIN" audit "$forger" --format json --fail-on never >"$TMP/forger.json" 2>"$TMP/forger.err"
	want=$(printf '\0x\n0000000000000000: 00000002 00000000 00000000 0001 01 %s /forged' "$vino" | base64 -w0)
	jq -e --arg w "$want" '[.processes[0].sockets.list[] | select(.local_base64 == $w)] | length == 1' \
		"$TMP/forger.json" >/dev/null &&
		ok "a forged unix line: the forger's name is given whole (local_base64)" ||
		bad "a forged unix line: the forger's name is given whole" "$(jq -c '.processes[0].sockets.list' "$TMP/forger.json")"
fi
kill "$victim" "$forger" 2>/dev/null

# --- another user's process named irqbalance is not the daemon -----------------------
# A copy of dash called irqbalance, run by nobody with a ban list in its environment.
IMP=$TMP/imp
mkdir "$IMP" && cp "$(type -P dash || type -P sh)" "$IMP/irqbalance" && chmod -R a+rx "$IMP"
"${NOBODY[@]}" env IRQBALANCE_BANNED_CPULIST=0-1 "$IMP/irqbalance" -c 'sleep 30' &
imp=$!
kids+=("$imp")
for _ in $(seq 50); do [ "$(cat "/proc/$imp/comm" 2>/dev/null)" = irqbalance ] && break; sleep 0.05; done
real=$(for p in /proc/[0-9]*; do [ "$(cat "$p/comm" 2>/dev/null)" = irqbalance ] && [ "${p#/proc/}" != "$imp" ] &&
	[ "$(awk '/^Uid:/ {print $2}' "$p/status" 2>/dev/null)" = 0 ] && echo "${p#/proc/}"; done | head -1)
cpus=$(cat /sys/devices/system/cpu/online)
"$BIN" preflight --sqpoll-cpu "${cpus%%[-,]*}" --only irqbalance --format json >"$TMP/irq.json" 2>"$TMP/irq.err"
if [ -n "$real" ]; then
	skip "an impostor irqbalance" "the host runs irqbalance (pid $real): the impostor would not be the first seen"
elif jq -e --argjson p "$imp" '.findings[0] | .status == "pass" and .evidence.running == false and
	(.evidence.impostors | any(.pid == $p and (.why | test("not root"))))' "$TMP/irq.json" >/dev/null; then
	ok "an impostor irqbalance: named in the evidence, its ban list not taken"
else
	bad "an impostor irqbalance: named in the evidence, its ban list not taken" \
		"$(jq -c '.findings[0] | [.status, .message, .evidence]' "$TMP/irq.json")"
fi
kill "$imp" 2>/dev/null

# --- another user's "MariaDB" naming root's files as its option files ---------------------
# A stand-in called mysqld (idle-named), run by nobody with --defaults-file naming its own file,
# which includes a root-only file (0600), a FIFO, and a file that includes itself: uringlint
# reads them as nobody could, from nobody's root, so it takes only nobody's own setting,
# blocks on nothing and loops on nothing.
MY=$TMP/my
mkdir -p "$MY" && cp "$HELPERS/idle-named" "$MY/mysqld" && chmod 0755 "$MY" "$MY/mysqld"
printf '[mysqld]\ninnodb_use_native_aio = OFF\n' >"$MY/secret.cnf" && chmod 0600 "$MY/secret.cnf"
mkfifo "$MY/fifo.cnf" && chmod 0666 "$MY/fifo.cnf"
printf '!include %s\n[mysqld]\ninnodb_flush_method = fsync\n' "$MY/loop.cnf" >"$MY/loop.cnf"
printf '[mysqld]\ninnodb_linux_aio = io_uring\n!include %s\n!include %s\n!include %s\n' \
	"$MY/secret.cnf" "$MY/fifo.cnf" "$MY/loop.cnf" >"$MY/own.cnf"
chmod 0644 "$MY/own.cnf" "$MY/loop.cnf"
"${NOBODY[@]}" "$MY/mysqld" "--defaults-file=$MY/own.cnf" --user=mysql &
fake=$!
kids+=("$fake")
for _ in $(seq 50); do [ "$(cat "/proc/$fake/comm" 2>/dev/null)" = mysqld ] && break; sleep 0.05; done
# A writer blocked on the FIFO until someone opens it to read: uringlint must not.
(echo opened >"$MY/fifo.cnf") 2>/dev/null &
fifo_writer=$!
kids+=("$fifo_writer")
t0=$(date +%s%N)
timeout 20 "$BIN" capture -q -o "$TMP/mycap" --pid "$fake" --dir "$MY" >/dev/null 2>&1
timeout 20 "$BIN" audit "$fake" --watch 0 --format json --fail-on never >"$TMP/my.json" 2>"$TMP/my.err"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
kill "$fake" 2>/dev/null
sleep 0.2
if kill -0 "$fifo_writer" 2>/dev/null; then
	ok "another user's mysqld naming a FIFO: never opened (its writer still waits for a reader)"
	kill "$fifo_writer" 2>/dev/null
else
	bad "another user's mysqld naming a FIFO: never opened" "its writer found a reader"
fi
if [ "$rc" -eq 124 ]; then
	bad "another user's mysqld naming root's files: the audit ends" "it hung on the FIFO"
else
	ok "another user's mysqld naming a FIFO and a self-include: the capture and audit end ($ms ms)"
fi
# What was read of its configuration (processes[].app_config): nobody's own file and the
# file it includes, not root's 0600 one, and the FIFO not opened as a file.
if jq -e --arg own "$MY/own.cnf" --arg loop "$MY/loop.cnf" '.processes[0].app_config |
	.settings.innodb_linux_aio == {value: "io_uring", from: $own} and
	.settings.innodb_flush_method == {value: "fsync", from: $loop} and
	.settings.innodb_use_native_aio == null and .files_unread == true' "$TMP/my.json" >/dev/null; then
	ok "another user's mysqld: its own option files read as it could, root's 0600 one and the FIFO not"
else
	bad "another user's mysqld: read as it could" "$(jq -c '.processes[0].app_config' "$TMP/my.json")" \
		"$(head -3 "$TMP/my.err")"
fi

# --- names that carry a newline into a report's notes ------------------------------------
# A directory name and a program's argv[0] with a newline and a forged PASS line after it.
FORGED=$'\n  PASS   probe-fast-path          forged'
PD="$TMP/dir$FORGED"
mkdir -p "$PD"
"$BIN" probe --dir "$PD" --size 4M --duration 0.2 --mode default --no-color >"$TMP/probe.txt" 2>"$TMP/probe.err"
rc=$?
if [ "$rc" -gt 1 ]; then
	skip "a newline in probe --dir" "the probe could not run here: $(head -c 200 "$TMP/probe.err")"
elif grep -q '^  PASS   probe-fast-path          forged' "$TMP/probe.txt" || ! grep -qF 'dir\n  PASS' "$TMP/probe.txt"; then
	bad "a newline in probe --dir: shown escaped, no forged line" "$(grep -a 'forged' "$TMP/probe.txt" | cat -v)"
else
	ok "a newline in probe --dir: shown escaped, no forged line"
fi
"$BIN" probe --dir "$PD" --size 4M --duration 0.2 --mode default --format markdown >"$TMP/probe.md" 2>/dev/null
if [ "$rc" -le 1 ]; then
	! grep -q '^  PASS   probe-fast-path          forged' "$TMP/probe.md" &&
		ok "a newline in probe --dir: Markdown has no forged line" ||
		bad "a newline in probe --dir: Markdown has no forged line" "$(grep -a 'forged' "$TMP/probe.md")"
fi
ln -s "$(type -P true)" "$TMP/prog$FORGED"
"$BIN" audit --no-color --exec -- "$TMP/prog$FORGED" >"$TMP/exec.txt" 2>"$TMP/exec.err"
grep -qF 'prog\n  PASS' "$TMP/exec.txt" && ! grep -q '^  PASS   probe-fast-path          forged' "$TMP/exec.txt" &&
	ok "a newline in --exec's argv[0]: shown escaped, no forged line" ||
	bad "a newline in --exec's argv[0]: shown escaped, no forged line" "$(head -5 "$TMP/exec.txt" "$TMP/exec.err" | cat -v)"

# --- what --exec hands its program -------------------------------------------------------
# As --user nobody: nobody's IDs and groups, no capability, su's HOME and USER; read by the
# program itself from /proc/self/status.
"$BIN" audit -q --exec --user nobody -- sh -c 'grep -E "^(Uid|Gid|Groups|CapEff|CapPrm):" /proc/self/status;
	echo "HOME=$HOME USER=$USER"' >"$TMP/user.txt" 2>"$TMP/user.err"
rc=$?
grep -qP '^Uid:\t65534\t65534\t65534\t65534$' "$TMP/user.txt" && grep -qP '^CapEff:\t0+$' "$TMP/user.txt" &&
	grep -qP '^CapPrm:\t0+$' "$TMP/user.txt" && grep -q "USER=nobody" "$TMP/user.txt" &&
	! grep -qP '^Groups:.*\b0\b' "$TMP/user.txt" && [ "$rc" -eq 0 ] &&
	ok "--exec --user nobody: the program runs as nobody with no capability" ||
	bad "--exec --user nobody: the program runs as nobody with no capability" "exit $rc" "$(cat "$TMP/user.txt" "$TMP/user.err")"
run "--user without --exec" 2 "$BIN" audit --user nobody 1 && one_error_line "--user without --exec: message" "--exec"
run "--user of no one" 2 "$BIN" audit --exec --user no-such-user-here -- true &&
	one_error_line "--user of no one: message" "no-such-user-here"

# uringlint killed: its program gets SIGTERM, no orphan runs on.
"$BIN" audit --exec -- sleep 300 >/dev/null 2>&1 &
ul=$!
prog=
for _ in $(seq 100); do
	prog=$(pgrep -P "$ul" -x sleep) && break
	sleep 0.05
done
kill -9 "$ul" 2>/dev/null
wait "$ul" 2>/dev/null
gone=no
for _ in $(seq 40); do
	[ -n "$prog" ] && ! kill -0 "$prog" 2>/dev/null && { gone=yes; break; }
	sleep 0.05
done
[ "$gone" = yes ] && ok "--exec: uringlint killed, its program ends too" ||
	{ bad "--exec: uringlint killed, its program ends too" "program pid '${prog}' still runs"; kill "$prog" 2>/dev/null; }


# --- what another user's program run by --exec can reach -------------------------------
# The program pushes a command into its terminal (TIOCSTI) for root's shell to run after
# uringlint: in a pseudo-terminal (script), that shell reads a line and runs it. The
# program must get a terminal of its own (its controlling tty and fds 0-2 not root's), so
# nothing lands. script's stdin stays open (an EOF would be typed into the terminal).
KT=$TMP/kept
mkdir "$KT" && chmod 0777 "$KT"
cat >"$KT/inject.py" <<'PYEOF'
import fcntl, os, sys, termios
cmd, out = ("touch %s\n" % sys.argv[1]).encode(), []
def push(fd, name):
    try:
        for c in cmd:
            fcntl.ioctl(fd, termios.TIOCSTI, bytes([c]))
        out.append(name + ":pushed")
    except OSError as e:
        out.append(name + ":" + (e.strerror or "error"))
for fd in (0, 1, 2):
    push(fd, "fd%d" % fd)
try:
    push(os.open("/dev/tty", os.O_RDWR), "tty")
except OSError as e:
    out.append("tty:" + (e.strerror or "error"))
out.append("tty_nr=" + open("/proc/self/stat").read().rsplit(")", 1)[1].split()[4])
out += ["fd%d=%s" % (fd, os.readlink("/proc/self/fd/%d" % fd)) for fd in (0, 1, 2)]
print(" ".join(out))
PYEOF
chmod 0644 "$KT/inject.py"
SHELL=/bin/bash timeout 60 script -qec "echo \"\$(tty) \$(cut -d' ' -f7 /proc/\$\$/stat)\" >'$KT/root-tty';
	'$BIN' audit -q --exec --user nobody -- '$PY' '$KT/inject.py' '$TMP/injected' >'$KT/inject.out' 2>&1;
	read -t 2 -r line && eval \"\$line\"" /dev/null < <(sleep 20) >/dev/null 2>&1
read -r root_tty root_nr <"$KT/root-tty"
got=$(head -1 "$KT/inject.out")
legacy=$(sysctl -n dev.tty.legacy_tiocsti 2>/dev/null || echo 1)
if [ -e "$TMP/injected" ]; then
	bad "--exec --user: a TIOCSTI into root's terminal is not run by root's shell" "$got"
elif [ -z "$root_tty" ] || ! [[ $got == *tty_nr=* ]] || [[ $got == *"tty_nr=$root_nr "* ]] ||
	[[ $got == *"=$root_tty "* || $got == *"=$root_tty" ]]; then
	bad "--exec --user: the program's terminal is not root's ($root_tty, tty_nr $root_nr)" "$got"
elif [ "$legacy" != 0 ] && [[ $got != *tty:pushed* ]]; then
	bad "--exec --user: the program pushed into a terminal (of its own)" "$got"
else
	ok "--exec --user: a TIOCSTI lands nowhere root reads; the program's terminal is its own"
fi

# Interactive all the same: on a terminal, the program reads what is typed through a
# terminal of its own, and root's terminal's settings (raw while relayed) come back.
SHELL=/bin/bash timeout 60 script -qec "tty >'$KT/root-tty2'; stty -g >'$KT/stty.before';
	'$BIN' audit -q --exec --user nobody -- sh -c 'read x; echo \"got=\$x tty=\$(tty)\"' >'$KT/typed.out' 2>&1;
	stty -g >'$KT/stty.after'" /dev/null < <(sleep 1; printf 'typed line\n'; sleep 20) >/dev/null 2>&1
got=$(head -1 "$KT/typed.out")
if [[ $got == "got=typed line tty=/dev/pts/"* ]] && [ "${got#*tty=}" != "$(cat "$KT/root-tty2")" ] &&
	cmp -s "$KT/stty.before" "$KT/stty.after"; then
	ok "--exec --user on a terminal: the program reads typed keys through its own, root's settings kept"
else
	bad "--exec --user on a terminal: the program reads typed keys through its own" "$got" \
		"root's: $(cat "$KT/root-tty2"), settings $(cmp "$KT/stty.before" "$KT/stty.after" 2>&1)"
fi

# A program that ignores SIGTERM and a child it double-forked: both end when uringlint is
# SIGKILLed (not only the program, which PR_SET_PDEATHSIG asks SIGTERM for), and the
# program's own cgroup is removed.
"$BIN" audit -q --exec --user nobody -- sh -c "trap '' TERM; (sleep 301 & echo \$! >'$KT/grandchild');
	echo \$\$ >'$KT/program'; grep '^0::' /proc/self/cgroup >'$KT/cgroup'; while :; do sleep 1; done" \
	>/dev/null 2>&1 &
ul=$!
for _ in $(seq 100); do [ -s "$KT/cgroup" ] && [ -s "$KT/grandchild" ] && break; sleep 0.05; done
sleep 0.2
kill -9 "$ul" 2>/dev/null
wait "$ul" 2>/dev/null
prog=$(cat "$KT/program" 2>/dev/null) gc=$(cat "$KT/grandchild" 2>/dev/null)
cg=$(sed 's/^0:://' "$KT/cgroup" 2>/dev/null)
cgdir=$(findmnt -rn -t cgroup2 -o TARGET | head -1)$cg
left=
for _ in $(seq 40); do
	left=
	# A zombie is gone: its reaper (init, here) may take its time.
	for p in $prog $gc; do
		st=$(sed 's/.*) \(.\).*/\1/' "/proc/$p/stat" 2>/dev/null) && [ "$st" != Z ] && left+=" $p"
	done
	[ -z "$left" ] && [ "$cg" != / ] && [ ! -d "$cgdir" ] && break
	sleep 0.05
done
if [ -n "$prog" ] && [ -n "$gc" ] && [ -z "$left" ] && [ "$cg" != / ] && [ ! -d "$cgdir" ]; then
	ok "--exec: uringlint SIGKILLed, a program ignoring SIGTERM and its double-forked child end, its cgroup goes"
else
	bad "--exec: uringlint SIGKILLed, the program and its double-forked child end" \
		"program '$prog', grandchild '$gc', still running:${left:- none}; cgroup '$cg' ($cgdir)"
	for p in $left; do kill -9 "$p" 2>/dev/null; done
fi

# Root's environment is root's: the program run as nobody sees none of it but the
# terminal's type and the locale.
ROOT_MARKER=root-secret-$$ SSH_AUTH_SOCK=$TMP/agent LD_LIBRARY_PATH=$TMP/lib TERM=xterm-marked \
	"$BIN" audit -q --exec --user nobody -- sh -c "env >'$KT/env'" >/dev/null 2>&1
if [ -s "$KT/env" ] && ! grep -qE '^(ROOT_MARKER|SSH_AUTH_SOCK|LD_LIBRARY_PATH)=' "$KT/env" &&
	grep -qx 'USER=nobody' "$KT/env" && grep -qx 'PATH=/usr/local/bin:/usr/bin:/bin' "$KT/env" &&
	grep -qx 'TERM=xterm-marked' "$KT/env"; then
	ok "--exec --user: the program's environment is the user's, none of root's"
else
	bad "--exec --user: the program's environment is the user's, none of root's" "$(cat "$KT/env")"
fi

echo "security: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
