#!/bin/bash
# The shape of the source: no function of the product (cmd/ checks/ facts/
# lib/ probe/ report/ views/ watch/) over 100 lines. A function is counted
# from its opening brace alone on a line at column 0 to the closing one, as
# kernel style writes them; a static table opens its brace on the line of
# its declaration and is not counted. Each long function is printed, with
# its length and place, so the list is the work left.
set -u
cd "$(dirname "$0")/.." || exit 2
MAX=${SHAPE_MAX_LINES:-100}
passed=0 failed=0 skipped=0
record() { # STATUS CASE: see tests/e2e/lib.sh
	[ -z "${URINGLINT_RESULTS:-}" ] || printf '%s\tshape\t%s\n' "$1" "$2" >>"$URINGLINT_RESULTS"
}
ok() { echo "ok   $1"; record 0 "$1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1"; record 1 "$1"; shift; for l in "$@"; do echo "     $l"; done; failed=$((failed + 1)); }

# LINES FILE:LINE NAME for each function of the files given over MAX lines.
long_functions() {
	awk -v max="$MAX" '
		FNR == 1 { start = 0 }
		/^[A-Za-z_].*\(/ { sig = $0; at = FNR }
		/^\{$/ { start = FNR; name = sig; from = at }
		/^\}$/ && start {
			n = FNR - start - 1
			if (n > max && match(name, /[A-Za-z_0-9]+\(/))
				printf "%d %s:%d %s\n", n, FILENAME, from, substr(name, RSTART, RLENGTH - 1)
			start = 0
		}' "$@" | sort -rn
}

files=$(git ls-files 'cmd/*.c' 'checks/*.c' 'facts/*.c' 'lib/*.c' 'probe/*.c' 'report/*.c' \
	'views/*.c' 'watch/*.c' 2>/dev/null)
[ -n "$files" ] || files=$(ls cmd/*.c checks/*.c facts/*.c lib/*.c lib/*/*.c probe/*.c report/*.c \
	views/*.c watch/*.c)
n=$(echo "$files" | wc -w)
# The counter must see a function at all: one of 30 lines in a file of its own.
probe_file=$(mktemp --suffix=.c)
trap 'rm -f "$probe_file"' EXIT
{ echo "static int probe(void)"; echo "{"; for i in $(seq 30); do echo "	i++;"; done; echo "}"; } >"$probe_file"
if [ "$(MAX=29 long_functions "$probe_file" | awk '{print $1}')" = 30 ]; then
	ok "the function counter sees a 30-line function"
else
	bad "the function counter sees a 30-line function" "$(MAX=29 long_functions "$probe_file")"
fi
long=$(long_functions $files)
if [ -z "$long" ]; then
	ok "no function over $MAX lines in $n source files (static tables aside)"
else
	mapfile -t lines <<<"$long"
	bad "no function over $MAX lines in $n source files (static tables aside): ${#lines[@]} are" "${lines[@]}"
fi
# Every read of /proc and /sys goes through lib/sysroot.c's functions, never
# around them by its directory's fd (a captured tree would then be read
# wrong, and a read would not be recorded by capture).
if around=$(grep -nE '\bsr->dirfd\b|sysroot[^;]*\.dirfd\b' $(echo "$files" | grep -v '^lib/')); then
	bad "no sysroot fd used outside lib/" "$around"
else
	ok "no sysroot fd used outside lib/: its readers, printf-style or not, take every path"
fi
# A proc/ or sys/ path is formatted by the sysroot's printf-style readers
# (sysroot_read_filef, ...; fact_read_i64f, fact_fail_readf, FACT_WITH_PATH),
# which refuse a path that does not fit; snprintf into a buffer of its own
# would cut it and read another file. Exceptions, each with its reason:
#   facts/container.c "proc/self/cgroup: ...": the evidence line a runtime is
#     named by, shown to the user, never read;
#   facts/scene_read.c, facts/scene_tasks.c: not converted yet, their reads
#     are being reworked; drop them here once they use the readers.
path_fmt='snprintf\([A-Za-z_][A-Za-z_0-9]*, sizeof\(?[A-Za-z_][A-Za-z_0-9]*\)?, "(proc|sys)/'
if cut=$(grep -nE "$path_fmt" $(echo "$files" | grep -v '^lib/') |
	 grep -vE '^facts/container\.c:[0-9]+:.*"proc/self/cgroup: ' |
	 grep -vE '^facts/scene_(read|tasks)\.c:'); then
	mapfile -t lines <<<"$cut"
	bad "no proc/ or sys/ path formatted into a buffer outside lib/" "${lines[@]}"
else
	ok "no proc/ or sys/ path formatted into a buffer outside lib/: the readers take the format"
fi
echo "shape: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
