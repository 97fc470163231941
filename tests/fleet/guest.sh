#!/bin/bash
# A Debian 12 host under a real systemd, for the tests of the shipped units:
# a bookworm root made once with debootstrap (cached as a tarball), booted
# with systemd-nspawn -b in the background, driven with nsenter. It works on
# a host whose PID 1 is not systemd (no machined): nspawn is put in cgroups
# of its own, registers nowhere, and is stopped by the guest's own poweroff.
#
#   guest.sh start NAME          boot NAME, wait until its systemd is running
#   guest.sh exec NAME CMD...    CMD inside every namespace of the guest (the host's
#                                capabilities and no seccomp: units run sandboxed)
#   guest.sh cp NAME SRC DST     a host file into the guest (its overlay)
#   guest.sh stop NAME           poweroff, then TERM, KILL and cgroup.kill; nothing left
#
# GUEST_CACHE (/var/tmp/uringlint-guest) keeps the root between runs; the
# guest boots it with --volatile=overlay, so every boot starts from it as made.
# What the kernel's defaults for a container lack, the tests need, and is
# given: CAP_PERFMON and perf_event_open (nspawn's bounding set and seccomp
# filter leave them out) and tracefs (the guest mounts it only with
# CAP_SYS_RAWIO, which a drop-in in the root relaxes).
set -euo pipefail

CACHE=${GUEST_CACHE:-/var/tmp/uringlint-guest}
RUN=/run/uringlint-guest
SUITE=bookworm
# The package's dependencies (there is no network in the guest) and procps.
INCLUDE=systemd,systemd-sysv,dbus,libproc2-0,liburing2,libblkid1,libjson-c5,libsmartcols1,procps
VERSION=1	# of customize(): a change makes a new root
KEY=$(printf '%s|%s|%s' "$SUITE" "$INCLUDE" "$VERSION" | sha256sum | cut -c1-12)
ROOT=$CACHE/$SUITE-$KEY
TARBALL=$ROOT.tar.zst
GUEST_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

log() { echo "guest: $*" >&2; }
die() { log "$*"; exit 1; }

mirror() {
	local m
	# The host's own mirror, from a line in use (not a comment).
	m=$(grep -hE '^(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
		/etc/apt/sources.list.d/*.list 2>/dev/null | grep -oE 'https?://[^ ]*/debian/?' |
		grep -v security | head -1 || true)
	echo "${m:-http://deb.debian.org/debian}"
}

customize() {
	local r=$1
	rm -f "$r/etc/hostname"			# the guest takes --machine as its name
	: >"$r/etc/machine-id"			# a new machine id each boot, from nspawn's UUID
	rm -f "$r/var/lib/dbus/machine-id"
	mkdir -p "$r/etc/systemd/system/sys-kernel-tracing.mount.d"
	printf '[Unit]\nConditionPathExists=\nConditionPathExists=/sys/kernel/tracing\n' \
		>"$r/etc/systemd/system/sys-kernel-tracing.mount.d/guest.conf"
	rm -rf "$r"/var/cache/apt/archives/*.deb "$r"/var/lib/apt/lists/*
}

make_root() {
	local t0=$SECONDS tmp=$ROOT.tmp
	mkdir -p "$CACHE"
	exec 9>"$CACHE/.lock"
	flock 9
	if [ -e "$ROOT/.ok" ]; then
		:
	elif [ -s "$TARBALL" ]; then
		rm -rf "$ROOT" && mkdir -p "$ROOT"
		zstd -dcq "$TARBALL" | tar --numeric-owner --xattrs --xattrs-include='*' -xpf - -C "$ROOT"
		touch "$ROOT/.ok"
	else
		rm -rf "$tmp"
		debootstrap --variant=minbase --include="$INCLUDE" "$SUITE" "$tmp" "$(mirror)" \
			>"$CACHE/debootstrap.log" 2>&1 || { tail -20 "$CACHE/debootstrap.log" >&2; die "debootstrap failed"; }
		customize "$tmp"
		tar --numeric-owner --xattrs --xattrs-include='*' -C "$tmp" -cf - . | zstd -q -T0 -3 -o "$TARBALL.tmp"
		mv "$TARBALL.tmp" "$TARBALL"
		rm -rf "$ROOT" && mv "$tmp" "$ROOT" && touch "$ROOT/.ok"
		log "root made by debootstrap in $((SECONDS - t0)) s"
	fi
	exec 9>&-
}

nsx() { # LEADER CMD...: CMD in every namespace of the guest, a clean environment
	local l=$1
	shift
	nsenter --target "$l" --all --root --wd env -i PATH=$GUEST_PATH HOME=/root LANG=C.UTF-8 \
		SYSTEMD_PAGER= SYSTEMD_COLORS=0 "$@"
}

leader() { # NAME: the guest's PID 1, as the host numbers it
	local l
	l=$(cat "$RUN/$1/leader" 2>/dev/null) || die "$1 is not started"
	kill -0 "$l" 2>/dev/null || die "$1's init ($l) is gone"
	echo "$l"
}

cg2() { [ -e /sys/fs/cgroup/cgroup.controllers ] && echo /sys/fs/cgroup || echo /sys/fs/cgroup/unified; }
cgroups() { # NAME: the cgroups nspawn is put in (a hybrid host has name=systemd too)
	echo "$(cg2)/uringlint-guest-$1"
	[ ! -e /sys/fs/cgroup/systemd/cgroup.procs ] || echo "/sys/fs/cgroup/systemd/uringlint-guest-$1"
}

start() {
	local name=$1 s=$RUN/$1 nsp l st deadline t0=$SECONDS d
	make_root
	rm -rf "$s" && mkdir -p "$s"
	(
		for d in $(cgroups "$name"); do mkdir -p "$d" && echo "$BASHPID" >"$d/cgroup.procs"; done
		export SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1	# cgroup2 only, as a Debian 12 host has
		exec setsid systemd-nspawn --boot --directory="$ROOT" --machine="$name" --volatile=overlay \
			--register=no --keep-unit --private-network --console=passive \
			--capability=CAP_PERFMON --system-call-filter=perf_event_open
	) </dev/null >"$s/console.log" 2>&1 &
	nsp=$!
	echo "$nsp" >"$s/nspawn"
	for _ in $(seq 600); do
		l=$(pgrep -P "$nsp" -x systemd || true)
		[ -n "$l" ] && break
		kill -0 "$nsp" 2>/dev/null || { tail -20 "$s/console.log" >&2; die "systemd-nspawn exited"; }
		sleep 0.1
	done
	[ -n "$l" ] || die "no init in the guest after 60 s"
	echo "$l" >"$s/leader"
	# is-system-running fails ("Failed to connect to bus") until the guest's bus is up.
	deadline=$((SECONDS + 90))
	until st=$(nsx "$l" timeout 30 systemctl is-system-running --wait 2>/dev/null); [ "$st" = running ] ||
		[ "$st" = degraded ]; do
		[ "$SECONDS" -lt "$deadline" ] || die "the guest is '$st' after 90 s"
		sleep 0.2
	done
	log "$name: $st in $((SECONDS - t0)) s (nspawn $nsp, init $l)"
}

stop() {
	local name=$1 s=$RUN/$1 nsp l u
	nsp=$(cat "$s/nspawn" 2>/dev/null || true)
	l=$(cat "$s/leader" 2>/dev/null || true)
	if [ -n "$nsp" ] && kill -0 "$nsp" 2>/dev/null; then
		[ -z "$l" ] || nsx "$l" systemctl poweroff --no-block >/dev/null 2>&1 || true
		for _ in $(seq 300); do kill -0 "$nsp" 2>/dev/null || break; sleep 0.1; done
		kill -0 "$nsp" 2>/dev/null && kill -TERM "$nsp" 2>/dev/null && sleep 5
		kill -0 "$nsp" 2>/dev/null && kill -KILL "$nsp" "$l" 2>/dev/null
	fi
	# A guest whose nspawn was killed runs on: cgroup.kill ends whatever is left.
	u=$(cg2)/uringlint-guest-$name
	if [ -e "$u/cgroup.kill" ] && [ -n "$(find "$u" -name cgroup.procs -exec cat {} + 2>/dev/null)" ]; then
		echo 1 >"$u/cgroup.kill"
		sleep 1
	fi
	for d in $(cgroups "$name"); do [ ! -d "$d" ] || find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null || true; done
	rm -rf "$s"
}

[ "$(id -u)" -eq 0 ] || die "needs root"
cmd=${1:-}
[ $# -ge 2 ] || die "usage: guest.sh start|exec|cp|stop NAME ..."
shift
case $cmd in
start) start "$1" ;;
stop) stop "$1" ;;
exec) name=$1 && shift && nsx "$(leader "$name")" "$@" ;;
cp) l=$(leader "$1") && mkdir -p "/proc/$l/root$(dirname "$3")" && cp -- "$2" "/proc/$l/root$3" ;;
*) die "unknown: $cmd" ;;
esac
