#!/bin/bash
# make check: `make run` installs only DEB_BUILD (the Makefile), so every header the
# build read and every shared library uringlint loads must come from a package of that
# list or of what it depends on: otherwise a fresh Debian 12 machine's first command
# would fail to build or to run. Headers from the preprocessor (cc -M on every
# source), libraries from ldd; each owner by dpkg -S.
set -u
cd "$(dirname "$0")/.." || exit 2
SUITE=deps
. tests/e2e/lib.sh

if ! command -v dpkg >/dev/null || ! command -v apt-cache >/dev/null; then
	skip "make run's packages" "not a Debian system (dpkg, apt-cache)"
	echo "deps: $passed passed, $failed failed, $skipped skipped"
	exit 0
fi
list=$(make -s print-deb-build)
# The closure of the list: each package and what it depends on (pre-depends too).
apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
	--no-replaces --no-enhances $list 2>/dev/null | grep -v '^ ' | grep -v '^<' | sort -u >"$TMP/closure"
owners() { # FILE...: the package of each (diversions aside), one a line; one dpkg call
	dpkg -S $(readlink -f "$@" | sort -u) 2>/dev/null | grep -v '^diversion' | cut -d: -f1 |
		tr ',' '\n' | sed 's/^ *//' | sort -u
}
# The system headers each source reads (the build's own -MMD lists only the project's).
flags=$(make -s layer-flags-cmd)
headers=$(${CC:-cc} -M -std=gnu11 -D_GNU_SOURCE $flags -Ibuild/gen lib/*.c lib/*/*.c facts/*.c watch/*.c views/*.c report/*.c \
	probe/*.c checks/*.c cmd/*.c 2>/dev/null | tr ' \\' '\n\n' | grep '^/usr/' | sort -u)
libs=$(ldd ./uringlint 2>/dev/null | awk '$3 ~ /^\// {print $3}' | sort -u)
if [ -z "$headers" ] || [ -z "$libs" ]; then
	bad "make run's packages" "no dependency files or no ldd output: build first"
else
	missing=
	for p in $(owners $headers $libs); do
		grep -qx "$p" "$TMP/closure" || missing="$missing $p"
	done
	[ -z "$missing" ] && ok "every header ($(wc -w <<<"$headers")) and library ($(wc -w <<<"$libs")) of the build comes from make run's packages ($list) or what they depend on" ||
		bad "make run's packages cover the build" "owned by packages outside the list:$missing"
fi
echo "deps: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
