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
. tests/e2e/browse.sh

finish() {
	echo "html: $passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
	exit
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

# --- a healthy host: a captured tree with nothing to warn of ---------------------------
"$BIN" preflight --root testdata/proc-6.18 --format html -o "$TMP/healthy.html" --fail-on never 2>/dev/null
first_screen_case "$TMP/healthy.html" "healthy host page" \
	"healthy host page: its first screen says there is no problem, above the drawing"

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
	# Over time: the watch's requests and punts per 100 ms; buffered punts every write
	# (ext4), so every bar of requests has a punt bar as tall: the same count in its title.
	if python3 - "$page" "$pid" 2>"$TMP/series.err" <<'EOP'
import re, sys
page = open(sys.argv[1]).read()
fig = re.search(r'<figure class="series" id="series-%s">(.*?)</figure>' % sys.argv[2], page, re.S)
if not fig:
    sys.exit("no figure series-%s" % sys.argv[2])
reqs = dict(re.findall(r'<title>(\d+) ms: (\d+) requests</title>', fig.group(1)))
punts = dict(re.findall(r'<title>(\d+) ms: (\d+) punted</title>', fig.group(1)))
cap = re.search(r'(\d+) requests and (\d+) punts sampled', fig.group(1))
if len(reqs) < 5 or reqs != punts:
    sys.exit("bars: %d of requests, %d of punts, unequal: %s" % (len(reqs), len(punts),
             {k: (reqs.get(k), punts.get(k)) for k in set(reqs) | set(punts) if reqs.get(k) != punts.get(k)}))
if sum(map(int, punts.values())) != int(cap.group(2)):
    sys.exit("the bars' punts do not add up to the caption's")
EOP
	then
		ok "audit page: over time, a bar a 100 ms, each bucket's punts equal to its requests (buffered on ext4 punts every write)"
	else
		bad "audit page: the watch over time" "$(cat "$TMP/series.err")"
	fi
	if browse "$page" "$TMP/audit.png" && png_ok "$TMP/audit.png" 1400 1000 &&
		grep -q "ring fd $ring_fd: SQ" "$page.dom" && grep -q '<svg' "$page.dom"; then
		ok "chromium renders it: a 1400x1000 screenshot of $(($(stat -c %s "$TMP/audit.png") / 1024)) KiB, its DOM holds the drawing"
	else
		bad "chromium renders the audit page" "$(tail -3 "$TMP/chromium.out")"
	fi
	[ -n "${HTML_SHOTS:-}" ] && cp "$TMP/audit.png" "$HTML_SHOTS/one-problem.png"
	if msg=$(first_screen "$page") && grep -q "first file-punts, fix: open the file with O_DIRECT" <<<"$msg"; then
		ok "one problem: $msg"
	else
		bad "one problem: file-punts and its fix first, above the drawing" "${msg:-}"
	fi
	# The scene on the drawing: the CPU the process ran on shows its shares, and the data
	# directory's device (as findmnt names it) its iostat numbers, in the SVG chromium built.
	sdev=$(basename "$(findmnt -no SOURCE -T "$TMP/data")")
	if python3 - "$page.dom" "$sdev" <<'PY'
import re, sys
dom, dev = open(sys.argv[1]).read(), sys.argv[2]
svg = dom[dom.find("<svg"):dom.find("</svg>")]
cpu = re.search(r'class="head">CPU \d+<.*?class="scene">us/sy/wa/st \d+/\d+/\d+/\d+%<', svg, re.S)
box = re.search(r'<g class="device"><title>device %s[^<]*</title>.*?%%util [0-9.]+ aqu-sz [0-9.]+<' % re.escape(dev), svg, re.S)
sys.exit(0 if cpu and box else 1)
PY
	then
		ok "the scene on the drawing: a CPU cell with its shares, device $sdev (findmnt) with its %util and aqu-sz"
	else
		bad "the scene on the drawn CPUs and devices" "device $sdev" "$(grep -o 'class="scene">[^<]*' "$page.dom" | head -4)"
	fi
	# Not watched (--watch 0): the buffered file fails on its flags alone, nothing measured on
	# it: drawn dashed amber, not red.
	"$BIN" audit "$pid" --watch 0 --format html -o "$TMP/unwatched.html" --fail-on never 2>/dev/null
	if grep -q "<g class=\"file lvl-unmeasured\"><title>fd [0-9]* $TMP/data/" "$TMP/unwatched.html" &&
		! grep -q '<g class="file lvl-fail">' "$TMP/unwatched.html"; then
		ok "not watched: the buffered file, failed from its flags alone, is outlined as not measured, not red"
	else
		bad "a file with no request measured is not drawn red" "$(grep -o '<g class="file[^"]*"><title>[^<]\{0,80\}' "$TMP/unwatched.html")"
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

# --- ten processes: three punting, the others idle or with other problems --------------
ten=()
for m in buffered buffered buffered cq-overflow fragmented unaligned-buffers many-sqpoll idle-ring idle-ring idle-ring; do
	mkdir -p "$TMP/ten${#ten[@]}"
	PATHOLOGY_IO_MS=1000 start "$m" "$TMP/ten${#ten[@]}" && ten+=("$pid")
done
"$BIN" audit "${ten[@]}" --watch 2 --format html -o "$TMP/ten.html" --fail-on never 2>"$TMP/ten.err"
first_screen_case "$TMP/ten.html" "ten processes" "ten processes: the problems and their fixes above the drawing"
# Legible at ten: no line crosses the page; each ring with one submitter names it and its CPU,
# the process's own thread; no CPU lists three chips or more of other threads, one a process.
if python3 - "$TMP/ten.html.dom" "${ten[@]}" <<'PY'
import re, sys
dom, pids = open(sys.argv[1]).read(), sys.argv[2:]
svg = dom[dom.find("<svg"):dom.find("</svg>")]
errs = []
if "<line" in svg:
    errs.append("%d lines drawn" % svg.count("<line"))
named = re.findall(r">submitter tid (\d+) on CPU (\d+)<", svg)
if len(named) < 3 or any(tid not in pids for tid, _ in named):
    errs.append("rings naming their submitter (each a pathology's main thread): %s" % named)
for cell in re.split(r'class="head">CPU \d+<', svg)[1:]:
    n = len(re.findall(r">\d+ threads? of pathology \d+<", cell))
    if n >= 3:
        errs.append("a CPU lists %d chips of other threads, one a process" % n)
print("; ".join(errs) or "%d rings name their submitter" % len(named))
sys.exit(1 if errs else 0)
PY
then
	ok "ten processes: no line across the page, each ring names its submitting thread and CPU, other threads one chip a CPU"
else
	bad "ten processes: the drawing stays legible" "$(grep -o '<line[^>]*>' "$TMP/ten.html.dom" | wc -l) lines"
fi
for p in "${ten[@]}"; do stop "$p"; done
finish
