#!/bin/bash
# End-to-end for probe: real runs on the work directory (ext4 here) and an
# XFS loop mount, tmpfs, bad input, and kills mid-run that must leave nothing.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh
. tests/e2e/live.sh

chmod 0755 "$TMP"
install -m 0755 "$BIN" "$TMP/uringlint"
QUICK=(--duration 0.4 --size 32M)

plausible() { # the numbers of every mode that ran in $TMP/out
	jq -e '[.probe.modes[], .probe.contrast[]] | length > 0 and
		all(.[]; .iops > 0 and .lat_us.p50 <= .lat_us.p99 and .lat_us.p99 <= .lat_us.p999)' \
		"$TMP/out" >/dev/null
}

# --- the work directory -------------------------------------------------------------
mkdir -p "$TMP/work"
fs=$(stat -f -c %T "$TMP/work")
run "probe --contrast" 0 "$BIN" probe --dir "$TMP/work" "${QUICK[@]}" --contrast --format json --fail-on never &&
	plausible && ok "probe numbers are plausible (IOPS > 0, p50 <= p99 <= p99.9)" ||
	bad "probe numbers are plausible" "$(jq -c '.probe' "$TMP/out" | head -c 800)"
jq -e '.probe | has("dir") and has("fs") and has("device") and has("modes") and has("contrast") and
	has("fast_path") and ([.modes[].mode] | index("sqpoll-fixed") != null) and
	([.contrast[].mode] | sort == ["append", "buffered", "unwritten"]) and
	all(.modes[]; has("iops") and has("lat_us") and has("punts") and has("punts_source") and
		has("new_iou_wrk") and has("syscalls_per_io") and has("vcsw_per_io"))' "$TMP/out" >/dev/null &&
	ok "probe JSON carries the contract's keys" || bad "probe JSON keys" "$(jq -c '.probe | keys' "$TMP/out")"
[ -z "$(ls -A "$TMP/work")" ] && ok "probe left nothing behind" || bad "probe left nothing behind" "$(ls -A "$TMP/work")"
if [ "$fs" = ext2/ext3 ] && [ "$(id -u)" -eq 0 ]; then
	jq -e '.probe.modes | all(.[]; .punts == 0 and .punts_source == "tracepoint")' "$TMP/out" >/dev/null &&
		ok "ext4: O_DIRECT modes punt nothing (tracepoint)" ||
		bad "ext4: O_DIRECT modes punt nothing" "$(jq -c '[.probe.modes[] | {mode, punts, ios: .ios}]' "$TMP/out")"
	jq -e '.probe.contrast[] | select(.mode == "buffered") | .punts > 0' "$TMP/out" >/dev/null &&
		ok "ext4: --contrast buffered writes punt" || bad "ext4: buffered writes punt"
	jq -e '.findings[] | select(.id == "probe-fast-path" and .status == "pass")' "$TMP/out" >/dev/null &&
		jq -e '.probe.fast_path == true' "$TMP/out" >/dev/null && ok "ext4: probe-fast-path passes" || bad "ext4: probe-fast-path passes"
	jq -e '.findings[] | select(.id == "probe-sqpoll" and .status == "pass")' "$TMP/out" >/dev/null &&
		ok "probe-sqpoll: the thread came up, enter/IO near zero" || bad "probe-sqpoll" "$(jq -c '.findings[] | select(.id == "probe-sqpoll")' "$TMP/out")"
else
	skip "ext4 punt counts" "the work directory is $fs, or not root (tracepoint)"
fi

# The text report: tables and histograms.
run "probe text" 0 "$BIN" probe --dir "$TMP/work" --duration 0.2 --size 16M --mode default --no-color --fail-on never &&
	grep -q "^  MODE  *IOPS" "$TMP/out" && grep -q "Completion latency" "$TMP/out" && grep -q "^  default " "$TMP/out" &&
	ok "text: mode table and histogram" || bad "text: mode table and histogram" "$(head -20 "$TMP/out")"

# Every format carries the probe: Prometheus gets its numbers, JUnit its verdicts.
run "probe prometheus" 0 "$BIN" probe --dir "$TMP/work" --duration 0.2 --size 16M --contrast --format prometheus --fail-on never &&
	sh tests/e2e/check-exposition.sh "$TMP/out" >"$TMP/prom" &&
	grep -q '^uringlint_probe_iops{mode="sqpoll-fixed"} ' "$TMP/out" &&
	grep -q '^uringlint_probe_latency_microseconds{mode="default",quantile="0.99"} ' "$TMP/out" &&
	grep -q '^uringlint_probe_punts{mode="buffered"} ' "$TMP/out" &&
	grep -q '^uringlint_probe_latency_seconds{mode="default",quantile="0.99"} ' "$TMP/out" &&
	grep -q '^uringlint_probe_fast_path [01]$' "$TMP/out" &&
	ok "prometheus: valid, with the probe's IOPS, latency and punts" || bad "probe prometheus" "$(cat "$TMP/prom")"
if command -v xmllint >/dev/null; then
	run "probe junit" 0 "$BIN" probe --dir "$TMP/work" --duration 0.2 --size 16M --mode default --format junit --fail-on never &&
		xmllint --noout --schema tests/e2e/junit.xsd "$TMP/out" 2>"$TMP/xsd" && grep -q 'name="probe-fast-path ' "$TMP/out" &&
		ok "junit: the probe's verdicts validate" || bad "probe junit" "$(cat "$TMP/xsd")"
fi

# --- an XFS loop mount ---------------------------------------------------------------
if [ "$(id -u)" -ne 0 ] || ! command -v mkfs.xfs >/dev/null; then
	skip "probe on XFS" "needs root and mkfs.xfs"
else
	if xfs_mount; then
		run "probe on XFS" 0 "$BIN" probe --dir "$TMP/xfs" "${QUICK[@]}" --format json --fail-on never &&
			jq -e '.probe.fs == "xfs"' "$TMP/out" >/dev/null && plausible &&
			ok "XFS: probe runs, numbers plausible" || bad "XFS: probe runs" "$(jq -c '.probe' "$TMP/out" | head -c 600)"
		[ -z "$(ls -A "$TMP/xfs")" ] && ok "XFS: nothing left behind" || bad "XFS: nothing left behind"
		umount "$TMP/xfs"
	else
		skip "probe on XFS" "could not mount a loop device"
	fi
fi

# --- tmpfs and bad input ----------------------------------------------------------------
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	run "probe on tmpfs" 1 "$BIN" probe --dir /dev/shm "${QUICK[@]}" --format json &&
		jq -e '.findings[] | select(.id == "probe-o-direct" and .status == "fail")' "$TMP/out" >/dev/null &&
		ok "tmpfs: probe-o-direct fails, no crash" || bad "tmpfs: probe-o-direct fails"
fi
run "probe --dir missing" 2 "$BIN" probe --dir /nonexistent/x && one_error_line "probe --dir missing message" "/nonexistent/x"
run "probe --dir a file" 2 "$BIN" probe --dir /etc/hostname && one_error_line "probe --dir file message" "not a directory"
run "probe --root" 2 "$BIN" --root testdata/host-6.18 probe && one_error_line "probe --root message" "live"
run "probe --bs 1000" 2 "$BIN" probe --bs 1000 && one_error_line "probe --bs message" "'1000'"
run "probe --mode bogus" 2 "$BIN" probe --mode bogus && one_error_line "probe --mode message" "'bogus'"
run "probe --duration 0" 2 "$BIN" probe --duration 0 && one_error_line "probe --duration message" "'0'"
run "probe --size 1T" 3 "$BIN" probe --dir "$TMP/work" --size 1T && one_error_line "probe no space message" "free"

# --- memlock too low for the fixed buffers: the other modes still run -----------------
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	mkdir -p "$TMP/nobody" && chmod 0777 "$TMP/nobody"
	run "probe with memlock 100 KiB" 0 setpriv --reuid=65534 --regid=65534 --clear-groups \
		sh -c "ulimit -l 100 && exec '$TMP/uringlint' probe --dir '$TMP/nobody' --duration 0.3 --size 16M --format json --fail-on fail" &&
		jq -e '(.findings[] | select(.id == "probe-fixed-buffers") | .status == "warn" and (.message | contains("ENOMEM") or contains("memory")))
			and ([.probe.modes[].mode] | index("sqpoll") != null)' "$TMP/out" >/dev/null &&
		ok "memlock too low: fixed buffers warn, other modes ran" || bad "memlock too low" "$(jq -c '[.findings[] | [.id,.status,.message]], [.probe.modes[].mode], .probe.skipped' "$TMP/out")"
	[ -z "$(ls -A "$TMP/nobody")" ] && ok "nobody's probe left nothing" || bad "nobody's probe left nothing"
else
	skip "memlock too low" "needs root and setpriv"
fi

# --- killed mid-run: nothing left behind ---------------------------------------------------
# A background job of a script starts with SIGINT ignored: give the probe the default back.
for sig in INT TERM KILL; do
	d=$TMP/kill-$sig
	mkdir -p "$d"
	env --default-signal=INT,TERM "$BIN" probe --dir "$d" --duration 30 --size 32M --contrast >/dev/null 2>&1 &
	p=$!
	sleep 1.5
	kill -"$sig" "$p"
	for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$p" 2>/dev/null; then
		bad "SIG$sig stops the probe" "still running 5 s later"
		kill -KILL "$p"
	fi
	wait "$p" 2>/dev/null
	[ -z "$(ls -A "$d")" ] && ok "SIG$sig mid-run leaves nothing in --dir" || bad "SIG$sig mid-run leaves nothing" "$(ls -A "$d")"
done

echo "probe: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
