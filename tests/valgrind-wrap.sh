#!/bin/sh
# make check-valgrind: writes build/valgrind/uringlint, a stand-in for the
# binary that runs it under memcheck. A memory error or a definite leak makes
# it exit 99, which no e2e case accepts (uringlint's statuses are 0-3).
# valgrind's own words go to build/valgrind/logs/, so the suites still see
# uringlint's stderr alone. Absolute paths: the suites copy it to run as nobody.
set -eu
bin=$(readlink -f "${1:-uringlint}")
out=${2:-build/valgrind/uringlint}
mkdir -p "$(dirname "$out")/logs"
chmod 0777 "$(dirname "$out")/logs"	# nobody's runs log here too
logs=$(readlink -f "$(dirname "$out")/logs")
# Each run's log is named by its pid, user and start time: pids wrap (pid_max is
# 32768 here), and valgrind exits 1 when the name is another user's file, or
# overwrites its own earlier log, hiding what it held.
cat >"$out" <<SCRIPT
#!/bin/sh
VG_TAG=\$(id -u).\$(date +%s%N)
export VG_TAG
exec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \\
	--show-leak-kinds=definite --log-file="$logs/%p.%q{VG_TAG}.log" "$bin" "\$@"
SCRIPT
chmod 0755 "$out"
