# Pages in Debian's chromium, headless: shared by the suites that render HTML
# (html.sh, hostwide.sh). Sourced after lib.sh ($TMP).

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

# first_screen PAGE: the problems' section as chromium built it comes before the drawing, its
# first problem with its fix; prints "N problems, first ID: FIX" or why not.
first_screen() {
	python3 - "$1.dom" <<'PY'
import re, sys
dom = open(sys.argv[1]).read()
sec, svg = dom.find('<section id="problems">'), dom.find("<svg")
if sec < 0 or svg < 0 or sec > svg:
    sys.exit("the problems' section at %d, the drawing at %d" % (sec, svg))
body = dom[sec:dom.find("</section>", sec)]
items = re.findall(r'<li id="p(\d+)".*?</li>', body, re.S)
if "None: nothing to warn of or fail" in body and not items:
    print("no problems: the section says so above the drawing")
    sys.exit(0)
first = re.search(r'<li id="p1"[^>]*>.*?<b class="id">([^<]*)</b>.*?<div class="pfix">Fix: <span>([^<]*)</span>', body, re.S)
if not first:
    sys.exit("no first problem with its fix in: " + body[:300])
print("%d problems above the drawing, first %s, fix: %s" % (len(items), first.group(1), first.group(2)[:60]))
PY
}

# first_screen_case PAGE LABEL WHY: the page in chromium at 1400 px (a screenshot, kept in
# $HTML_SHOTS when set), its first screen as first_screen judges it; ok "LABEL at 1400 px:
# what it holds", else bad WHY.
first_screen_case() {
	local png=${1%.html}.png msg
	if browse "$1" "$png" && png_ok "$png" 1400 1000 && msg=$(first_screen "$1"); then
		ok "$2 at 1400 px: $msg"
	else
		bad "$3" "${msg:-}" "$(tail -3 "$TMP/chromium.out")"
	fi
	[ -n "${HTML_SHOTS:-}" ] && cp "$png" "$HTML_SHOTS/"
	return 0
}
