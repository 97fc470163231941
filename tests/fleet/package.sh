#!/bin/bash
# The Debian package on this host, and the service it ships, end to end:
# lintian on the build; install; uringlint -V, man -w, the completion;
# systemd-analyze verify on the installed units; the timer not enabled and
# no /etc/uringlint.conf; the service's command run with the unit's
# privileges (its user, its three capabilities ambient, no new privileges,
# umask, a read-only root but for its directory: systemd is not always PID 1 where
# the suite runs, so setpriv and a mount namespace stand in for it) against
# a process of another user writing buffered; the textfile replaced by
# rename; then node_exporter and Prometheus on free loopback ports reading
# it, until the uringlint series are in Prometheus and the failing check's
# alert is pending (the shipped rules) and firing (a copy with for: 5s).
# Last, purge, and nothing of the package left. Needs root.
set -u
cd "$(dirname "$0")/../.." || exit 2
SUITE=fleet-package
. tests/e2e/lib.sh
. tests/e2e/live.sh

DEB=$(ls build/deb/uringlint_*.deb 2>/dev/null | head -1)
[ "$(id -u)" -eq 0 ] || { skip "package" "needs root"; exit 77; }
[ -n "$DEB" ] || { skip "package" "no build/deb/uringlint_*.deb: make deb"; exit 77; }
if dpkg-query -W -f='${Status}' uringlint 2>/dev/null | grep -q installed; then
	skip "package" "uringlint is already installed here; not replacing it"
	exit 77
fi
UNIT=/lib/systemd/system/uringlint-report.service
servers=()
installed=
cleanup_fleet() {
	[ ${#servers[@]} -gt 0 ] && kill "${servers[@]}" 2>/dev/null
	[ -n "$installed" ] && dpkg --purge uringlint >/dev/null 2>&1
	cleanup_live
}
trap cleanup_fleet EXIT
chmod 0755 "$TMP"

# lintian refuses nothing as root, but says it should not run so.
chmod -R o+rX build/deb
changes=${DEB%.deb}.changes
if setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME="$TMP" \
	lintian --display-info "$changes" >"$TMP/lintian" 2>&1 && [ ! -s "$TMP/lintian" ]; then
	ok "lintian: no error, no warning, no info"
else
	bad "lintian" "$(head -20 "$TMP/lintian")"
fi

if dpkg -i "$DEB" >"$TMP/dpkg" 2>&1; then
	installed=1
	ok "dpkg -i $(basename "$DEB")"
else
	bad "dpkg -i" "$(tail -5 "$TMP/dpkg")"
	echo "fleet-package: $passed passed, $failed failed, $skipped skipped"
	exit 1
fi
v=$(/usr/bin/uringlint -V 2>&1) && ok "uringlint -V: ${v%%$'\n'*}" || bad "uringlint -V" "$v"
m=$(man -w uringlint 2>&1) && [ "${m#/usr/share/man/}" != "$m" ] && ok "man -w uringlint: $m" ||
	bad "man -w uringlint" "$m"
[ -s /usr/share/bash-completion/completions/uringlint ] && ok "bash completion installed" ||
	bad "bash completion installed"
[ -s /usr/share/doc/uringlint/examples/uringlint.conf.example ] && [ ! -e /etc/uringlint.conf ] &&
	ok "example policy under /usr/share/doc, no /etc/uringlint.conf" || bad "example policy"
if systemd-analyze verify "$UNIT" /lib/systemd/system/uringlint-report.timer >"$TMP/verify" 2>&1; then
	ok "systemd-analyze verify: service and timer"
else
	bad "systemd-analyze verify" "$(cat "$TMP/verify")"
fi
if ls /etc/systemd/system/*/uringlint* >/dev/null 2>&1; then
	bad "the timer is disabled by default" "$(ls /etc/systemd/system/*/uringlint*)"
else
	ok "the timer is disabled by default"
fi

# The service's command line, as the unit has it.
cmdline=$(sed -n '/^ExecStart=/,/[^\\]$/p' "$UNIT" | sed 's/^ExecStart=//; s/\\$//' | tr -d '\t\n')
caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$UNIT" | tr 'A-Z ' 'a-z\n' | sed -n 's/^cap_/+/p' | paste -sd,)
user=$(sed -n 's/^User=//p' "$UNIT")
# The directory of -o's file: the service's state directory, which systemd makes.
textfile=$(echo "$cmdline" | sed -n 's/.* -o \([^ ]*\)\/[^/ ]* .*/\1/p')
mkdir -p "$TMP/textfile" "$textfile"
chown "$user:" "$TMP/textfile"
# service [CAPS]: one run of the service, as its user with CAPS ambient, its directory being ours.
service() {
	unshare -m sh -c '
		mount --make-rprivate / && mount --bind "$1" "$2" &&
			mount -o remount,bind,ro / && cd / &&
			exec setpriv --reuid="$5" --regid="$5" --clear-groups \
				--bounding-set=-all${3:+,$3} --inh-caps=-all${3:+,$3} \
				${3:+--ambient-caps=$3} --no-new-privs \
				sh -c "umask 0022; URINGLINT_ARGS= exec $4"' \
		_ "$TMP/textfile" "$textfile" "${1-$caps}" "$cmdline" "$user" 2>"$TMP/service.err"
}
mkdir -p "$TMP/data" && chown nobody "$TMP/data"
# start, as nobody: another user's process (exec keeps the PID start waits on).
printf '#!/bin/sh\nexec setpriv --reuid=nobody --regid=nogroup --clear-groups %s "$@"\n' \
	"$PWD/$PATHO" >"$TMP/as-nobody" && chmod +x "$TMP/as-nobody"
PATHO=$TMP/as-nobody
start buffered || exit 1
want="uringlint_check_status{id=\"fd-o-direct\",subject=\"pid $pid fd 3 $TMP/data/buffered.dat\""
if service && grep -qF "$want,severity=\"high\",command=\"report\"} 2" "$TMP/textfile/uringlint.prom"; then
	ok "service (user $user, $caps ambient, read-only /): fails fd-o-direct on another user's buffered writer"
else
	bad "service under its privileges" "$(cat "$TMP/service.err")" \
		"$(grep -F "pid $pid" "$TMP/textfile/uringlint.prom" 2>&1 | head -5)"
fi
cp "$TMP/textfile/uringlint.prom" "$TMP/first.prom"
ino=$(stat -c %i "$TMP/textfile/uringlint.prom")
mode=$(stat -c %a "$TMP/textfile/uringlint.prom")
[ "$mode" = 644 ] && ok "textfile mode 0644: node_exporter's user reads it" || bad "textfile mode" "$mode"
service
left=$(ls -A "$TMP/textfile")
if [ "$(stat -c %i "$TMP/textfile/uringlint.prom")" != "$ino" ] && [ "$left" = uringlint.prom ]; then
	ok "-o replaces the textfile by rename (new inode, no temporary file left)"
else
	bad "-o replaces the textfile by rename" "inode $ino then $(stat -c %i "$TMP/textfile/uringlint.prom")" "$left"
fi
# What the capabilities buy: without them report cannot see another user's
# ring fds, so the process is not in the report at all.
cp "$TMP/textfile/uringlint.prom" "$TMP/service.prom"
service ""
if [ -s "$TMP/textfile/uringlint.prom" ] && ! grep -qF "pid $pid" "$TMP/textfile/uringlint.prom"; then
	ok "without the capabilities another user's process is left out"
else
	bad "without the capabilities" "$(cat "$TMP/service.err")" \
		"$(grep -F "pid $pid" "$TMP/textfile/uringlint.prom" | head -3)"
fi
cp "$TMP/service.prom" "$TMP/textfile/uringlint.prom"

. tests/fleet/servers.sh

stop "$pid"
dpkg --purge uringlint >"$TMP/dpkg" 2>&1 && installed= && ok "dpkg --purge uringlint" ||
	bad "dpkg --purge" "$(tail -5 "$TMP/dpkg")"
left=$(ls -d /usr/bin/uringlint /usr/share/man/man1/uringlint.1.gz /usr/share/doc/uringlint \
	/usr/share/bash-completion/completions/uringlint /lib/systemd/system/uringlint-report.* \
	/etc/systemd/system/*/uringlint* /var/lib/systemd/deb-systemd-helper-*/*uringlint* \
	/var/lib/dpkg/info/uringlint.* /var/lib/uringlint 2>/dev/null)
[ -z "$left" ] && ! dpkg-query -W uringlint >/dev/null 2>&1 && ok "purged: nothing of the package left" ||
	bad "purged: nothing left" "$left"

echo "fleet-package: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
