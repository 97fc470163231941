#!/bin/bash
# Builds the kernel matrix's initramfs: busybox, uringlint and the pathology
# program with the shared libraries ldd lists, the modules the guest needs
# (the virtio disk, loop and XFS, dependencies first) taken from the
# kernel's own module tree, /init and guest.sh.
#
#   [INIT=FILE] initramfs.sh MODULES-DIR OUT.cpio.gz UL PATHO   (INIT: another /init)
#
# MODULES-DIR is the kernel's lib/modules/VERSION. Needs busybox-static.
set -eu
mods=$1 out=$2 ul=$3 patho=$4
here=$(dirname "$(readlink -f "$0")")
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

mkdir -p "$stage"/{bin,sbin,proc,sys,dev,tmp,mnt,modules,etc}
cp /bin/busybox "$stage/bin/busybox"
for a in $(/bin/busybox --list); do
	[ "$a" = busybox ] || ln -sf busybox "$stage/bin/$a"
done
install -m 0755 "$ul" "$stage/bin/uringlint"
install -m 0755 "$patho" "$stage/bin/pathology"
for lib in $(ldd "$ul" "$patho" | awk '/=> \//{print $3} /^\t\/[^ ]*ld-linux/{print $1}' | sort -u); do
	mkdir -p "$stage$(dirname "$lib")"
	cp -L "$lib" "$stage$lib"
done
install -m 0755 "${INIT:-$here/init}" "$stage/init"
install -m 0755 "$here/guest.sh" "$stage/guest.sh"
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$stage/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$stage/etc/group"

# modfile NAME: the module's file; names use _ where files may use -.
modfile() { find "$mods/kernel" -name "$(echo "$1" | sed 's/[-_]/[-_]/g').ko*" | head -n 1; }
# A module's "depends=" from its .modinfo strings.
moddeps() {
	case $1 in
	*.xz) xz -dc "$1" ;;
	*.zst) zstd -dcq "$1" ;;
	*) cat "$1" ;;
	esac | tr '\0' '\n' | sed -n 's/^depends=//p' | tr ',' ' '
}
declare -A seen=()
add() { # NAME: its dependencies first, then itself
	local f d
	[ -n "${seen[$1]:-}" ] && return 0
	seen[$1]=1
	f=$(modfile "$1")
	if [ -z "$f" ]; then
		echo "initramfs: module $1 is not in $mods (built in?)" >&2
		return 0
	fi
	for d in $(moddeps "$f"); do add "$d"; done
	case $f in
	*.xz) xz -dc "$f" >"$stage/modules/$1.ko" ;;
	*.zst) zstd -dcq "$f" >"$stage/modules/$1.ko" ;;
	*) cp "$f" "$stage/modules/$1.ko" ;;
	esac
	echo "$1.ko" >>"$stage/modules/modules.order"
}
: >"$stage/modules/modules.order"
for m in virtio_pci virtio_blk loop xfs; do add "$m"; done

(cd "$stage" && find . | /bin/busybox cpio -o -H newc 2>/dev/null) | gzip -1 >"$out"
