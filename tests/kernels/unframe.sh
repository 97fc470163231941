#!/bin/sh
# unframe.sh LOG DIR: the cases guest.sh framed in LOG (a serial console's
# output or a native run's) written to DIR/NAME, with DIR/NAME.status
# holding the exit status, DIR/kernel the kernel's release, DIR/notes the
# guest's own notes, and DIR/done present only when the script finished.
set -eu
log=$1 dir=$2
mkdir -p "$dir"
# A console may put escape sequences before the first marker: cut them off.
tr -d '\r' <"$log" | awk -v dir="$dir" '
	/@@(begin|end|kernel|note|done)/ { $0 = substr($0, index($0, "@@")) }
	/^@@begin / { name = $2; st = $3; file = dir "/" name ".b64"; printf "" > file; inside = 1; next }
	/^@@end / { if (inside) { close(file); print st > (dir "/" name ".status"); close(dir "/" name ".status") } inside = 0; next }
	/^@@kernel / { print $2 > (dir "/kernel"); next }
	/^@@note / { sub(/^@@note /, ""); print >> (dir "/notes"); next }
	/^@@done/ { print "" > (dir "/done"); next }
	inside && /^[A-Za-z0-9+\/=]+$/ { print >> file }
'
for b in "$dir"/*.b64; do
	[ -e "$b" ] || continue
	base64 -d <"$b" >"${b%.b64}" 2>/dev/null || echo "unframe: $(basename "${b%.b64}") is not valid base64" >&2
	rm -f "$b"
done
