#!/bin/bash
# --format html in a real browser: the page of a preflight (this host and a
# captured 10-CPU tree), of a watched audit of a process punting every
# write under a hostile name, and of a report of it. Each page must parse as XML (xmllint), hold
# what the host and the process are, read apart from uringlint (the CPUs
# from sysfs, the ring's fd and the submitting thread from /proc), with the
# name escaped, and render in Debian's chromium headless: a screenshot, and
# the browser's own DOM holding the drawing.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh
. tests/e2e/live.sh

finish() {
	echo "html: $passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
	exit
}

# browse PAGE PNG: a screenshot of the page, and its DOM as chromium built it in PAGE.dom.
browse() {
	local flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
		--disable-background-networking --disable-component-update --disable-sync
		--hide-scrollbars --user-data-dir="$TMP/chromium")
	timeout 120 chromium "${flags[@]}" --window-size=1400,1000 --screenshot="$2" "file://$1" \
		>"$TMP/chromium.out" 2>&1 &&
		timeout 120 chromium "${flags[@]}" --dump-dom "file://$1" >"$1.dom" 2>>"$TMP/chromium.out"
}

# png_ok PNG W H: a PNG of that size, and not one blank colour (more than 20 KB).
png_ok() {
	python3 - "$@" <<'EOF'
import struct, sys, os
data = open(sys.argv[1], "rb").read()
ok = data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
w, h = struct.unpack(">II", data[16:24]) if ok else (0, 0)
sys.exit(0 if ok and (w, h) == (int(sys.argv[2]), int(sys.argv[3])) and
         os.path.getsize(sys.argv[1]) > 20000 else 1)
EOF
}

if ! command -v xmllint >/dev/null || ! command -v chromium >/dev/null; then
	skip "html pages" "xmllint and chromium are test dependencies (make deps)"
	finish
fi

# --- preflight of this host: every online CPU drawn, as sysfs lists them ----------------
"$BIN" preflight --format html -o "$TMP/preflight.html" --fail-on never 2>"$TMP/pf.err"
online=$(cat /sys/devices/system/cpu/online)
ncpu=$(python3 -c "import sys
n=0
for p in sys.argv[1].split(','):
    a,_,b=p.partition('-'); n+=int(b or a)-int(a)+1
print(n)" "$online")
if xmllint --noout "$TMP/preflight.html" 2>"$TMP/xml.err" &&
	[ "$(grep -o 'class="head">CPU [0-9]*<' "$TMP/preflight.html" | wc -l)" -eq "$ncpu" ]; then
	ok "preflight page: parses, draws the $ncpu online CPUs ($online)"
else
	bad "preflight page: parses and draws every CPU" "$(head -3 "$TMP/xml.err")" "$(cat "$TMP/pf.err")"
fi

# --- a captured host of 10 CPUs: each with the device interrupts its tree gives it --------
tree=testdata/nic-8q-tuned
"$BIN" preflight --root "$tree" --format html -o "$TMP/tree.html" --fail-on never 2>/dev/null
irq=$(awk -F: '/mlx5_comp3@/ {print $1+0; exit}' "$tree/proc/interrupts")
cpu=$(cat "$tree/proc/irq/$irq/effective_affinity_list" 2>/dev/null || cat "$tree/proc/irq/$irq/smp_affinity_list")
if xmllint --noout "$TMP/tree.html" 2>/dev/null &&
	[ "$(grep -o 'class="head">CPU [0-9]*<' "$TMP/tree.html" | wc -l)" -eq 10 ] &&
	python3 - "$TMP/tree.html" "$cpu" <<'EOF'
import re, sys
page, cpu = open(sys.argv[1]).read(), sys.argv[2]
# The CPU's cell: from its label to the next cell's.
cell = re.search(r'class="head">CPU %s<(.*?)(<g class="cpu|</svg>)' % re.escape(cpu), page, re.S)
sys.exit(0 if cell and "IRQ mlx5_comp3@" in cell.group(1) else 1)
EOF
then
	ok "captured 10-CPU tree: 10 CPUs drawn, mlx5_comp3 (IRQ $irq) on CPU $cpu as the tree's affinity says"
else
	bad "captured tree: the CPUs and the interrupt's CPU" "IRQ $irq on CPU $cpu"
fi

if [ "$(id -u)" -ne 0 ]; then
	skip "watched audit page" "the watch needs root"
	finish
fi

# --- a process punting every write, named to break markup ---------------------------------
hostile="$TMP/h<b>&x"
cp "$PATHO" "$hostile"
PATHO=$hostile
mkdir -p "$TMP/data"
if start buffered "$TMP/data"; then
	ring_fd=$(for f in /proc/"$pid"/fd/*; do
		[ "$(readlink "$f")" = "anon_inode:[io_uring]" ] && basename "$f"
	done | head -n 1)
	"$BIN" audit "$pid" --watch 2 --format html -o "$TMP/audit.html" --fail-on never 2>"$TMP/audit.err"
	page=$TMP/audit.html
	if ! xmllint --noout "$page" 2>"$TMP/xml.err"; then
		bad "audit page parses as XML" "$(head -3 "$TMP/xml.err")"
	elif grep -q '<b>' "$page"; then
		bad "audit page: the hostile name stays text" "$(grep -o '.\{20\}<b>.\{20\}' "$page" | head -2)"
	else
		ok "audit page: parses as XML, the name h<b>&x only as text"
	fi
	# The drawing: the submitting thread (the process's one thread) as a submitter chip on
	# a CPU, the ring by the fd /proc shows, the data file failed, a line joining them.
	if grep -q "<g class=\"submit[^\"]*\"><title>submitter: h&lt;b&gt;&amp;x $pid" "$page" &&
		grep -q ">ring fd $ring_fd: SQ " "$page" &&
		grep -q "<g class=\"file lvl-fail\"><title>fd [0-9]* $TMP/data/" "$page" &&
		grep -q '<line class="link"' "$page"; then
		ok "audit page: the submitter (tid $pid) on its CPU, ring fd $ring_fd as /proc shows, the punting file outlined as failed, a line from ring to thread"
	else
		bad "audit page: the submitter, the ring and the failed file drawn" \
			"ring fd $ring_fd, pid $pid" "$(grep -o '<g class="[^"]*"><title>[^<]\{0,80\}' "$page" | head -8)"
	fi
	# Every link from the drawing lands on a finding's row.
	missing=0
	for a in $(grep -o 'href="#f[0-9]*"' "$page" | sort -u | grep -o '#f[0-9]*' | tr -d '#'); do
		grep -q "<tr id=\"$a\">" "$page" || missing=$((missing + 1))
	done
	[ "$missing" -eq 0 ] && [ "$(grep -c 'href="#f' "$page")" -gt 0 ] &&
		ok "audit page: every link in the drawing lands on its finding" ||
		bad "audit page: links land on findings" "$missing missing"
	if browse "$page" "$TMP/audit.png" && png_ok "$TMP/audit.png" 1400 1000 &&
		grep -q "ring fd $ring_fd: SQ" "$page.dom" && grep -q '<svg' "$page.dom"; then
		ok "chromium renders it: a 1400x1000 screenshot of $(($(stat -c %s "$TMP/audit.png") / 1024)) KiB, its DOM holds the drawing"
	else
		bad "chromium renders the audit page" "$(tail -3 "$TMP/chromium.out")"
	fi
	# The scene: the device under the data directory (as findmnt names it) and the CPUs the
	# process ran on, in the table chromium built, with the numbers the watch measured.
	sdev=$(basename "$(findmnt -no SOURCE -T "$TMP/data")")
	if [ -s "$page.dom" ] && grep -q "<table class=\"scene\" id=\"scene-$pid\"><caption>pid $pid over [0-9.]* s" "$page.dom" &&
		grep -qE "<tr class=\"scene-dev\"><td>$sdev</td><td>[a-z]*</td><td>[0-9]+\.[0-9]{2}</td>" "$page.dom" &&
		grep -qE '<tr class="scene-cpu"><td>[0-9]+</td><td>[0-9]+\.[0-9]</td>' "$page.dom"; then
		ok "audit page: the scene's table holds $sdev (findmnt) and the CPUs, with numbers"
	else
		bad "audit page: the scene's table holds the data directory's device and the CPUs" "device $sdev" \
			"$(grep -o '<table class="scene".\{0,400\}' "$page.dom" | head -3)"
	fi
	# The deploy checklist as a page: the host's directories and the same process.
	"$BIN" report --pid "$pid" --dir "$TMP/data" --format html -o "$TMP/report.html" \
		--fail-on never 2>"$TMP/report.err"
	if xmllint --noout "$TMP/report.html" 2>"$TMP/xml.err" &&
		grep -q ">ring fd $ring_fd: SQ " "$TMP/report.html" &&
		grep -q '<td class="id">fs-type</td>' "$TMP/report.html"; then
		ok "report page: parses, with the process's ring and the directory's checks"
	else
		bad "report page: parses, with the ring and the directory" "$(head -3 "$TMP/xml.err")" \
			"$(head -3 "$TMP/report.err")"
	fi
	stop "$pid"
fi
finish
