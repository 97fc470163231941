#!/bin/bash
# A VM monitor booting a guest on an io_uring disk, audited as a new user
# would: `uringlint audit PID` with no flags. qemu-system-x86_64 (TCG) boots
# the matrix's Debian 6.1 kernel with tests/kernels/vm_init, which writes the
# guest's disk with O_DIRECT in a loop; the disk is a raw image on this
# host's ext4 with -drive aio=io_uring. Two configurations:
#   writeback  cache=writeback: qemu writes through the host's page cache,
#              and ext4 takes no buffered write without blocking: every
#              write punts. The image must be blamed, cause buffered, its
#              share and counts as the ground truth's, and the fix must
#              speak qemu's -drive options.
#   none       cache=none on a fully allocated image, its pages not cached:
#              healthy, so no warn and no fail, the truth's punt share
#              under the 1% tolerance.
#   sparse     cache=none on a sparse image: each first write into a hole
#              punts; blamed with cause holes, the fix qemu-img's
#              preallocation.
#   threads    aio=threads: no ring; uring-fallback names the drive's
#              aio=threads, read from the monitor's command line.
# Ground truth: punt_truth.py records the monitor's threads in a tracefs
# instance of its own around the audit; watch_compare.py compares.
# Root; the kernel fetched by make check-kernels (skips without it).
set -u
cd "$(dirname "$0")/../.." || exit 2
SUITE=vm-disk
. tests/e2e/lib.sh
trap '[ -n "$qpid" ] && kill "$qpid" 2>/dev/null; rm -rf "$TMP"' EXIT

K=tests/kernels
TRUTH=tests/e2e/punt_truth.py
COMPARE=tests/e2e/watch_compare.py
qpid=

finish_vm() {
	[ -n "$qpid" ] && kill "$qpid" 2>/dev/null && wait "$qpid" 2>/dev/null
	echo "vm-disk: $passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
	exit
}
[ "$(id -u)" -eq 0 ] || { skip "a VM monitor on an io_uring disk" "needs root (the tracepoints)"; finish_vm; }
command -v qemu-system-x86_64 >/dev/null ||
	{ skip "a VM monitor on an io_uring disk" "qemu-system-x86_64 is not installed (make deps-kernels)"; finish_vm; }
read -r kname kpattern < <(grep -v '^#' "$K/kernels.list" | grep . | head -1)
if ! where=$(B=build sh "$K/locate.sh" "$kname" "$kpattern" 2>"$TMP/locate.err"); then
	skip "a VM monitor on an io_uring disk" "$(cat "$TMP/locate.err")"
	finish_vm
fi
set -- $where
vmlinuz=$1 mods=$2
if ! INIT="$K/vm_init" bash "$K/initramfs.sh" "$mods" "$TMP/vm.cpio.gz" "$BIN" "$HELPERS/pathology" \
	2>"$TMP/initramfs.err"; then
	bad "the guest's initramfs" "$(cat "$TMP/initramfs.err")"
	finish_vm
fi

# boot NAME CACHE [AIO]: qemu booting the guest on $TMP/NAME.img (aio=io_uring unless
# given); its pid in qpid once the guest said it writes.
boot() {
	[ -f "$TMP/$1.img" ] || truncate -s 64M "$TMP/$1.img"
	qemu-system-x86_64 -accel tcg -cpu max -m 256 -smp 1 -kernel "$vmlinuz" \
		-initrd "$TMP/vm.cpio.gz" -append "console=ttyS0 quiet loglevel=1 panic=-1" \
		-drive "file=$TMP/$1.img,format=raw,if=virtio,aio=${3:-io_uring},cache=$2" \
		-nographic -no-reboot </dev/null >"$TMP/$1.serial" 2>&1 &
	qpid=$!
	for _ in $(seq 1200); do
		grep -q '@@ready' "$TMP/$1.serial" 2>/dev/null && return 0
		grep -q '@@no-disk' "$TMP/$1.serial" 2>/dev/null && break
		kill -0 "$qpid" 2>/dev/null || break
		sleep 0.1
	done
	bad "$1: the guest boots and writes its disk" "$(tail -5 "$TMP/$1.serial")"
	kill "$qpid" 2>/dev/null
	wait "$qpid" 2>/dev/null
	qpid=
	return 1
}

# audited NAME [any]: the monitor audited with no flags inside a truth recording; a
# plain audit must have watched it, unless "any" (a healthy monitor may be read idle).
audited() {
	local rc
	sleep 1
	python3 "$TRUTH" start "vm$qpid" "$qpid" || { bad "$1: ground truth starts"; return 1; }
	"$BIN" audit "$qpid" --format json --fail-on never >"$TMP/$1.json" 2>"$TMP/$1.err"
	rc=$?
	PUNT_TRUTH_RAW="$TMP/$1.truth.raw" python3 "$TRUTH" stop "vm$qpid" "$qpid" >"$TMP/$1.truth"
	kill "$qpid" 2>/dev/null
	wait "$qpid" 2>/dev/null
	qpid=
	[ "$rc" -eq 0 ] || { bad "$1: audit PID exits 0 (--fail-on never)" "rc $rc: $(head -3 "$TMP/$1.err")"; return 1; }
	[ "${2:-}" = any ] || jq -e '.processes[0].watch != null' "$TMP/$1.json" >/dev/null ||
		{ bad "$1: a plain audit watched the monitor" "$(jq -c '.notes? // empty' "$TMP/$1.json" | head -c 300)"; return 1; }
}

# --- cache=writeback: every write through the page cache --------------------------------
truncate -s 64M "$TMP/writeback.img"
if boot writeback writeback && audited writeback; then
	if msg=$(python3 "$COMPARE" "$TMP/writeback.json" "$TMP/writeback.truth" buffered); then
		ok "writeback: $msg"
	else
		bad "writeback: file, share and cause against the tracepoints" "$msg"
	fi
	jq -e --arg img "$TMP/writeback.img" '[.findings[] | select(.id == "file-punts" and .status == "fail") |
		select(.evidence.application == "qemu-system" and (.fix | contains("cache=none")) and
			(.fix | contains("this image is -drive file=\($img) with cache=writeback")) and
			.evidence.qemu_drive.direct == false)] | length >= 1' \
		"$TMP/writeback.json" >/dev/null && ok "writeback: the fix speaks qemu's -drive cache=, quoting this image's" ||
		bad "writeback: the fix speaks qemu's -drive cache=" \
			"$(jq -c '[.findings[] | select(.id == "file-punts") | [.status, .evidence.application, .fix]]' "$TMP/writeback.json")"
fi

# --- cache=none on an allocated image, nothing of it cached: healthy ---------------------
dd if=/dev/zero of="$TMP/none.img" bs=1M count=64 oflag=direct status=none
if boot none none && audited none any; then
	how=$(jq -r 'if .processes[0].watch != null then "watched" else "read, not watched" end' "$TMP/none.json")
	share=$(jq '[.files[]?] | (map(.punts) | add // 0) as $p | (map(.requests) | add // 0) as $r |
		if $r > 0 then $p / $r else -1 end' "$TMP/none.truth")
	reqs=$(jq '[.files[]?.requests] | add // 0' "$TMP/none.truth")
	bad_list=$(jq -r '.findings[] | select(.status == "warn" or .status == "fail" or .status == "error") |
		"\(.status) \(.id) \(.subject): \(.message[0:200])"' "$TMP/none.json")
	if [ "$reqs" -gt 0 ] && awk -v s="$share" 'BEGIN { exit !(s >= 0 && s < 0.01) }' && [ -z "$bad_list" ]; then
		none_ok=1
		ok "none, $how: no warn and no fail ($reqs requests in the truth, punt share $share)"
	else
		bad "none: no warn and no fail" "truth: $reqs requests, punt share $share" "$bad_list"
	fi
fi
# --- cache=none on a sparse image: each first write into a hole punts ---------------------
truncate -s 4G "$TMP/sparse.img"
if boot sparse none && audited sparse; then
	if msg=$(python3 "$COMPARE" "$TMP/sparse.json" "$TMP/sparse.truth" holes); then
		ok "sparse: $msg"
	else
		bad "sparse: file, share and cause against the tracepoints" "$msg"
	fi
	jq -e '[.findings[] | select(.id == "file-punts" and .status == "fail") |
		select(.evidence.application == "qemu-system" and (.fix | contains("preallocation")))] | length >= 1' \
		"$TMP/sparse.json" >/dev/null && ok "sparse: the fix speaks qemu-img's preallocation" ||
		bad "sparse: the fix speaks qemu-img's preallocation" \
			"$(jq -c '[.findings[] | select(.id == "file-punts") | [.status, .evidence.application, .fix]]' "$TMP/sparse.json")"
fi

# --- the table's fixes applied: writeback and sparse failed with the setting in the fix;
# cache=none on an allocated image, its pages not cached (both settings applied), gave no
# warn and no fail against a truth under 1% (lib/apps/app_fixes.tbl's Tested: lines).
applied() { # CASE BROKEN WORDS
	if [ "${none_ok:-0}" = 1 ] && [ -s "$TMP/$2.json" ] && jq -e --arg w "$3" '[.findings[] |
		select(.id == "file-punts" and .status == "fail" and (.fix | contains($w)))] |
		length >= 1' "$TMP/$2.json" >/dev/null; then
		ok "$1: $2 failed with '$3' in the fix; applied (cache=none, an allocated image, its pages not cached), no warn and no fail"
	else
		bad "$1" "healthy case passed: ${none_ok:-0}" \
			"$(jq -c '[.findings[] | select(.id == "file-punts") | [.status, .fix]]' "$TMP/$2.json" 2>&1)"
	fi
}
applied "fix applied: qemu-system buffered" writeback "cache=none"
applied "fix applied: qemu-system sparse" sparse "preallocation=full"

# --- aio=threads: no ring at all, the cause read from its command line -------------------
if boot threads-aio none threads; then
	sleep 1
	rings=$(ls -l "/proc/$qpid/fd" 2>/dev/null | grep -c 'anon_inode:\[io_uring\]')
	maps=$(grep -c 'anon_inode:\[io_uring\]' "/proc/$qpid/maps" 2>/dev/null)
	"$BIN" audit "$qpid" --format json --fail-on never >"$TMP/threads.json" 2>"$TMP/threads.err"
	kill "$qpid" 2>/dev/null
	wait "$qpid" 2>/dev/null
	qpid=
	jq -e --arg img "$TMP/threads-aio.img" '[.findings[] | select(.id == "uring-fallback" and .status == "fail" and
		(.message | contains("Cause, from its command line: -drive file=\($img) has aio=threads")) and
		(.fix | contains("aio=io_uring")))] | length == 1' "$TMP/threads.json" >/dev/null && [ "$rings$maps" = 00 ] &&
		ok "aio=threads: no ring (fds and maps: $rings, $maps), uring-fallback names the drive's aio=threads" ||
		bad "aio=threads: uring-fallback names the drive's engine" "ring fds $rings, maps $maps" \
			"$(jq -c '[.findings[] | select(.id == "uring-fallback") | [.status, .message, .fix]]' "$TMP/threads.json")"
fi
finish_vm
