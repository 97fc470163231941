#!/bin/sh
# locate.sh NAME PACKAGE-ERE: prints "VMLINUZ MODULES-DIR" of the kernel,
# installed (/boot, /lib/modules) or fetched into build/kernels/NAME/root;
# fails with the reason on stderr when it is neither.
set -u
name=$1 pattern=$2
B=${B:-build}
# The release inside the package name: linux-image-RELEASE[-unsigned].
rel=$(echo "$pattern" | sed -e 's/^linux-image-//' -e 's/-unsigned$//')
for root in "" "$B/kernels/$name/root"; do
	for v in $(ls "$root/boot" 2>/dev/null | sed -n 's/^vmlinuz-//p' | grep -xE "$rel" | sort -V -r); do
		if [ -d "$root/lib/modules/$v/kernel" ]; then
			echo "$root/boot/vmlinuz-$v $root/lib/modules/$v"
			exit 0
		fi
	done
done
echo "no kernel matching $rel in /boot or $B/kernels/$name (make check-kernels fetches it)" >&2
exit 1
