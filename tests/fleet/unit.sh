#!/bin/bash
# The shipped service and timer as they run on a Debian 12 host: the package
# installed in a bookworm guest booted under its own systemd
# (tests/fleet/guest.sh), the service started by systemd with every
# sandboxing setting of the unit enforced, against a buffered writer of
# another user (a DynamicUser service), and the textfile it writes read
# back. Checked: systemd-analyze security's exposure (the figure docs/fleet.md
# gives), the sandbox as the service itself saw it (seccomp, no new
# privileges, its three capabilities), the service's success and the same
# verdicts as without the sandbox, the service's own user and the report
# linked into the textfile directory, the writer's buffered file failing
# fd-o-direct, the watch's verdicts on it (its punts, against its io-wq
# workers' run time), no check in error, a root process's memory not
# writable from the sandbox (/proc/PID/mem, also through /proc/PID/root,
# process_vm_writev), a service of
# two io_uring processes read whole by node_exporter (no series twice), and
# the timer enabled and waiting.
set -u
cd "$(dirname "$0")/../.." || exit 2
SUITE=fleet-unit
. tests/e2e/lib.sh

DEB=$(ls build/deb/uringlint_*.deb 2>/dev/null | head -1)
NAME=uringlint-unit-$$
G="bash tests/fleet/guest.sh"
TEXTFILE=/var/lib/prometheus/node-exporter/uringlint.prom
# The exposure systemd-analyze security gives the unit (systemd 252): docs/fleet.md's figure.
EXPOSURE_MAX=1.8

[ "$(id -u)" -eq 0 ] || { skip "unit under systemd" "needs root"; exit 77; }
[ -n "$DEB" ] || { skip "unit under systemd" "no build/deb/uringlint_*.deb: make deb"; exit 77; }
for c in debootstrap systemd-nspawn nsenter zstd; do
	command -v "$c" >/dev/null || { skip "unit under systemd" "$c is not installed (make deps)"; exit 77; }
done
trap '$G stop "$NAME" >/dev/null 2>&1; rm -rf "$TMP"' EXIT

if ! $G start "$NAME" 2>"$TMP/start.err"; then
	bad "a Debian 12 guest boots under systemd" "$(tail -5 "$TMP/start.err")"
	echo "fleet-unit: $passed passed, $failed failed, $skipped skipped"
	exit 1
fi
ok "a Debian 12 guest boots under systemd ($(tail -1 "$TMP/start.err" | sed 's/^guest: //'))"
in_guest() { $G exec "$NAME" "$@"; }

$G cp "$NAME" "$DEB" /var/tmp/uringlint.deb
in_guest dpkg -i /var/tmp/uringlint.deb >"$TMP/dpkg" 2>&1 && ok "the package installs in the guest" ||
	bad "the package installs in the guest" "$(tail -5 "$TMP/dpkg")"

# The exposure of the unit as installed, by systemd's own reckoning.
in_guest systemd-analyze security --no-pager uringlint-report.service >"$TMP/security" 2>&1
score=$(sed -n 's/.*Overall exposure level for uringlint-report.service: \([0-9.]*\).*/\1/p' "$TMP/security")
if [ -n "$score" ] && awk -v s="$score" -v m="$EXPOSURE_MAX" 'BEGIN { exit !(s <= m) }'; then
	ok "systemd-analyze security: exposure $score (at most $EXPOSURE_MAX)"
else
	bad "systemd-analyze security: exposure at most $EXPOSURE_MAX" "$(grep -E '✗|Overall' "$TMP/security" | head -20)"
fi

# Another user's buffered writer, and the textfile directory node_exporter's package makes.
$G cp "$NAME" "${HELPERS}/pathology" /usr/local/bin/pathology
in_guest systemd-run --quiet --unit=writer -p DynamicUser=yes -p StateDirectory=writer \
	/usr/local/bin/pathology buffered /var/lib/writer
in_guest mkdir -p /var/lib/prometheus/node-exporter
for _ in $(seq 50); do wpid=$(in_guest systemctl show -p MainPID --value writer); [ "${wpid:-0}" -gt 0 ] && break; sleep 0.1; done
sleep 0.5
# On a host systemd mounts tracefs at boot (sys-kernel-tracing.mount); in a
# container it lacks CAP_SYS_RAWIO and does not. Mounted here as a host has it.
in_guest mountpoint -q /sys/kernel/tracing || in_guest mount -t tracefs nodev /sys/kernel/tracing
# Ground truth that the writer punts, read apart from uringlint: its io-wq
# workers' run time (schedstat) grows over a second.
worker_ns() {
	in_guest sh -c 'for t in /proc/'"$wpid"'/task/*; do
		case $(cat $t/comm) in iou-wrk-*) cut -d" " -f1 $t/schedstat;; esac
	done' | awk '{ s += $1 } END { print s + 0 }'
}
w0=$(worker_ns); sleep 1; w1=$(worker_ns)

# The sandbox as the service itself sees it: a drop-in's ExecStartPre runs under it.
in_guest mkdir -p /etc/systemd/system/uringlint-report.service.d
printf '[Service]\nExecStartPre=/bin/sh -c "grep -E \\"^(Uid|Seccomp|Seccomp_filters|NoNewPrivs|CapEff|CapBnd|CapAmb):\\" /proc/self/status >/var/lib/uringlint/sandbox.txt"\n' \
	>"$TMP/sandbox.conf"
$G cp "$NAME" "$TMP/sandbox.conf" /etc/systemd/system/uringlint-report.service.d/sandbox.conf
in_guest systemctl daemon-reload
in_guest systemctl start uringlint-report.service
res=$(in_guest systemctl show -p Result --value uringlint-report.service)
[ "$res" = success ] && ok "the service runs to success under systemd" ||
	bad "the service runs to success under systemd" "Result=$res" \
		"$(in_guest journalctl -u uringlint-report --no-pager | tail -5)"
in_guest cat /var/lib/uringlint/sandbox.txt >"$TMP/sandbox.txt" 2>&1
uid=$(in_guest id -u uringlint)
# CAP_DAC_READ_SEARCH (2), CAP_SYS_PTRACE (19) and CAP_PERFMON (38): 0x4000080004. The guest's own services run
# under nspawn's filter already: the unit's adds filters of its own to that count.
plain=$(in_guest systemd-run --wait --pipe --quiet grep -oP '^Seccomp_filters:\t\K[0-9]+' /proc/self/status)
unit=$(grep -oP '^Seccomp_filters:\t\K[0-9]+' "$TMP/sandbox.txt")
grep -qP '^Seccomp:\t2$' "$TMP/sandbox.txt" && [ "${unit:-0}" -gt "${plain:-0}" ] &&
	grep -qP '^NoNewPrivs:\t1$' "$TMP/sandbox.txt" &&
	grep -qP '^CapEff:\t0000004000080004$' "$TMP/sandbox.txt" &&
	grep -qP '^CapBnd:\t0000004000080004$' "$TMP/sandbox.txt" &&
	grep -qP '^CapAmb:\t0000004000080004$' "$TMP/sandbox.txt" &&
	[ "${uid:-0}" -gt 0 ] && grep -qP "^Uid:\t$uid\t$uid\t$uid\t$uid$" "$TMP/sandbox.txt" &&
	ok "the service runs as user uringlint (uid $uid) under its own seccomp filter ($unit filters, $plain for a plain service), no new privileges and its three capabilities, ambient" ||
	bad "the service runs under its sandbox" "a plain service has $plain seccomp filters" "$(cat "$TMP/sandbox.txt")"

in_guest cat "$TEXTFILE" >"$TMP/uringlint.prom" 2>&1
# The report is the service user's, in its state directory; the textfile directory has a link to it.
link=$(in_guest readlink "$TEXTFILE")
owner=$(in_guest stat -c %U:%a /var/lib/uringlint/uringlint.prom)
[ "$link" = /var/lib/uringlint/uringlint.prom ] && [ "$owner" = uringlint:644 ] &&
	ok "the report is uringlint's ($owner) in /var/lib/uringlint, linked from the textfile directory" ||
	bad "the report is uringlint's, linked from the textfile directory" "link: $link" "owner: $owner"
[ -n "${FLEET_KEEP:-}" ] && mkdir -p "$FLEET_KEEP" && cp "$TMP/uringlint.prom" "$FLEET_KEEP/"
# The writer is a service: its unit names the series, not its pid (a restart keeps the series).
grep -q "^uringlint_check_status{id=\"fd-o-direct\",subject=\"fd [0-9]* /var/lib/private/writer/buffered.dat\",unit=\"writer.service\".*} 2$" \
	"$TMP/uringlint.prom" && ok "the textfile fails fd-o-direct on the writer's buffered file (writer.service, pid $wpid)" ||
	bad "the textfile fails fd-o-direct on the writer's buffered file" "$(grep fd-o-direct "$TMP/uringlint.prom")"
# The service watched the writer (its workers ran: punts) and names the file it punts on.
if [ "$((w1 - w0))" -gt 0 ] &&
	grep -q "^uringlint_check_status{id=\"file-punts\",subject=\"ring fd [0-9]* registered file /var/lib/private/writer/buffered.dat\",unit=\"writer.service\".*} 2$" "$TMP/uringlint.prom" &&
	grep -q "^uringlint_check_status{id=\"iowq-punts\",.*unit=\"writer.service\".*} 2$" "$TMP/uringlint.prom"; then
	ok "the service watches: file-punts and iowq-punts fail on the writer's file (its io-wq workers ran $(((w1 - w0) / 1000000)) ms in 1 s)"
else
	bad "the service watches: file-punts and iowq-punts fail on the writer's file" \
		"workers ran $((w1 - w0)) ns in 1 s" "$(grep -E 'file-punts|iowq-punts' "$TMP/uringlint.prom")" \
		"$(in_guest journalctl -u uringlint-report --no-pager | tail -3)"
fi
grep -q '} 3$' "$TMP/uringlint.prom" && bad "no check in error under the sandbox" "$(grep '} 3$' "$TMP/uringlint.prom")" ||
	ok "no check in error under the sandbox"

# The same report from a service without the sandbox (root, every capability, no filter):
# the same verdicts but fs-o-direct, whose try of O_DIRECT needs to write in the --dir
# (here /, read-only under ProtectSystem=strict: it skips, saying so; docs/fleet.md says to
# add the data directory to ReadWritePaths=). What a watch samples differs from one
# watch to the next (which CPU a thread ran on): the reading is compared unwatched, the
# service run again with --watch 0 through its EnvironmentFile, and the watch's punt
# verdicts are compared apart.
# The unit's LimitMEMLOCK= too: the watch's sample buffers are locked memory, and
# uid 0 here shares its per-user perf allowance with the host's root (no user
# namespace); with that spent, the default 8 MiB refuses the watch (EPERM).
free_report() {
	in_guest systemd-run --wait --pipe --quiet -p WorkingDirectory=/ -p LimitMEMLOCK=80M /usr/bin/uringlint \
		--format prometheus --fail-on never report "$@"
}
free_report >"$TMP/free.prom" 2>&1
[ -n "${FLEET_KEEP:-}" ] && cp "$TMP/free.prom" "$FLEET_KEEP/"
norm() { grep '^uringlint_check_status' "$1" | grep -v 'id="fs-o-direct"' | sed 's/pid [0-9]*/pid N/' | sort; }
punts() { norm "$1" | grep -E 'id="(iowq-punts|file-punts)"'; }
if [ -n "$(punts "$TMP/uringlint.prom")" ] && diff <(punts "$TMP/uringlint.prom") <(punts "$TMP/free.prom") >"$TMP/diff"; then
	ok "the sandbox changes none of the watch's punt verdicts"
else
	bad "the sandbox changes none of the watch's punt verdicts" "$(head -10 "$TMP/diff")"
fi
printf 'URINGLINT_ARGS="--watch 0"\n' >"$TMP/default"
$G cp "$NAME" "$TMP/default" /etc/default/uringlint
in_guest systemctl start uringlint-report.service
in_guest cat "$TEXTFILE" >"$TMP/unwatched.prom" 2>&1
in_guest rm -f /etc/default/uringlint
free_report --watch 0 >"$TMP/free0.prom" 2>&1
if grep -q 'id="fd-o-direct"' "$TMP/unwatched.prom" &&
	diff <(norm "$TMP/unwatched.prom") <(norm "$TMP/free0.prom") >"$TMP/diff"; then
	ok "the sandbox changes no verdict of the reading but fs-o-direct's ($(norm "$TMP/unwatched.prom" | grep -c '} 0$') pass, $(norm "$TMP/unwatched.prom" | grep -c '} -1$') skip, as unsandboxed)"
else
	bad "the sandbox changes no verdict of the reading but fs-o-direct's" "$(head -10 "$TMP/diff")"
fi

# A service's unit, and the fix aimed at it applied as printed: a unit file whose
# RLIMIT_MEMLOCK (64 KiB) cannot hold a 4096-entry ring, so the service's io_uring_queue_init()
# fails with ENOMEM and it falls back to Linux AIO (proc-memlock warns for the next ring), then
# a transient one. The ground truth of a fix is the service's own io_uring_queue_init(): ENOMEM
# before, a ring after ("ready PID closed" in its journal). The limit itself shows 8 MiB, not
# unlimited, under nspawn, whose PID 1 lacks CAP_SYS_RESOURCE and so cannot raise a unit's
# limit above the hard limit it was started with; on a host, infinity.
memlock_of() { in_guest sh -c "grep 'Max locked memory' /proc/$1/limits" | awk '{ print $4 }'; }
main_pid() { for _ in $(seq 50); do p=$(in_guest systemctl show -p MainPID --value "$1"); [ "${p:-0}" -gt 0 ] && break; sleep 0.1; done; echo "$p"; }
printf '[Unit]\nDescription=a service whose memlock limit cannot hold a ring\n[Service]\nDynamicUser=yes\nStateDirectory=lowmem\nLimitMEMLOCK=64K\nEnvironment=PATHOLOGY_MEMLOCK=inherit\nExecStart=/usr/local/bin/pathology no-ring /var/lib/lowmem\n' >"$TMP/lowmem.service"
$G cp "$NAME" "$TMP/lowmem.service" /etc/systemd/system/lowmem.service
in_guest systemctl daemon-reload
in_guest systemctl start lowmem.service
lpid=$(main_pid lowmem.service)
sleep 0.3
truth=$(in_guest ps -o unit= -p "$lpid" | tr -d ' ')
in_guest uringlint audit "$lpid" --watch 0 --format json --fail-on never >"$TMP/lowmem.json" 2>"$TMP/lowmem.err"
if python3 - "$TMP/lowmem.json" "$truth" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["processes"][0]
u = p["unit"]
assert u and u["name"] == sys.argv[2] == "lowmem.service", u
assert u["kind"] == "system" and u["slice"] == "system.slice" and p["container"] is None, p
assert u["how"] == "cgroup v2 path /system.slice/lowmem.service", u
PY
then ok "processes[].unit: lowmem.service in system.slice, as ps -o unit says ($truth), no container"
else bad "processes[].unit names the service" "ps: $truth" "$(cat "$TMP/lowmem.err")"; fi
in_guest uringlint audit "$lpid" --watch 0 --fail-on never >"$TMP/lowmem.txt" 2>&1
grep -q "^pid $lpid (pathology) in lowmem.service: " "$TMP/lowmem.txt" && ok "the text heads the process with its unit" ||
	bad "the text heads the process with its unit" "$(grep "^pid" "$TMP/lowmem.txt")"
ready=$(in_guest journalctl -u lowmem.service -o cat --no-pager | grep -m1 '^ready ')
grep -q 'FAIL   uring-fallback' "$TMP/lowmem.txt" && [ "${ready##* }" = ENOMEM ] &&
	ok "uring-fallback fails where the service's own ring setup got ENOMEM (its journal: $ready)" ||
	bad "uring-fallback fails where the ring setup got ENOMEM" "journal: $ready" "$(grep -A1 uring-fallback "$TMP/lowmem.txt")"
# The fix as the report's JSON gives it: the text prints it once, under its problem.
in_guest uringlint audit "$lpid" --watch 0 --fail-on never --format json >"$TMP/lowmem.json" 2>&1
fix=$(jq -r '.findings[] | select(.id == "proc-memlock" and .status == "warn") | .fix' "$TMP/lowmem.json")
case $fix in
"systemctl edit lowmem.service, and in the drop-in: [Service] LimitMEMLOCK=infinity"*)
	ok "proc-memlock warns at $(memlock_of "$lpid") bytes, its fix aimed at the unit: $fix" ;;
*) bad "proc-memlock's fix names the unit and the setting" "$(jq -c '.findings[] | select(.id == "proc-memlock")' "$TMP/lowmem.json")" ;;
esac
in_guest uringlint audit "$lpid" --watch 0 --format prometheus --fail-on never >"$TMP/lowmem.prom" 2>&1
grep -q '^uringlint_check_status{id="proc-memlock",subject="process",unit="lowmem.service",severity="medium",command="audit"} 1$' \
	"$TMP/lowmem.prom" && ok "Prometheus: the unit label, no pid in the series" ||
	bad "Prometheus: the unit label, no pid in the series" "$(grep proc-memlock "$TMP/lowmem.prom")"
# The drop-in as the fix prints it, through systemctl edit: it wants a terminal (script gives
# one) and runs SYSTEMD_EDITOR on the drop-in, here a copy of what the fix says to write.
printf '[Service]\nLimitMEMLOCK=infinity\n' >"$TMP/dropin"
$G cp "$NAME" "$TMP/dropin" /tmp/lowmem-dropin
in_guest script -qec "env SYSTEMD_EDITOR='cp /tmp/lowmem-dropin' systemctl edit lowmem.service" /dev/null </dev/null >/dev/null 2>&1
in_guest systemctl restart lowmem.service
sleep 0.3
lpid=$(main_pid lowmem.service)
in_guest uringlint audit "$lpid" --watch 0 --fail-on never >"$TMP/lowmem2.txt" 2>&1
lim=$(memlock_of "$lpid")
ready=$(in_guest journalctl -u lowmem.service -o cat --no-pager | grep '^ready ' | tail -1)
grep -q 'PASS   proc-memlock ' "$TMP/lowmem2.txt" && [ "${ready%% *}" = ready ] && [ "${ready##* }" = closed ] &&
	[ "$lim" != 65536 ] &&
	ok "the drop-in applied (systemctl edit, restart): the service's own ring setup works now (journal: $ready), proc-memlock passes; /proc/$lpid/limits says $lim" ||
	bad "the drop-in applied: proc-memlock passes" "limits: $lim" "journal: $ready" "$(grep proc-memlock "$TMP/lowmem2.txt")"
in_guest systemctl stop lowmem.service

in_guest systemd-run --quiet --unit=lowrun -p DynamicUser=yes -p StateDirectory=lowrun -p LimitMEMLOCK=64K \
	-E PATHOLOGY_MEMLOCK=inherit /usr/local/bin/pathology no-ring /var/lib/lowrun
rpid=$(main_pid lowrun.service)
sleep 0.3
in_guest uringlint audit "$rpid" --watch 0 --fail-on never >"$TMP/lowrun.txt" 2>&1
in_guest uringlint audit "$rpid" --watch 0 --fail-on never --format json >"$TMP/lowrun.json" 2>&1
fix=$(jq -r '.findings[] | select(.id == "proc-memlock" and .status == "warn") | .fix' "$TMP/lowrun.json")
case $fix in
"lowrun.service is a transient unit (systemd-run): start it again with systemd-run -p LimitMEMLOCK=infinity --unit=lowrun.service ..."*)
	ok "a transient unit's fix is another systemd-run: $fix" ;;
*) bad "a transient unit's fix is another systemd-run" "$(jq -c '.findings[] | select(.id == "proc-memlock")' "$TMP/lowrun.json")" ;;
esac
in_guest systemctl stop lowrun.service
in_guest systemd-run --quiet --unit=lowrun -p DynamicUser=yes -p StateDirectory=lowrun -p LimitMEMLOCK=64K \
	-p LimitMEMLOCK=infinity -E PATHOLOGY_MEMLOCK=inherit /usr/local/bin/pathology no-ring /var/lib/lowrun
rpid=$(main_pid lowrun.service)
sleep 0.3
in_guest uringlint audit "$rpid" --watch 0 --fail-on never >"$TMP/lowrun2.txt" 2>&1
ready=$(in_guest journalctl -u lowrun.service -o cat --no-pager | grep '^ready ' | tail -1)
grep -q 'PASS   proc-memlock ' "$TMP/lowrun2.txt" && [ "${ready##* }" = closed ] &&
	ok "started again as printed: its own ring setup works (journal: $ready), proc-memlock passes ($(memlock_of "$rpid") bytes)" ||
	bad "started again as printed: proc-memlock passes" "$(grep proc-memlock "$TMP/lowrun2.txt")"
in_guest systemctl stop lowrun.service

# Two io_uring processes of one service: the textfile as node_exporter's
# textfile collector reads it (the package's, on this host), then Prometheus's
# parser. A series given twice makes node_exporter drop lines of the file and
# log an error at every scrape.
printf '[Service]\nDynamicUser=yes\nStateDirectory=two\nExecStart=/bin/sh -c "/usr/local/bin/pathology idle-ring /var/lib/two & exec /usr/local/bin/pathology idle-ring /var/lib/two"\n' \
	>"$TMP/two.service"
$G cp "$NAME" "$TMP/two.service" /etc/systemd/system/two.service
in_guest systemctl daemon-reload
in_guest systemctl start two.service
sleep 0.5
twopids=$(in_guest sh -c 'cat /sys/fs/cgroup$(systemctl show -p ControlGroup --value two.service)/cgroup.procs' |
	sort -n | tr '\n' ' ')
printf 'URINGLINT_ARGS="--watch 0"\n' >"$TMP/default"
$G cp "$NAME" "$TMP/default" /etc/default/uringlint
in_guest systemctl start uringlint-report.service
in_guest rm -f /etc/default/uringlint
mkdir -p "$TMP/textfile"
in_guest cat "$TEXTFILE" >"$TMP/textfile/uringlint.prom"
# shellcheck disable=SC2086
set -- $twopids
if [ $# -eq 2 ] && grep -q "unit=\"two.service\",pid=\"$1\"" "$TMP/textfile/uringlint.prom" &&
	grep -q "unit=\"two.service\",pid=\"$2\"" "$TMP/textfile/uringlint.prom"; then
	ok "the two processes of two.service are told apart by their pid labels ($1 and $2)"
else
	bad "the two processes of two.service are told apart by their pid labels" "pids: $twopids" \
		"$(grep two.service "$TMP/textfile/uringlint.prom" | head -3)"
fi
dups=$(grep -v '^#' "$TMP/textfile/uringlint.prom" | sed 's/ [^ ]*$//' | sort | uniq -d)
[ -z "$dups" ] && ok "no series twice in the textfile" || bad "no series twice in the textfile" "$(echo "$dups" | head -5)"
if sh tests/e2e/check-exposition.sh "$TMP/textfile/uringlint.prom" >"$TMP/expo.out"; then
	ok "promtool check metrics and check-exposition.sh: the textfile is valid"
else
	bad "the textfile is valid exposition" "$(head -3 "$TMP/expo.out")"
fi
if command -v prometheus-node-exporter >/dev/null && command -v curl >/dev/null; then
	nport=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	prometheus-node-exporter --web.listen-address="127.0.0.1:$nport" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$TMP/textfile" >"$TMP/ne.log" 2>&1 &
	ne=$!
	for _ in $(seq 50); do curl -sf "http://127.0.0.1:$nport/metrics" >"$TMP/scrape" 2>/dev/null && break; sleep 0.1; done
	curl -sf "http://127.0.0.1:$nport/metrics" >"$TMP/scrape"
	kill "$ne"; wait "$ne" 2>/dev/null
	want=$(grep -c '^uringlint_' "$TMP/textfile/uringlint.prom")
	got=$(grep -c '^uringlint_' "$TMP/scrape")
	if [ "$want" -eq "$got" ] && ! grep -q 'level=error' "$TMP/ne.log" &&
		grep -q '^node_textfile_scrape_error 0$' "$TMP/scrape"; then
		ok "node_exporter serves all $got uringlint lines of the textfile, no error logged in two scrapes"
	else
		bad "node_exporter serves every line of the textfile" "$got of $want lines" \
			"$(grep -m2 'level=error' "$TMP/ne.log" | cut -c1-300)"
	fi
else
	skip "node_exporter serves every line" "prometheus-node-exporter or curl is not installed (make deps-fleet)"
fi
in_guest systemctl stop two.service

# The sandbox against the memory of a root process of every capability: the
# service's own unit, its ExecStart= replaced by mem-write (a drop-in), which
# tries each way to write it back unchanged.
$G cp "$NAME" "${HELPERS}/mem-write" /usr/local/bin/mem-write
in_guest systemd-run --quiet --unit=victim sleep infinity
vpid=$(main_pid victim.service)
printf '[Service]\nExecStart=\nExecStart=/usr/local/bin/mem-write %s\n' "$vpid" >"$TMP/escape.conf"
$G cp "$NAME" "$TMP/escape.conf" /etc/systemd/system/uringlint-report.service.d/escape.conf
in_guest systemctl daemon-reload
in_guest systemctl start uringlint-report.service
in_guest journalctl -u uringlint-report.service -o cat --no-pager | grep -E '^(maps|mem|root-mem|vm-readv|vm-writev) ' |
	tail -5 >"$TMP/escape"
in_guest rm /etc/systemd/system/uringlint-report.service.d/escape.conf
in_guest systemctl daemon-reload
in_guest systemctl stop victim.service
caps=$(in_guest grep CapEff /proc/1/status | cut -f2)
# The mem file is 0600 and root's: not root, the service cannot open it to write, through
# its own read-only /proc or through the process's root to that process's writable one.
mem=$(sed -n 's/^mem //p' "$TMP/escape")
if grep -qx 'maps ok' "$TMP/escape" && { [ "$mem" = EACCES ] || [ "$mem" = EROFS ]; } &&
	grep -qx 'vm-writev EPERM' "$TMP/escape" && grep -qx 'vm-readv EPERM' "$TMP/escape"; then
	ok "from the service's sandbox, a root process's memory (pid $vpid, like PID 1's CapEff $caps) is read-only: /proc/PID/mem $mem, process_vm_writev and process_vm_readv EPERM"
else
	bad "from the service's sandbox, a root process's memory is read-only" "$(tr '\n' ';' <"$TMP/escape")"
fi
grep -qx 'root-mem EACCES' "$TMP/escape" &&
	ok "nor through its own root's /proc: /proc/PID/root/proc/PID/mem EACCES" ||
	bad "/proc/PID/root/proc/PID/mem does not open to write" "$(tr '\n' ';' <"$TMP/escape")"

in_guest systemctl enable --now uringlint-report.timer >/dev/null 2>&1
[ "$(in_guest systemctl is-active uringlint-report.timer)" = active ] &&
	ok "the timer is enabled and waiting" || bad "the timer is enabled and waiting"

echo "fleet-unit: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
