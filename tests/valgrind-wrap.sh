#!/bin/sh
# make check-valgrind: writes build/valgrind/uringlint, a stand-in for the
# binary that runs it under memcheck. Any memory error or definite leak
# makes it exit 99, which no e2e case accepts (uringlint's statuses are
# 0-3). Absolute paths, so that the suites may copy it (to run as nobody).
set -eu
bin=$(readlink -f "${1:-uringlint}")
out=${2:-build/valgrind/uringlint}
mkdir -p "$(dirname "$out")"
cat >"$out" <<SCRIPT
#!/bin/sh
exec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \\
	--show-leak-kinds=definite --trace-children=no --child-silent-after-fork=yes "$bin" "\$@"
SCRIPT
chmod 0755 "$out"
