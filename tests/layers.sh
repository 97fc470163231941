#!/bin/bash
# The layers of the source tree, as the Makefile compiles them: each folder
# sees the headers of the layers below it and its own, never those above.
# For every folder, each project header is included alone with that
# folder's flags: a header of a lower layer or its own must compile, one of
# a higher layer must not. A relative "../" include, which would get around
# the rule, is refused outright.
set -u
cd "$(dirname "$0")/.." || exit 2
CC=${CC:-cc}
passed=0 failed=0 skipped=0
record() { # STATUS CASE: see tests/e2e/lib.sh
	[ -z "${URINGLINT_RESULTS:-}" ] || printf '%s\tlayers\t%s\n' "$1" "$2" >>"$URINGLINT_RESULTS"
}
ok() { echo "ok   $1"; record 0 "$1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1"; record 1 "$1"; shift; for l in "$@"; do echo "     $l"; done; failed=$((failed + 1)); }

# What each folder may include, from the Makefile's comment table.
declare -A may=(
	[lib]="lib"
	[facts]="lib facts"
	[watch]="lib facts watch"
	[report]="lib report"
	[probe]="lib probe"
	[views]="lib facts watch report probe views"
	[checks]="lib facts watch report probe checks"
	[cmd]="lib facts watch report probe views checks cmd"
)
folders="lib facts watch report probe views checks cmd"
# A folder's headers; lib/'s subsystems are part of the lib layer.
headers_of() {
	if [ "$1" = lib ]; then echo lib/*.h lib/*/*.h; else echo "$1"/*.h; fi
}
make -s build/gen/app_fixes.tbl.h >/dev/null 2>&1

# visible FOLDER: for every header of every folder, "HEADER yes|no" as FOLDER's
# flags see it. One folder a job, two at a time: 600 compiles in all.
visible() {
	local f=$1 g h flags
	flags=$(make -s "layer-flags-$f")
	for g in $folders; do
		for h in $(headers_of "$g"); do
			[ -e "$h" ] || continue
			if echo "#include \"${h##*/}\"" | $CC -std=gnu11 -D_GNU_SOURCE $flags -fsyntax-only -x c - \
				2>/dev/null; then
				echo "$g $h yes"
			else
				echo "$g $h no"
			fi
		done
	done
}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
jobs_run=()
for f in $folders; do
	if [ ${#jobs_run[@]} -ge "$(nproc)" ]; then
		wait "${jobs_run[0]}"
		jobs_run=("${jobs_run[@]:1}")
	fi
	visible "$f" >"$out/$f" &
	jobs_run+=($!)
done
wait

for f in $folders; do
	wrong=()
	while read -r g h seen; do
		case " ${may[$f]} " in
		*" $g "*) [ "$seen" = yes ] || wrong+=("$h should compile in $f/ and does not") ;;
		*) [ "$seen" = no ] || wrong+=("$h (layer $g) is visible from $f/") ;;
		esac
	done <"$out/$f"
	if [ ! -s "$out/$f" ]; then
		bad "$f/ sees only ${may[$f]}" "no header was tried"
	elif [ ${#wrong[@]} -eq 0 ]; then
		ok "$f/ sees ${may[$f]}, and no layer above"
	else
		bad "$f/ sees only ${may[$f]}" "${wrong[@]}"
	fi
done

if rel=$(grep -n '#include "\.\./' $(for f in $folders; do echo "$f"/*.[ch]; done) lib/*/*.[ch] 2>/dev/null); then
	bad "no relative includes around the layers" "$rel"
else
	ok "no relative includes around the layers"
fi

# The watch is a room of its own: the layers above it include its one public
# header, watch.h, never its engine's or session's own.
inner=$(cd watch && ls *.h | grep -vx watch.h | paste -sd'|')
if [ -z "$inner" ]; then
	ok "outside watch/ only watch.h of it is included (it has no other header)"
elif leak=$(grep -nE "#include \"($inner)\"" $(for f in $folders; do [ "$f" = watch ] || echo "$f"/*.[ch]; done) lib/*/*.[ch] 2>/dev/null); then
	bad "outside watch/ only watch.h of it is included" "$leak"
else
	ok "outside watch/ only watch.h of it is included ($(echo "$inner" | tr '|' ' ') stay inside)"
fi

# Each subsystem of lib/ is a folder with one header, named after it: a reader
# sees the subsystems at a glance, and a caller includes one name for each.
extra=()
for d in lib/*/; do
	d=${d%/}
	hs=("$d"/*.h)
	[ "${#hs[@]}" -eq 1 ] && [ "${hs[0]}" = "$d/${d#lib/}.h" ] || extra+=("$d: ${hs[*]}")
done
if [ ${#extra[@]} -eq 0 ]; then
	ok "every subsystem of lib/ has one header, named after it ($(echo lib/*/ | wc -w) subsystems)"
else
	bad "every subsystem of lib/ has one header, named after it" "${extra[@]}"
fi

echo "layers: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
