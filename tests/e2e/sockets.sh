#!/bin/bash
# End-to-end for audit's socket inventory: live python3 servers on loopback
# (tests/e2e/sockets_server.py, which writes its own view of its sockets)
# in this network namespace and in one of their own (unshare -n), checked
# against that view and against ss; a ring's registered sockets (pathology
# registered-socket) against its fdinfo; a captured tree against the view
# its server wrote; and hostile /proc/PID/net tables derived from that
# tree: each must end in a documented exit status, valid JSON and an error
# naming the table, with the sockets it held not identified, never guessed.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh
. tests/e2e/live.sh

chmod 0755 "$TMP"
FIX=proc-6.18-sockets
FIXPID=14917

if ! command -v python3 >/dev/null; then
	skip "sockets" "python3 is not installed (make deps installs it)"
	echo "sockets: $passed passed, $failed failed, $skipped skipped"
	exit 0
fi

# serve NAME PORT [PREFIX...]: the server (run through PREFIX), its PID in $spid and port in
# $sport once it says ready; its view in $TMP/NAME.truth.
serve() {
	local name=$1 port=$2 out=$TMP/$1.ready
	shift 2
	"$@" python3 tests/e2e/sockets_server.py "$TMP/$name.truth" "$port" >"$out" 2>"$out.err" &
	kids+=($!)
	spid= sport=
	for _ in $(seq 200); do
		if grep -q '^ready' "$out" 2>/dev/null; then
			read -r _ spid sport <"$out"
			return 0
		fi
		kill -0 "${kids[-1]}" 2>/dev/null || break
		sleep 0.05
	done
	bad "server $name starts" "$(cat "$out.err")"
	return 1
}

# inventory NAME PID: processes[] entry of PID in $TMP/out, its sockets
sockets_of() { jq -c --argjson p "$2" '.processes[] | select(.pid == $p) | .sockets' "$1"; }

# --- live: this namespace and another, audited in one run ------------------------
if serve a 0; then
	port=$sport apid=$spid
	others=()
	if [ "$(id -u)" -eq 0 ] && unshare -n true 2>/dev/null; then
		serve b "$port" unshare -n sh -c 'ip link set lo up && exec "$0" "$@"' && bpid=$spid &&
			others+=("$bpid")
	else
		skip "another network namespace" "unshare -n needs root"
	fi
	# A second server on the same port here: both join one reuseport group of four.
	serve c "$port" && cpid=$spid && others+=("$cpid")
	run "audit of servers in two namespaces" 0 "$BIN" audit "$apid" "${others[@]}" \
		--format json --fail-on never
	cp "$TMP/out" "$TMP/live.json"
	for s in a c; do
		p=$(jq .pid "$TMP/$s.truth")
		if why=$(python3 tests/e2e/sockets_compare.py "$TMP/$s.truth" "$TMP/live.json" 4); then
			ok "server $s (pid $p): every socket as it sees it, a reuseport group of 4"
		else bad "server $s (pid $p): every socket as it sees it, a reuseport group of 4" "$why"; fi
	done
	jq -e --argjson p "$apid" '.processes[] | select(.pid == $p) | .sockets.listeners[] |
		select(.proto == "tcp") | .not_this_process == 2' "$TMP/live.json" >/dev/null &&
		ok "the other server's two listeners are not this process's" ||
		bad "the other server's two listeners are not this process's" \
			"$(sockets_of "$TMP/live.json" "$apid" | jq -c .listeners)"
	if [ -n "${bpid:-}" ]; then
		if why=$(python3 tests/e2e/sockets_compare.py "$TMP/b.truth" "$TMP/live.json" 2); then
			ok "server in its own namespace: read from its own tables (a group of 2, not 6)"
		else bad "server in its own namespace: read from its own tables (a group of 2, not 6)" "$why"; fi
		na=$(sockets_of "$TMP/live.json" "$apid" | jq .netns)
		nb=$(sockets_of "$TMP/live.json" "$bpid" | jq .netns)
		[ "$na" != "$nb" ] && [ "$na" = "$(stat -Lc %i /proc/"$apid"/ns/net)" ] &&
			[ "$nb" = "$(stat -Lc %i /proc/"$bpid"/ns/net)" ] &&
			ok "each process's namespace by its inode" ||
			bad "each process's namespace by its inode" "a $na b $nb"
	fi
	# ss, an independent reader (sock_diag): the same LISTEN inodes on the port here.
	ss -Htlne "sport = :$port" | grep -o 'ino:[0-9]*' | cut -d: -f2 | sort >"$TMP/ss.ino"
	jq -r --argjson p "$port" '.processes[] | .sockets.list[] | select(.state == "LISTEN" and
		(.local | endswith(":" + ($p | tostring)))) | .inode' \
		<(jq --argjson b "${bpid:-0}" 'del(.processes[] | select(.pid == $b))' "$TMP/live.json") |
		sort >"$TMP/ul.ino"
	[ -s "$TMP/ss.ino" ] && cmp -s "$TMP/ss.ino" "$TMP/ul.ino" &&
		ok "ss sees the same listeners on port $port ($(wc -l <"$TMP/ss.ino"))" ||
		bad "ss sees the same listeners on port $port" "ss: $(tr '\n' ' ' <"$TMP/ss.ino")" \
			"uringlint: $(tr '\n' ' ' <"$TMP/ul.ino")"
	ss -Htanpe | grep -c "pid=$apid," >"$TMP/ss.n"
	n=$(sockets_of "$TMP/live.json" "$apid" | jq '[.list[] | select(.proto | test("^tcp"))] | length')
	[ "$(cat "$TMP/ss.n")" = "$n" ] && ok "ss and uringlint count $n TCP sockets of the server" ||
		bad "ss and uringlint count the server's TCP sockets" "ss $(cat "$TMP/ss.n"), uringlint $n"
	run "audit text" 0 "$BIN" audit "$apid" --no-color --fail-on never &&
		grep -q "^pid $apid sockets: 4 tcp, 2 tcp6, 1 udp, 1 udp6, 2 unix; listening on 127.0.0.1:$port (2 of this process's, a reuseport group of 4)" "$TMP/out" &&
		ok "text: one line of the server's sockets" ||
		bad "text: one line of the server's sockets" "$(grep sockets: "$TMP/out")"
fi

# --- sockets registered with a ring ------------------------------------------------
# net-listeners on a process with a ring and two SO_REUSEPORT listeners on one port: the
# group's size as ss counts it, and net.ipv4.tcp_migrate_req as sysctl reads it.
if [ -x "$PATHO" ] && start reuseport-listeners; then
	rport=$(awk '$1 == "ready" {print $3; exit}' "$TMP"/ready.reuseport-listeners.*)
	group=$(ss -Htln "sport = :$rport" | wc -l)
	migrate=$(sysctl -n net.ipv4.tcp_migrate_req 2>/dev/null || echo none)
	run "audit of a process with a reuseport group" 0 "$BIN" audit "$pid" --format json --fail-on never
	got=$(jq -c '[.findings[] | select(.id == "net-listeners")]' "$TMP/out")
	case $migrate in
	none) want='.[0].status == "skip" and (.[0].message | contains("tcp_migrate_req could not be read"))' ;;
	0) want='length == 1 and .[0].status == "warn" and (.[0].subject | endswith("tcp 127.0.0.1:" + $p)) and
		(.[0].message | contains("a SO_REUSEPORT group of " + $g + " listeners (2 of them this process"))' ;;
	*) want='.[0].status == "pass" and (.[0].message | contains("1 SO_REUSEPORT group"))' ;;
	esac
	if [ "$group" = 2 ] && jq -e --arg p "$rport" --arg g "$group" "$want" <<<"$got" >/dev/null; then
		ok "net-listeners: net.ipv4.tcp_migrate_req = $migrate, a group of $group on port $rport as ss counts it"
	else
		bad "net-listeners with tcp_migrate_req = $migrate, ss: $group on $rport" "$got"
	fi
	# In a namespace of its own, its sysctl is not this one's: not judged.
	if [ "$migrate" != none ] && [ "$(id -u)" -eq 0 ] && unshare -n true 2>/dev/null; then
		stop "$pid"
		out=$TMP/ready.reuseport-ns
		unshare -n sh -c 'ip link set lo up && exec "$0" "$@"' "$PATHO" reuseport-listeners "$TMP/data" \
			>"$out" 2>"$out.err" &
		kids+=($!)
		for _ in $(seq 100); do grep -q '^ready' "$out" 2>/dev/null && break; sleep 0.05; done
		pid=$(awk '$1 == "ready" {print $2; exit}' "$out")
		run "audit of a reuseport group in another namespace" 0 "$BIN" audit "$pid" --format json --fail-on never
		jq -e '[.findings[] | select(.id == "net-listeners")][0] | .status == "skip" and
			(.message | contains("another network namespace"))' "$TMP/out" >/dev/null &&
			ok "net-listeners does not judge another namespace's sysctl by this one's" ||
			bad "net-listeners in another namespace" "$(jq -c '[.findings[] | select(.id == "net-listeners")]' "$TMP/out")"
	fi
	stop "$pid"
fi

if [ -x "$PATHO" ] && start registered-socket; then
	rinode=$(awk '$1 == "ready" {print $4; exit}' "$TMP"/ready.registered-socket.*)
	run "audit registered-socket" 0 "$BIN" audit "$pid" --format json --fail-on never
	ringfd=$(jq '.processes[0].rings[0].fd' "$TMP/out")
	fdinfo=$(grep -o 'socket:\[[0-9]*\]' "/proc/$pid/fdinfo/$ringfd" | tr -dc '0-9\n' | sort)
	ours=$(jq -r '.processes[0].sockets.list[] | select(.registered) | .inode' "$TMP/out" | sort)
	[ -n "$fdinfo" ] && [ "$fdinfo" = "$ours" ] &&
		ok "registered sockets are the ring's UserFiles ($(echo "$fdinfo" | wc -l))" ||
		bad "registered sockets are the ring's UserFiles" "fdinfo: $fdinfo" "uringlint: $ours"
	jq -e --argjson i "$rinode" --argjson r "$ringfd" '.processes[0].sockets |
		(.list[] | select(.inode == $i) | .fd == null and .ring_fd == $r and
			.state == "ESTABLISHED" and .proto == "tcp") and
		([.list[] | select(.registered == false)] | length == 1) and
		(.listeners | length == 1 and .[0].reuseport_group == 1)' "$TMP/out" >/dev/null &&
		ok "a socket only in the ring's table is listed, joined with the tables" ||
		bad "a socket only in the ring's table is listed, joined with the tables" \
			"$(jq -c '.processes[0].sockets' "$TMP/out")"
	stop "$pid"
else
	skip "registered sockets" "build/tests/pathology is not built (make check builds it)"
fi

# --- the captured tree --------------------------------------------------------------
truth=$EXP/sockets-$FIX.truth.json
run "audit of $FIX" 0 "$BIN" --root "testdata/$FIX" audit "$FIXPID" --format json --fail-on never &&
	if why=$(python3 tests/e2e/sockets_compare.py "$truth" "$TMP/out" 2); then
		ok "$FIX: every socket as its server saw it"
	else bad "$FIX: every socket as its server saw it" "$why"; fi
jq -S '.processes[0].sockets' "$TMP/out" >"$TMP/fix.json"
compare "$FIX: the inventory" "$TMP/fix.json" "$EXP/sockets-$FIX.json"

# --- hostile tables, derived from the captured tree -----------------------------------
# fresh NAME: a copy of the tree at $T, its process's net directory at $N.
fresh() {
	T=$TMP/$1
	cp -a "testdata/$FIX" "$T"
	N=$T/proc/$FIXPID/net
}
# broken NAME TABLE PROTO: exit 0-1, valid JSON, an error naming the table, and
# none of its sockets identified; the other tables' still are.
broken() {
	local name=$1 table=$2 proto=$3 rc
	timeout 20 "$BIN" --root "$T" audit "$FIXPID" --format json --fail-on never >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -gt 1 ] || grep -qE 'Sanitizer|runtime error:' "$TMP/err"; then
		bad "$name" "exit $rc" "$(head -c 600 "$TMP/err")"
		return
	fi
	if jq -e --arg t "net/$table" --arg p "$proto" '.processes[0].sockets |
		(.error | contains($t)) and ([.list[] | select(.proto == $p)] | length == 0) and
		([.list[] | select(.proto == "other")] | length > 0) and
		([.list[] | select(.proto == "unix")] | length == 2)' "$TMP/out" >/dev/null; then
		ok "$name: $(jq -r '.processes[0].sockets.error' "$TMP/out")"
	else
		bad "$name" "$(jq -c '.processes[0].sockets | del(.list)' "$TMP/out" 2>&1 | head -c 600)"
	fi
}

fresh garbage
head -c 8192 /dev/urandom | tr -d '\0' >"$N/tcp"
broken "random bytes for net/tcp" tcp tcp

fresh truncated
head -c 230 "testdata/$FIX/proc/$FIXPID/net/tcp" >"$N/tcp"	# in its first socket line
broken "net/tcp cut in a line" tcp tcp

fresh huge-line
{ head -n 2 "testdata/$FIX/proc/$FIXPID/net/tcp"; head -c 10485760 /dev/zero | tr '\0' 1; echo; } >"$N/tcp"
broken "a 10 MB line in net/tcp" tcp tcp

fresh huge
line=$(sed -n 2p "testdata/$FIX/proc/$FIXPID/net/tcp")
{ head -n 1 "testdata/$FIX/proc/$FIXPID/net/tcp"; yes "$line" | head -n 500000; } >"$N/tcp"
broken "net/tcp of $(($(stat -c %s "$N/tcp") >> 20)) MiB, over the limit" tcp tcp

fresh fifo
rm "$N/tcp6" && mkfifo "$N/tcp6"
broken "a FIFO for net/tcp6" tcp6 tcp6

fresh overflow
sed -i '2s/ \([0-9]\{4,\}\) 1 0000/ 99999999999999999999999 1 0000/' "$N/udp"
sed -i '2s/\(: [0-9A-F]\{8\}:\)[0-9A-F]\{4\}/\1FFFFF/' "$N/tcp"
broken "an inode past 64 bits in net/udp, a port of 5 digits in net/tcp" tcp tcp

# A unix path may hold a newline and forge a line: the inode it claims is then
# listed twice, and neither line is taken: the socket is a unix one whose address
# and state are not known, and says why. (Live, sock_diag gives each name whole:
# security.sh makes this attack on a live process.)
fresh forged-unix
ino=$(jq '.sockets[] | select(.family == "unix" and .listening) | .inode' "$truth")
printf '0000000000000000: 00000002 00000000 00000000 0001 01 99 /tmp/x\n0000000000000000: 00000002 00000000 00010000 0001 01 %s /evil\n' \
	"$ino" >>"$N/unix"
"$BIN" --root "$T" audit "$FIXPID" --format json --fail-on never >"$TMP/out" 2>"$TMP/err"
jq -e --argjson i "$ino" '.processes[0].sockets.list[] | select(.inode == $i) |
	.proto == "unix" and .ambiguous and .local == null and (.error | test("claim inode"))' \
	"$TMP/out" >/dev/null &&
	ok "a forged unix line: the socket it claims is not identified" ||
	bad "a forged unix line: the socket it claims is not identified" \
		"$(jq -c --argjson i "$ino" '.processes[0].sockets.list[] | select(.inode == $i)' "$TMP/out")"

# An abstract unix name holds NUL bytes: sock_diag gives them live (local_base64), the
# table a capture records shows each as '@'. Replayed, the socket says its name is not
# exact, never a clean address.
python3 -c "
import socket, time
s = socket.socket(socket.AF_UNIX)
s.bind(b'\\0uringlint-e2e\\0abstract')
s.listen()
print('ready', flush=True)
time.sleep(30)" >"$TMP/abstract.out" &
kids+=($!)
for _ in $(seq 100); do grep -q ready "$TMP/abstract.out" 2>/dev/null && break; sleep 0.05; done
apid=${kids[-1]}
"$BIN" audit "$apid" --format json --fail-on never >"$TMP/abstract.live.json" 2>/dev/null
"$BIN" capture -o "$TMP/abstract.cap" --pid "$apid" >/dev/null 2>&1
"$BIN" --root "$TMP/abstract.cap" audit "$apid" --format json --fail-on never >"$TMP/abstract.replay.json" 2>/dev/null
kill "$apid" 2>/dev/null
sel='.processes[0].sockets.list[] | select(.proto == "unix")'
if jq -e "$sel | .local_base64 == \"AHVyaW5nbGludC1lMmUAYWJzdHJhY3Q=\" and .error == null" \
	"$TMP/abstract.live.json" >/dev/null &&
	jq -e "$sel | .local == \"@uringlint-e2e@abstract\" and (.error // \"\" | test(\"exact bytes are not known\"))" \
	"$TMP/abstract.replay.json" >/dev/null; then
	ok "an abstract unix name: exact live, said not exact when replayed from the table"
else
	bad "an abstract unix name: exact live, said not exact when replayed from the table" \
		"$(jq -c "$sel" "$TMP/abstract.live.json")" "$(jq -c "$sel" "$TMP/abstract.replay.json")"
fi

echo "sockets: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
