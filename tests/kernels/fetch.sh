#!/bin/bash
# The dependency step of `make check-kernels`: for each kernel of
# kernels.list that is not installed (/boot/vmlinuz-V with /lib/modules/V),
# the newest Debian package matching its pattern is downloaded and unpacked
# into build/kernels/NAME/ (apt-get download and dpkg-deb -x: nothing is
# installed on the host, /boot and the boot loader are left alone).
set -u
cd "$(dirname "$0")/../.." || exit 2
B=${B:-build}
rc=0
while read -r name pattern; do
	case $name in '' | '#'*) continue ;; esac
	if sh tests/kernels/locate.sh "$name" "$pattern" >/dev/null 2>&1; then
		continue
	fi
	dest=$B/kernels/$name
	pkg=$(apt-cache pkgnames linux-image- 2>/dev/null | grep -xE "$pattern" | sort -V | tail -n 1)
	if [ -z "$pkg" ] && [ "$(id -u)" -eq 0 ]; then
		apt-get update -qq >/dev/null 2>&1
		pkg=$(apt-cache pkgnames linux-image- 2>/dev/null | grep -xE "$pattern" | sort -V | tail -n 1)
	fi
	if [ -z "$pkg" ]; then
		echo "fetch: no Debian package matches $pattern (apt-get update?)" >&2
		rc=1
		continue
	fi
	echo "fetching $pkg into $dest"
	rm -rf "$dest" && mkdir -p "$dest/deb" || { rc=1; continue; }
	# apt-get download drops to _apt when it can; let it write there.
	chmod 0777 "$dest/deb"
	if ! (cd "$dest/deb" && apt-get download -q "$pkg" >/dev/null 2>&1) &&
		! { [ "$(id -u)" -eq 0 ] && apt-get update -qq >/dev/null 2>&1 &&
			(cd "$dest/deb" && apt-get download -q "$pkg" >/dev/null 2>&1); }; then
		echo "fetch: apt-get download $pkg failed" >&2
		rc=1
		continue
	fi
	dpkg-deb -x "$dest"/deb/*.deb "$dest/root" && rm -rf "$dest/deb" || rc=1
done <tests/kernels/kernels.list
exit $rc
