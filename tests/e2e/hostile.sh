#!/bin/bash
# Hostile /proc trees under --root: each case copies a captured tree and
# breaks one thing (truncated, huge, NUL bytes, overflowing numbers, links
# out of the root, symlink loops, FIFOs, unreadable files, thousands of
# rings). Every case must end in the one outcome documented for it (a
# report, its exit status, the checks that fail or are an error) within its
# time, without a sanitizer report, without reading outside the root, and
# without a pass for what it could not read. FIFOs and 10 MB lines cannot live in
# git, so the trees are built here.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh

PID=31435
chmod 0755 "$TMP"

# fresh NAME [TREE]: a copy of a captured tree at $T, the process dir at $P.
fresh() {
	T=$TMP/$1
	cp -a "testdata/${2:-proc-6.18}" "$T"
	P=$T/proc/$PID
}

# attempt NAME CMD...: a documented exit status (0-3) within 20 s, no
# sanitizer report, and valid JSON on stdout when a report was made.
attempt() {
	local name=$1 rc
	shift
	timeout 20 "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	echo "$rc" >"$TMP/rc"
	if [ "$rc" -eq 124 ]; then
		bad "$name" "hung: killed after 20 s"
		return 1
	fi
	if [ "$rc" -gt 3 ] || grep -qE 'Sanitizer|runtime error:' "$TMP/err"; then
		bad "$name" "exit $rc" "$(head -c 600 "$TMP/err")"
		return 1
	fi
	if [ "$rc" -le 1 ] && ! jq -e '.schema_version == 1' "$TMP/out" >/dev/null 2>&1; then
		bad "$name" "exit $rc without a valid JSON report"
		return 1
	fi
	return 0
}

# outcome NAME STATUS FINDINGS CMD...: what each hostile input is documented to give,
# exactly: a JSON report, nothing on stderr, exit STATUS (1 exactly when a finding
# fails or is an error, at the default --fail-on fail), and those findings being,
# sorted, FINDINGS ("ID:fail ID:error ...", "" for none): what could not be read is
# an error of the check that read it, or a skip, never a crash or an error line.
outcome() {
	local name=$1 want=$2 wfind=$3 rc got
	shift 3
	attempt "$name" "$@" || return 1
	rc=$(cat "$TMP/rc")
	if [ -s "$TMP/err" ] || ! jq -e '.schema_version == 1' "$TMP/out" >/dev/null 2>&1; then
		bad "$name" "exit $rc: wanted a JSON report and nothing on stderr" "$(head -c 600 "$TMP/err")"
		return 1
	fi
	got=$(jq -r '[.findings[] | select(.status == "fail" or .status == "error") | .id + ":" + .status] |
		unique | join(" ")' "$TMP/out")
	if [ "$rc" -ne "$want" ] || [ "$got" != "$wfind" ]; then
		bad "$name" "exit $rc, wanted $want; failed and error findings '$got', wanted '$wfind'"
		return 1
	fi
	ok "$name: a report, exit $want${wfind:+ ($wfind)}"
}

# not_pass NAME ID...: none of these checks passed in the report in $TMP/out.
not_pass() {
	local name=$1 id st
	shift
	if ! jq -e '.schema_version == 1' "$TMP/out" >/dev/null 2>&1; then
		bad "$name" "no report to judge"
		return
	fi
	for id in "$@"; do
		st=$(jq -r --arg id "$id" '[.findings[] | select(.id == $id) | .status] | join(",")' "$TMP/out")
		case ",$st," in
		*,pass,*)
			bad "$name" "$id passed on input it could not read:" \
				"$(jq -c --arg id "$id" '.findings[] | select(.id == $id) | [.status, .message]' "$TMP/out")"
			return ;;
		esac
	done
	ok "$name"
}

audit() { outcome "$1" "$2" "$3" "$BIN" --root "$T" audit "$PID" --format json; }
preflight() { outcome "$1" "$2" "$3" "$BIN" --root "$T" preflight --format json; }

# --- the process tree ------------------------------------------------------------
fresh truncated-ring
head -c 120 "$P/fdinfo/3" >"$TMP/cut" && cat "$TMP/cut" >"$P/fdinfo/3"
audit "truncated ring fdinfo" 1 "proc-rings:error" && not_pass "truncated ring fdinfo: proc-rings and cq-overflow do not pass" proc-rings cq-overflow

fresh huge-line
awk 'BEGIN { printf "SqHead:\t"; for (i = 0; i < 10485760 / 8; i++) printf "12345678"; print "" }' >>"$P/fdinfo/3"
audit "a 10 MB line in a ring fdinfo" 1 "fd-append:fail fd-o-direct:fail proc-rings:error" && not_pass "10 MB line: proc-rings does not pass" proc-rings

fresh huge-status
awk 'BEGIN { printf "VmLck:\t"; for (i = 0; i < 10485760 / 8; i++) printf "99999999"; print " kB" }' >>"$P/status"
audit "a 10 MB line in status" 1 "fd-append:fail fd-o-direct:fail proc-memlock:error" && not_pass "10 MB status line: proc-memlock does not pass" proc-memlock

fresh nul-status
printf 'Name:\tsrv\0\0\0VmLck:\t0 kB\n' >"$P/status"
audit "NUL bytes in status" 1 "fd-append:fail fd-o-direct:fail proc-memlock:error" && not_pass "NUL bytes: proc-memlock does not pass" proc-memlock

fresh overflow
sed -i 's/^SqHead:.*/SqHead:\t-1/; s/^CqOverflow.*/CqOverflow:\t99999999999999999999999/' "$P/fdinfo/3"
sed -i 's/^VmLck:.*/VmLck:\t-5 kB/' "$P/status"
sed -i 's/^Max locked memory .*/Max locked memory         -1                   18446744073709551616 bytes/' "$P/limits"
audit "negative and overflowing numbers" 1 "proc-memlock:error proc-rings:error" &&
	not_pass "overflowing numbers: proc-memlock and cq-overflow do not pass" proc-memlock cq-overflow

# Links that lead out of the root: resolved inside it, never outside.
fresh escape
printf 'pos:\t0\nflags:\t02000002\nmnt_id:\t424242\nino:\t1\n' >"$TMP/secret"
rm "$P/fdinfo/5" "$P/fdinfo/6"
ln -s "$TMP/secret" "$P/fdinfo/5"
ln -s ../../../../../../../../../../"$TMP/secret" "$P/fdinfo/6"
rm -rf "$P/task/31437" && ln -s "$TMP" "$P/task/31437"
audit "links out of the root" 0 "" &&
	if grep -q 424242 "$TMP/out"; then bad "links out of the root: nothing read outside" "$(grep -o '.\{80\}424242.\{40\}' "$TMP/out" | head -2)"
	else ok "links out of the root: nothing read outside"; fi

fresh loops
rm "$P/fdinfo/3" && ln -s 3 "$P/fdinfo/3"
rm -rf "$P/task/31437" && ln -s . "$P/task/31437"
ln -s loop-b "$P/fdinfo/loop-a" && ln -s loop-a "$P/fdinfo/loop-b"
audit "symlink loops" 0 "" && not_pass "symlink loops: proc-rings does not pass" proc-rings

fresh fifos
rm "$P/fdinfo/3" "$P/status" && mkfifo "$P/fdinfo/3" "$P/status"
audit "FIFOs where files should be" 0 "" && not_pass "FIFOs: proc-rings, cq-overflow and proc-memlock do not pass" proc-rings cq-overflow proc-memlock

fresh dirs-for-files
rm "$P/fdinfo/3" "$P/limits" && mkdir "$P/fdinfo/3" "$P/limits"
audit "directories where files should be" 0 "" && not_pass "directories: proc-rings and proc-memlock do not pass" proc-rings proc-memlock

fresh empty-files
: >"$P/fdinfo/3" && : >"$P/status" && : >"$P/limits"
audit "empty files" 1 "proc-memlock:error proc-rings:error" && not_pass "empty files: proc-rings and proc-memlock do not pass" proc-rings proc-memlock

fresh garbage
head -c 4096 /dev/urandom | tr -d '\0' >"$P/fdinfo/3"
head -c 4096 /dev/urandom | tr -d '\0' >"$P/limits"
audit "random bytes" 1 "proc-memlock:error proc-rings:error" && not_pass "random bytes: proc-rings and proc-memlock do not pass" proc-rings proc-memlock

# Unreadable files: root reads through mode 000, so run as nobody.
fresh unreadable
chmod 000 "$P/fdinfo/3" "$P/status"
if [ "$(id -u)" -eq 0 ]; then
	install -m 0755 "$BIN" "$TMP/uringlint"
	outcome "unreadable files" 0 "" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$TMP/uringlint" --root "$T" audit "$PID" --format json &&
		not_pass "unreadable files: proc-rings and proc-memlock do not pass" proc-rings proc-memlock
else
	audit "unreadable files" 0 "" && not_pass "unreadable files: proc-rings and proc-memlock do not pass" proc-rings proc-memlock
fi

fresh many-rings
# In one process: 6,000 forks of ln and cp took 40 s.
python3 - "$P" <<'PY'
import os, shutil, sys
p = sys.argv[1]
for i in range(1000, 4000):
    os.symlink("anon_inode:[io_uring]", "%s/fd/%d" % (p, i))
    shutil.copyfile("%s/fdinfo/4" % p, "%s/fdinfo/%d" % (p, i))
PY
audit "3,000 rings in one process" 1 "fd-append:fail fd-o-direct:fail" &&
	if jq -e '[.processes[0].rings // [] | length] | .[0] >= 3000' "$TMP/out" >/dev/null ||
		jq -e '.findings[] | select(.id == "proc-rings") | .message | test("300[0-9]")' "$TMP/out" >/dev/null; then
		ok "3,000 rings: all of them read"
	else bad "3,000 rings: all of them read" "$(jq -c '.findings[] | select(.id == "proc-rings")' "$TMP/out")"; fi

# --- a listener's counters and a ring's NAPI lines -------------------------------------
# The captured server of proc-6.18-sockets (TCP listeners on loopback) given a ring with
# NAPI registered and the namespace's netstat: net-accept-backlog and net-busy-poll must
# each end in a skip or one error on what they cannot read, never a crash or a pass.
SPID=14917
netfresh() {
	T=$TMP/$1
	cp -a testdata/proc-6.18-sockets "$T"
	P=$T/proc/$SPID
	ln -s 'anon_inode:[io_uring]' "$P/fd/20"
	cp testdata/fdinfo/linux-6.18-napi.txt "$P/fdinfo/20"
	cp tests/fuzz/seeds/netstat/netstat-6.18 "$P/net/netstat"
}
saudit() { outcome "$1" "$2" "$3" "$BIN" --root "$T" audit "$SPID" --format json; }
# one_verdict NAME ID WORD: the check's one finding is a skip or an error that says WORD.
one_verdict() {
	local got
	got=$(jq -c --arg id "$2" '[.findings[] | select(.id == $id) | {status, message}]' "$TMP/out")
	if jq -e --arg w "$3" 'length == 1 and (.[0].status == "skip" or .[0].status == "error") and
		(.[0].message | contains($w))' <<<"$got" >/dev/null; then
		ok "$1: $(jq -r '.[0].status + ": " + .[0].message[0:110]' <<<"$got")"
	else
		bad "$1" "$got"
	fi
}

netfresh net-baseline
saudit "netstat and NAPI lines as the kernel prints them" 0 "" &&
	if jq -e '[.findings[] | select(.id == "net-accept-backlog")] | length == 1 and
		.[0].status == "pass" and (.[0].message | contains("the backlog limit is not visible") and
		contains("lifetime TcpExt ListenOverflows total was 0, which may be from long ago, and it is not judged"))' \
		"$TMP/out" >/dev/null; then
		ok "net-accept-backlog: empty queues pass, the backlog not visible in a tree, the lifetime total not judged"
	else bad "net-accept-backlog on the baseline tree" "$(jq -c '[.findings[] | select(.id == "net-accept-backlog")]' "$TMP/out")"; fi

netfresh netstat-garbage
head -c 4096 /dev/urandom | tr -d '\0' >"$P/net/netstat"
saudit "random bytes for net/netstat" 1 "net-accept-backlog:error" && one_verdict "net/netstat of random bytes" net-accept-backlog netstat

netfresh netstat-cut
head -c 1500 tests/fuzz/seeds/netstat/netstat-6.18 >"$P/net/netstat"
saudit "net/netstat cut in a line" 1 "net-accept-backlog:error" && one_verdict "net/netstat cut in a line" net-accept-backlog netstat

netfresh netstat-mismatch
sed -i '2s/ [0-9]*$//' "$P/net/netstat"
saudit "net/netstat with a value missing" 1 "net-accept-backlog:error" && one_verdict "net/netstat with a value missing" net-accept-backlog netstat

netfresh netstat-overflow
awk 'NR == 1 { for (i = 2; i <= NF; i++) if ($i == "ListenOverflows") c = i }
	NR == 2 { $c = "99999999999999999999999" } { print }' "$P/net/netstat" >"$TMP/ns" && cp "$TMP/ns" "$P/net/netstat"
saudit "ListenOverflows past 64 bits" 1 "net-accept-backlog:error" && one_verdict "ListenOverflows past 64 bits" net-accept-backlog netstat

netfresh netstat-huge
{ printf 'TcpExt: '; head -c 10485760 /dev/zero | tr '\0' A; echo; } >"$P/net/netstat"
saudit "a 10 MB line in net/netstat" 1 "net-accept-backlog:error" && one_verdict "a 10 MB line in net/netstat" net-accept-backlog netstat

netfresh netstat-fifo
rm "$P/net/netstat" && mkfifo "$P/net/netstat"
saudit "a FIFO for net/netstat" 0 "" && one_verdict "a FIFO for net/netstat" net-accept-backlog netstat

netfresh napi-garbage
sed -i 's/^napi_prefer_busy_poll:.*/napi_prefer_busy_poll:\tmaybe/' "$P/fdinfo/20"
saudit "a NAPI line no kernel prints" 1 "proc-rings:error" &&
	one_verdict "net-busy-poll on a NAPI line no kernel prints" net-busy-poll "could not be read"

netfresh napi-dt-overflow
sed -i 's/^napi_busy_poll_dt:.*/napi_busy_poll_dt:\t99999999999999999999999/' "$P/fdinfo/20"
saudit "a busy-poll time past 64 bits" 1 "proc-rings:error" &&
	one_verdict "net-busy-poll on a busy-poll time past 64 bits" net-busy-poll "could not be read"

# --- the host tree ---------------------------------------------------------------
fresh host-garbage host-6.18
printf '\n' >"$T/proc/sys/kernel/osrelease"
printf '99999999999999999999\n' >"$T/proc/sys/kernel/io_uring_disabled"
printf '0-4294967295\n' >"$T/sys/devices/system/cpu/online"
awk 'BEGIN { printf "isolcpus="; for (i = 0; i < 10485760 / 4; i++) printf "1,2,"; print "" }' >"$T/proc/cmdline"
preflight "host files with garbage and a 10 MB cmdline" 1 "cpu-frequency-governor:error io-uring-available:error io-uring-disabled-sysctl:error kernel-known-cves:error kernel-version:error" &&
	not_pass "host garbage: kernel-version, io-uring-disabled-sysctl, sqpoll-cpu-isolated do not pass" \
		kernel-version io-uring-disabled-sysctl sqpoll-cpu-isolated

fresh host-loops host-6.18
rm -f "$T/proc/self/mountinfo" && ln -s mountinfo "$T/proc/self/mountinfo"
rm -f "$T/proc/interrupts" && mkfifo "$T/proc/interrupts"
preflight "host tree with a mountinfo loop and a FIFO for interrupts" 0 "" &&
	not_pass "host loops: sqpoll-cpu-irqs does not pass" sqpoll-cpu-irqs

# --- the network device of a planned service ---------------------------------------
NIC=sys/devices/pci0000:00/0000:3b:00.0/net/eth0
NETCHECKS="net-queues net-irq-placement net-rps-xps net-backlog-limits"
netflight() { outcome "$1" "$2" "$3" "$BIN" --root "$T" preflight --sqpoll-cpu 1 --worker-cpus 2-9 --format json; }
# exactly one finding of check $2 in $TMP/out, with status $3 and $4 in its message
one_finding() {
	if jq -e --arg id "$2" --arg st "$3" --arg m "$4" '[.findings[] | select(.id == $id)] |
		length == 1 and .[0].status == $st and (.[0].message | contains($m))' "$TMP/out" >/dev/null; then
		ok "$1"
	else bad "$1" "$(jq -c --arg id "$2" '.findings[] | select(.id == $id) | [.status, .message]' "$TMP/out")"; fi
}

fresh nic-garbage nic-8q-tuned
printf 'not-a-mask\n' >"$T/$NIC/queues/rx-3/rps_cpus"
printf '0x\n' >"$T/$NIC/queues/tx-2/xps_cpus"
printf '0-4294967295\n' >"$T/proc/irq/62/effective_affinity_list"
printf 'garbage\n' >"$T/proc/irq/62/smp_affinity_list"
printf 'banana\n' >"$T/proc/sys/net/core/rps_sock_flow_entries"
netflight "NIC files with garbage" 1 "net-irq-placement:error net-rps-xps:error sqpoll-cpu-irqs:error" &&
	not_pass "NIC garbage: net-rps-xps and net-irq-placement do not pass" net-rps-xps net-irq-placement &&
	one_finding "NIC garbage: net-rps-xps is one error naming rx-3's rps_cpus" net-rps-xps error \
		"queues/rx-3/rps_cpus': 'not-a-mask' is not a CPU mask"
one_finding "NIC garbage: net-irq-placement is one error naming IRQ 62's affinity" net-irq-placement \
	error "proc/irq/62/smp_affinity_list': 'garbage' is not a CPU list"

fresh nic-flow-garbage nic-8q-tuned
printf -- '-1\n' >"$T/$NIC/queues/rx-0/rps_flow_cnt"
netflight "a negative rps_flow_cnt" 1 "net-rps-xps:error" &&
	one_finding "negative rps_flow_cnt: net-rps-xps is one error naming it" net-rps-xps error \
		"rx-0/rps_flow_cnt': -1 is not a table size"

fresh nic-missing nic-8q-tuned
rm -rf "$T/$NIC/queues" "$T/$NIC/device/msi_irqs" "$T/proc/sys/net/core/somaxconn"
sed -i '/mlx5_/d' "$T/proc/interrupts"
netflight "a NIC without queues, vectors or somaxconn" 0 "" &&
	not_pass "NIC missing files: the network checks do not pass" $NETCHECKS &&
	one_finding "NIC missing files: net-queues skips naming the queues directory" net-queues skip \
		"sys/class/net/eth0/queues" &&
	one_finding "NIC missing files: net-irq-placement skips, no interrupt found" net-irq-placement skip \
		"no interrupt of eth0 found"

fresh nic-loops nic-8q-tuned
rm -rf "$T/$NIC/queues/rx-1" && ln -s rx-1 "$T/$NIC/queues/rx-1"
rm -f "$T/$NIC/queues/rx-2/rps_cpus" && mkfifo "$T/$NIC/queues/rx-2/rps_cpus"
rm -f "$T/proc/irq/63/effective_affinity_list" && ln -s /proc/self/stat "$T/proc/irq/63/effective_affinity_list"
rm -f "$T/sys/class/net/eth0" && ln -s ../../../../../../../../etc "$T/sys/class/net/eth0"
netflight "NIC links out of the root, a loop and a FIFO" 0 "" &&
	not_pass "NIC loops: the network device checks do not pass" net-queues net-irq-placement net-rps-xps

fresh route-garbage vm-6.18-virtio-net
head -c 4096 /dev/urandom | tr -d '\0' >"$T/proc/$(readlink "$T/proc/self")/net/route"
outcome "a default route table of random bytes" 1 "net-irq-placement:error net-queues:error net-rps-xps:error" "$BIN" --root "$T" preflight --workers 2 --format json &&
	not_pass "route garbage: the network device checks do not pass" net-queues net-irq-placement net-rps-xps &&
	one_finding "route garbage: net-queues says what it could not parse" net-queues error "proc/net/route"

# --- names a process chooses -------------------------------------------------------
# The names of the pathology's hostile-names mode, framed as 6.18 frames them:
# the comm raw with its newline in stat, escaped in status, a thread's comm,
# fd links to files named with escapes, a forged report line, markup and bytes
# that are not UTF-8, and the ring's UserFiles escaped by seq_file_path().
if command -v python3 >/dev/null; then
	fresh hostile-names
	python3 tests/e2e/names.py tree "$T"
	audit "hostile names" 1 "fd-append:fail fd-o-direct:fail" && if why=$(python3 tests/e2e/names.py json "$TMP/out" /srv/data); then
		ok "hostile names: JSON is strict UTF-8, names recovered, all registered, no error"
	else bad "hostile names: JSON is strict UTF-8, names recovered, all registered, no error" "$why"; fi
	for fmt in text markdown junit; do
		"$BIN" --root "$T" audit "$PID" --format "$fmt" --no-color -v >"$TMP/names.$fmt" 2>"$TMP/err"
		if why=$(python3 tests/e2e/names.py human "$TMP/names.$fmt"); then
			ok "hostile names: $fmt has no raw control and no forged line"
		else bad "hostile names: $fmt has no raw control and no forged line" "$why"; fi
	done
	grep -qF 'fix: open /srv/data/evil\e]0;PWNED\a\e[2J\n  PASS   fd-o-direct' "$TMP/names.text" &&
		grep -qF 'Fix: open /srv/data/md\`\|\*\_\[x\](javascript:x)\<b\>' "$TMP/names.markdown" &&
		ok "hostile names: text and Markdown show every name escaped" ||
		bad "hostile names: text and Markdown show every name escaped" \
			"$(grep -ah 'fix: open\|Fix: open' "$TMP/names.text" "$TMP/names.markdown" | cat -v)"
	xmllint --noout --schema tests/e2e/junit.xsd "$TMP/names.junit" 2>"$TMP/err" &&
		ok "hostile names: JUnit is valid against the schema" ||
		bad "hostile names: JUnit is valid against the schema" "$(head -c 400 "$TMP/err")"
else
	skip "hostile names" "python3 is not installed (make deps installs it)"
fi

# --- reports from other hosts: report diff and report merge ------------------------------
# A report is only as honest as the host that wrote it: strict JSON or exit 2 with one
# line that names the file and the byte, a huge value cut in what is echoed, a large
# report compared without a hang, and memory running out said as such (exit 3).
if command -v python3 >/dev/null; then
	"$BIN" --root testdata/host-6.18 preflight --dir / --format json >"$TMP/good.json"
	python3 - "$TMP" <<'PY'
import json, sys
d = sys.argv[1]
s = open(d + "/good.json").read().rstrip("\n")
assert '"cpus":2' in s.replace(" ", "")
cpus = s.replace('"cpus": 2', '"cpus":2')
open(d + "/trailing.json", "w").write(s + "\n{}\n")
open(d + "/nan.json", "w").write(cpus.replace('"cpus":2', '"cpus":NaN'))
open(d + "/huge-number.json", "w").write(cpus.replace('"cpus":2', '"cpus":1e999'))
r = json.loads(s)
r["host"]["hostname"] = "evil\x1b]0;PWNED\x07" + "A" * (1 << 20)
open(d + "/long-host.json", "w").write(json.dumps(r))
PY
	for bad in trailing nan huge-number; do
		run "report diff of $bad JSON: exit 2" 2 "$BIN" report diff "$TMP/$bad.json" "$TMP/good.json" &&
			one_error_line "report diff of $bad JSON: one line" "$bad.json' is not JSON" "at byte"
		run "report merge of $bad JSON: exit 2" 2 "$BIN" report merge "$TMP/good.json" "$TMP/$bad.json" &&
			one_error_line "report merge of $bad JSON: one line" "$bad.json' is not JSON" "at byte"
	done
	if run "report diff of a 1 MiB host name: exit 2" 2 "$BIN" report diff "$TMP/long-host.json" "$TMP/good.json"; then
		if [ "$(wc -c <"$TMP/err")" -lt 1024 ] && ! grep -q $'\033' "$TMP/err"; then
			one_error_line "report diff of a 1 MiB host name: cut and escaped" "of host 'evil\\e]0;PWNED\\aAAA" "AAA...'"
		else
			bad "report diff of a 1 MiB host name: cut and escaped" "$(wc -c <"$TMP/err") bytes on stderr"
		fi
	fi
	run "report merge of a 1 MiB host name" 0 "$BIN" report merge "$TMP/long-host.json" --format json --fail-on never &&
		jq -e '[.findings[].evidence | (.failing_hosts + .warning_hosts)[] | length] |
			length > 0 and max <= 255' "$TMP/out" >/dev/null &&
		ok "report merge of a 1 MiB host name: cut to 255 bytes" ||
		bad "report merge of a 1 MiB host name: cut to 255 bytes" "$(head -c 300 "$TMP/out")"

	# 100,000 findings a side, a few thousand changed (tests/bench/diff.sh times it): the
	# comparison took minutes while it looked each finding up in the other list; 60 s is
	# far over the seconds it takes, so this asserts no hang, not speed. The plain binary:
	# under valgrind it would take minutes for what valgrind is not there to see.
	PLAIN=${TABLE_BIN:-$BIN}
	python3 tests/bench/report_gen.py 100000 old >"$TMP/large-old.json"
	python3 tests/bench/report_gen.py 100000 new >"$TMP/large-new.json"
	timeout 60 "$PLAIN" --format json report diff "$TMP/large-old.json" "$TMP/large-new.json" \
		>"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ "$rc" -eq 1 ] && jq -e '.findings | length > 20000' "$TMP/out" >/dev/null &&
		ok "report diff of 100,000 findings a side: done within 60 s" ||
		bad "report diff of 100,000 findings a side: done within 60 s" "exit $rc (124: killed)" \
			"$(head -c 300 "$TMP/err")"
	# Out of memory under an 80 MB address space: 37 MB of text does not fit as a tree.
	# The sanitizers' shadow memory does not fit under such a limit at all.
	if grep -q -- '-fsanitize=address' build/FLAGS 2>/dev/null; then
		skip "report diff out of memory" "an AddressSanitizer build cannot run under ulimit -v"
	elif (ulimit -v 80000; exec "$PLAIN" report diff "$TMP/large-old.json" "$TMP/large-new.json") \
		>"$TMP/out" 2>"$TMP/err"; [ $? -eq 3 ]; then
		one_error_line "report diff out of memory: exit 3, said as such" \
			"uringlint: cannot read '$TMP/large-old.json': Cannot allocate memory"
	else
		bad "report diff out of memory: exit 3, said as such" "$(head -c 300 "$TMP/err")"
	fi
	rm -f "$TMP"/large-*.json
else
	skip "report diff and merge of hostile reports" "python3 is not installed (make deps installs it)"
fi

echo "hostile: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
