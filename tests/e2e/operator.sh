#!/bin/bash
# The operator's view. Service and container: real io_uring processes put in cgroup directories
# named as Docker, Kubernetes (containerd, systemd driver) and Docker's
# cgroupfs driver (the v1 name=systemd hierarchy) name theirs, audited
# live and from a capture of each, against the process's own
# /proc/PID/cgroup; the memlock fix aimed at the runtime; and a directory
# named with a newline and a forged line, which must not name a unit.
# (Real systemd units are tested under a booted systemd: tests/fleet/unit.sh.)
# And a host-wide text that fits on a screen: 200 alike processes.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/e2e/lib.sh

[ "$(id -u)" -eq 0 ] || { skip "operator" "needs root (makes cgroups)"; echo "operator: $passed passed, $failed failed, $skipped skipped"; exit 77; }
[ -x "$HELPERS/pathology" ] || { echo "operator: $HELPERS/pathology is not built (make check-e2e builds it)" >&2; exit 2; }
CG2=$([ -e /sys/fs/cgroup/cgroup.controllers ] && echo /sys/fs/cgroup || echo /sys/fs/cgroup/unified)
[ -e "$CG2/cgroup.procs" ] || { skip "operator" "no cgroup v2 hierarchy"; exit 77; }
TAG=uringlint-owner-$$
ID=$(printf '%s' "$TAG" | sha256sum | cut -c1-64)
POD=1b2c3d4e_aaaa_bbbb_cccc_$(printf '%012x' $$)
made=()
pids=()
cleanup() {
	local d p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do while kill -0 "$p" 2>/dev/null; do sleep 0.05; done; done
	for ((i = ${#made[@]} - 1; i >= 0; i--)); do rmdir "${made[i]}" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup EXIT

mkcg() { # DIR: made, and removed at the end
	local d=$1 parts=() p
	while [ ! -d "$d" ]; do parts=("$d" "${parts[@]}"); d=$(dirname "$d"); done
	for p in "${parts[@]}"; do mkdir "$p" && made+=("$p") || return 1; done
}
start() { # MODE: a pathology process in its own directory, its pid in $pid (not a
	# subshell's: cleanup must see it)
	local dir
	dir=$(mktemp -d "$TMP/p.XXXX")
	"$HELPERS/pathology" "$1" "$dir" >"$dir/out" 2>&1 &
	pids+=($!)
	for _ in $(seq 100); do grep -q ready "$dir/out" && break; sleep 0.05; done
	pid=$(awk '/ready/ { print $2 }' "$dir/out")
}
owner_json() { # PID [ROOT]: "unit|container" as the audit's JSON says (a replay never watches)
	local root=() watch=(--watch 0)
	[ -n "${2:-}" ] && root=(--root "$2") watch=()
	"$BIN" "${root[@]}" audit "$1" "${watch[@]}" --format json --fail-on never 2>"$TMP/err" |
		python3 -c 'import json, sys
p = json.load(sys.stdin)["processes"][0]
u, c = p["unit"], p["container"]
# The namespaces (audit.sh tests them): here what the cgroup names, live and replayed alike.
for k in ("pid_inside", "own_mount_namespace"):
    (c or {}).pop(k, None)
print(json.dumps(u, sort_keys=True) + "|" + json.dumps(c, sort_keys=True))'
}

# Docker, systemd driver: system.slice/docker-ID.scope.
start no-ring
mkcg "$CG2/system.slice/docker-$ID.scope" && echo "$pid" >"$CG2/system.slice/docker-$ID.scope/cgroup.procs"
truth=$(grep '^0::' "/proc/$pid/cgroup")
got=$(owner_json "$pid")
want='null|{"how": "cgroup v2 path /system.slice/docker-'$ID'.scope", "id": "'$ID'", "name": null, "pod_uid": null, "runtime": "docker", "uid": null}'
[ "$got" = "$want" ] && ok "docker-ID.scope: container docker $ID, no unit (its cgroup: $truth)" ||
	bad "docker-ID.scope: the container" "got:  $got" "want: $want" "$(cat "$TMP/err")"
# A cgroup named so, the process in uringlint's own namespaces (NSpid one field, ns/mnt the same).
"$BIN" audit "$pid" --watch 0 --format json --fail-on never 2>/dev/null |
	jq -e '.processes[0].container | .pid_inside == null and .own_mount_namespace == false' >/dev/null &&
	[ "$(awk '$1 == "NSpid:" {print NF}' "/proc/$pid/status")" = 2 ] &&
	[ "$(readlink "/proc/$pid/ns/mnt")" = "$(readlink /proc/self/ns/mnt)" ] &&
	ok "docker-ID.scope in uringlint's namespaces: pid_inside null, own_mount_namespace false" ||
	bad "docker-ID.scope: the namespaces as they are" "$(grep NSpid "/proc/$pid/status")"
"$BIN" audit "$pid" --watch 0 --fail-on never >"$TMP/docker.txt" 2>&1
grep -q "^pid $pid (pathology) in docker container ${ID:0:12}: " "$TMP/docker.txt" &&
	ok "the text heads the process with its container" ||
	bad "the text heads the process with its container" "$(grep '^pid' "$TMP/docker.txt")"
grep -A3 '^ *[0-9]*\. FAIL  uring-fallback' "$TMP/docker.txt" | grep -q "fix: start container ${ID:0:12} with docker run --ulimit memlock=-1:-1 (compose: ulimits: memlock: -1)" &&
	ok "uring-fallback's memlock fix is docker's --ulimit for that container" ||
	bad "uring-fallback's memlock fix is docker's" "$(grep -A1 uring-fallback "$TMP/docker.txt")"
"$BIN" audit "$pid" --watch 0 --format prometheus --fail-on never >"$TMP/docker.prom" 2>&1
grep -q "^uringlint_check_status{id=\"uring-fallback\",subject=\"pid $pid\",container=\"docker/${ID:0:12}\",severity=\"high\",command=\"audit\"} 2$" "$TMP/docker.prom" &&
	ok "Prometheus: a container label, the pid kept (a container's id is as short-lived)" ||
	bad "Prometheus: the container label" "$(grep uring-fallback "$TMP/docker.prom")"
"$BIN" capture -o "$TMP/cap-docker" --pid "$pid" >/dev/null 2>"$TMP/err"
[ "$(owner_json "$pid" "$TMP/cap-docker")" = "$want" ] && ok "a capture replays the container" ||
	bad "a capture replays the container" "$(owner_json "$pid" "$TMP/cap-docker")" "$(cat "$TMP/err")"

# Kubernetes with containerd, systemd driver: the pod's UID from its slice.
start buffered
K="$CG2/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod$POD.slice/cri-containerd-$ID.scope"
mkcg "$K" && echo "$pid" >"$K/cgroup.procs"
got=$(owner_json "$pid")
want='null|{"how": "cgroup v2 path '${K#"$CG2"}'", "id": "'$ID'", "name": null, "pod_uid": "'${POD//_/-}'", "runtime": "containerd", "uid": null}'
[ "$got" = "$want" ] && ok "kubepods: containerd container $ID of pod ${POD//_/-}" ||
	bad "kubepods: the container and pod" "got:  $got" "want: $want" "$(cat "$TMP/err")"
"$BIN" capture -o "$TMP/cap-kube" --pid "$pid" >/dev/null 2>"$TMP/err"
[ "$(owner_json "$pid" "$TMP/cap-kube")" = "$want" ] && ok "a capture replays the pod" ||
	bad "a capture replays the pod" "$(owner_json "$pid" "$TMP/cap-kube")" "$(cat "$TMP/err")"

# Docker's cgroupfs driver on a hybrid host: the v1 name=systemd hierarchy, v2 at /.
if [ -e /sys/fs/cgroup/systemd/cgroup.procs ] && [ "$CG2" != /sys/fs/cgroup ]; then
	start buffered
	mkcg "/sys/fs/cgroup/systemd/docker/$ID" && echo "$pid" >"/sys/fs/cgroup/systemd/docker/$ID/cgroup.procs"
	got=$(owner_json "$pid")
	want='null|{"how": "cgroup v1 name=systemd path /docker/'$ID'", "id": "'$ID'", "name": null, "pod_uid": null, "runtime": "docker", "uid": null}'
	[ "$got" = "$want" ] && ok "v1 name=systemd /docker/ID: container docker" ||
		bad "v1 name=systemd /docker/ID" "got:  $got" "want: $want" "$(grep name=systemd "/proc/$pid/cgroup")"
	echo "$pid" >/sys/fs/cgroup/systemd/cgroup.procs
else
	skip "v1 name=systemd /docker/ID" "no hybrid cgroup v1 hierarchy here"
fi

# A directory whose name holds a newline and a line claiming a service: the kernel
# refuses it (cgroup_mkdir and, since 2021, cgroup1_rename return EINVAL "to prevent
# making /proc/<pid>/cgroup unparsable"). The parser still takes a second line of one
# hierarchy for a forgery, as an older kernel or a hostile tree could show it: proved on
# a capture whose proc/PID/cgroup is rewritten so. The owner is unknown, with the
# reason; no unit, no label.
start buffered
F="$CG2/$TAG"$'\n''0::'
if mkdir "$F" 2>"$TMP/err"; then
	made+=("$F")
	bad "the kernel refuses a cgroup named with a newline" "mkdir succeeded: $(ls -d "$CG2/$TAG"* | od -c | head -2)"
else
	grep -q "Invalid argument" "$TMP/err" && ok "the kernel refuses a cgroup named with a newline ($(cat "$TMP/err"))" ||
		bad "the kernel refuses a cgroup named with a newline" "$(cat "$TMP/err")"
fi
"$BIN" capture -o "$TMP/cap-forged" --pid "$pid" >/dev/null 2>"$TMP/err" || bad "capture for the forged tree" "$(cat "$TMP/err")"
printf '0::/%s\n0::/system.slice/sshd.service\n' "$TAG" >"$TMP/cap-forged/proc/$pid/cgroup"
"$BIN" --root "$TMP/cap-forged" audit "$pid" --format json --fail-on never >"$TMP/forged.json" 2>"$TMP/err"
if python3 - "$TMP/forged.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["processes"][0]
assert p["unit"] is None and p["container"] is None, p
assert "cannot parse" in p["owner_error"] and "cgroup" in p["owner_error"], p
PY
then ok "a forged cgroup line: no unit, no container, owner_error says why ($(grep -c '^0::' "$TMP/cap-forged/proc/$pid/cgroup") lines of hierarchy 0)"
else bad "a forged cgroup line names nothing" "$(head -c 600 "$TMP/forged.json")" "$(cat "$TMP/err")"; fi
"$BIN" --root "$TMP/cap-forged" audit "$pid" --format prometheus --fail-on never >"$TMP/forged.prom" 2>&1
if grep -q 'unit=' "$TMP/forged.prom" || ! grep -q "subject=\"pid $pid" "$TMP/forged.prom"; then
	bad "a forged cgroup line gives no unit label" "$(grep -m3 'unit=\|subject=' "$TMP/forged.prom")"
else ok "a forged cgroup line gives no unit label"; fi

# 200 alike processes, each a ring and a buffered writable file (on a slow host,
# OPERATOR_PROCESSES lowers the count). The text folds them; JSON keeps every finding.
n=${OPERATOR_PROCESSES:-200}
grp=()
for i in $(seq "$n"); do
	mkdir -p "$TMP/alike/p$i"
	PATHOLOGY_IO_MS=1000 "$HELPERS/pathology" idle-ring "$TMP/alike/p$i" >"$TMP/alike/p$i/out" 2>&1 &
	pids+=($!)
	grp+=($!)
done
for i in $(seq "$n"); do for _ in $(seq 100); do grep -q ready "$TMP/alike/p$i/out" && break; sleep 0.05; done; done
"$BIN" audit "${grp[@]}" --watch 0 --fail-on never --no-color >"$TMP/alike.txt" 2>"$TMP/alike.err"
"$BIN" audit "${grp[@]}" --watch 0 --fail-on never --format json >"$TMP/alike.json" 2>>"$TMP/alike.err"
lines=$(wc -l <"$TMP/alike.txt")
nf=$(jq '.findings | length' "$TMP/alike.json")
np=$(jq '.processes | length' "$TMP/alike.json")
if [ "$lines" -lt 150 ] && [ "$np" -eq "$n" ] && grep -q "^$n processes audited (-v lists each):" "$TMP/alike.txt" &&
	grep -q "SKIP   fd-o-direct .*alike in $n processes (pathology $n), as pid" "$TMP/alike.txt"; then
	ok "$n alike processes: $lines lines of text ($nf findings in the JSON, $np processes)"
else
	bad "$n alike processes fit on a screen" "$lines lines, $np processes in the JSON" "$(head -20 "$TMP/alike.txt")" "$(head -3 "$TMP/alike.err")"
fi
"$BIN" -v audit "${grp[@]}" --watch 0 --fail-on never --no-color >"$TMP/alike-v.txt" 2>&1
each=$(grep -c "^  SKIP   fd-o-direct .*pid [0-9]*: 1 writable buffered file" "$TMP/alike-v.txt")
[ "$each" -eq "$n" ] && ok "-v lists each of the $n ($(wc -l <"$TMP/alike-v.txt") lines)" ||
	bad "-v lists each" "$each fd-o-direct lines of $n"

# The same processes without --watch 0: each one's ring never took a request, so
# each is watched (one window for all) and has its own note "pid N watched for 2 s:
# ring fd 3 never took a request ...". The text folds the alike notes into one line
# with the count and the first pids; the JSON has each process with its watch.
"$BIN" audit "${grp[@]}" --fail-on never --no-color >"$TMP/watched.txt" 2>"$TMP/watched.err"
"$BIN" audit "${grp[@]}" --fail-on never --format json >"$TMP/watched.json" 2>>"$TMP/watched.err"
lines=$(wc -l <"$TMP/watched.txt")
notes=$(grep -c 'watched for 2 s' "$TMP/watched.txt")
missing=$(jq -r --argjson pids "$(printf '%s\n' "${grp[@]}" | jq -s -c .)" '
	[.processes[] | select(.watch != null) | .pid] as $w |
	[$pids[] | select(. as $p | $w | index($p) | not) | tostring] | join(" ")' "$TMP/watched.json")
# The first 8 pids, then how many more (OPERATOR_PROCESSES may be 8 or fewer).
tail_re=" and $((n - 8)) more\)"
[ "$n" -gt 8 ] || tail_re="\)"
if [ "$lines" -lt 150 ] && [ "$notes" -eq 1 ] && [ -z "$missing" ] &&
	grep -Eq "^$n processes watched for 2 s: ring fd [0-9]+ never took a request .*\(pids [0-9]+(, [0-9]+){$(( (n < 8 ? n : 8) - 1 ))}$tail_re$" "$TMP/watched.txt"; then
	ok "$n alike processes watched: their notes on one line, $lines lines of text; the JSON has each with its watch"
else
	bad "$n alike processes watched: one note line, under 150 lines, each watched in the JSON" \
		"$lines lines, $notes lines of 'watched for 2 s'; not watched in the JSON: ${missing:0:300}" \
		"$(grep -m3 'watched for' "$TMP/watched.txt" | cut -c1-300)" "$(head -3 "$TMP/watched.err")"
fi
m=$(( n < 8 ? n : 8 ))
"$BIN" audit "${grp[@]:0:$m}" --fail-on never --format markdown >"$TMP/watched.md" 2>>"$TMP/watched.err"
grep -Eq "^$m processes watched for 2 s: ring fd [0-9]+ never took a request .*\(pids [0-9]+(, [0-9]+){$((m - 1))}\)$" "$TMP/watched.md" &&
	[ "$(grep -c 'watched for 2 s' "$TMP/watched.md")" -eq 1 ] &&
	ok "Markdown folds the $m alike watch notes the same" ||
	bad "Markdown folds the alike watch notes" "$(grep -m3 'watched for' "$TMP/watched.md" | cut -c1-300)"

# A host-wide run: the alike processes, two fio jobs writing buffered (each punting
# every write) beside one writing O_DIRECT, and pathology processes with other
# problems (an overflowed CQ, unaligned registered buffers, a fragmented file,
# unshared SQPOLL threads), audited together in every format. Each format opens with
# the problems, worst first, each once with its fix once; the text's first 40 lines
# hold every problem; each warn or fail of the JSON belongs to one problem.
extra=()
for m in cq-overflow unaligned-buffers fragmented many-sqpoll; do
	start "$m"
	extra+=("$pid")
done
mkdir -p "$TMP/fio"
fiopids=()
for job in buf1:0 buf2:0 direct:1; do
	fio --name="${job%:*}" --directory="$TMP/fio" --ioengine=io_uring --rw=randwrite --bs=4k \
		--size=16M --time_based --runtime=60 --iodepth=8 --direct="${job#*:}" >"$TMP/fio/${job%:*}.out" 2>&1 &
	pids+=($!)
	fiopids+=($!)
done
fiojobs=()
for _ in $(seq 100); do
	fiojobs=()
	for f in "${fiopids[@]}"; do
		for c in $(pgrep -P "$f"); do ls -l /proc/"$c"/fd 2>/dev/null | grep -q io_uring && fiojobs+=("$c"); done
	done
	[ "${#fiojobs[@]}" -ge 3 ] && break
	sleep 0.1
done
pids+=("${fiojobs[@]}")
# And qemu-nbd with io_uring and the page cache (--cache=writeback), written through its
# socket by qemu-img bench for as long as the audits run.
nbd=()
if command -v qemu-nbd >/dev/null && command -v qemu-img >/dev/null; then
	qemu-img create -q -f raw -o preallocation=full "$TMP/fio/nbd.img" 64M
	qemu-nbd --persistent --shared=4 --format=raw --cache=writeback --aio=io_uring \
		--socket="$TMP/fio/nbd.sock" "$TMP/fio/nbd.img" >"$TMP/fio/nbd.log" 2>&1 &
	pids+=($!)
	nbd=($!)
	for _ in $(seq 100); do [ -S "$TMP/fio/nbd.sock" ] && break; sleep 0.05; done
	(while [ ! -e "$TMP/fio/nbd.stop" ]; do
		qemu-img bench -q -f raw -w -c 2000 -d 8 -s 4096 "nbd+unix:///?socket=$TMP/fio/nbd.sock" >/dev/null 2>&1 || sleep 0.1
	done) &
	pids+=($!)
else
	skip "host-wide: qemu-nbd" "qemu-nbd and qemu-img are missing (make deps installs DEB_APPS)"
fi
host=("${grp[@]}" "${extra[@]}" "${fiojobs[@]}" "${nbd[@]}")
"$BIN" audit "${host[@]}" --watch 2 --fail-on never --format json >"$TMP/host.json" 2>"$TMP/host.err"
for fmt in text markdown html; do
	"$BIN" audit "${host[@]}" --watch 2 --fail-on never --no-color --format "$fmt" -o "$TMP/host.$fmt" 2>>"$TMP/host.err"
done
touch "$TMP/fio/nbd.stop"
# What only this run has: three fio jobs, qemu-nbd in a problem, both buffered jobs one problem.
if python3 - "$TMP/host.json" "${#fiojobs[@]}" "${nbd[@]}" 2>>"$TMP/host.err" <<'PY' &&
import json, sys
doc = json.load(open(sys.argv[1]))
probs = doc.get("problems") or []
errs = []
if int(sys.argv[2]) < 3:
    errs.append("fio jobs with a ring: %s of 3" % sys.argv[2])
if len(sys.argv) > 3 and not any(int(sys.argv[3]) in p["pids"] for p in probs):
    errs.append("qemu-nbd (pid %s) in no problem: %s" % (sys.argv[3], [(p["id"], p["pids"][:4]) for p in probs]))
fp = [p for p in probs if p["id"] == "file-punts"]
if fp and (len(fp[0]["pids"]) < 2 or not fp[0]["punts"] or not fp[0]["punts_per_second"]):
    errs.append("file-punts: one problem for both buffered fio jobs, with punts and a rate: %s" % fp[0])
if errs:
    print("\n".join(errs), file=sys.stderr)
    sys.exit(1)
PY
	python3 tests/e2e/problems_first.py "$TMP/host.json" "$TMP/host.text" "$TMP/host.markdown" \
		"$TMP/host.html" uring-fallback,file-punts,cq-overflow,fixed-buf-alignment 2>>"$TMP/host.err"
then ok "host-wide: $n alike, ${#extra[@]} pathologies, ${#fiojobs[@]} fio jobs, ${#nbd[@]} qemu-nbd in text, Markdown and HTML: problems first, each once with its fix once, all in the text's first 40 lines ($(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["problems"]))' "$TMP/host.json") problems)"
else bad "host-wide: problems first, each once with its fix once" "$(head -3 "$TMP/host.err")" "$(head -40 "$TMP/host.text" | cut -c1-160)"; fi

echo "operator: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
