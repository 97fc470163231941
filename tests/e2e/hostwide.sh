#!/bin/bash
# The operator's view of one host running real applications of six kinds at once
# (apps_lib.sh, as Debian ships them), on ext4 (the two buffered writers on one of their own):
#
#   MariaDB       O_DIRECT, inserting rows                            healthy
#   Samba         a session reading a file                            healthy
#   MPD           playing                                             healthy
#   fio           two jobs: O_DIRECT randwrite, buffered randwrite    healthy, every write punted
#   qemu-nbd      --cache=writeback, written through its socket       every write punted
#   qemu-system   a VM monitor with its disk on aio=threads           no ring
#
# audited together (audit PID... --watch 2, as an operator names the services) in JSON,
# text, Markdown and HTML, a run each. The JSON run's verdict on each process is held
# against ground truth taken apart from uringlint: perf's count of its reads and writes
# submitted and punted to io-wq over that run (io_uring:io_uring_submit_req and
# io_uring_queue_async_work, by pid and opcode), its fd table (a ring or none). A
# broken one is in a problem that names it; a healthy one in no problem that fails, nor
# in a warning but the machine's load (scene-*: seven applications on this host's
# CPUs). Every format opens with the problems, each once with its fix once, all within
# the text's first 40 lines (problems_first.py); the page in headless chromium at
# 1400 px shows the first problem and its fix above the drawing. Root.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh
. tests/e2e/live.sh
. tests/e2e/apps_lib.sh
. tests/e2e/browse.sh

finish() {
	touch "$APPS_LOAD_STOP"
	echo "hostwide: $passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
	exit
}

if [ "$(id -u)" -ne 0 ]; then
	skip "a host of real applications" "loop mounts, the applications and perf need root"
	finish
fi
for c in mariadbd smbd mpd fio qemu-nbd qemu-img qemu-system-x86_64 perf chromium; do
	command -v "$c" >/dev/null || PATH=$PATH:/usr/sbin command -v "$c" >/dev/null ||
		{ bad "$c is installed (a test dependency: make deps)"; finish; }
done
apps_mount ext4 1G || { bad "a loop ext4 for the applications" "$(cat "$TMP/apps.mount.err")"; finish; }
# The two buffered writers on a filesystem of their own (apps_lib's second mount point,
# ext4 here), as a database has its own volume: their writeback on the healthy ones'
# journal held MariaDB's fsync in D for seconds in one run under CI's load.
BROKEN=$APPS_XFS
apps_mount ext4 1G "$BROKEN" || { bad "a second loop ext4" "$(cat "$TMP/apps.mount.err")"; finish; }

# Each load runs until the suite stops it ($APPS_LOAD_STOP), at most 120 s.
LOAD_S=120
declare -A pid_of
started() { # NAME: the application's process in $app_pid is NAME's
	pid_of[$1]=$app_pid
}

# Its page cleaner told to keep no dirty page (the settings mariadb_load ends with), so
# the inserts' pages are written through io_uring every second, not only once the
# buffer pool fills: a run without it saw no read or write of MariaDB's in the window.
mariadb_start healthy && started mariadb &&
	mariadb_sql "set global innodb_max_dirty_pages_pct_lwm=0.001; set global innodb_max_dirty_pages_pct=0" &&
	{ mariadb_load "$LOAD_S" & } ||
	bad "MariaDB starts" "$(tail -3 "$APPS_DIR/mariadb.healthy/error.log" 2>/dev/null)"
# Samba: the ring is the session's smbd child, made when the client connects the share.
if samba_start buffered && head -c 64M /dev/urandom >"$app_sock/share/get.dat" &&
	cat "$app_sock/share/get.dat" >/dev/null && samba_session "$LOAD_S" samba_get_load; then
	pid_of[samba]=$samba_child
else
	bad "Samba starts and serves a session"
fi
mpd_start && started mpd || bad "MPD starts playing" "$(tail -3 "$APPS_DIR/mpd/log" 2>/dev/null)"
APPS_DIR=$BROKEN qnbd_start writeback && started qemu-nbd && { qnbd_load "$LOAD_S" & } ||
	bad "qemu-nbd starts"
# A VM monitor, its guest not started (-S): the disk opened on the thread pool (aio= unset).
qemu-img create -q -f raw "$APPS_DIR/vm.img" 16M
apps_spawn "$APPS_DIR/qemu.log" qemu-system-x86_64 -machine q35 -S -nographic -nodefaults \
	-display none -monitor none -serial none -device virtio-blk-pci,drive=d0 \
	-drive "file=$APPS_DIR/vm.img,format=raw,if=none,id=d0,cache=none"
for _ in $(seq 100); do
	ls -l "/proc/$app_pid/fd" 2>/dev/null | grep -q vm.img && { started qemu-system; break; }
	sleep 0.05
done
[ -n "${pid_of[qemu-system]:-}" ] || bad "qemu-system opens its disk" "$(tail -3 "$APPS_DIR/qemu.log")"
# fio at a bounded rate: seven applications share this host's CPUs.
for job in direct:1 buffered:0; do
	d=$APPS_DIR/fio
	[ "${job#*:}" = 0 ] && d=$BROKEN/fio
	mkdir -p "$d"
	apps_spawn "$d/${job%:*}.log" fio --name="${job%:*}" --directory="$d" \
		--ioengine=io_uring --rw=randwrite --bs=4k --size=16M --iodepth=8 --rate_iops=2000 \
		--time_based --runtime="$LOAD_S" --direct="${job#*:}"
	# The job runs in fio's child, the ring's holder.
	for _ in $(seq 100); do
		for c in $(pgrep -P "$app_pid"); do
			ls -l "/proc/$c/fd" 2>/dev/null | grep -q io_uring && pid_of[fio-${job%:*}]=$c
		done
		[ -n "${pid_of[fio-${job%:*}]:-}" ] && break
		sleep 0.1
	done
	[ -n "${pid_of[fio-${job%:*}]:-}" ] || bad "fio ${job%:*} starts its job" "$(tail -3 "$d/${job%:*}.log")"
done
[ "${#pid_of[@]}" -ge 6 ] || { bad "the host's applications start" "${!pid_of[*]}"; finish; }
sleep 2
procs=()
for a in "${!pid_of[@]}"; do procs+=("${pid_of[$a]}"); done

# --- the JSON run, inside perf's record of every process's requests and punts ---------------
perf record -q -a -m 4096 -e io_uring:io_uring_submit_req -e io_uring:io_uring_queue_async_work \
	-o "$TMP/host.perf" 2>"$TMP/perf.err" &
perfpid=$!
sleep 1
"$BIN" audit "${procs[@]}" --watch 2 --fail-on never --format json >"$TMP/host.json" 2>"$TMP/host.err"
rc=$?
kill -INT "$perfpid"
wait "$perfpid"
for fmt in text markdown html; do
	"$BIN" audit "${procs[@]}" --watch 2 --fail-on never --no-color --format "$fmt" \
		-o "$TMP/host.$fmt" 2>>"$TMP/host.err"
done
# Each one's ring, from its fd table, after the runs.
rings=()
for a in "${!pid_of[@]}"; do
	n=$(ls -l "/proc/${pid_of[$a]}/fd" 2>/dev/null | grep -c 'anon_inode:\[io_uring\]')
	rings+=("$a=${pid_of[$a]}=$n")
done
touch "$APPS_LOAD_STOP"
perf script -i "$TMP/host.perf" -F pid,event,trace >"$TMP/host.script" 2>>"$TMP/perf.err"

[ "$rc" -eq 0 ] || bad "the host's audit exits 0" "rc $rc: $(head -3 "$TMP/host.err")"

# --- each verdict against the truth ------------------------------------------------------
# broken: in a problem that names its pid (the kind: file-punts or fd-o-direct for a
# punted file, uring-fallback for no ring); healthy: in no failing problem, nor a warning
# but the machine's load.
if msg=$(python3 - "$TMP/host.json" "$TMP/host.script" "${rings[@]}" <<'PY' 2>&1
import json, re, sys
from collections import Counter
doc = json.load(open(sys.argv[1]))
RW = re.compile(r"^(READ|WRITE)(V|_FIXED|V_FIXED)?$")
subs, punts = Counter(), Counter()
for line in open(sys.argv[2], errors="replace"):
    m = re.match(r"\s*(\d+)\s+io_uring:(io_uring_submit_req|io_uring_queue_async_work):.*opcode (\w+)", line)
    if not m or not RW.match(m.group(3)):
        continue
    (subs if m.group(2) == "io_uring_submit_req" else punts)[int(m.group(1))] += 1
apps = {}
for a in sys.argv[3:]:
    name, pid, n = a.split("=")
    apps[name] = (int(pid), int(n))
probs = doc.get("problems") or []
def problems_of(pid):
    return [p for p in probs if pid in p["pids"]]
errs, said = [], []
for name, (pid, ring) in sorted(apps.items()):
    s, p = subs[pid], punts[pid]
    share = p / s if s else 0.0
    mine = problems_of(pid)
    kinds = {q["id"] for q in mine}
    truth = "%d of %d reads and writes punted, %d ring fd%s" % (p, s, ring, "" if ring == 1 else "s")
    if name == "qemu-system":
        # Truth: no ring; broken.
        if ring or "uring-fallback" not in kinds:
            errs.append("%s (pid %d): %s; problems %s" % (name, pid, truth, sorted(kinds)))
    elif name in ("fio-buffered", "qemu-nbd"):
        # Truth: most of its writes punted; broken, on its file.
        if s < 100 or share < 0.9 or not kinds & {"file-punts", "fd-o-direct"}:
            errs.append("%s (pid %d): %s; problems %s" % (name, pid, truth, sorted(kinds)))
    else:
        # Truth: a ring that read or wrote in the run (its load ran), next to no punts
        # of its reads and writes; healthy.
        wrong = [q["id"] for q in mine if q["status"] == "fail" or
                 (q["status"] == "warn" and not q["id"].startswith("scene-"))]
        if not ring or not s or share > 0.1 or wrong:
            errs.append("%s (pid %d): %s; problems that fail or warn: %s" % (name, pid, truth, wrong))
    said.append("%s %s -> %s" % (name, truth.split(",")[0], ",".join(sorted(kinds)) or "none"))
print("; ".join(said))
if errs:
    print("\n".join(errs), file=sys.stderr)
    sys.exit(1)
PY
); then
	ok "hostwide: each application's verdict against perf and its fd table: $msg"
else
	bad "hostwide: each application's verdict against perf and its fd table" "$msg" "$(head -c 300 "$TMP/perf.err")"
fi

# --- problems first, in every format ---------------------------------------------------------
if msg=$(python3 tests/e2e/problems_first.py "$TMP/host.json" "$TMP/host.text" "$TMP/host.markdown" \
	"$TMP/host.html" uring-fallback,file-punts 2>&1); then
	ok "hostwide: text, Markdown and HTML open with the problems, each once with its fix once, all in the text's first 40 lines: $msg"
else
	bad "hostwide: problems first in every format" "$msg" "$(head -40 "$TMP/host.text" | cut -c1-160)"
fi
# Prometheus and JUnit of the same host: every process named, no error.
for fmt in prometheus junit; do
	"$BIN" audit "${procs[@]}" --watch 0 --fail-on never --format "$fmt" -o "$TMP/host.$fmt" 2>>"$TMP/host.err"
done
missing=()
for a in "${!pid_of[@]}"; do
	grep -q "^uringlint_check_status{.*subject=\"pid ${pid_of[$a]}[ \"]" "$TMP/host.prometheus" || missing+=("$a")
done
if [ "${#missing[@]}" -eq 0 ] && xmllint --noout "$TMP/host.junit" 2>/dev/null &&
	grep -q '^uringlint_build_info' "$TMP/host.prometheus"; then
	ok "hostwide: Prometheus has a check status of every application's process, JUnit parses"
else
	bad "hostwide: Prometheus and JUnit of the host" "no check status for: ${missing[*]}"
fi

# --- the page in a browser -------------------------------------------------------------------
first_screen_case "$TMP/host.html" "hostwide page" "hostwide page: the first problem and its fix above the drawing"
# HOSTWIDE_KEEP=DIR keeps the reports (each format) for a reader.
[ -n "${HOSTWIDE_KEEP:-}" ] && cp "$TMP"/host.{json,text,markdown,html,prometheus,junit} "$HOSTWIDE_KEEP/"

for a in "${!pid_of[@]}"; do apps_stop_pid "${pid_of[$a]}"; done
finish
